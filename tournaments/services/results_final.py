"""What happens whenever a table's final result appears or changes (called under the tournament lock)."""

from __future__ import annotations

import logging

from django.db import transaction
from django.db.models import F

from tournaments.models import Result, Round, Tournament

logger = logging.getLogger(__name__)


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
    tournament_id = tournament.pk
    transaction.on_commit(lambda: _enqueue_standings(tournament_id))


def _enqueue_standings(tournament_id: int) -> None:
    from tournaments.tasks import standings_recompute

    try:
        standings_recompute.delay(tournament_id)
    except Exception:  # the broker is down: the periodic reconciler will catch up
        logger.exception("Could not enqueue standings_recompute(%s)", tournament_id)
