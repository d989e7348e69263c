"""The task outbox (issue 29): a task the broker refuses is kept in the database, once per task and
arguments, and sent by the next flush; the records reconciler's age is a setting."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from kombu.exceptions import OperationalError as BrokerDown

from tournaments import tasks
from tournaments.models import TaskOutbox
from tournaments.task_outbox import outbox_flush, publish

pytestmark = pytest.mark.django_db


@pytest.fixture
def broker(monkeypatch: pytest.MonkeyPatch, settings: Any) -> dict[str, Any]:
    from config.celery import app

    monkeypatch.setattr(app.conf, "task_always_eager", False)
    state: dict[str, Any] = {"down": True, "sent": []}

    def delay(*args: Any) -> None:
        if state["down"]:
            raise BrokerDown("[Errno 111] Connection refused")
        state["sent"].append(args)

    def apply_async(args: Any = (), **kwargs: Any) -> None:
        delay(*args)

    monkeypatch.setattr(tasks.standings_recompute, "delay", delay)
    monkeypatch.setattr(tasks.standings_recompute, "apply_async", apply_async)
    return state


def test_a_refused_task_is_kept_once_and_sent_when_the_broker_is_back(broker: dict[str, Any]) -> None:
    assert publish(tasks.standings_recompute, 7) is False
    assert publish(tasks.standings_recompute, 7) is False  # the same work: one row
    assert publish(tasks.standings_recompute, 8) is False
    assert list(TaskOutbox.objects.values_list("task", "args")) == [
        ("tournaments.tasks.standings_recompute", [7]), ("tournaments.tasks.standings_recompute", [8])]
    assert outbox_flush() == 0  # still down: nothing lost
    assert TaskOutbox.objects.count() == 2
    broker["down"] = False
    assert publish(tasks.standings_recompute, 9) is True  # the first success flushes what this process kept
    assert broker["sent"] == [(9,), (7,), (8,)]
    assert not TaskOutbox.objects.exists()


def test_beats_flush_sends_what_other_processes_kept(broker: dict[str, Any]) -> None:
    TaskOutbox.objects.create(task="tournaments.tasks.standings_recompute", args=[3], key="k3")
    broker["down"] = False
    assert tasks.outbox_flush() == 1
    assert broker["sent"] == [(3,)]


def test_the_records_reconcile_age_is_a_setting(settings: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    from games import services as game_services

    seen: list[Any] = []
    settings.RECORDS_RECONCILE_AGE_SECONDS = 5
    monkeypatch.setattr(game_services, "timedelta", lambda seconds: seen.append(seconds) or timedelta(seconds=seconds))
    game_services.records_reconcile()
    assert seen[0] == 5
