"""Celery tasks. Each takes ids, calls one service, is safe to run twice, and has time limits.

`standings_recompute` runs with acks_late (settings): a worker killed mid-run leaves the message
unacknowledged, the broker redelivers it, and the service's single transaction guarantees the rows
are either the old ones or a complete fresh computation.
"""

from __future__ import annotations

from celery import shared_task

from tournaments.services.standings import (
    standings_are_stale,
    standings_request_claim,
    standings_request_release,
    standings_stale_tournament_ids,
)
from tournaments.services.standings import standings_recompute as standings_recompute_service
from tournaments.task_retries import DATABASE_RETRY


@shared_task(name="tournaments.tasks.standings_recompute", acks_late=True, reject_on_worker_lost=True,
             soft_time_limit=120, time_limit=180, **DATABASE_RETRY)
def standings_recompute(tournament_id: int) -> int | None:
    """Recompute when stale, then, after the pending flag is released, again while results arrived that
    the run could not see and nobody else claimed (coalescing: services/standings.py)."""
    tournament_id = int(tournament_id)
    while True:
        version = standings_recompute_service(tournament_id=tournament_id, only_if_stale=True)
        released = standings_request_release(tournament_id)  # also on the service's commit; here for eager runs
        if version is None or not standings_are_stale(tournament_id):
            return version
        if released and not standings_request_claim(tournament_id):
            return version  # a newer request claimed the flag and enqueued its own run
        # (the release was not confirmed: the flag may still stand for this run, so run again)


@shared_task(name="tournaments.tasks.standings_reconcile", acks_late=True, soft_time_limit=60, time_limit=90,
             **DATABASE_RETRY)
def standings_reconcile() -> list[int]:
    """Enqueue a recomputation for every tournament whose standings are behind its results."""
    stale = standings_stale_tournament_ids()
    for tournament_id in stale:
        standings_recompute.delay(tournament_id)
    return stale


@shared_task(name="tournaments.tasks.outbox_flush", acks_late=True, soft_time_limit=60, time_limit=90,
             **DATABASE_RETRY)
def outbox_flush() -> int:
    """Periodic (celery beat, TASK_OUTBOX_FLUSH_SECONDS): send the tasks kept while the broker was down."""
    from tournaments.task_outbox import outbox_flush as flush

    return flush()


@shared_task(name="tournaments.tasks.notification_send", acks_late=True, soft_time_limit=120, time_limit=180,
             **{**DATABASE_RETRY, "autoretry_for": (OSError, *DATABASE_RETRY["autoretry_for"])})
def notification_send(event: str, object_id: int) -> int:
    """Send the e-mails of one event (tournaments.notifications); each address at most once."""
    from tournaments.notifications import notification_send_event

    return notification_send_event(event=str(event), object_id=int(object_id))


@shared_task(name="tournaments.tasks.registration_email_send", acks_late=True, soft_time_limit=120, time_limit=180,
             **{**DATABASE_RETRY, "autoretry_for": (OSError, *DATABASE_RETRY["autoretry_for"])})
def registration_email_send(event: str, registration_id: int) -> int:
    """Send one e-mail of a sign-up (tournaments.registration.emails); at most once per address."""
    from tournaments.registration.emails import registration_email_send_event

    return registration_email_send_event(event=str(event), registration_id=int(registration_id))
