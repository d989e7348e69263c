"""Celery tasks of the games app. Each takes an id, calls one service, is safe to run twice, has time limits.

Both run with acks_late: a worker killed mid-task leaves the message unacknowledged and the broker
redelivers it; `record_verify` is keyed by (record, engine version), `import_batch_process` skips the
items already stored (unique (batch, index)) and `import_chunk_process` the records already verified,
so a redelivery finishes the work without duplicates.
"""

from __future__ import annotations

from celery import shared_task
from celery.exceptions import SoftTimeLimitExceeded

from games import services
from tournaments.errors import TournamentError
from tournaments.task_retries import DATABASE_RETRY

VERIFY_SOFT_TIME_LIMIT = 60
IMPORT_SOFT_TIME_LIMIT = 600


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


@shared_task(name="games.tasks.import_batch_process", acks_late=True, reject_on_worker_lost=True,
             soft_time_limit=IMPORT_SOFT_TIME_LIMIT, time_limit=IMPORT_SOFT_TIME_LIMIT + 60, **DATABASE_RETRY)
def import_batch_process(batch_id: int) -> str | None:
    """Store the batch's items, then enqueue one task per chunk of records to verify and settle, so that
    one batch keeps every worker busy (`games.import_pipeline`); a batch of one chunk is finished here."""
    from games import import_pipeline
    from games.models import ImportBatch

    try:
        chunks = import_pipeline.import_batch_start(batch_id=int(batch_id))
    except ImportBatch.DoesNotExist:
        return None
    except SoftTimeLimitExceeded:
        # every stored slice is committed: continue in a fresh task rather than be killed
        import_batch_process.delay(batch_id)
        return "continued"
    if len(chunks) == 1:
        return import_chunk_process(int(batch_id), chunks[0])
    for record_ids in chunks:
        import_chunk_process.delay(int(batch_id), record_ids)
    return f"{len(chunks)} chunks"


@shared_task(name="games.tasks.import_chunk_process", acks_late=True, reject_on_worker_lost=True,
             soft_time_limit=IMPORT_SOFT_TIME_LIMIT, time_limit=IMPORT_SOFT_TIME_LIMIT + 60, **DATABASE_RETRY)
def import_chunk_process(batch_id: int, record_ids: list[int]) -> str | None:
    from games import import_pipeline
    from games.models import ImportBatch

    try:
        batch = import_pipeline.import_chunk_process(batch_id=int(batch_id), record_ids=[int(i) for i in record_ids])
    except ImportBatch.DoesNotExist:
        return None
    except SoftTimeLimitExceeded:
        # the verdicts are stored under one lock at the end: nothing half done; start the chunk afresh
        import_chunk_process.delay(batch_id, record_ids)
        return "continued"
    return batch.status


@shared_task(name="games.tasks.records_reconcile", acks_late=True, soft_time_limit=60, time_limit=90,
             **DATABASE_RETRY)
def records_reconcile() -> dict[str, list[int]]:
    """Periodic (celery beat): re-enqueue records left pending and imports left queued by a lost message."""
    return services.records_reconcile()
