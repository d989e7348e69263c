"""What happens whenever a table's final result appears or changes (called under the tournament lock)."""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Iterator
from contextvars import ContextVar

from django.db import transaction
from django.db.models import F

from tournaments.models import Result, Round, Tournament

logger = logging.getLogger(__name__)

# When set, standings tasks are collected instead of enqueued (bulk work recomputes once at the end).
_deferred: ContextVar[set[int] | None] = ContextVar("standings_deferred", default=None)


@contextlib.contextmanager
def standings_deferred(*, enqueue_at_exit: bool = True) -> Iterator[set[int]]:
    """Collect the standings recomputations requested inside the block; enqueue each tournament once
    at the end (or not at all with enqueue_at_exit=False, when the caller recomputes itself)."""
    collected: set[int] = set()
    token = _deferred.set(collected)
    try:
        yield collected
    finally:
        _deferred.reset(token)
    if enqueue_at_exit:
        for tournament_id in sorted(collected):
            _enqueue_standings(tournament_id)


def result_finalised(*, tournament: Tournament, round_: Round) -> None:
    """Bump the tournament's results version, close the round when every table is final, and
    enqueue the standings task once the transaction commits."""
    Tournament.objects.filter(pk=tournament.pk).update(results_version=F("results_version") + 1)
    tournament.refresh_from_db(fields=["results_version"])
    if round_.status == Round.Status.PUBLISHED:
        open_tables = round_.tables.exclude(results__state__in=Result.FINAL_STATES).exists()
        if not open_tables:
            round_.status = Round.Status.FINISHED
            round_.save(update_fields=["status"])
    tournament_id, version = tournament.pk, tournament.results_version
    transaction.on_commit(lambda: _enqueue_standings(tournament_id, version))
    from tournaments.rankings.services import ratings_result_changed  # the rankings app (issue 9)

    ratings_result_changed(tournament=tournament, round_=round_)


def standings_invalidated(*, tournament: Tournament) -> None:
    """The standings must be recomputed although no result changed (e.g. new points or tiebreaks)."""
    Tournament.objects.filter(pk=tournament.pk).update(results_version=F("results_version") + 1)
    tournament.refresh_from_db(fields=["results_version"])
    tournament_id, version = tournament.pk, tournament.results_version
    transaction.on_commit(lambda: _enqueue_standings(tournament_id, version))


def _enqueue_standings(tournament_id: int, version: int | None = None) -> None:
    deferred = _deferred.get()
    if deferred is not None:
        deferred.add(tournament_id)
        return
    from tournaments.services.standings import standings_request_claim, standings_request_release
    from tournaments.tasks import standings_recompute

    if not standings_request_claim(tournament_id, version):
        return  # a recomputation already queued or running will include this result (coalescing)
    from tournaments.task_outbox import publish

    try:
        # The broker down: the task waits in the outbox (sent within seconds of the broker's return) and
        # the pending flag stays, standing for that run, which will read every later result too.
        publish(standings_recompute, tournament_id)
    except Exception:  # neither the broker nor the database took it: the periodic reconciler catches up
        standings_request_release(tournament_id)
        logger.exception("Could not enqueue standings_recompute(%s)", tournament_id)
