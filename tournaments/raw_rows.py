"""Model instances from a join written out in SQL (issue 26).

The hottest reads of a record's POST (the table with its round and tournament, the seated entrants with
their players) cost more CPU in the ORM's query compiler than in PostgreSQL: over a millisecond each,
every request. Their SQL is written once per process from the models' metadata (`Columns`), and a row is
turned back into model instances with the same converters the ORM applies (JSON fields, SQLite's
dates), so that the instances are what `select_related` would have given.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from django.db import connection
from django.db.models import Model


class Columns:
    """The concrete columns of `model` under a table alias, and how to build an instance from them."""

    def __init__(self, model: type[Model], alias: str, *, defer: tuple[str, ...] = ()) -> None:
        self.model = model
        self.alias = alias
        # `defer`: fields left unread, deferred on the instance as `QuerySet.defer` leaves them
        self.fields = [field for field in model._meta.concrete_fields if field.name not in defer]
        self.names = [field.attname for field in self.fields]
        self._converters: list[list[Callable[..., Any]]] | None = None
        self._columns: list[Any] = []

    def sql(self) -> str:
        quote = connection.ops.quote_name
        return ", ".join(f"{self.alias}.{quote(field.column)}" for field in self.fields)

    def __len__(self) -> int:
        return len(self.fields)

    def _column_converters(self) -> list[list[Callable[..., Any]]]:
        if self._converters is None:
            converters = []
            for field in self.fields:
                column = field.get_col(self.model._meta.db_table)
                self._columns.append(column)
                converters.append(connection.ops.get_db_converters(column) + field.get_db_converters(connection))
            self._converters = converters
        return self._converters

    def build(self, values: Sequence[Any]) -> Model:
        """The instance of these columns' `values` (in `self.names` order), converted as the ORM does."""
        converted = []
        for column, converters, value in zip(self._columns, self._column_converters(), values, strict=True):
            for convert in converters:
                value = convert(value, column, connection)
            converted.append(value)
        return self.model.from_db(connection.alias, self.names, converted)

    def build_or_none(self, values: Sequence[Any]) -> Model | None:
        """As `build`, or None for the all-NULL columns of a LEFT JOIN that found no row."""
        return None if values[0] is None else self.build(values)


def build_joined(parts: Sequence[Columns], row: Sequence[Any]) -> tuple[list[Any], Sequence[Any]]:
    """A joined row's instances, one per `parts` in order (None for a LEFT JOIN that found nothing), and
    the row's values after their columns (annotations selected beside them)."""
    objects, start = [], 0
    for part in parts:
        objects.append(part.build_or_none(row[start:start + len(part)]))
        start += len(part)
    return objects, row[start:]
