"""Whole tournaments with random results, played through the real services.

Used by `manage.py simulate_tournament`, `manage.py demo`, the tests and the benchmarks. Results are
reported with one entrant's private token and confirmed with an opponent's token, exactly as players
would; the standings task runs once per round (`standings_recompute.apply`, in-process).
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth import get_user_model
from django.db import transaction

from tournaments import services
from tournaments.errors import ErrorCode, TournamentError
from tournaments.models import Round, Table, Tournament
from tournaments.profiles import PLACING, GameProfile
from tournaments.services.results_final import standings_deferred


@dataclass
class SimulationReport:
    entrants: int = 0
    rounds: int = 0
    tables_per_round: list[int] = field(default_factory=list)
    rematches: list[int] = field(default_factory=list)
    byes: list[int] = field(default_factory=list)
    pairing_seconds: list[float] = field(default_factory=list)
    results_seconds: list[float] = field(default_factory=list)
    standings_seconds: list[float] = field(default_factory=list)
    warnings: list[int] = field(default_factory=list)

    def as_dict(self, **extra: Any) -> dict[str, Any]:
        return {
            **extra,
            "entrants": self.entrants,
            "rounds": self.rounds,
            "tables_per_round": self.tables_per_round,
            "rematches": sum(self.rematches),
            "rematches_per_round": self.rematches,
            "byes": self.byes,
            "pairing_seconds": self.pairing_seconds,
            "results_seconds": self.results_seconds,
            "standings_seconds": self.standings_seconds,
            "warnings": self.warnings,
        }


def simulation_organiser(username: str = "simulator") -> Any:
    user, _ = get_user_model().objects.get_or_create(username=username)
    return user


def random_result(profile: GameProfile, seated: list[int], rng: random.Random, *, decided: bool = False
                  ) -> dict[str, Any]:
    """A plausible random result for the seated entrants (mostly finished games, some at the time limit;
    `decided`: always a finished game, as a knockout needs)."""
    if profile.result_mode == PLACING:
        order = seated[:]
        rng.shuffle(order)
        return {"kind": "normal", "placings": {e: i + 1 for i, e in enumerate(order)}}
    if not decided and rng.random() < 0.1:
        return {"kind": "time_limit",
                "scores": {e: rng.randint(profile.score_min, profile.score_max - 1) for e in seated}}
    winner = rng.choice(seated)
    return {"kind": "normal", "scores": {
        e: profile.score_max if e == winner else rng.randint(profile.score_min, profile.score_max - 1) for e in seated
    }}


def table_play(table: Table, profile: GameProfile, rng: random.Random) -> None:
    """Report with the first entrant's token and confirm with the second's."""
    seats = list(table.seats.select_related("entrant").order_by("position"))
    seated = [s.entrant_id for s in seats]
    decided = table.round.stage == Round.Stage.KNOCKOUT
    result = services.result_report(table=table, token=seats[0].entrant.report_token,
                                    **random_result(profile, seated, rng, decided=decided))
    services.result_confirm(result=result, token=seats[1].entrant.report_token)


def round_pairing_figures(round_: Round) -> tuple[int, int, int]:
    """(tables, byes, rematches) of a saved round: rematches count pairs that met in earlier rounds."""
    tournament = round_.tournament
    earlier: set[frozenset[int]] = set()
    for table in Table.objects.filter(round__tournament=tournament, round__number__lt=round_.number,
                                      is_bye=False).prefetch_related("seats"):
        ids = [s.entrant_id for s in table.seats.all()]
        earlier.update(frozenset((a, b)) for i, a in enumerate(ids) for b in ids[i + 1:])
    tables = byes = rematches = 0
    for table in round_.tables.prefetch_related("seats"):
        if table.is_bye:
            byes += 1
            continue
        tables += 1
        ids = [s.entrant_id for s in table.seats.all()]
        rematches += sum(1 for i, a in enumerate(ids) for b in ids[i + 1:] if frozenset((a, b)) in earlier)
    return tables, byes, rematches


def round_play_bulk(round_: Round, profile: GameProfile, rng: random.Random, actor: Any) -> None:
    """Enter every table's result as the organiser (`result_override`), in one transaction for the
    whole round: how a club enters a round's sheets in one go, and a thousand entrants in seconds."""
    tables = list(round_.tables.filter(is_bye=False).select_related("round").prefetch_related("seats")
                  .order_by("number"))
    decided = round_.stage == Round.Stage.KNOCKOUT
    with transaction.atomic():
        for table in tables:
            seated = [s.entrant_id for s in sorted(table.seats.all(), key=lambda seat: seat.position)]
            services.result_override(actor=actor, table=table, **random_result(profile, seated, rng, decided=decided))


def tournament_simulate(
    *, tournament: Tournament, actor: Any, rounds: int | None, seed: int = 1, report: SimulationReport | None = None,
    bulk: bool = False,
) -> SimulationReport:
    """Play up to `rounds` rounds (all remaining when None) with random results through the services:
    reported and confirmed with the players' tokens, or with `bulk` entered by the organiser a round
    at a time (`round_play_bulk`)."""
    from tournaments.tasks import standings_recompute

    rng = random.Random(seed)
    profile = services.tournament_profile(tournament)
    report = report or SimulationReport()
    report.entrants = tournament.entrants.count()
    played = 0
    while rounds is None or played < rounds:
        started = time.perf_counter()
        try:
            round_ = services.round_generate(actor=actor, tournament=tournament)
        except TournamentError as exc:
            if exc.code == ErrorCode.ROUNDS_COMPLETE:
                break
            raise
        report.pairing_seconds.append(round(time.perf_counter() - started, 4))
        tables, byes, rematches = round_pairing_figures(round_)
        report.tables_per_round.append(tables)
        report.byes.append(byes)
        report.rematches.append(rematches)
        report.warnings.append(len(round_.warnings))
        started = time.perf_counter()
        with standings_deferred(enqueue_at_exit=False):
            services.round_publish(actor=actor, round=round_)
            if bulk:
                round_play_bulk(round_, profile, rng, actor)
            else:
                for table in round_.tables.filter(is_bye=False).select_related("round").order_by("number"):
                    table_play(table, profile, rng)
        report.results_seconds.append(round(time.perf_counter() - started, 4))
        started = time.perf_counter()
        standings_recompute.apply(args=[tournament.pk])
        report.standings_seconds.append(round(time.perf_counter() - started, 4))
        played += 1
    report.rounds += played
    return report


def group_meetings(tournament: Tournament) -> dict[int, tuple[int, int]]:
    """Per group: the fewest and most times any two of its entrants shared a table in the group rounds."""
    members: dict[int, list[int]] = {}
    for entrant_id, group in tournament.entrants.values_list("pk", "group"):
        members.setdefault(group, []).append(entrant_id)
    met: dict[frozenset[int], int] = {}
    for table in Table.objects.filter(round__tournament=tournament, is_bye=False).exclude(
        round__stage=Round.Stage.KNOCKOUT
    ).prefetch_related("seats"):
        ids = [s.entrant_id for s in table.seats.all()]
        for i, first in enumerate(ids):
            for second in ids[i + 1:]:
                key = frozenset((first, second))
                met[key] = met.get(key, 0) + 1
    figures: dict[int, tuple[int, int]] = {}
    for group, ids in sorted(members.items()):
        counts = [met.get(frozenset((a, b)), 0) for i, a in enumerate(ids) for b in ids[i + 1:]]
        if counts:
            figures[group] = (min(counts), max(counts))
    return figures
