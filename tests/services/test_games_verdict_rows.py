"""games.services._locked_for_verdicts (issue 26, third pass): the records a batch of verdicts writes,
read by one query written out once, are what the ORM's `select_related` with the two table-lock
annotations gave: the same fields (the text deferred), table, round, submitter, entrant and flags."""

from __future__ import annotations

import json
import random

import pytest
from django.db import transaction

from games import services as game_services
from games.models import GameRecord
from rules.core.registry import get_engine
from tests.services.conftest import taki_submit, taki_tournament

pytestmark = pytest.mark.django_db


def _by_token(table: object, seed: int) -> int:
    seats = list(table.seats.order_by("position").select_related("entrant"))  # type: ignore[attr-defined]
    record = get_engine("taki").random_record({"seats": 2}, random.Random(seed))
    record["players"] = [{"name": s.entrant.members.get().player.name, "seats": [i]} for i, s in enumerate(seats)]
    return game_services.record_submit(table=table, token=seats[0].entrant.report_token,  # type: ignore[arg-type]
                                       data=json.dumps(record), source="api").pk


def _seen(record: GameRecord) -> tuple[object, ...]:
    fields = {f.attname: getattr(record, f.attname) for f in GameRecord._meta.concrete_fields if f.name != "raw"}
    return (fields, record.get_deferred_fields(), record.table.__dict__.keys() and
            {f.attname: getattr(record.table, f.attname) for f in record.table._meta.concrete_fields},
            {f.attname: getattr(record.table.round, f.attname) for f in record.table.round._meta.concrete_fields},
            record.submitted_by and record.submitted_by.pk, record.submitted_for and record.submitted_for.pk,
            record.submitted_for and record.submitted_for.report_token,
            record.table_has_open_result, record.table_has_addresses)  # type: ignore[attr-defined]


def test_the_raw_read_is_the_orm_read() -> None:
    organiser, tables = taki_tournament(3, "vr")
    first = taki_submit(organiser, tables[0], 1)
    game_services.record_verify(record_id=first)  # settles table 1: its next record finds an open result
    seat = tables[2].seats.order_by("position").first()
    seat.entrant.email = "player@example.org"  # an address at table 3
    seat.entrant.save(update_fields=["email"])
    ids = [taki_submit(organiser, tables[0], 2), _by_token(tables[1], 3), taki_submit(organiser, tables[2], 4), first]
    with transaction.atomic():
        raw = game_services._locked_for_verdicts(ids)
        orm = game_services.locked_for_verdicts_orm(ids)
    assert [r.pk for r in raw] == sorted(ids)
    assert [_seen(r) for r in raw] == [_seen(r) for r in orm]
    seen = {r.pk: (r.submitted_by_id, r.submitted_for_id, r.table_has_open_result, r.table_has_addresses)  # type: ignore[attr-defined]
            for r in raw}
    assert seen[ids[0]][0] == organiser.pk and seen[ids[0]][2] is True  # table 1 has its result
    assert seen[ids[1]][0] is None and seen[ids[1]][1] is not None  # sent with a report token
    assert seen[ids[2]][3] is True and seen[ids[1]][3] is False
    assert "raw" in raw[0].get_deferred_fields()
    assert raw[0].raw  # read when asked, as a deferred field is
