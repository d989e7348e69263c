"""`manage.py demo_records`: the demo tournament gets verified game records to look at."""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import CommandError, call_command
from django.test import Client
from django.urls import reverse

from games.demo import record_with_illegal_move
from games.models import GameRecord
from rules.core.registry import get_engine
from rules.core.replay import verify_document
from tournaments.models import Result

pytestmark = pytest.mark.django_db


def test_demo_records_needs_the_demo() -> None:
    with pytest.raises(CommandError):
        call_command("demo_records", stdout=StringIO())


@pytest.mark.django_db(transaction=True)
def test_demo_records_settles_tables_once() -> None:
    # Transactional: each submission commits, so its verification runs before the next step, as in `make run`.
    call_command("demo", stdout=StringIO())
    call_command("demo_records", stdout=StringIO())
    records = list(GameRecord.objects.order_by("pk"))
    assert len(records) == 6
    assert [r.status for r in records] == ["valid"] * 5 + ["invalid"]
    assert all(r.complete for r in records[:5])
    assert records[-1].error_code == "illegal_move"
    assert records[-1].error_path.startswith("/deals/1/turns/")
    round_number = records[0].table.round.number
    results = Result.objects.filter(table__round__number=round_number)
    assert results.filter(state=Result.State.CONFIRMED).count() == 3
    assert results.filter(state=Result.State.REPORTED).count() == 2
    assert not results.filter(table=records[-1].table).exists()  # an invalid record never reports
    # A rated game's row on the player's ranking profile links to the record that proves it.
    confirmed = results.filter(state=Result.State.CONFIRMED).first()
    assert confirmed is not None
    record = next(r for r in records if r.table_id == confirmed.table_id)
    player = confirmed.table.seats.first().entrant.members.first().player
    page = Client().get(reverse("rankings:player", args=["tac", player.pk])).content.decode()
    assert reverse("games:record-detail", args=[record.tournament.slug, record.pk]) in page
    out = StringIO()
    call_command("demo_records", stdout=out)
    assert "nothing to do" in out.getvalue()
    assert GameRecord.objects.count() == 6


def test_illegal_move_forgery_is_invalid_exactly_there() -> None:
    import random

    record = get_engine("tac").random_record({}, random.Random(7))
    forged = record_with_illegal_move(record)
    assert forged is not None
    verdict = verify_document(forged)
    assert not verdict.valid and verdict.error is not None
    assert verdict.error.code.value == "illegal_move"
    assert verify_document(record).valid
