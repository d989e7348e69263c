"""Retry policy of every Celery task that touches the database (issue 15).

A deadlock, a serialization failure or a lost connection (`OperationalError`, `InterfaceError`) rolls the
task's transaction back; the task is then retried with exponential backoff (2, 4, 8 ... s, jittered,
at most 60 s apart, 5 times) instead of waiting for the periodic reconciler. Every task is idempotent,
so a retry is safe. Use as `@shared_task(..., **DATABASE_RETRY)`.
"""

from __future__ import annotations

from typing import Any

from django.db import InterfaceError, OperationalError

DATABASE_RETRY: dict[str, Any] = {
    "autoretry_for": (OperationalError, InterfaceError),
    "retry_backoff": 2,
    "retry_backoff_max": 60,
    "retry_jitter": True,
    "max_retries": 5,
}
