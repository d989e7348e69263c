"""A JSON field read and written with orjson on PostgreSQL (issue 26).

A live scoresheet's state (`Scoresheet.state`: the header and every entry so far, 20-30 KB late in a
game) is read and written whole on every entry. With the standard library's `json` that cost grew with
the game: about 1.2 ms to encode and 0.6 ms to decode per entry late in a TAC game, against 0.1 ms early,
so that late entries were served 10-25 % slower than early ones. orjson does both in a fraction of that.

Same values in and out: objects, arrays, strings, numbers, booleans and null, non-string keys written as
strings as `json` does; a text orjson cannot read (an integer beyond 64 bits, say) falls back to `json`.
Elsewhere (SQLite) the field is Django's own.

`TextJSONField` (the sheet's state since issue 26's fifth pass) keeps that JSON as plain `text` on
PostgreSQL instead of `jsonb`: the application alone reads and writes the column, whole, and never
queries inside it, so PostgreSQL's parse of every 20-30 KB state into `jsonb` (and its print back to text
at every read) bought nothing. It was the part of an entry that grew with the game: a 24 KB state's
UPDATE cost PostgreSQL 0.9-1.4 ms of CPU as `jsonb` and 0.3-0.4 ms as `text`, its read 0.27 and 0.07 ms.
"""

from __future__ import annotations

import json
from typing import Any

import orjson
from django.db import models
from django.db.models.fields.json import KeyTransform


def _dumps(value: Any) -> bytes:
    try:
        return orjson.dumps(value, option=orjson.OPT_NON_STR_KEYS)
    except TypeError:  # what orjson does not write (an integer beyond 64 bits): as `json` writes it
        return json.dumps(value).encode()


class FastJSONField(models.JSONField):
    def get_db_prep_value(self, value: Any, connection: Any, prepared: bool = False) -> Any:
        if connection.vendor != "postgresql" or self.encoder is not None:
            return super().get_db_prep_value(value, connection, prepared)
        if not prepared:
            value = self.get_prep_value(value)
        return self._adapted(value)

    def _adapted(self, value: Any) -> Any:
        """The value as the PostgreSQL column takes it: `jsonb` written by orjson."""
        from psycopg.types.json import Jsonb

        return Jsonb(value, dumps=_dumps)

    def from_db_value(self, value: Any, expression: Any, connection: Any) -> Any:
        if value is None or connection.vendor != "postgresql" or self.decoder is not None:
            return super().from_db_value(value, expression, connection)
        if isinstance(expression, KeyTransform) and not isinstance(value, str):
            return value
        try:
            return orjson.loads(value)
        except orjson.JSONDecodeError:
            return super().from_db_value(value, expression, connection)


class TextJSONField(FastJSONField):
    """JSON written by orjson into a `text` column on PostgreSQL (never parsed there: no lookups inside
    it); elsewhere Django's JSON field, as `FastJSONField`."""

    def db_type(self, connection: Any) -> str | None:
        if connection.vendor == "postgresql":
            return "text"
        return super().db_type(connection)

    def _adapted(self, value: Any) -> Any:
        return _dumps(value).decode()
