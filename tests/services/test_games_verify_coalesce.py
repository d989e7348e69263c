"""On PostgreSQL with workers: one verification task per tournament on its way, not one per record
(games/verify_burst.py, issue 26). A record stored while its tournament's task waits in the queue sends
none and is verified by that task; a record stored once the task has started sends the next one; a full
batch sends one more task for what it left; the cache failing sends a task per record, as before."""

from __future__ import annotations

import threading
from typing import Any

import pytest
from celery import current_app
from django.db import connection

from games import tasks, verify_burst
from games.models import GameRecord
from tests.services.conftest import taki_submit, taki_tournament

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def sent(require_services: None, monkeypatch: pytest.MonkeyPatch) -> list[tuple[Any, ...]]:
    """The verification tasks sent (the broker), with workers (tasks not run eagerly)."""
    assert connection.vendor == "postgresql"
    monkeypatch.setattr(current_app.conf, "task_always_eager", False)
    messages: list[tuple[Any, ...]] = []
    monkeypatch.setattr(tasks.record_verify, "delay", lambda *args: messages.append(args))
    return messages


def _run(message: tuple[Any, ...]) -> str | None:
    return tasks.record_verify.run(*message)


def _statuses(ids: list[int]) -> list[str]:
    found = dict(GameRecord.objects.filter(pk__in=ids).values_list("pk", "status"))
    return [found[pk] for pk in ids]


def test_records_stored_while_the_task_waits_send_none_and_are_verified_by_it(
    sent: list[tuple[Any, ...]]
) -> None:
    organiser, tables = taki_tournament(4, "queue")
    ids = [taki_submit(organiser, table, seed=n) for n, table in enumerate(tables[:3])]
    tournament_id = tables[0].round.tournament_id
    assert sent == [(ids[0], tournament_id)]  # one task for the three records

    assert _run(sent.pop()) == "valid"
    assert _statuses(ids) == ["valid"] * 3
    later = taki_submit(organiser, tables[3], seed=9)  # the task started: the next record sends its own
    assert sent == [(later, tournament_id)]
    assert _run(sent.pop()) == "valid" and _statuses([later]) == ["valid"]
    assert sent == []  # nothing left behind, nothing more sent


def test_a_record_stored_after_the_task_started_sends_the_next_task(
    sent: list[tuple[Any, ...]], monkeypatch: pytest.MonkeyPatch
) -> None:
    organiser, tables = taki_tournament(2, "race")
    first = taki_submit(organiser, tables[0], seed=1)
    tournament_id = tables[0].round.tournament_id
    message = sent.pop()
    real_unwake = verify_burst._unwake
    stored: list[int] = []

    def store_elsewhere() -> None:
        try:
            stored.append(taki_submit(organiser, tables[1], seed=2))
        finally:
            connection.close()

    def unwake_then_a_store(tid: int) -> None:
        real_unwake(tid)
        # between the key's deletion and the claim, another table stores its record (its own connection)
        thread = threading.Thread(target=store_elsewhere)
        thread.start()
        thread.join()

    monkeypatch.setattr(verify_burst, "_unwake", unwake_then_a_store)
    assert _run(message) == "valid"
    assert sent == [(stored[0], tournament_id)]  # the key was gone: its store sent a task
    assert _statuses([first, stored[0]]) == ["valid", "valid"]  # and the claim after the store took it along


def test_a_full_batch_sends_one_more_task_for_what_it_left(
    sent: list[tuple[Any, ...]], settings: Any
) -> None:
    settings.GAMES_VERIFY_BATCH_RECORDS = 2
    organiser, tables = taki_tournament(5, "full")
    ids = [taki_submit(organiser, table, seed=n) for n, table in enumerate(tables)]
    tournament_id = tables[0].round.tournament_id
    assert sent == [(ids[0], tournament_id)]
    rounds = 0
    while sent:
        _run(sent.pop())
        rounds += 1
        assert len(sent) <= 1
    assert _statuses(ids) == ["valid"] * 5
    assert rounds == 3  # 2 + 2 + 1: each full batch sent the next task, for the newest pending record


def test_without_the_cache_every_record_sends_its_task(
    sent: list[tuple[Any, ...]], monkeypatch: pytest.MonkeyPatch
) -> None:
    from django.core.cache import caches

    def down(*args: Any, **kwargs: Any) -> None:
        return None  # what the fail-open client answers while Redis is down

    monkeypatch.setattr(caches["default"], "add", down)
    organiser, tables = taki_tournament(3, "down")
    ids = [taki_submit(organiser, table, seed=n) for n, table in enumerate(tables)]
    assert [message[0] for message in sent] == ids


def test_coalescing_off_sends_a_task_per_record_as_before(sent: list[tuple[Any, ...]], settings: Any) -> None:
    settings.GAMES_VERIFY_COALESCE = False
    organiser, tables = taki_tournament(2, "off")
    ids = [taki_submit(organiser, table, seed=n) for n, table in enumerate(tables)]
    assert sent == [(ids[0],), (ids[1],)]
