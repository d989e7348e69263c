"""The append-only audit trail: one row per change made through a service.

`audit_record` writes its row at once. A transaction that makes several changes may build the rows
with `audit_entry` and write them together with `audit_write` (one statement, rows in the order given):
the same rows, the same content, fewer round trips. `audit_insert_with` inserts a new object and the
audit row of its creation together, in one statement on PostgreSQL.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.db import connection, models

from tournaments import prepared_sql
from tournaments.bulk_copy import copy_insert, prepared_rows
from tournaments.models import AuditLog, Entrant, Tournament


def audit_entry(
    *,
    action: str,
    tournament: Tournament | None,
    obj: models.Model | None = None,
    actor: Any = None,
    actor_entrant: Entrant | None = None,
    data: dict[str, Any] | None = None,
) -> AuditLog:
    """The audit row of one change, not written yet (`audit_write`)."""
    user = actor if actor is not None and getattr(actor, "is_authenticated", False) else None
    return AuditLog(
        tournament=tournament,
        actor=user,
        actor_entrant=actor_entrant,
        action=action,
        object_type=obj.__class__.__name__.lower() if obj is not None else "",
        object_id=obj.pk if obj is not None else None,
        data=data or {},
    )


def audit_write(entries: Sequence[AuditLog]) -> None:
    """Write audit rows built by `audit_entry` in one statement, in the order given (their ids ascending):
    an INSERT, or a COPY for many rows on PostgreSQL (`tournaments.bulk_copy`: the rows keep no id)."""
    copy_insert(AuditLog, entries)


def audit_record(**fields: Any) -> AuditLog:
    """Write the audit row of one change at once; `fields` as `audit_entry` takes them."""
    entry = audit_entry(**fields)
    entry.save()
    return entry


_WITH_SQL: dict[type[models.Model], tuple[str, list[models.Field[Any, Any]], list[models.Field[Any, Any]]]] = {}


def _with_sql(model: type[models.Model]) -> tuple[str, list[models.Field[Any, Any]], list[models.Field[Any, Any]]]:
    """`INSERT` of a `model` row and, in the same statement (a data-modifying `WITH`), of its audit row
    naming the new id; written once per model from the models' metadata."""
    if model not in _WITH_SQL:
        quote = connection.ops.quote_name
        pk, audit_pk = model._meta.pk, AuditLog._meta.pk
        assert pk is not None and audit_pk is not None
        fields = [field for field in model._meta.concrete_fields if field is not pk]
        audit_fields = [field for field in AuditLog._meta.concrete_fields
                        if field is not audit_pk and field.attname != "object_id"]
        columns = ", ".join(quote(field.column) for field in fields)
        audit_columns = ", ".join(quote(field.column) for field in audit_fields)
        _WITH_SQL[model] = (
            f"WITH new AS (INSERT INTO {quote(model._meta.db_table)} ({columns}) "
            f"VALUES ({', '.join(['%s'] * len(fields))}) RETURNING {quote(pk.column)}) "
            f"INSERT INTO {quote(AuditLog._meta.db_table)} ({audit_columns}, {quote('object_id')}) "
            f"SELECT {', '.join(['%s'] * len(audit_fields))}, new.{quote(pk.column)} FROM new "
            f"RETURNING {quote('object_id')}, {quote(audit_pk.column)}",
            fields, audit_fields)
    return _WITH_SQL[model]


def audit_insert_with(obj: models.Model, **fields: Any) -> AuditLog:
    """Insert `obj` (a new object) and the audit row of its creation (`fields` as `audit_entry` takes
    them, but `obj`); on PostgreSQL in one statement, prepared as the ORM's INSERTs would be (`pre_save`,
    `get_db_prep_save`; the audit trigger sets the row's time and chain as for any INSERT). A record's POST
    spent about a millisecond of CPU compiling the two INSERTs (issue 26, third pass). An error of either
    INSERT (IntegrityError, say) leaves neither row."""
    if connection.vendor != "postgresql":
        obj.save(force_insert=True)
        return audit_record(obj=obj, **fields)
    entry = audit_entry(obj=obj, **fields)
    sql, own_fields, audit_fields = _with_sql(type(obj))
    params = [*prepared_rows(own_fields, [obj])[0], *prepared_rows(audit_fields, [entry])[0]]
    with prepared_sql.cursor() as cursor:
        cursor.execute(sql, params)
        obj.pk, entry.pk = cursor.fetchone()
    entry.object_id = obj.pk
    for made in (obj, entry):
        made._state.adding = False
        made._state.db = connection.alias
    return entry
