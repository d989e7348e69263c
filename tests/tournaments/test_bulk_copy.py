"""`tournaments.bulk_copy.copy_insert`: one COPY on PostgreSQL from COPY_MIN_ROWS rows, one INSERT written
once per row count below (`bulk_create` on other databases); the same rows either way, in the order
given (the audit trail relies on it)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.tournaments.conftest import make_tournament
from tournaments.bulk_copy import COPY_MIN_ROWS, copy_insert
from tournaments.models import AuditLog
from tournaments.services.audit import audit_entry, audit_write

pytestmark = pytest.mark.django_db

ODD = 'tab\there\nnew line \\ back\\slash \\N "quoted" é 🂡'


def _entries(tournament: Any, organiser: Any, count: int, tag: str) -> list[AuditLog]:
    return [audit_entry(action=f"{tag}-{index}", tournament=tournament, obj=tournament, actor=organiser,
                        data={"index": index, "text": ODD, "none": None, "list": [1, {"x": ODD}]})
            for index in range(count)]


def _rows(tag: str) -> list[tuple[Any, ...]]:
    return list(AuditLog.objects.filter(action__startswith=f"{tag}-").order_by("id").values_list(
        "action", "tournament_id", "actor_id", "object_type", "object_id", "data"))


@pytest.mark.parametrize("count", [1, COPY_MIN_ROWS - 1, COPY_MIN_ROWS, 40])
def test_audit_rows_are_written_in_order_with_their_values(organiser: Any, count: int) -> None:
    tournament = make_tournament(organiser, entrants=2)
    audit_write(_entries(tournament, organiser, count, "copied"))
    AuditLog.objects.bulk_create(_entries(tournament, organiser, count, "inserted"))
    copied, inserted = _rows("copied"), _rows("inserted")
    assert [row[0] for row in copied] == [f"copied-{index}" for index in range(count)]  # the order given
    assert [row[1:] for row in copied] == [row[1:] for row in inserted]
    assert copied[0][5] == {"index": 0, "text": ODD, "none": None, "list": [1, {"x": ODD}]}
    assert not AuditLog.objects.filter(action__startswith="copied-", created_at__isnull=True).exists()


@pytest.mark.parametrize("count", [3, COPY_MIN_ROWS + 2])
def test_ids_are_taken_from_the_sequence_and_set(organiser: Any, count: int) -> None:
    tournament = make_tournament(organiser, entrants=2)
    entries = _entries(tournament, organiser, count, "with-ids")
    copy_insert(AuditLog, entries, ids=True)
    ids = [entry.pk for entry in entries]
    assert None not in ids and ids == sorted(ids) and len(set(ids)) == len(ids)
    assert dict(AuditLog.objects.filter(pk__in=ids).values_list("pk", "action")) == {
        entry.pk: entry.action for entry in entries}
    later = audit_entry(action="later", tournament=tournament)
    later.save()  # the next INSERT does not collide with the ids COPY took
    assert later.pk not in ids
    copy_insert(AuditLog, [])  # nothing: no statement


def test_a_refused_row_refuses_the_whole_copy(organiser: Any) -> None:
    """The database's checks hold as for an INSERT, and a refused COPY writes nothing."""
    from django.db import IntegrityError, transaction

    tournament = make_tournament(organiser, entrants=2)
    entries = _entries(tournament, organiser, COPY_MIN_ROWS, "refused")
    entries[-1].action = None  # type: ignore[assignment]  # NOT NULL: checked by the database, row by row
    with pytest.raises(IntegrityError), transaction.atomic():
        audit_write(entries)
    assert not _rows("refused")


def _normalised(fields: list[Any], rows: list[list[Any]]) -> list[list[tuple[type, Any]]]:
    """Each value with its exact type, an `auto_now_add` field's left out (each preparation sets the time
    anew). psycopg's typed integers (`Int2`, `Int4`, `Int8`: a number field's preparation on PostgreSQL)
    count as `int`: they are `int` subclasses, which COPY writes as the same digits."""
    from psycopg.types.numeric import Int2, Int4, Int8

    def exact(value: Any) -> type:
        return int if type(value) in (Int2, Int4, Int8) else type(value)

    kept = [index for index, field in enumerate(fields) if not getattr(field, "auto_now_add", False)]
    return [[(exact(row[index]), str(row[index])) for index in kept] for row in rows]


def test_prepared_rows_equal_what_the_fields_themselves_prepare(organiser: Any) -> None:
    """`prepared_rows` skips the fields' methods only for values they return unchanged: any other value
    (a number as text, a boolean in a number field, a choice member, a lazy string, an id as text) goes
    through them, and every row equals the fields' own preparation, value and type."""
    from django.db import connection
    from django.utils.translation import gettext_lazy

    from tournaments.bulk_copy import prepared_rows
    from tournaments.models import Result, ResultScore

    tournament = make_tournament(organiser, entrants=2)
    entrant = tournament.entrants.first()
    table_id = tournament.rounds.first().tables.first().pk if tournament.rounds.exists() else 1
    objects: list[Any] = [
        *_entries(tournament, organiser, 2, "prepared"),
        AuditLog(action=gettext_lazy("Round"), object_type=Result.State.REPORTED, object_id="12", tournament=tournament,
                 data=None),
        ResultScore(result_id=3, entrant=entrant, score="-4", placing=True, is_winner=1, forfeited=False),
        ResultScore(result_id=str(3), entrant_id=str(entrant.pk), score=None, placing=2, is_winner=True,
                    forfeited=0),
        Result(table_id=table_id, kind=Result.Kind.NORMAL, state="reported", note=gettext_lazy("Round"),
               reported_by=organiser),
    ]
    for model in (AuditLog, ResultScore, Result):
        objs = [obj for obj in objects if type(obj) is model]
        fields = list(model._meta.concrete_fields)
        own = [[field.get_db_prep_save(field.pre_save(obj, True), connection) for field in fields] for obj in objs]
        assert _normalised(fields, prepared_rows(fields, objs)) == _normalised(fields, own), model
    score = [obj for obj in objects if type(obj) is ResultScore][0]
    assert prepared_rows(list(ResultScore._meta.concrete_fields), [score])[0][3:5] == [-4, 1]  # converted
