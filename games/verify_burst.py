"""Records submitted one by one but arriving together, verified together (issue 14).

At the end of a round every table submits its record within a minute or two: one `record_verify` task
each. One by one, a record costs a transaction of nine statements under the tournament lock and a Celery
message, many times its replay (a TAKI record replays in half a millisecond). On PostgreSQL, a task
instead *claims* its record and up to `GAMES_VERIFY_BATCH_RECORDS - 1` other records of the tournament
that are still pending (submitted one by one, not imported: an import's chunks verify their own), oldest
first, replays them (its own first; the others while `GAMES_VERIFY_BATCH_SECONDS` last) and stores every
verdict and settles every table under one tournament lock (`services.store_checked`). The tasks of the
records it took find them verified and end after one query.

A claim is a transaction-level advisory lock (`pg_try_advisory_xact_lock`) of the transaction that
stores the verdicts: other tasks skip a claimed record, and a worker that dies loses its transaction and
with it its claims. There is no column and nothing to recover. Claims only spare work: the store checks
every record again under the tournament lock (a record verified meanwhile is left as it is, the first
verdict of an engine version wins).

A task whose record another task holds first verifies what it could claim itself, then waits for that
claim (at most `CLAIM_WAIT_SECONDS`; a longer wait fails the task, which is retried) and verifies its
record one by one (`services.record_verify`) unless it is verified by then: every message still ends
with its record verified, whatever happened to the other task.

Elsewhere (SQLite, tasks run eagerly), or with `GAMES_VERIFY_BATCH_RECORDS` = 1, a task verifies its
record alone (`services.record_verify`).

One task wakes the tournament, not one per record (issue 26): a batch takes every pending record it can
claim anyway, so a record stored while a task of its tournament waits in the queue sends none (`wake`: a
key per tournament in the shared cache, added when a task is sent, which carries the tournament's id). A
task deletes the key first, then claims: a record whose store found the key was committed before the
key was deleted, so the claim after it sees the record (or another task holds it and verifies it). A
record stored after the delete adds the key again and sends the next task. A batch that was full may
have left records behind: it sends one more task, for the newest pending record. With the key's expiry
(`WAKE_SECONDS`) a lost task costs at most that long before the next stored record sends one again, and
`records_reconcile` covers the rest as before. Without the shared cache (it fails open) every record
sends its task, as before; `GAMES_VERIFY_COALESCE` off does the same.
"""

from __future__ import annotations

import functools
import logging
import time
from dataclasses import dataclass

from django.conf import settings
from django.core.cache import caches
from django.db import connection, transaction
from django.utils import translation
from django.utils.translation import gettext as _

from games import services
from games.models import GameRecord
from tournaments import prepared_sql
from tournaments.errors import ErrorCode, TournamentError
from tournaments.services.locking import lock_tournament

logger = logging.getLogger(__name__)

# The claims' advisory lock keys: this number in the high 32 bits, the record id's low 32 bits below (the
# application takes no other advisory lock; two records 2**32 ids apart share a key, which only makes a
# task skip or wait for the other).
CLAIM_SPACE = 0x67616D65  # "game"
CLAIM_WAIT_SECONDS = 30
# Candidates looked at beyond the claims wanted (ids only): the ones other tasks hold are skipped.
LOOK_AHEAD = 4


WAKE_SECONDS = 15  # longer than a task waits in a healthy queue; a lost task costs at most this


def _wake_key(tournament_id: int) -> str:
    return f"games:verify-wake:{tournament_id}"


def coalescing() -> bool:
    """Whether the records of a tournament share their verification tasks: on PostgreSQL with batches,
    tasks run by workers (not eagerly), and `GAMES_VERIFY_COALESCE` on (default)."""
    from config.celery import app

    return (connection.vendor == "postgresql" and verify_batch_records() > 1 and not app.conf.task_always_eager
            and bool(getattr(settings, "GAMES_VERIFY_COALESCE", True)))


def wake(tournament_id: int) -> bool:
    """Whether a record just stored in the tournament needs a verification task sent: False only while
    another task of the tournament is on its way (its key is in the cache); the cache failing says True."""
    try:
        return caches["default"].add(_wake_key(tournament_id), 1, WAKE_SECONDS) is not False
    except Exception:  # noqa: BLE001 - a task too many costs a query; a task too few costs a stall
        return True


def _unwake(tournament_id: int) -> None:
    """The key deleted before the claim: records stored from now on send the next task themselves."""
    try:
        caches["default"].delete(_wake_key(tournament_id))
    except Exception:  # noqa: BLE001 - the key expires by itself
        logger.warning("Could not clear the verification key of tournament %s", tournament_id)


def _wake_again(tournament_id: int) -> None:
    """After a full batch: one more task for the newest pending record of the tournament, if any."""
    from games.tasks import record_verify
    from tournaments.task_outbox import publish

    try:
        newest = (GameRecord.objects.filter(tournament_id=tournament_id, status=GameRecord.Status.PENDING,
                                            batch__isnull=True)
                  .order_by("-pk").values_list("pk", flat=True).first())
        if newest is not None and wake(tournament_id):
            publish(record_verify, newest, tournament_id)
    except Exception:  # the database, or the broker and its outbox, down: records_reconcile sends it later
        logger.exception("Could not look for the pending game records of tournament %s", tournament_id)


def verify_batch_records() -> int:
    return max(1, int(getattr(settings, "GAMES_VERIFY_BATCH_RECORDS", 32)))


def verify_batch_seconds() -> float:
    return max(0.0, float(getattr(settings, "GAMES_VERIFY_BATCH_SECONDS", 2.0)))


def claim_key(record_id: int) -> int:
    return (CLAIM_SPACE << 32) | (record_id & 0xFFFFFFFF)


_KEY_SQL = "(%(space)s::bigint << 32) | (id & 4294967295)"  # claim_key(id), in the claim query


@dataclass(frozen=True)
class _Row:
    pk: int
    tournament_id: int
    game: str
    status: str
    engine_version: str
    claimed: bool
    raw: str | None  # read only when claimed


_CLAIM_SQL = """
WITH own AS MATERIALIZED (
    SELECT id, tournament_id, status,
           CASE WHEN status = %(pending)s THEN pg_try_advisory_xact_lock({key})
                ELSE false END AS claimed
    FROM {records} WHERE id = %(own)s
), candidates AS MATERIALIZED (
    SELECT r.id FROM {records} r JOIN own ON r.tournament_id = own.tournament_id
    WHERE r.status = %(pending)s AND r.batch_id IS NULL AND r.id <> own.id
    ORDER BY r.id LIMIT %(look)s
), others AS MATERIALIZED (
    -- read in the order above and stopped at the limit: no record is claimed that is not returned
    SELECT id FROM candidates WHERE pg_try_advisory_xact_lock({key})
    LIMIT %(more)s
)
SELECT r.id, r.tournament_id, r.game, r.status, r.engine_version, own.claimed,
       CASE WHEN own.claimed THEN r.raw END
FROM own JOIN {records} r ON r.id = own.id
UNION ALL
SELECT r.id, r.tournament_id, r.game, r.status, r.engine_version, true, r.raw
FROM others JOIN {records} r ON r.id = others.id
"""


@functools.cache
def _claim_sql() -> str:
    return _CLAIM_SQL.format(records=connection.ops.quote_name(GameRecord._meta.db_table), key=_KEY_SQL)


def _claim(record_id: int, more: int) -> tuple[_Row | None, list[_Row]]:
    """In the caller's transaction: the record (claimed if pending and nobody holds it) and up to `more`
    other pending records of its tournament, oldest first, each claimed. One query."""
    with prepared_sql.cursor() as cursor:
        cursor.execute(_claim_sql(), {"own": record_id, "pending": GameRecord.Status.PENDING, "space": CLAIM_SPACE,
                             "look": more * LOOK_AHEAD, "more": more})
        rows = [_Row(*row) for row in cursor.fetchall()]
    own = next((row for row in rows if row.pk == record_id), None)
    return own, sorted((row for row in rows if row.pk != record_id), key=lambda row: row.pk)


def _replay(own: _Row | None, others: list[_Row], seconds: float) -> dict[int, services.Checked]:
    """The replay of `own` (when given) and of the `others` while `seconds` last. A failure while replaying
    one of the others (an engine error) leaves that record to its own task, which fails on it as one by
    one would; the batch goes on while time is left (after the task's soft time limit, none is)."""
    checked: dict[int, services.Checked] = {}

    def replay(row: _Row) -> None:
        assert row.raw is not None
        verdict, final = services.verify_record_text(row.raw, file=f"record-{row.pk}")
        checked[row.pk] = services.Checked(services.engine_version(row.game), verdict.to_json(),
                                           final if verdict.valid and verdict.complete else None)

    began = time.monotonic()
    if own is not None:
        replay(own)
    for row in others:
        if time.monotonic() - began > seconds:
            break
        try:
            replay(row)
        except Exception:
            logger.exception("Replaying game record %s beside record %s failed; it is left to its own task",
                             row.pk, own.pk if own is not None else "(held by another task)")
    return checked


# Background work stores its sentences in English (see services.record_verify).
@translation.override("en")
def record_verify(*, record_id: int, tournament_id: int | None = None) -> str:
    """Verify a record, and the pending records of its tournament it can claim: the record's status after.
    Idempotent, as `services.record_verify`. `tournament_id`: the task was sent by `wake` (its key is
    deleted before the claim)."""
    most = verify_batch_records()
    if connection.vendor != "postgresql" or most <= 1:
        return services.record_verify(record_id=record_id).status
    coalesce = coalescing()
    if coalesce and tournament_id is not None:
        _unwake(tournament_id)
    full: list[int] = []
    try:
        return _record_verify_batch(record_id, most, full)
    finally:
        if full and coalesce:
            _wake_again(full[0])


def _record_verify_batch(record_id: int, most: int, full: list[int]) -> str:
    with transaction.atomic():
        own, others = _claim(record_id, most - 1)
        if own is None:
            raise TournamentError(ErrorCode.NOT_FOUND, _("The game record does not exist."))
        if len(others) >= most - 1:  # records may be left behind: `record_verify` sends one more task
            full.append(own.tournament_id)
        checked = _replay(own if own.claimed else None, others, verify_batch_seconds())
        stored: dict[int, str] = {}
        if checked:
            stored = {record.pk: record.status
                      for record in services.store_checked(lock_tournament(own.tournament_id), checked)}
    if own.claimed:  # (not stored: verified meanwhile one by one, by `reverify` say)
        return stored.get(record_id) or _status(record_id)
    if own.status == GameRecord.Status.PENDING:
        # Another task holds the record: wait for it to end, then verify the record unless it did.
        with transaction.atomic():
            with connection.cursor() as cursor:  # (the wait bounded, the server's own timeout put back after)
                cursor.execute("SELECT current_setting('lock_timeout'), set_config('lock_timeout', %s, true)",
                               [f"{CLAIM_WAIT_SECONDS}s"])
                (usual, _bounded), = cursor.fetchall()
                cursor.execute("SELECT pg_advisory_xact_lock(%s), set_config('lock_timeout', %s, true)",
                               [claim_key(record_id), usual])
            return services.record_verify(record_id=record_id).status
    if own.engine_version != services.engine_version(own.game):
        return services.record_verify(record_id=record_id).status  # a verification by a newer engine
    return own.status


def _status(record_id: int) -> str:
    status = GameRecord.objects.filter(pk=record_id).values_list("status", flat=True).first()
    if status is None:
        raise TournamentError(ErrorCode.NOT_FOUND, _("The game record does not exist."))
    return status
