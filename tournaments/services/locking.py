"""Row locks, always taken in one order to avoid deadlocks:

    1. Tournament  (every write service locks its tournament row first)
    2. Round
    3. Table
    4. Result rows of that table

A service never locks a row of a lower number after one of a higher number. Because every write
locks the tournament first, writes within one tournament are serialised; different tournaments never
wait for each other. On SQLite `select_for_update` is a no-op and the database serialises writers.
"""

from __future__ import annotations

from django.db import connection
from django.utils.translation import gettext as _

from tournaments.errors import ErrorCode, TournamentError
from tournaments.models import Round, Table, Tournament


def lock_tournament(tournament_id: int) -> Tournament:
    """Lock the tournament row for the caller's transaction and bump its `public_version` (the key of
    its cached public pages, tournaments/page_cache.py): one `UPDATE ... RETURNING`, which takes the
    row lock as `SELECT ... FOR UPDATE` would, so every write invalidates the pages at no extra query.
    A write that is rolled back rolls the bump back too."""
    table = connection.ops.quote_name(Tournament._meta.db_table)
    column = connection.ops.quote_name("public_version")
    found = list(Tournament.objects.raw(
        f"UPDATE {table} SET {column} = {column} + 1 WHERE id = %s RETURNING *", [tournament_id]))
    if not found:
        raise TournamentError(ErrorCode.NOT_FOUND, _("The tournament does not exist."))
    return found[0]


def lock_round(round_id: int) -> Round:
    try:
        return Round.objects.select_for_update().get(pk=round_id)
    except Round.DoesNotExist as exc:
        raise TournamentError(ErrorCode.NOT_FOUND, _("The round does not exist.")) from exc


def lock_table(table_id: int) -> Table:
    try:
        return Table.objects.select_for_update().get(pk=table_id)
    except Table.DoesNotExist as exc:
        raise TournamentError(ErrorCode.NOT_FOUND, _("The table does not exist.")) from exc
