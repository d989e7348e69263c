"""Celery tasks of the webhooks: take ids, call one service, safe to run twice, time limits.

Retries are explicit rather than Celery's `autoretry_for`: an attempt that gets no 2xx answer is logged,
and the next one is scheduled with `apply_async(countdown=retry_delay(n))` (exponential backoff; the
delivery's `next_attempt_at` says when). `webhook_reconcile` (celery beat) re-enqueues a delivery
whose scheduled attempt is more than a minute late (a lost message, a worker restarted)."""

from __future__ import annotations

from typing import Any

from celery import shared_task

from tournaments.task_retries import DATABASE_RETRY
from tournaments.webhooks import services


@shared_task(name="tournaments.webhooks.tasks.webhook_fanout", acks_late=True, soft_time_limit=60, time_limit=90,
             **DATABASE_RETRY)
def webhook_fanout(tournament_id: int, envelope: dict[str, Any]) -> list[int]:
    ids = services.webhook_fanout(tournament_id=int(tournament_id), envelope=dict(envelope))
    for delivery_id in ids:
        webhook_deliver.delay(delivery_id)
    return ids


@shared_task(name="tournaments.webhooks.tasks.webhook_deliver", acks_late=True, soft_time_limit=60,
             time_limit=90, **DATABASE_RETRY)
def webhook_deliver(delivery_id: int) -> str | None:
    outcome = services.webhook_attempt(delivery_id=int(delivery_id))
    if outcome is None:
        return None
    if outcome.retry_in is not None:
        webhook_deliver.apply_async((int(delivery_id),), countdown=outcome.retry_in)
    return outcome.state


@shared_task(name="tournaments.webhooks.tasks.webhook_reconcile", acks_late=True, soft_time_limit=60,
             time_limit=90, **DATABASE_RETRY)
def webhook_reconcile() -> list[int]:
    due = services.deliveries_due()
    for delivery_id in due:
        webhook_deliver.delay(delivery_id)
    return due
