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

from tournaments.models import Entrant, Result, ResultScore, Round, Seat, StandingRow, Tournament
from tournaments.pairing import PairingError, double_elimination
from tournaments.services.brackets import double_bracket, double_results, knockout_results, tournament_bracket
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
        .only("pk", "kind", "table__id", "table__is_bye", "table__round__stage", "table__round__number")
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
                    round=result.table.round.number,
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
                round=result.table.round.number,
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
    bye_rule = tournament.bye_tiebreak
    overall = {row.entrant_id: row for row in compute_standings(entrant_ids, games, order, bye_rule=bye_rule)}
    stage_games = [game for game in games if game.key not in knockout_keys]
    if tournament.format == Tournament.Format.STAGES:
        stage_rows = {
            row.entrant_id: row for row in compute_standings(entrant_ids, stage_games, order, bye_rule=bye_rule)
        }
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
            for row in compute_standings(ids, own, order, bye_rule=bye_rule):
                group_of[row.entrant_id] = (group, row.rank)

    comparable = (
        _comparable(group_of, stage_games, order) if grouped else {}
    )
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
            stage.append(
                final_ranking.StagePlace(pk, group_rank, final_ranking.group_place_key(comparable[pk], group_rank, order))
            )
        elif tournament.format == Tournament.Format.KNOCKOUT and pk in seed_position:
            stage.append(final_ranking.StagePlace(pk, row.rank, (float(seed_position[pk]),)))
        else:
            stage.append(final_ranking.StagePlace(pk, row.rank, (float(row.rank),)))
    knockout = final_ranking.bracket_places(bracket, knockout_results(tournament)) if bracket else None
    drawn = double_bracket(tournament) if bracket else None
    if drawn is not None:
        knockout = _double_places(tournament, drawn)
    # a table the entrant forfeited by leaving (closed by its own drop) is not a round it played on
    left_at = set(
        Result.objects.filter(
            table__round__tournament=tournament, state__in=Result.FINAL_STATES, closed_by_drop__isnull=False
        ).values_list("table_id", "closed_by_drop_id")
    )
    last_round: dict[int, int] = {}
    seated: set[int] = set()
    for entrant_id, table_id, number in Seat.objects.filter(round__tournament=tournament).values_list(
        "entrant_id", "table_id", "round__number"
    ):
        seated.add(entrant_id)
        if (table_id, entrant_id) not in left_at:
            last_round[entrant_id] = max(last_round.get(entrant_id, 0), number)
    # no-shows (never at a table nor given a bye) rank last, once anybody has been paired
    never_paired = {pk for pk in entrant_ids if pk not in seated} if seated else set()
    dropped = {pk for pk, _group, status in entrants if status == Entrant.Status.DROPPED}
    ranking = final_ranking.final_ranking(
        stage=stage, knockout=knockout, order_shared_by_standings=tournament.shared_places_by_standings,
        last_round=last_round, dropped=dropped, dropped_rank_last=tournament.dropped_rank_last,
        never_paired=never_paired,
    )
    return tuple(
        StandingOutcome(
            entrant_id=line.entrant_id, rank=line.rank, shared_rank=line.shared_rank,
            # games played and values of one stage (in a stage event: the stage before the knockout;
            # the knockout's games are on the bracket), so GP and Pts count the same games
            games_played=stage_rows[line.entrant_id].games_played, values=stage_rows[line.entrant_id].values,
            decided_by=line.decided_by,
            group=group_of[line.entrant_id][0] if grouped else None,
            group_rank=group_of[line.entrant_id][1] if grouped else None,
        )
        for line in ranking
    )


def _double_places(
    tournament: Tournament, drawn: tuple[double_elimination.DoubleBracket, list[int]]
) -> dict[int, final_ranking.Placed]:
    """Double elimination: the decided places; the entrants still in share the places left."""
    results, _keys = double_results(tournament, drawn)
    bracket, seeding = drawn
    decided = double_elimination.double_elimination_places(bracket, seeding, results)
    taken = {place for best, worst in decided.values() for place in range(best, worst + 1)}
    open_places = [place for place in range(1, len(seeding) + 1) if place not in taken]
    placed = {
        entrant: final_ranking.Placed(entrant, best, worst, final_ranking.KNOCKOUT)
        for entrant, (best, worst) in decided.items()
    }
    for entrant in seeding:
        if entrant not in placed:
            placed[entrant] = final_ranking.Placed(entrant, open_places[0], open_places[-1], final_ranking.KNOCKOUT)
    return placed


def _comparable(
    group_of: Mapping[int, tuple[int, int]], stage_games: list[PlayedGame], order: list[str]
) -> dict[int, final_ranking.StandingEntry]:
    groups: dict[int, list[int]] = defaultdict(list)
    for pk, (group, _rank) in sorted(group_of.items(), key=lambda item: (item[1][1], item[0])):
        groups[group].append(pk)
    return final_ranking.comparable_group_entries(groups, stage_games, order)


def cross_group_entries(tournament: Tournament) -> dict[int, final_ranking.StandingEntry]:
    """Every grouped entrant's values for the cross-group rule (byes left out, results against the
    teams below the smallest group's size left out: `final_ranking.comparable_group_entries`), from
    the saved group places."""
    order = tournament.tiebreak_order or ["match_points"]
    games, knockout_keys = _played_games(tournament)
    group_of = {
        entrant_id: (group, group_rank or 0)
        for entrant_id, group, group_rank in tournament.standing_rows.values_list("entrant_id", "group", "group_rank")
        if group is not None
    }
    return _comparable(group_of, [game for game in games if game.key not in knockout_keys], list(order))


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
    # FOR NO KEY UPDATE: serialised with every write of the tournament (`lock_tournament` takes the same lock
    # by its UPDATE) without holding up the inserts that merely refer to the row (an audit row, a scoresheet
    # entry's), whose foreign-key check takes KEY SHARE.
    tournament = Tournament.objects.select_for_update(no_key=True).filter(pk=tournament_id).first()
    if tournament is None:
        return None
    transaction.on_commit(lambda: standings_request_release(tournament_id))
    if only_if_stale and tournament.standings_version >= tournament.results_version:
        return tournament.standings_version
    return standings_recompute_locked(tournament)


# --- coalescing: one recomputation per tournament per burst of results ------------------------------
#
# A result asks for a recomputation on commit (`results_final._enqueue_standings`). It enqueues the task
# unless a queued or running recomputation will read its result too. The pending flag in the shared
# cache (`standings:pending:<id>`, an atomic add) holds the results version the claimant needs shown.
# A claim that finds the flag compares it with the standings version in the database: a flag at or
# below it is a leftover (a run committed but its release was lost: a Redis blip, a killed worker), so
# the caller takes it over and enqueues; a flag above it means a run that will read this result (the
# result committed before the claim, and the task checks the versions again after its run). A cache that
# fails, raises or swallows its error (django-redis with IGNORE_EXCEPTIONS answers None) means
# "enqueue": duplicates are cheap, a dropped request is stale standings. Correctness never rests on the
# flag's release: a run whose release failed keeps running while the standings are stale, and the
# periodic reconciler (`standings_reconcile`, no claim) catches whatever else is left.

PENDING_SECONDS = 120
logger = logging.getLogger(__name__)


def _pending_key(tournament_id: int) -> str:
    return f"standings:pending:{tournament_id}"


def standings_coalescing() -> bool:
    """Only with a cache every process shares (Redis), or eager tasks (one process)."""
    return bool(getattr(settings, "REDIS_URL", "")) or bool(getattr(settings, "CELERY_TASK_ALWAYS_EAGER", False))


def _versions(tournament_id: int) -> tuple[int, int] | None:
    """(results_version, standings_version) from the database, None when the tournament is gone."""
    row = Tournament.objects.filter(pk=tournament_id).values_list("results_version", "standings_version").first()
    return (int(row[0]), int(row[1])) if row else None


def standings_request_claim(tournament_id: int, version: int | None = None) -> bool:
    """True when the caller must enqueue a recomputation; False only when a queued or running one will
    include the caller's committed results. `version`: the results version the caller committed (read
    from the database when not given). A cache that fails (an exception, or None from a cache that
    swallows errors) means True."""
    if not standings_coalescing():
        return True
    key = _pending_key(tournament_id)
    try:
        if version is None:
            versions = _versions(tournament_id)
            if versions is None:
                return False
            version = versions[0]
        added = cache.add(key, version, PENDING_SECONDS)
        if added is None or added is True:
            if added is None:
                logger.warning("standings coalescing: the cache did not answer; enqueueing")
            return True
        claimed = cache.get(key)
        if claimed is None:  # failed, or expired meanwhile
            return True
        versions = _versions(tournament_id)
        if versions is None:
            return False
        if not isinstance(claimed, int) or claimed <= versions[1]:
            # A leftover: the run it stood for has committed (its release was lost). Take it over.
            cache.set(key, max(version, versions[0]), PENDING_SECONDS)
            return True
        return False
    except Exception:
        logger.warning("standings coalescing: the cache is unavailable; enqueueing", exc_info=True)
        return True


def standings_request_release(tournament_id: int) -> bool:
    """Drop the pending flag; False when the cache did not confirm it (the caller then keeps running
    while the standings are stale instead of trusting a flag that may still be there)."""
    if not standings_coalescing():
        return True
    try:
        return cache.delete(_pending_key(tournament_id)) is not None
    except Exception:
        logger.warning("standings coalescing: the cache is unavailable", exc_info=True)
        return False


def standings_are_stale(tournament_id: int) -> bool:
    from django.db.models import F

    return Tournament.objects.filter(pk=tournament_id, standings_version__lt=F("results_version")).exists()


def standings_stale_tournament_ids() -> list[int]:
    """Tournaments whose standings lag behind their results (for the periodic reconciler)."""
    from django.db.models import F

    return list(
        Tournament.objects.filter(standings_version__lt=F("results_version")).values_list("pk", flat=True)
    )
