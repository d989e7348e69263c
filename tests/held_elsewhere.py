"""Rows held by another transaction while a test does something (the concurrency tests of issue 26)."""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator
from contextlib import contextmanager

from django.db import connection, transaction


@contextmanager
def held_elsewhere(take: Callable[[], object], *, seconds: float = 15.0) -> Iterator[threading.Event]:
    """Run `take` (which locks rows) in a transaction of a second connection, a thread's, and hold it
    until the block ends or `seconds` pass, whichever comes first; then commit. Yields the event set when
    the hold ends: `not released.is_set()` at the end of the block says the hold lasted through it."""
    holding, released, failure = threading.Event(), threading.Event(), []

    def hold() -> None:
        try:
            with transaction.atomic():
                take()
                holding.set()
                released.wait(timeout=seconds)
                released.set()
        except Exception as exc:  # noqa: BLE001 - raised in the test below
            failure.append(exc)
            holding.set()
        finally:
            connection.close()

    thread = threading.Thread(target=hold)
    thread.start()
    try:
        assert holding.wait(timeout=10) and not failure, failure
        yield released
    finally:
        released.set()
        thread.join(timeout=30)
