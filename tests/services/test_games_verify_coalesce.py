"""On PostgreSQL with workers: one verification task per tournament on its way, not one per record
(games/verify_burst.py, issue 26). A record stored while its tournament's task waits in the queue sends
none and is verified by that task; a record stored once the task has started sends the next one; a full
batch sends one more task for what it left; the cache failing sends a task per record, as before."""

from __future__ import annotations

import json
import random
import threading
from typing import Any

import pytest
from celery import current_app
from django.contrib.auth import get_user_model
from django.db import connection

from games import services as game_services
from games import tasks, verify_burst
from games.models import GameRecord
from rules.core.registry import get_engine
from tournaments import services

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def sent(require_services: None, monkeypatch: pytest.MonkeyPatch) -> list[tuple[Any, ...]]:
    """The verification tasks sent (the broker), with workers (tasks not run eagerly)."""
    assert connection.vendor == "postgresql"
    monkeypatch.setattr(current_app.conf, "task_always_eager", False)
    messages: list[tuple[Any, ...]] = []
    monkeypatch.setattr(tasks.record_verify, "delay", lambda *args: messages.append(args))
    return messages


def _tournament(tables: int, name: str) -> tuple[Any, list[Any]]:
    organiser = get_user_model().objects.create_user(f"org-{name}")
    tournament = services.tournament_create(actor=organiser, name=name, game="taki", variant={"seats": 2})
    for i in range(tables * 2):
        services.entrant_register(actor=organiser, tournament=tournament, name=f"{name}{i}",
                                  player_names=[f"{name}-{i}"])
    round_ = services.round_publish(actor=organiser,
                                    round=services.round_generate(actor=organiser, tournament=tournament))
    return organiser, list(round_.tables.order_by("number"))


def _submit(organiser: Any, table: Any, seed: int) -> int:
    seats = list(table.seats.order_by("position").select_related("entrant"))
    record = get_engine("taki").random_record({"seats": 2}, random.Random(seed))
    record["players"] = [{"name": s.entrant.members.get().player.name, "seats": [i]} for i, s in enumerate(seats)]
    return game_services.record_submit(table=table, actor=organiser, data=json.dumps(record), source="api").pk


def _run(message: tuple[Any, ...]) -> str | None:
    return tasks.record_verify.run(*message)


def _statuses(ids: list[int]) -> list[str]:
    found = dict(GameRecord.objects.filter(pk__in=ids).values_list("pk", "status"))
    return [found[pk] for pk in ids]


def test_records_stored_while_the_task_waits_send_none_and_are_verified_by_it(
    sent: list[tuple[Any, ...]]
) -> None:
    organiser, tables = _tournament(4, "queue")
    ids = [_submit(organiser, table, seed=n) for n, table in enumerate(tables[:3])]
    tournament_id = tables[0].round.tournament_id
    assert sent == [(ids[0], tournament_id)]  # one task for the three records

    assert _run(sent.pop()) == "valid"
    assert _statuses(ids) == ["valid"] * 3
    later = _submit(organiser, tables[3], seed=9)  # the task started: the next record sends its own
    assert sent == [(later, tournament_id)]
    assert _run(sent.pop()) == "valid" and _statuses([later]) == ["valid"]
    assert sent == []  # nothing left behind, nothing more sent


def test_a_record_stored_after_the_task_started_sends_the_next_task(
    sent: list[tuple[Any, ...]], monkeypatch: pytest.MonkeyPatch
) -> None:
    organiser, tables = _tournament(2, "race")
    first = _submit(organiser, tables[0], seed=1)
    tournament_id = tables[0].round.tournament_id
    message = sent.pop()
    real_unwake = verify_burst._unwake
    stored: list[int] = []

    def store_elsewhere() -> None:
        try:
            stored.append(_submit(organiser, tables[1], seed=2))
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
    organiser, tables = _tournament(5, "full")
    ids = [_submit(organiser, table, seed=n) for n, table in enumerate(tables)]
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
    organiser, tables = _tournament(3, "down")
    ids = [_submit(organiser, table, seed=n) for n, table in enumerate(tables)]
    assert [message[0] for message in sent] == ids


def test_coalescing_off_sends_a_task_per_record_as_before(sent: list[tuple[Any, ...]], settings: Any) -> None:
    settings.GAMES_VERIFY_COALESCE = False
    organiser, tables = _tournament(2, "off")
    ids = [_submit(organiser, table, seed=n) for n, table in enumerate(tables)]
    assert sent == [(ids[0],), (ids[1],)]
