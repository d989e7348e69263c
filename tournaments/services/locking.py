"""Row locks, always taken in one order to avoid deadlocks:

    1. Tournament  (every write service locks its tournament row first; not a live scoresheet's entry,
                   which locks only its own Scoresheet row, see games/scoresheet/services.py)
    2. Round
    3. Table
    4. Result rows of that table

A service never locks a row of a lower number after one of a higher number. Because every write
locks the tournament first, writes within one tournament are serialised; different tournaments never
wait for each other. On SQLite `select_for_update` is a no-op and the database serialises writers.

Every lock is `FOR NO KEY UPDATE` (`lock_tournament`'s UPDATE takes that mode by itself; the others
ask `select_for_update(no_key=True)`): no write service changes a key of a locked row, and this mode does
not conflict with the `FOR KEY SHARE` locks a foreign-key check takes. The ratings task inserts rating
rows that reference results, tables, entrants and tournaments in its own (the pool's) order; with `FOR
UPDATE` here a confirmation held a table and waited for its result while the task held the result's key
share and waited for the table: a deadlock (issue 29). Keep it that way: `FOR UPDATE` on these rows
brings those deadlocks back (`tests/services/test_confirm_ratings_lock_order.py`).

A write that already holds the tournament lock (and maybe the round and table) in its transaction
hands them on as a `TableLocks` to the service it calls (`result_report_from_record(locked=...)`), which
then locks nothing again: one transaction locks each row once.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

from django.db import connection, transaction
from django.db.models import Exists, OuterRef
from django.utils.translation import gettext as _

from tournaments import prepared_sql
from tournaments.errors import ErrorCode, TournamentError
from tournaments.models import Result, Round, Table, Tournament
from tournaments.notifications import addresses_at_table
from tournaments.raw_rows import Columns


def lock_tournament(tournament_id: int) -> Tournament:
    """Lock the tournament row for the caller's transaction and bump its `public_version` (the key of
    its cached public pages, tournaments/page_cache.py): one `UPDATE ... RETURNING`, which takes the
    row lock as `SELECT ... FOR UPDATE` would, so every write invalidates the pages at no extra query.
    A write that is rolled back rolls the bump back too."""
    # Prepared once per connection on PostgreSQL and the row built from its columns (`tournaments.raw_rows`):
    # the raw queryset of `RETURNING *` spent about a millisecond of CPU on every write (issue 26).
    sql, columns = _lock_sql()
    with prepared_sql.cursor() as cursor:
        cursor.execute(sql, [tournament_id])
        row = cursor.fetchone()
    if row is None:
        raise TournamentError(ErrorCode.NOT_FOUND, _("The tournament does not exist."))
    return columns.build(row)  # type: ignore[return-value]


@functools.cache
def _lock_sql() -> tuple[str, Columns]:
    quote = connection.ops.quote_name
    table, column = quote(Tournament._meta.db_table), quote("public_version")
    columns = Columns(Tournament, table)
    return (f"UPDATE {table} SET {column} = {column} + 1 WHERE {table}.{quote('id')} = %s "
            f"RETURNING {columns.sql()}", columns)


def lock_tournament_quietly(tournament_id: int) -> None:
    """Lock the tournament row as `lock_tournament` does, without bumping `public_version`: for a write
    that changes nothing a public page shows (a game record stored pending, issue 26), so that it keeps
    the cached pages. One plain `SELECT ... FOR NO KEY UPDATE` (the caller has read the tournament)."""
    table = connection.ops.quote_name(Tournament._meta.db_table)
    lock = " FOR NO KEY UPDATE" if connection.features.has_select_for_update else ""
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT 1 FROM {table} WHERE id = %s{lock}", [tournament_id])
        if cursor.fetchone() is None:
            raise TournamentError(ErrorCode.NOT_FOUND, _("The tournament does not exist."))


def lock_round(round_id: int) -> Round:
    try:
        return Round.objects.select_for_update(no_key=True).get(pk=round_id)
    except Round.DoesNotExist as exc:
        raise TournamentError(ErrorCode.NOT_FOUND, _("The round does not exist.")) from exc


def lock_table(table_id: int) -> Table:
    try:
        return Table.objects.select_for_update(no_key=True).get(pk=table_id)
    except Table.DoesNotExist as exc:
        raise TournamentError(ErrorCode.NOT_FOUND, _("The table does not exist.")) from exc


@dataclass(frozen=True)
class TableLocks:
    """A table with its round and tournament, all three locked in the current transaction (tournament
    first). Built by `lock_table_context`, or by a caller that locked the rows itself in that order.

    `has_open_result`: whether the table had a pending or final result, read by the query that locked
    it (`open_result_exists`); None when not read. With False the results services skip reading (and
    locking) the table's open results: there are none, and none can appear while the tournament stays
    locked."""

    tournament: Tournament
    round: Round
    table: Table
    has_open_result: bool | None = None
    has_addresses: bool | None = None  # an entrant at the table has an e-mail address (notifications)


def open_result_exists(table_field: str = "pk") -> Exists:
    """`EXISTS` (a pending or final result of the table named by `table_field`), to annotate the query
    that locks a table (`TableLocks.has_open_result`)."""
    return Exists(Result.objects.filter(table_id=OuterRef(table_field),
                                        state__in=[*Result.FINAL_STATES, Result.State.REPORTED]))


def lock_table_context(
    *, table_id: int, tournament_id: int | None = None, tournament: Tournament | None = None
) -> TableLocks:
    """Lock tournament -> round -> table. `tournament`: already locked by the caller in this transaction
    (`lock_tournament`), so not locked (nor its `public_version` bumped) again; else `tournament_id`.

    The round and the table are locked by one `SELECT ... FOR UPDATE OF` both rows: every writer of
    them holds the tournament lock first, so the order between these two cannot deadlock."""
    if not transaction.get_connection().in_atomic_block:
        raise RuntimeError("lock_table_context() must run inside a transaction.")
    if tournament is None:
        if tournament_id is None:
            raise ValueError("Give the tournament (locked) or its id.")
        tournament = lock_tournament(tournament_id)
    table = (
        Table.objects.select_related("round").select_for_update(of=("self", "round"), no_key=True)
        .annotate(has_open_result=open_result_exists(), has_addresses=addresses_at_table())
        .filter(pk=table_id, round__tournament_id=tournament.pk)
        .first()
    )
    if table is None:
        raise TournamentError(ErrorCode.NOT_FOUND, _("The table does not exist."))
    return TableLocks(tournament=tournament, round=table.round, table=table,
                      has_open_result=table.has_open_result,  # type: ignore[attr-defined]
                      has_addresses=table.has_addresses)  # type: ignore[attr-defined]
