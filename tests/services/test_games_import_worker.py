"""Bulk import through a real Celery worker over RabbitMQ on PostgreSQL: 200 records, the worker is
SIGKILLed in the middle, a new worker finishes the redelivered task: 200 verdicts, no duplicates."""

from __future__ import annotations

import json
import random
import time
from typing import Any

import pytest
from django.contrib.auth import get_user_model

from games import services as game_services
from games.models import GameRecord, ImportBatch, ImportItem, RecordVerdict
from rules.core.registry import get_engine
from tournaments import services
from tournaments.models import Table

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]

TABLES = 20
PER_TABLE = 10


def _records_for(table: Table, count: int, seed: int) -> list[str]:
    seats = list(table.seats.select_related("entrant").prefetch_related("entrant__members__player")
                 .order_by("position"))
    lines = []
    for k in range(count):
        record = get_engine("taki").random_record({"seats": 2}, random.Random(seed * 100 + k))
        record["players"] = [
            {"name": s.entrant.members.all()[0].player.name, "id": s.entrant.members.all()[0].player_id,
             "seats": [i]} for i, s in enumerate(seats)
        ]
        record["meta"] = {"round": table.round.number, "table": table.number, "notes": f"copy {k}"}
        lines.append(json.dumps(record))
    return lines


def _wait(predicate: Any, timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return
        time.sleep(0.05)
    raise AssertionError(f"timed out waiting for {what}")


def test_import_of_200_records_survives_a_killed_worker(worker_factory: Any) -> None:
    organiser = get_user_model().objects.create_user("org-import")
    tournament = services.tournament_create(actor=organiser, name="Import Worker Cup", game="taki",
                                            variant={"seats": 2})
    for i in range(TABLES * 2):
        services.entrant_register(actor=organiser, tournament=tournament, name=f"I{i}", player_names=[f"i{i}"],
                                  seed=i + 1)
    round_ = services.round_publish(actor=organiser,
                                    round=services.round_generate(actor=organiser, tournament=tournament))
    lines: list[str] = []
    for table in round_.tables.order_by("number"):
        lines.extend(_records_for(table, PER_TABLE, table.number))
    assert len(lines) == TABLES * PER_TABLE

    worker = worker_factory()
    batch = game_services.records_import(tournament=tournament, actor=organiser, filename="all.jsonl",
                                         data="\n".join(lines).encode())

    def processed() -> int:
        return ImportItem.objects.filter(batch=batch).count()

    _wait(lambda: processed() >= 40, 120, "the first items")
    worker.kill()
    killed_at = processed()
    assert killed_at < len(lines), "the worker finished before it could be killed"

    worker_factory()
    _wait(lambda: ImportBatch.objects.get(pk=batch.pk).status == ImportBatch.Status.DONE, 300, "the batch")
    batch.refresh_from_db()
    assert (batch.total, batch.processed) == (200, 200)
    assert ImportItem.objects.filter(batch=batch).count() == 200
    assert not ImportItem.objects.filter(batch=batch).exclude(error_code="").exists()
    records = GameRecord.objects.filter(batch=batch)
    assert records.count() == 200
    assert records.filter(status=GameRecord.Status.VALID, complete=True).count() == 200
    assert RecordVerdict.objects.filter(record__batch=batch).count() == 200
    assert len(set(records.values_list("sha256", flat=True))) == 200
    # the first record of every table settled it; the other copies found a result already there
    settled = records.filter(settlement=GameRecord.Settlement.SETTLED).values_list("table_id", flat=True)
    assert len(set(settled)) == TABLES
