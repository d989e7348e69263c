"""Celery tasks of the games app. Each takes an id, calls one service, is safe to run twice, has time limits.

Both run with acks_late: a worker killed mid-task leaves the message unacknowledged and the broker
redelivers it; `record_verify` is keyed by (record, engine version) and `import_chunk_process` skips
the items already stored (unique (batch, index)) and the records already verified, so a redelivery
finishes the work without duplicates.
"""

from __future__ import annotations

from celery import shared_task
from celery.exceptions import SoftTimeLimitExceeded

from games import services
from tournaments.errors import TournamentError
from tournaments.task_retries import DATABASE_RETRY

VERIFY_SOFT_TIME_LIMIT = 60
IMPORT_CHUNK_SOFT_TIME_LIMIT = 600


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
             soft_time_limit=IMPORT_CHUNK_SOFT_TIME_LIMIT, time_limit=IMPORT_CHUNK_SOFT_TIME_LIMIT + 60,
             **DATABASE_RETRY)
def import_batch_process(batch_id: int) -> str | None:
    """Split the batch into chunks (`games.import_pipeline`) and enqueue one task per chunk, so that the
    chunks of one batch run on every worker at once; a batch of one chunk is processed here."""
    from games import import_pipeline
    from games.models import ImportBatch

    try:
        chunks = import_pipeline.import_batch_start(batch_id=int(batch_id))
    except ImportBatch.DoesNotExist:
        return None
    if len(chunks) == 1:
        return import_chunk_process(int(batch_id), *chunks[0])
    for start, stop in chunks:
        import_chunk_process.delay(int(batch_id), start, stop)
    return f"{len(chunks)} chunks"


@shared_task(name="games.tasks.import_chunk_process", acks_late=True, reject_on_worker_lost=True,
             soft_time_limit=IMPORT_CHUNK_SOFT_TIME_LIMIT, time_limit=IMPORT_CHUNK_SOFT_TIME_LIMIT + 60,
             **DATABASE_RETRY)
def import_chunk_process(batch_id: int, start: int, stop: int) -> str | None:
    from games import import_pipeline
    from games.models import ImportBatch

    try:
        batch = import_pipeline.import_chunk_process(batch_id=int(batch_id), start=int(start), stop=int(stop))
    except ImportBatch.DoesNotExist:
        return None
    except SoftTimeLimitExceeded:
        # every step commits what it did: continue in a fresh task rather than be killed
        import_chunk_process.delay(batch_id, start, stop)
        return "continued"
    return batch.status


@shared_task(name="games.tasks.records_reconcile", acks_late=True, soft_time_limit=60, time_limit=90,
             **DATABASE_RETRY)
def records_reconcile() -> dict[str, list[int]]:
    """Periodic (celery beat): re-enqueue records left pending and imports left queued by a lost message."""
    return services.records_reconcile()
