"""Celery tasks of the games app. Each takes an id, calls one service, is safe to run twice, has time limits.

Both run with acks_late: a worker killed mid-task leaves the message unacknowledged and the broker
redelivers it; `record_verify` is keyed by (record, engine version) and `import_batch_process` skips
the items already stored (unique (batch, index)), so a redelivery finishes the work without duplicates.
"""

from __future__ import annotations

from celery import shared_task
from celery.exceptions import SoftTimeLimitExceeded

from games import services
from tournaments.errors import TournamentError
from tournaments.task_retries import DATABASE_RETRY

VERIFY_SOFT_TIME_LIMIT = 60


@shared_task(name="games.tasks.record_verify", acks_late=True, reject_on_worker_lost=True,
             soft_time_limit=VERIFY_SOFT_TIME_LIMIT, time_limit=VERIFY_SOFT_TIME_LIMIT + 30,
             **DATABASE_RETRY)
def record_verify(record_id: int) -> str | None:
    try:
        record = services.record_verify(record_id=int(record_id))
    except TournamentError:
        return None  # the record was deleted meanwhile
    except SoftTimeLimitExceeded:
        timed_out = services.record_verify_timed_out(record_id=int(record_id), seconds=VERIFY_SOFT_TIME_LIMIT)
        return timed_out.status if timed_out is not None else None
    return record.status


@shared_task(name="games.tasks.import_batch_process", bind=True, acks_late=True, reject_on_worker_lost=True,
             soft_time_limit=1500, time_limit=1600, **DATABASE_RETRY)
def import_batch_process(self, batch_id: int) -> str | None:  # type: ignore[no-untyped-def]
    from games.models import ImportBatch

    try:
        batch = services.import_batch_process(batch_id=int(batch_id))
    except ImportBatch.DoesNotExist:
        return None
    except SoftTimeLimitExceeded:
        # every stored item is committed: continue in a fresh task rather than be killed
        import_batch_process.delay(batch_id)
        return "continued"
    return batch.status


@shared_task(name="games.tasks.records_reconcile", acks_late=True, soft_time_limit=60, time_limit=90,
             **DATABASE_RETRY)
def records_reconcile() -> dict[str, list[int]]:
    """Periodic (celery beat): re-enqueue records left pending and imports left queued by a lost message."""
    return services.records_reconcile()
