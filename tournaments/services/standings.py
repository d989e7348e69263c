"""Recomputing standings: load final results, call the pure `tournaments.standings`, replace the rows.

Idempotent and safe after a crash: everything is computed and written in one transaction under the
tournament row lock, and the rows carry the results version they were computed from. A run killed
half-way rolls back and leaves the previous rows; running it again gives the same rows as a
computation from scratch.
"""

from __future__ import annotations

import logging
from collections import defaultdict
from collections.abc import Mapping
from dataclasses import dataclass

from django.conf import settings
from django.core.cache import cache
from django.db import transaction
from django.db.models import Max

from tournaments.models import Entrant, Result, ResultScore, Round, Seat, StandingRow, Tournament
from tournaments.pairing import PairingError
from tournaments.services.brackets import knockout_results, tournament_bracket
from tournaments.standings import GameLine, PlayedGame, compute_standings, final_ranking, placing_match_points
from tournaments.webhooks.events import webhook_emit


@dataclass(frozen=True)
class StandingOutcome:
    """One standings row as saved: the final place (`final_ranking`) and the tiebreak values."""

    entrant_id: int
    rank: int
    shared_rank: bool
    games_played: int
    values: Mapping[str, float]
    decided_by: str = final_ranking.STANDINGS
    group: int | None = None
    group_rank: int | None = None


def _played_games(tournament: Tournament) -> tuple[list[PlayedGame], set[int]]:
    """Every final game as the pure standings take it, and the keys (table ids) of knockout games."""
    points = [float(p) for p in tournament.placing_points] or [1.0, 0.0]
    lines_by_result: dict[int, list[ResultScore]] = {}
    results = {
        r.pk: r
        for r in Result.objects.filter(table__round__tournament=tournament, state__in=Result.FINAL_STATES)
        .select_related("table__round")
        .only("pk", "kind", "table__id", "table__is_bye", "table__round__stage")
    }
    for line in ResultScore.objects.filter(result_id__in=results).order_by("result_id", "entrant_id"):
        lines_by_result.setdefault(line.result_id, []).append(line)
    games: list[PlayedGame] = []
    knockout_keys = {r.table.pk for r in results.values() if r.table.round.stage == Round.Stage.KNOCKOUT}
    for result_id, result in sorted(results.items()):
        lines = lines_by_result.get(result_id, [])
        if result.kind == Result.Kind.BYE or result.table.is_bye:
            games.append(
                PlayedGame(
                    key=result.table.pk,
                    lines=tuple(
                        GameLine(entrant_id=line.entrant_id, placing=1, match_points=tournament.bye_points,
                                 score=float(line.score) if line.score is not None else None)
                        for line in lines
                    ),
                    max_points=points[0],
                    is_bye=True,
                    score_against_bye=float(tournament.bye_score_against),
                )
            )
            continue
        match_points = placing_match_points([line.placing or len(lines) for line in lines], points)
        games.append(
            PlayedGame(
                key=result.table.pk,
                lines=tuple(
                    GameLine(
                        entrant_id=line.entrant_id,
                        placing=line.placing or len(lines),
                        match_points=mp,
                        score=float(line.score) if line.score is not None else None,
                    )
                    for line, mp in zip(lines, match_points, strict=True)
                ),
                max_points=points[0],
            )
        )
    return games, knockout_keys


def standings_compute(tournament: Tournament) -> tuple[StandingOutcome, ...]:
    """The standings from the tournament's final results (reads only; no rows written).

    Rows are in final-ranking order (docs/formats.md): a knockout decides the places it plays for,
    entrants out before it follow in the order of the stage before, groups share places across
    groups, dropped entrants rank below those who played on (unless the organiser chose otherwise).
    A stages tournament's tiebreak values are those of the stage before the knockout.
    """
    order = tournament.tiebreak_order or ["match_points"]
    games, knockout_keys = _played_games(tournament)
    entrants = list(tournament.entrants.values_list("pk", "group", "status"))
    entrant_ids = [pk for pk, _group, _status in entrants]
    overall = {row.entrant_id: row for row in compute_standings(entrant_ids, games, order)}
    stage_games = [game for game in games if game.key not in knockout_keys]
    if tournament.format == Tournament.Format.STAGES:
        stage_rows = {row.entrant_id: row for row in compute_standings(entrant_ids, stage_games, order)}
    else:
        stage_rows = overall

    grouped = tournament.group_count > 1 and tournament.format in (
        Tournament.Format.ROUND_ROBIN, Tournament.Format.STAGES
    )
    group_of: dict[int, tuple[int, int]] = {}
    if grouped:
        members: dict[int, set[int]] = defaultdict(set)
        for pk, group, _status in entrants:
            members[group].add(pk)
        for group, ids in members.items():
            own = [game for game in stage_games if all(line.entrant_id in ids for line in game.lines)]
            for row in compute_standings(ids, own, order):
                group_of[row.entrant_id] = (group, row.rank)

    try:
        bracket = tournament_bracket(tournament)
    except PairingError:  # a seeding the bracket cannot be drawn from: rank by the standings alone
        bracket = None
    seed_position = {entrant_id: i for i, entrant_id in enumerate(bracket.seeding, 1)} if bracket else {}
    stage: list[final_ranking.StagePlace] = []
    for pk in entrant_ids:
        row = stage_rows[pk]
        if grouped:
            group_rank = group_of[pk][1]
            stage.append(final_ranking.StagePlace(pk, group_rank, final_ranking.group_place_key(row, group_rank, order)))
        elif tournament.format == Tournament.Format.KNOCKOUT and pk in seed_position:
            stage.append(final_ranking.StagePlace(pk, row.rank, (float(seed_position[pk]),)))
        else:
            stage.append(final_ranking.StagePlace(pk, row.rank, (float(row.rank),)))
    knockout = final_ranking.bracket_places(bracket, knockout_results(tournament)) if bracket else None
    last_round = dict(
        Seat.objects.filter(round__tournament=tournament).values("entrant_id")
        .annotate(last=Max("round__number")).values_list("entrant_id", "last")
    )
    dropped = {pk for pk, _group, status in entrants if status == Entrant.Status.DROPPED}
    ranking = final_ranking.final_ranking(
        stage=stage, knockout=knockout, order_shared_by_standings=tournament.shared_places_by_standings,
        last_round=last_round, dropped=dropped, dropped_rank_last=tournament.dropped_rank_last,
    )
    return tuple(
        StandingOutcome(
            entrant_id=line.entrant_id, rank=line.rank, shared_rank=line.shared_rank,
            games_played=overall[line.entrant_id].games_played, values=stage_rows[line.entrant_id].values,
            decided_by=line.decided_by,
            group=group_of[line.entrant_id][0] if grouped else None,
            group_rank=group_of[line.entrant_id][1] if grouped else None,
        )
        for line in ranking
    )


def standings_recompute_locked(tournament: Tournament) -> int:
    """Recompute inside the caller's transaction, which holds the tournament row lock."""
    version = Tournament.objects.values_list("results_version", flat=True).get(pk=tournament.pk)
    rows = standings_compute(tournament)
    StandingRow.objects.filter(tournament=tournament).delete()
    StandingRow.objects.bulk_create(
        StandingRow(
            tournament=tournament, entrant_id=row.entrant_id, rank=row.rank, shared_rank=row.shared_rank,
            games_played=row.games_played, values=dict(row.values), results_version=version,
            decided_by=row.decided_by, group=row.group, group_rank=row.group_rank,
        )
        for row in rows
    )
    Tournament.objects.filter(pk=tournament.pk).update(standings_version=version)
    webhook_emit("standings.changed", tournament=tournament, data={"standings_version": version})
    tournament.standings_version = version
    tournament.results_version = version
    return version


@transaction.atomic
def standings_recompute(*, tournament_id: int, only_if_stale: bool = False) -> int | None:
    """Replace the tournament's standings rows by a fresh computation; returns the results version
    the rows now reflect (None if the tournament no longer exists). `only_if_stale`: do nothing when
    the rows already reflect the current results version (a request absorbed by an earlier run).
    Once committed, a pending request of the tournament is released (see `standings_request_claim`)."""
    tournament = Tournament.objects.select_for_update().filter(pk=tournament_id).first()
    if tournament is None:
        return None
    transaction.on_commit(lambda: standings_request_release(tournament_id))
    if only_if_stale and tournament.standings_version >= tournament.results_version:
        return tournament.standings_version
    return standings_recompute_locked(tournament)


# --- coalescing: one recomputation per tournament per burst of results ------------------------------
#
# A result asks for a recomputation on commit (`results_final._enqueue_standings`). It enqueues the task
# only if it can *claim* the tournament's pending flag (an atomic add in the shared cache); a claim that
# fails means a recomputation is queued or running and will read this result too: the result's commit
# happened before its claim, the flag is released only after a run commits, and the task checks
# the versions again after the release (`tournaments.tasks.standings_recompute`). So a burst of N
# results costs one or two recomputations, and the last one always reads every result (the rows equal
# a computation from scratch). The flag expires after PENDING_SECONDS so that a lost message delays a
# tournament's requests at most that long (the periodic reconciler enqueues without claiming).

PENDING_SECONDS = 120
logger = logging.getLogger(__name__)


def _pending_key(tournament_id: int) -> str:
    return f"standings:pending:{tournament_id}"


def standings_coalescing() -> bool:
    """Only with a cache every process shares (Redis), or eager tasks (one process)."""
    return bool(getattr(settings, "REDIS_URL", "")) or bool(getattr(settings, "CELERY_TASK_ALWAYS_EAGER", False))


def standings_request_claim(tournament_id: int) -> bool:
    """True when the caller must enqueue a recomputation; False when a queued or running one will
    include the caller's committed results. A cache that fails means True (enqueue; duplicates are cheap)."""
    if not standings_coalescing():
        return True
    try:
        return bool(cache.add(_pending_key(tournament_id), 1, PENDING_SECONDS))
    except Exception:
        logger.warning("standings coalescing: the cache is unavailable; enqueueing", exc_info=True)
        return True


def standings_request_release(tournament_id: int) -> None:
    if not standings_coalescing():
        return
    try:
        cache.delete(_pending_key(tournament_id))
    except Exception:
        logger.warning("standings coalescing: the cache is unavailable", exc_info=True)


def standings_are_stale(tournament_id: int) -> bool:
    from django.db.models import F

    return Tournament.objects.filter(pk=tournament_id, standings_version__lt=F("results_version")).exists()


def standings_stale_tournament_ids() -> list[int]:
    """Tournaments whose standings lag behind their results (for the periodic reconciler)."""
    from django.db.models import F

    return list(
        Tournament.objects.filter(standings_version__lt=F("results_version")).values_list("pk", flat=True)
    )
