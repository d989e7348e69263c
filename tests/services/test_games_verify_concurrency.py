"""On PostgreSQL: the same record verified twice at the same moment (a redelivered task next to the
original), and two records of one table settling at the same moment: one verdict per engine version,
one result per table, nothing half-written."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.db import connection

from games import services as game_services
from games.models import GameRecord, RecordVerdict
from rules.core.registry import get_engine
from tests.services.conftest import race
from tournaments import services
from tournaments.models import Result

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def postgres(require_services: None, monkeypatch: pytest.MonkeyPatch) -> None:
    assert connection.vendor == "postgresql"
    # verification is started by hand here, not by the on-commit task
    monkeypatch.setattr(game_services, "_enqueue_verify", lambda record_id, *_: None)


def _records(tables: int, per_table: int) -> tuple[Any, list[list[int]]]:
    organiser = get_user_model().objects.create_user("org-verify-race")
    tournament = services.tournament_create(actor=organiser, name="Verify Race", game="taki", variant={"seats": 2})
    for i in range(tables * 2):
        services.entrant_register(actor=organiser, tournament=tournament, name=f"V{i}", player_names=[f"v{i}"])
    round_ = services.round_publish(actor=organiser,
                                    round=services.round_generate(actor=organiser, tournament=tournament))
    ids: list[list[int]] = []
    for table in round_.tables.order_by("number"):
        seats = list(table.seats.order_by("position").select_related("entrant"))
        players = [{"name": s.entrant.members.get().player.name, "seats": [i]} for i, s in enumerate(seats)]
        row = []
        for k in range(per_table):
            record = get_engine("taki").random_record({"seats": 2}, random.Random(table.number * 10 + k))
            record["players"] = players
            row.append(game_services.record_submit(table=table, actor=organiser, data=json.dumps(record),
                                                   source="api").pk)
        ids.append(row)
    return organiser, ids


def test_the_same_record_verified_twice_at_once_gives_one_verdict(postgres: None) -> None:
    _, ids = _records(tables=4, per_table=1)
    for (record_id,) in ids:
        outcomes = race([lambda r=record_id: game_services.record_verify(record_id=r)] * 2)
        assert all(isinstance(o, GameRecord) for o in outcomes), outcomes
        assert RecordVerdict.objects.filter(record_id=record_id).count() == 1
        record = GameRecord.objects.get(pk=record_id)
        assert (record.status, record.settlement) == ("valid", "settled")
        assert Result.objects.filter(table_id=record.table_id).count() == 1


def test_two_records_of_one_table_settling_at_once_leave_one_result(postgres: None) -> None:
    _, ids = _records(tables=4, per_table=2)
    for first, second in ids:
        outcomes = race([lambda r=first: game_services.record_verify(record_id=r),
                          lambda r=second: game_services.record_verify(record_id=r)])
        assert all(isinstance(o, GameRecord) for o in outcomes), outcomes
        rows = list(GameRecord.objects.filter(pk__in=[first, second]))
        settlements = sorted(r.settlement for r in rows)
        assert settlements.count("settled") == 1, settlements
        assert set(settlements) <= {"settled", "conflict", "unchanged"}
        table_id = rows[0].table_id
        assert Result.objects.filter(table_id=table_id, state=Result.State.REPORTED).count() == 1
        assert all(r.result_id == Result.objects.get(table_id=table_id).pk for r in rows)
