"""Work submitted while the broker is down is sent when it returns, within seconds (issue 29).

Every task a write asks for on commit goes through `publish`: a task the broker did not take (RabbitMQ
down, unreachable, its vhost gone) is stored in `TaskOutbox` (one row per task and arguments) instead
of waiting for a reconciler's next pass (up to `RECORDS_RECONCILE_AGE_SECONDS` plus the beat interval).
`outbox_flush` sends the stored tasks and deletes them, oldest first; it runs

- from celery beat every `TASK_OUTBOX_FLUSH_SECONDS` (5 s): beat's own message is published as soon as
  the broker is back, and the worker that takes it sends the rest;
- in a process that stored a task, after its next successful publication (the broker is back).

Rows are claimed `FOR UPDATE SKIP LOCKED`, so several flushers never send a row twice at once; a task
sent twice anyway (a flusher killed between sending and deleting) is harmless, every task is
idempotent. With eager tasks (no broker) nothing is stored: the task ran, or its error was logged.
"""

from __future__ import annotations

import hashlib
import json
import logging
import threading
from typing import Any

from celery import current_app
from django.db import DatabaseError, transaction

logger = logging.getLogger("tournaments.dependencies")

_stored = threading.Event()  # this process stored a task since its last flush


def _key(task: str, args: list[Any]) -> str:
    return hashlib.sha256(json.dumps([task, args], sort_keys=True, default=str).encode()).hexdigest()


def outbox_store(task: str, args: list[Any]) -> bool:
    """Keep a task to send later; False when the database refused too (the reconcilers catch up)."""
    from tournaments.models import TaskOutbox

    try:
        TaskOutbox.objects.bulk_create([TaskOutbox(task=task, args=args, key=_key(task, args))],
                                       ignore_conflicts=True)
    except DatabaseError:
        logger.exception("Could not store task %s%s in the outbox", task, tuple(args))
        return False
    _stored.set()
    return True


def publish(task: Any, *args: Any) -> bool:
    """`task.delay(*args)`; a broker that does not take it -> the outbox. True when sent now."""
    try:
        task.delay(*args)
    except Exception:
        if current_app.conf.task_always_eager:  # the task ran here and failed: nothing to send later
            logger.exception("Task %s%s failed", task.name, args)
            return False
        logger.warning("Could not publish %s%s (broker down?); kept in the outbox", task.name, args,
                       exc_info=True)
        if not outbox_store(task.name, list(args)):
            raise
        return False
    if _stored.is_set():
        _stored.clear()
        try:
            outbox_flush()
        except Exception:  # noqa: BLE001 - beat's flush takes over
            _stored.set()
            logger.warning("Could not flush the task outbox", exc_info=True)
    return True


def outbox_flush(limit: int = 500) -> int:
    """Send the stored tasks, oldest first; stops at the first one the broker refuses. Returns how many
    were sent."""
    from tournaments.models import TaskOutbox

    sent: list[int] = []
    with transaction.atomic():
        rows = list(TaskOutbox.objects.select_for_update(skip_locked=True).order_by("pk")[:limit])
        for row in rows:
            task = current_app.tasks.get(row.task)
            try:
                if task is not None:
                    task.apply_async(args=list(row.args))
                else:
                    current_app.send_task(row.task, args=list(row.args))
            except Exception:
                logger.warning("The broker still refuses tasks; %s left in the outbox", len(rows) - len(sent))
                _stored.set()
                break
            sent.append(row.pk)
        if sent:
            TaskOutbox.objects.filter(pk__in=sent).delete()
    if sent:
        logger.info("Sent %s task(s) from the outbox", len(sent))
    return len(sent)
