"""The hottest statements, planned by PostgreSQL once per connection (issue 26, fourth pass).

Django's psycopg backend binds parameters on the client: every statement reaches the server as new text
and is planned again. For the few statements that every record POST and every verification batch runs
(the token with its user, the table with its round, the seated entrants, the record's and its audit row's
INSERT, the batch's claim and locked read), planning cost PostgreSQL more than executing them (a POST's
three reads: 0.7 ms planned, 0.14 ms run): about 0.8 ms of the server's CPU per POST, and 1.5 ms per
batch, measured with `pg_stat_statements` (`total_plan_time`). A `cursor()` of this module binds on the
server and has psycopg prepare each statement the first time a connection runs it (psycopg keeps up to
100 per connection): from then on the server only binds and executes it. The parameters also travel apart from the text, so a record's
30 KB is neither escaped into the SQL by the client nor read back by the server's parser.

Only this module's cursors prepare (Django's own keep binding on the client): `DB_PREPARED_STATEMENTS`
(on by default) sets psycopg's `prepare_threshold` to 0 for them, and off leaves it at None (nothing is
prepared, the statements still bind on the server). Behind PgBouncer in transaction mode, prepared
statements need PgBouncer 1.21 or later with `max_prepared_statements` set (docs/operations.md); turn
the setting off otherwise. Elsewhere (SQLite) `cursor()` is Django's plain cursor.
"""

from __future__ import annotations

import functools
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from django.db import DEFAULT_DB_ALIAS, connections


@functools.cache
def _cursor_class() -> type:
    """Django's server-binding cursor, which also keeps the statement it ran from its prepared form:
    psycopg sets `_query` (which Django's query log reads, `last_executed_query`) only when it sends a
    statement's text, so a prepared execution logged no SQL."""
    from django.db.backends.postgresql.base import ServerBindingCursor

    class PreparingCursor(ServerBindingCursor):  # type: ignore[misc,valid-type]
        def _send_query_prepared(self, name: bytes, pgq: Any, *, binary: bool | None = None) -> None:
            self._query = pgq
            super()._send_query_prepared(name, pgq, binary=binary)

    return PreparingCursor


@contextmanager
def cursor() -> Iterator[Any]:
    """A cursor of the default connection whose statements bind on the server (and are prepared, see
    the module's text); Django's debug wrapper and error translation apply as to any cursor."""
    db = connections[DEFAULT_DB_ALIAS]  # (one look-up of the thread's connection, not one per attribute)
    if db.vendor != "postgresql":
        with db.cursor() as plain:
            yield plain
        return
    from django.db.backends.postgresql.base import TIMESTAMPTZ_OID
    from django.db.backends.postgresql.psycopg_any import register_tzloader
    from psycopg.pq import Format

    db.close_if_health_check_failed()
    db.ensure_connection()
    with db.wrap_database_errors:
        psycopg_connection = db.connection
        raw = _cursor_class()(psycopg_connection)
        # as the backend's `create_cursor`: the connection's time zone, if the settings changed it since
        if db.timezone != psycopg_connection.adapters.get_loader(TIMESTAMPTZ_OID, Format.TEXT).timezone:
            register_tzloader(db.timezone, raw)
        wrapped = db._prepare_cursor(raw)
    with wrapped:
        yield wrapped
