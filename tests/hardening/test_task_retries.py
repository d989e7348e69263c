"""Every task that touches the database retries with backoff on OperationalError (issue 15)."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import InterfaceError, OperationalError

from config.celery import app


def our_tasks() -> list[Any]:
    app.loader.import_default_modules()
    return [task for name, task in sorted(app.tasks.items()) if name.startswith(("tournaments.", "games."))]


def test_every_task_retries_on_database_errors() -> None:
    tasks = our_tasks()
    assert len(tasks) >= 7
    for task in tasks:
        assert OperationalError in task.autoretry_for and InterfaceError in task.autoretry_for, task.name
        assert task.retry_backoff and task.max_retries and task.max_retries >= 3, task.name


def test_ratings_recompute_survives_a_deadlock(db: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    from tournaments.rankings import tasks
    from tournaments.rankings.services import RecomputeOutcome

    calls: list[str] = []

    def deadlock_once(*, pool: str, from_key: str) -> RecomputeOutcome:
        calls.append(pool)
        if len(calls) == 1:
            raise OperationalError("deadlock detected")
        return RecomputeOutcome(pool=pool, from_key=None, games_replayed=3, games_deleted=0)

    monkeypatch.setattr(tasks, "ratings_recompute_service", deadlock_once)
    result = tasks.ratings_recompute.apply(args=["tac", ""], throw=False)
    assert result.get() == 3
    assert calls == ["tac", "tac"]  # retried (at once here; with backoff on a worker)
