"""Many new rows of one model in one `COPY` on PostgreSQL, where `bulk_create` sends an INSERT whose text
values psycopg escapes in Python (the bulk import's records are 3-30 KB each, and it writes hundreds of
rows of several models per chunk).

`copy_insert` prepares every value as an INSERT would (the model fields' `pre_save` and
`get_db_prep_save`); the database checks the constraints and fires the triggers as for an INSERT. With
`ids=True` the rows' ids are taken from the table's sequence first (one query) and set on the objects;
otherwise the database fills them in and the objects keep none. Below `COPY_MIN_ROWS` rows, and on other
databases, it is `bulk_create`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

from django.db import connection, models

# A COPY costs two round trips (the statement, then the data) against one for an INSERT.
COPY_MIN_ROWS = 8

M = TypeVar("M", bound=models.Model)


def copy_insert(model: type[M], objs: Sequence[M], *, ids: bool = False, batch_size: int | None = None) -> None:
    """Insert `objs` (new rows of `model`, in this order); with `ids`, set their primary keys.
    `batch_size`: `bulk_create`'s, where it is used."""
    if not objs:
        return
    if connection.vendor != "postgresql" or len(objs) < COPY_MIN_ROWS:
        model._default_manager.bulk_create(list(objs), batch_size=batch_size)  # (returns the ids here)
        return
    meta = model._meta
    pk = meta.pk
    assert pk is not None
    fields = [field for field in meta.concrete_fields if ids or field is not pk]
    quote = connection.ops.quote_name
    with connection.cursor() as cursor:
        if ids:
            cursor.execute("SELECT nextval(pg_get_serial_sequence(%s, %s)) FROM generate_series(1, %s)",
                           [meta.db_table, pk.column, len(objs)])
            for obj, (obj_id,) in zip(objs, cursor.fetchall(), strict=True):
                obj.pk = obj_id
        rows = [[field.get_db_prep_save(field.pre_save(obj, True), connection) for field in fields] for obj in objs]
        columns = ", ".join(quote(field.column) for field in fields)
        with connection.wrap_database_errors, cursor.cursor.copy(
                f"COPY {quote(meta.db_table)} ({columns}) FROM STDIN") as copy:
            for row in rows:
                copy.write_row(row)
    for obj in objs:
        obj._state.adding = False
        obj._state.db = connection.alias
