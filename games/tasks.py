"""Celery tasks of the games app. Each takes an id, calls one service, is safe to run twice, has time limits.

Both run with acks_late: a worker killed mid-task leaves the message unacknowledged and the broker
redelivers it; `record_verify` is keyed by (record, engine version) and `import_chunk_process` skips the
items already stored (unique (batch, index)) and the records already verified, so a redelivery finishes
the work without duplicates.
"""

from __future__ import annotations

from celery import shared_task
from celery.exceptions import SoftTimeLimitExceeded

from games import services, verify_burst
from tournaments.errors import TournamentError
from tournaments.task_retries import DATABASE_RETRY

VERIFY_SOFT_TIME_LIMIT = 60
IMPORT_CHUNK_SOFT_TIME_LIMIT = 600
IMPORT_CHUNK_WAIT_SECONDS = 30
IMPORT_CHUNK_MAX_WAITS = 20


@shared_task(name="games.tasks.record_verify", acks_late=True, reject_on_worker_lost=True,
             soft_time_limit=VERIFY_SOFT_TIME_LIMIT, time_limit=VERIFY_SOFT_TIME_LIMIT + 30,
             **DATABASE_RETRY)
def record_verify(record_id: int, tournament_id: int | None = None) -> str | None:
    """Verify the record, with the pending records of its tournament it can claim (`games.verify_burst`);
    `tournament_id` when the task was sent as the tournament's one (`verify_burst.wake`)."""
    try:
        return verify_burst.record_verify(record_id=int(record_id),
                                          tournament_id=None if tournament_id is None else int(tournament_id))
    except TournamentError:
        return None  # the record was deleted meanwhile
    except SoftTimeLimitExceeded:
        timed_out = services.record_verify_timed_out(record_id=int(record_id), seconds=VERIFY_SOFT_TIME_LIMIT)
        return timed_out.status if timed_out is not None else None


@shared_task(name="games.tasks.import_batch_process", acks_late=True, reject_on_worker_lost=True,
             soft_time_limit=60, time_limit=90, **DATABASE_RETRY)
def import_batch_process(batch_id: int) -> str | None:
    """Cut the batch into chunks and enqueue one task per chunk (`games.import_pipeline`), so that the
    chunks of one batch run on every worker at once."""
    from games import import_pipeline
    from games.models import ImportBatch

    try:
        chunks = import_pipeline.import_batch_start(batch_id=int(batch_id))
    except ImportBatch.DoesNotExist:
        return None
    for start, stop in chunks:
        import_chunk_process.delay(int(batch_id), start, stop)
    return f"{len(chunks)} chunks"


@shared_task(name="games.tasks.import_chunk_process", bind=True, acks_late=True, reject_on_worker_lost=True,
             soft_time_limit=IMPORT_CHUNK_SOFT_TIME_LIMIT, time_limit=IMPORT_CHUNK_SOFT_TIME_LIMIT + 60,
             **DATABASE_RETRY)
def import_chunk_process(self, batch_id: int, start: int, stop: int, waited: int = 0) -> str | None:  # type: ignore[no-untyped-def]
    """One chunk of a batch. It waits up to IMPORT_CHUNK_WAIT_SECONDS for an earlier chunk (running on
    another worker) to store or settle first; then it goes to the back of the queue, freeing the worker
    (the earlier chunk may be waiting in the queue behind it). After IMPORT_CHUNK_MAX_WAITS such turns, or
    run eagerly (chunks then run one after the other), it does not wait."""
    from games import import_pipeline
    from games.models import ImportBatch

    try:
        status = import_pipeline.import_chunk_process(
            batch_id=int(batch_id), start=int(start), stop=int(stop), wait_seconds=IMPORT_CHUNK_WAIT_SECONDS,
            in_order=int(waited) < IMPORT_CHUNK_MAX_WAITS and not self.request.is_eager,
        )
    except ImportBatch.DoesNotExist:
        return None
    except SoftTimeLimitExceeded:
        # every step commits what it did: continue in a fresh task rather than be killed
        import_chunk_process.delay(batch_id, start, stop, waited)
        return "continued"
    if status == import_pipeline.WAITING:
        import_chunk_process.delay(batch_id, start, stop, int(waited) + 1)
    return status


@shared_task(name="games.tasks.records_reconcile", acks_late=True, soft_time_limit=60, time_limit=90,
             **DATABASE_RETRY)
def records_reconcile() -> dict[str, list[int]]:
    """Periodic (celery beat): re-enqueue records left pending and imports left queued by a lost message."""
    return services.records_reconcile()
