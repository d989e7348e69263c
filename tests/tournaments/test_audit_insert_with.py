"""tournaments.services.audit.audit_insert_with (issue 26, third pass): a new object and the audit row of
its creation in one statement on PostgreSQL; the same rows as a save and `audit_record`, the audit row
chained by the trigger, and neither row when the object's INSERT is refused."""

from __future__ import annotations

import pytest
from django.db import IntegrityError, transaction

from games.models import GameRecord
from tests.services.conftest import taki_submit, taki_tournament
from tournaments.models import AuditLog
from tournaments.services.audit import audit_insert_with

pytestmark = pytest.mark.django_db


def _copy_of(record: GameRecord, sha256: str) -> GameRecord:
    return GameRecord(tournament=record.tournament, table=record.table, submitted_by=record.submitted_by,
                      source=record.source, raw=record.raw, sha256=sha256, game=record.game,
                      variant=record.variant, seat_entrants=record.seat_entrants)


def test_the_object_and_its_audit_row() -> None:
    organiser, tables = taki_tournament(1, "aw")
    first = GameRecord.objects.get(pk=taki_submit(organiser, tables[0], 1))
    record = _copy_of(first, "f" * 64)
    entry = audit_insert_with(record, action="game_record_submitted", tournament=first.tournament,
                              actor=organiser, data={"table": first.table_id, "sha256": "f" * 64})
    assert record.pk is not None and not record._state.adding
    stored = GameRecord.objects.get(pk=record.pk)
    assert (stored.raw, stored.sha256, stored.seat_entrants, stored.submitted_by_id, stored.status) == (
        first.raw, "f" * 64, first.seat_entrants, organiser.pk, GameRecord.Status.PENDING)
    row = AuditLog.objects.get(pk=entry.pk)
    assert (row.action, row.object_type, row.object_id, row.actor_id, row.data) == (
        "game_record_submitted", "gamerecord", record.pk, organiser.pk, {"table": first.table_id, "sha256": "f" * 64})
    before = AuditLog.objects.filter(tournament=first.tournament, pk__lt=row.pk).order_by("-pk").first()
    if row.chain_seq is not None:  # PostgreSQL: chained by the trigger after the first record's row
        assert before is not None and (row.chain_seq, row.prev_hash) == (before.chain_seq + 1, before.row_hash)


def test_a_refused_insert_leaves_neither_row() -> None:
    organiser, tables = taki_tournament(1, "ax")
    first = GameRecord.objects.get(pk=taki_submit(organiser, tables[0], 2))
    records, audit = GameRecord.objects.count(), AuditLog.objects.count()
    with pytest.raises(IntegrityError), transaction.atomic():
        audit_insert_with(_copy_of(first, first.sha256), action="game_record_submitted",
                          tournament=first.tournament, actor=organiser)  # the same record again for the table
    assert (GameRecord.objects.count(), AuditLog.objects.count()) == (records, audit)
