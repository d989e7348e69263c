"""Run in a subprocess by benchmarks/ratings.py on a throw-away SQLite database: the rankings services
on real rows. 5 TAKI tournaments (64 players, 4 seats, 4 rounds: 320 games, 1,280 rating events),
results through `result_override` with the hook disabled so the ratings are timed apart:
appending each round as it is played, a correction in the first round (a replay of everything), a
from-scratch rebuild, and the reconciler's comparison."""

from __future__ import annotations

import datetime as dt
import json
import os
import random
import time

import django

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
django.setup()

from django.contrib.auth import get_user_model  # noqa: E402

from tournaments import services  # noqa: E402
from tournaments.models import Player  # noqa: E402
from tournaments.rankings import services as rankings  # noqa: E402
from tournaments.rankings.services import ratings_out_of_date, ratings_rebuild, ratings_recompute  # noqa: E402
from tournaments.rankings.stream import round_prefix  # noqa: E402

TOURNAMENTS, PLAYERS, ROUNDS = 5, 64, 4


def main() -> None:
    rankings.ratings_enqueue = lambda **kwargs: None  # type: ignore[assignment]  # time the ratings apart
    rng = random.Random(3)
    organiser = get_user_model().objects.create_user("bench")
    players = [Player.objects.create(name=f"B{i:03d}") for i in range(PLAYERS)]
    append_seconds = 0.0
    appended = 0
    first_table = None
    for t in range(TOURNAMENTS):
        tournament = services.tournament_create(actor=organiser, name=f"Bench {t}", game="taki",
                                                variant={"seats": 4}, rounds_planned=ROUNDS,
                                                starts_on=dt.date(2026, 1, 1) + dt.timedelta(days=7 * t))
        for i, player in enumerate(players):
            services.entrant_register(actor=organiser, tournament=tournament, name=f"E{i}", player_ids=[player.pk])
        for _round in range(ROUNDS):
            round_ = services.round_publish(actor=organiser, round=services.round_generate(
                actor=organiser, tournament=tournament))
            for table in round_.tables.filter(is_bye=False).order_by("number"):
                seated = list(table.seats.order_by("position").values_list("entrant_id", flat=True))
                order = list(range(1, len(seated) + 1))
                rng.shuffle(order)
                services.result_override(actor=organiser, table=table, placings=dict(zip(seated, order, strict=True)))
                first_table = first_table or table
            started = time.perf_counter()
            appended += ratings_recompute(pool="taki", from_key=round_prefix(tournament, round_.number)).games_replayed
            append_seconds += time.perf_counter() - started
    assert first_table is not None
    seated = list(first_table.seats.order_by("position").values_list("entrant_id", flat=True))
    services.result_override(actor=organiser, table=first_table,
                             placings=dict(zip(seated, range(len(seated), 0, -1), strict=True)))
    started = time.perf_counter()
    corrected = ratings_recompute(pool="taki", from_key=round_prefix(first_table.round.tournament, 1))
    correction_seconds = time.perf_counter() - started
    started = time.perf_counter()
    rebuilt = ratings_rebuild(pool="taki")
    rebuild_seconds = time.perf_counter() - started
    started = time.perf_counter()
    assert ratings_out_of_date() == []
    check_seconds = time.perf_counter() - started
    print(json.dumps({
        "games": rebuilt.games_replayed,
        "append_ms_per_round_of_16_games": round(1000 * append_seconds / (TOURNAMENTS * ROUNDS), 1),
        "appended_games": appended,
        "correction_in_first_round_replays": corrected.games_replayed,
        "correction_seconds": round(correction_seconds, 3),
        "rebuild_from_scratch_seconds": round(rebuild_seconds, 3),
        "reconcile_check_seconds": round(check_seconds, 3),
    }))


if __name__ == "__main__":
    main()
