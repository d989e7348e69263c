"""Incremental == from scratch: any sequence of corrections and overrides, each applied through the
real hook in results_final (on commit -> ratings_recompute from the table's round), leaves exactly the
events and ratings that a recomputation from scratch gives (float-exact). Also: results appearing
before already rated games (an earlier tournament reported late), a private tournament, the
reconciler."""

from __future__ import annotations

import datetime as dt
from typing import Any

import pytest
from django.db import transaction
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.rankings.conftest import (
    make_players,
    next_round,
    play_scores,
    played_tables,
    seated,
    tournament_with,
)
from tournaments import services
from tournaments.models import Table, Tournament
from tournaments.rankings.models import PlayerRating, RatedGame, RatingEvent
from tournaments.rankings.services import (
    rating_policy_update,
    ratings_out_of_date,
    ratings_rebuild,
    ratings_recompute,
)
from tournaments.rankings.tasks import ratings_reconcile

pytestmark = pytest.mark.django_db


def snapshot(pool: str = "tac") -> tuple[list[Any], list[Any], list[Any]]:
    games = list(RatedGame.objects.filter(pool=pool).order_by("key").values_list("key", "digest", "result_id"))
    events = list(RatingEvent.objects.filter(pool=pool).order_by("key", "player_id").values_list(
        "key", "player_id", "team_key", "rank", "mu_before", "sigma_before", "mu_after", "sigma_after"))
    ratings = list(PlayerRating.objects.filter(pool=pool).order_by("player_id").values_list(
        "player_id", "mu", "sigma", "conservative", "games", "last_played", "last_key"))
    return games, events, ratings


def _outcome(organiser: Any, table: Table, choice: int) -> None:
    home, away = seated(table)
    if choice == 0:
        play_scores(organiser, table, [8, 3])
    elif choice == 1:
        play_scores(organiser, table, [5, 8])
    elif choice == 2:
        play_scores(organiser, table, [6, 6], kind="time_limit")
    else:
        services.result_override(actor=organiser, table=table, kind="forfeit", forfeited=[away])


def _two_tournaments(organiser: Any, capture: Any) -> tuple[list[Table], list[Tournament]]:
    players = make_players(8)
    p = players
    # Created first but played later: the stream orders by date, not by id.
    later = tournament_with(organiser, [[p[0], p[2]], [p[1], p[3]], [p[4], p[6]], [p[5], p[7]]],
                            day=dt.date(2026, 3, 1), name="Later", rounds_planned=2)
    earlier = tournament_with(organiser, [[p[0], p[1]], [p[2], p[3]], [p[4], p[5]], [p[6], p[7]]],
                              day=dt.date(2026, 2, 1), name="Earlier", rounds_planned=2)
    tables: list[Table] = []
    for tournament in (later, earlier):  # the earlier tournament's results arrive last
        for _round in range(2):
            round_tables = played_tables(next_round(organiser, tournament))
            for index, table in enumerate(round_tables):
                with capture(execute=True):
                    _outcome(organiser, table, index % 2)
            tables.extend(round_tables)
    return tables, [later, earlier]


def test_results_arriving_out_of_order_equal_scratch(organiser: Any, django_capture_on_commit_callbacks: Any) -> None:
    _tables, _tournaments = _two_tournaments(organiser, django_capture_on_commit_callbacks)
    incremental = snapshot()
    assert len(incremental[0]) == 8 and incremental[0] == sorted(incremental[0])
    assert ratings_out_of_date() == []
    ratings_rebuild(pool="tac")
    assert snapshot() == incremental


def test_corrections_applied_incrementally_equal_scratch(organiser: Any,
                                                         django_capture_on_commit_callbacks: Any) -> None:
    tables, tournaments = _two_tournaments(organiser, django_capture_on_commit_callbacks)

    @settings(max_examples=20, deadline=None, suppress_health_check=list(HealthCheck))
    @given(st.lists(st.one_of(
        st.tuples(st.just("result"), st.integers(0, len(tables) - 1), st.integers(0, 3)),
        st.tuples(st.just("policy"), st.integers(0, 1), st.sampled_from(["ignore", "rank_by_marbles"])),
    ), min_size=1, max_size=6))
    def run(operations: list[tuple[str, int, Any]]) -> None:
        with transaction.atomic():
            for kind, index, value in operations:
                with django_capture_on_commit_callbacks(execute=True):
                    if kind == "result":
                        _outcome(organiser, tables[index], value)
                    else:
                        rating_policy_update(actor=organiser, tournament=tournaments[index], time_limit_games=value)
            incremental = snapshot()
            assert ratings_recompute(pool="tac").from_key is None
            ratings_rebuild(pool="tac")
            assert snapshot() == incremental
            transaction.set_rollback(True)

    run()


def test_private_tournaments_are_not_rated_and_reconciler_catches_up(
        organiser: Any, django_capture_on_commit_callbacks: Any) -> None:
    _tables, tournaments = _two_tournaments(organiser, django_capture_on_commit_callbacks)
    before = snapshot()
    # Made private behind the services' back (no hook fires): the reconciler finds the difference.
    Tournament.objects.filter(pk=tournaments[1].pk).update(is_public=False)
    stale = ratings_out_of_date()
    assert [pool for pool, _key in stale] == ["tac"]
    assert stale[0][1].startswith("2026-02-01/")
    ratings_reconcile()  # eager: enqueues and runs ratings_recompute from the difference
    games, _events, _ratings = snapshot()
    assert len(games) == 4 and all(key.startswith("2026-03-01/") for key, _d, _r in games)
    assert games != before[0]
    assert ratings_out_of_date() == []
    ratings_rebuild(pool="tac")
    assert snapshot()[0] == games
