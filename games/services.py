"""Every write of the games app: submit a record, verify it, settle the table, bulk import.

Lock order: the tournament row first (as every tournaments service), then GameRecord / ImportBatch
rows, then the results service's Round -> Table -> Result. GameRecord and ImportBatch rows are only
locked while their tournament is locked, so writes of one tournament stay serialised.
Errors are `TournamentError` with stable codes (tournaments/errors.py). Tasks are enqueued on commit.
"""

from __future__ import annotations

import functools
import hashlib
import io
import logging
import zipfile
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import IntegrityError, connection, transaction
from django.db.models import F, Q
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from games import settle
from games.bulk_writes import write_fields
from games.models import GameRecord, ImportBatch, ImportItem, RecordVerdict
from games.permissions import can_import_records
from games.selectors import result_agrees
from games.upload_store import upload_write
from games.variant_check import variant_differences
from rules.core.errors import RecordError
from rules.core.registry import get_engine
from rules.core.replay import load_json
from rules.core.trace import verify_with_final_snapshot
from rules.core.verdict import Verdict
from tournaments import prepared_sql
from tournaments.api_parsers import holds_unstorable, raw_depth_exceeds
from tournaments.errors import ErrorCode, TournamentError
from tournaments.models import (
    AuditLog,
    Entrant,
    EntrantMember,
    Player,
    Result,
    Round,
    Seat,
    Table,
    Tournament,
)
from tournaments.notifications import addresses_at_table
from tournaments.permissions import is_organiser, reporting_entrant_among
from tournaments.profiles import GameProfile, ProfileError, profile_for
from tournaments.raw_rows import Columns, build_joined
from tournaments.services import result_report_from_record
from tournaments.services.audit import audit_entry, audit_insert_with, audit_record, audit_write
from tournaments.services.locking import (
    TableLocks,
    lock_tournament,
    lock_tournament_quietly,
    open_result_exists,
)
from tournaments.services.results_bulk import RecordReport, results_report_from_records
from tournaments.services.tournaments import tournament_profile
from tournaments.webhooks.events import webhook_emit

logger = logging.getLogger(__name__)

SOURCES = {choice for choice, _ in GameRecord.Source.choices}


def max_record_bytes() -> int:
    return int(getattr(settings, "GAMES_RECORD_MAX_BYTES", 1_000_000))


def max_record_actions() -> int:
    return int(getattr(settings, "GAMES_RECORD_MAX_ACTIONS", 20_000))


def max_import_bytes() -> int:
    return int(getattr(settings, "GAMES_IMPORT_MAX_BYTES", 50_000_000))


def max_import_items() -> int:
    return int(getattr(settings, "GAMES_IMPORT_MAX_ITEMS", 1000))


def max_import_uncompressed() -> int:
    return int(getattr(settings, "GAMES_IMPORT_MAX_UNCOMPRESSED", 200_000_000))


# --- reading a record -------------------------------------------------------------------------------


@dataclass(frozen=True)
class ParsedRecord:
    text: str
    doc: dict[str, Any]
    sha256: str


def _action_count(doc: dict[str, Any]) -> int:
    deals = doc.get("deals")
    if not isinstance(deals, list):
        return 0
    count = 0
    for deal in deals:
        if isinstance(deal, dict):
            for key in ("turns", "events"):
                if isinstance(deal.get(key), list):
                    count += len(deal[key])
    return count


def _not_utf8(exc: UnicodeError) -> TournamentError:
    return TournamentError(ErrorCode.RECORD_UNREADABLE,
                           _("The record is not UTF-8 text (%(reason)s).") % {"reason": exc.reason})


def record_parse(data: bytes | str, *, depth_checked: bool = False) -> ParsedRecord:
    """Check the limits and read the JSON of one record; nothing is stored. `depth_checked`: the text's
    bracket depth was checked already against API_JSON_MAX_DEPTH (the API's middleware), not again.

    Raises `record_too_large` (bytes or actions), `json_too_deep`, `record_unreadable`.
    """
    try:
        raw = data.encode("utf-8") if isinstance(data, str) else bytes(data)
    except UnicodeEncodeError as exc:  # a pasted text holding half of a surrogate pair
        raise _not_utf8(exc) from exc
    limit = max_record_bytes()
    if len(raw) > limit:
        raise TournamentError(
            ErrorCode.RECORD_TOO_LARGE, _("The record is larger than %(limit)s bytes.") % {"limit": limit}, limit=limit,
            size=len(raw),
        )
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise _not_utf8(exc) from exc
    depth = int(settings.API_JSON_MAX_DEPTH)
    if not depth_checked and raw_depth_exceeds(text, depth):
        raise TournamentError(
            ErrorCode.JSON_TOO_DEEP, _("The record is nested more than %(depth)s levels deep.") % {"depth": depth},
            limit=depth,
        )
    try:
        doc = load_json(text)
    except RecordError as err:
        raise TournamentError(ErrorCode.RECORD_UNREADABLE, err.message) from err
    if not isinstance(doc, dict):
        raise TournamentError(ErrorCode.RECORD_UNREADABLE, _("A record must be a JSON object."))
    if holds_unstorable(text, doc):
        raise TournamentError(ErrorCode.RECORD_UNREADABLE, _(
            "The record contains a character that cannot be stored: U+0000 or half of a surrogate pair "
            "(written \\u0000 or \\ud800 to \\udfff in JSON)."))
    actions = _action_count(doc)
    if actions > max_record_actions():
        raise TournamentError(
            ErrorCode.RECORD_TOO_LARGE, _("The record has more than %(max)s actions.") % {"max": max_record_actions()},
            limit=max_record_actions(), actions=actions,
        )
    return ParsedRecord(text=text, doc=doc, sha256=hashlib.sha256(text.encode("utf-8")).hexdigest())


# --- matching a record to its table -----------------------------------------------------------------


def _mismatch(message: str, **details: Any) -> TournamentError:
    return TournamentError(ErrorCode.RECORD_PLAYERS_MISMATCH, message, **details)


def _check_game(doc: dict[str, Any], tournament: Tournament, profile: GameProfile, seated: int) -> None:
    """The record's game and the variant keys the profile names must be the tournament's."""
    game = doc.get("game")
    if game != tournament.game:
        raise TournamentError(
            ErrorCode.RECORD_GAME_MISMATCH,
            _("The record is a game of %(record)s, the tournament plays %(tournament)s.")
            % {"record": repr(game), "tournament": repr(tournament.game)},
        )
    variant = doc.get("variant", {})
    if not isinstance(variant, dict):
        raise TournamentError(ErrorCode.RECORD_GAME_MISMATCH, _("The record's variant must be a JSON object."))
    expected = dict(profile.variant)
    if "seats" in expected and seated < profile.entrants_per_table:
        expected["seats"] = seated * profile.players_per_entrant  # a short-handed table plays with fewer seats
    named = {key: variant[key] for key in expected if key in variant}
    try:
        found = dict(profile_for(profile.game, named).variant)
    except ProfileError as exc:
        raise TournamentError(
            ErrorCode.RECORD_GAME_MISMATCH,
            _("The record's variant does not fit: %(error)s") % {"error": exc},
        ) from exc
    if found != expected:
        differ = sorted(key for key in expected if found.get(key) != expected[key])
        raise TournamentError(
            ErrorCode.RECORD_GAME_MISMATCH,
            _("The record's variant differs from the tournament's in: %(differences)s.") % {"differences": ", ".join(
                _("%(key)s (record %(record)s, tournament %(tournament)s)")
                % {"key": k, "record": repr(found.get(k)), "tournament": repr(expected[k])}
                for k in differ
            )},
            expected=expected, found=found,
        )
    exact = variant_differences(profile.game, variant, expected, doc.get("players"))
    if exact:
        raise TournamentError(
            ErrorCode.RECORD_GAME_MISMATCH,
            _("The record's variant is another game than the table's: %(differences)s.") % {"differences": ", ".join(
                _("%(key)s (record %(record)s, tournament %(tournament)s)")
                % {"key": k, "record": repr(variant.get(k)), "tournament": repr(expected.get(k))}
                for k in exact
            )},
            expected=expected, found=dict(variant), keys=exact,
        )


@dataclass(frozen=True)
class _SeatedPlayer:
    player_id: int
    name: str
    entrant_id: int


@dataclass(frozen=True)
class SeatedEntrant:
    """An entrant seated at a table, with its players and their user ids (`_seated`)."""

    entrant: Entrant
    players: tuple[_SeatedPlayer, ...]
    user_ids: frozenset[int]


def _record_players(doc: dict[str, Any]) -> list[tuple[str, Any, list[int]]]:
    players = doc.get("players")
    if not isinstance(players, list) or not players:
        raise _mismatch(_("The record has no list of players."))
    out = []
    for i, item in enumerate(players):
        if not isinstance(item, dict) or not isinstance(item.get("name"), str) or not isinstance(item.get("seats"), list):
            raise _mismatch(
                _("Player %(index)s of the record needs a name and a list of seats.") % {"index": i},
                path=f"/players/{i}",
            )
        seats = item["seats"]
        if any(isinstance(s, bool) or not isinstance(s, int) for s in seats):
            raise _mismatch(
                _("The seats of player %(index)s must be whole numbers.") % {"index": i},
                path=f"/players/{i}/seats",
            )
        out.append((item["name"], item.get("id"), list(seats)))
    return out


def _whole_number(value: Any, *, max_digits: int) -> int | None:
    """An int, or a string of at most `max_digits` ASCII digits, as an int; None for anything else."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, str):
        text = value.strip()
        if text.isascii() and text.isdigit() and len(text) <= max_digits:
            return int(text)
    return None


def _match_player(
    name: str, pid: Any, index: int, candidates: list[_SeatedPlayer], *, at_table: bool
) -> _SeatedPlayer:
    """The candidate a record player names; `at_table`: candidates are the table's (else the tournament's)."""
    if pid is not None and not isinstance(pid, bool):
        wanted = _whole_number(pid, max_digits=18)
        found = [c for c in candidates if c.player_id == wanted]
        if not found:
            message = (_("Player %(name)s (id %(id)s) of the record is not a player at this table.") if at_table
                       else _("Player %(name)s (id %(id)s) of the record is not a player of this tournament."))
            raise _mismatch(message % {"name": repr(name), "id": repr(pid)}, path=f"/players/{index}")
        return found[0]
    found = [c for c in candidates if c.name.strip().casefold() == name.strip().casefold()]
    if not found:
        message = (
            _("Player %(name)s of the record is not a player at this table; give the player's id or exact name.")
            if at_table else
            _("Player %(name)s of the record is not a player of this tournament; give the player's id or exact name.")
        )
        raise _mismatch(message % {"name": repr(name)}, path=f"/players/{index}")
    if len({c.player_id for c in found}) > 1:
        message = (_("The name %(name)s is ambiguous at this table; give the player's id.") if at_table
                   else _("The name %(name)s is ambiguous in this tournament; give the player's id."))
        raise _mismatch(message % {"name": repr(name)}, path=f"/players/{index}")
    return found[0]


def _teams(doc: dict[str, Any], n: int) -> list[set[int]]:
    variant = doc.get("variant") if isinstance(doc.get("variant"), dict) else {}
    teams = variant.get("teams") if isinstance(variant, dict) else None
    if isinstance(teams, list) and all(isinstance(t, list) for t in teams):
        return [{s for s in t if isinstance(s, int)} for t in teams]
    return [{s, s + n // 2} for s in range(n // 2)]


def seat_entrants_for(doc: dict[str, Any], profile: GameProfile, seated: list[SeatedEntrant]) -> list[int]:
    """Map the record's players to the table's entrants; per seat of the record, the entrant id.

    Each record player is a player of one seated entrant (by `id` = Player.pk, else by name, case
    folded); the seats of each entrant's players must be one side of the game: one seat in a game of
    single players, one team (partners opposite unless `variant.teams`) in a team game.
    """
    candidates = [player for seat in seated for player in seat.players]
    owner: dict[int, int] = {}
    for index, (name, pid, seats) in enumerate(_record_players(doc)):
        match = _match_player(name, pid, index, candidates, at_table=True)
        for seat in seats:
            if seat in owner:
                raise _mismatch(
                    _("Seat %(seat)s is held by two players in the record.") % {"seat": seat},
                    path=f"/players/{index}/seats",
                )
            owner[seat] = match.entrant_id
    n = len(owner)
    if sorted(owner) != list(range(n)):
        raise _mismatch(_("The record's players must hold the seats 0 to %(last)s.") % {"last": n - 1})
    by_entrant: dict[int, set[int]] = {}
    for seat, entrant_id in owner.items():
        by_entrant.setdefault(entrant_id, set()).add(seat)
    names = {seat.entrant.pk: seat.entrant.name for seat in seated}
    missing = [names[e] for e in names if e not in by_entrant]
    if missing:
        raise _mismatch(_("No player of %(names)s is in the record.") % {"names": ", ".join(missing)}, missing=missing)
    sides = [{s} for s in range(n)] if profile.players_per_entrant == 1 else _teams(doc, n)
    for entrant_id, seats in by_entrant.items():
        if seats not in sides:
            raise _mismatch(
                _("The players of %(name)s hold seats %(seats)s in the record; "
                  "they must hold exactly one side, one of: %(sides)s.")
                % {
                    "name": names[entrant_id], "seats": sorted(seats),
                    "sides": ", ".join(str(sorted(s)) for s in sides),
                },
            )
    return [owner[s] for s in range(n)]


@functools.cache
def _seated_sql() -> tuple[str, Columns]:
    """The SQL of `_seated_and_duplicate` and the entrant's columns in it, written out once
    (`games.raw_rows`): a record's POST runs it under the tournament lock, and the ORM spent 1.3 ms of CPU
    compiling the annotated join each time (issue 26)."""
    quote = connection.ops.quote_name
    entrant = Columns(Entrant, "e")
    return (
        f"SELECT s.{quote('id')}, m.{quote('player_id')}, p.{quote('name')}, p.{quote('user_id')}, "
        f"(SELECT g.{quote('id')} FROM {quote(GameRecord._meta.db_table)} g "
        f"WHERE g.{quote('table_id')} = %s AND g.{quote('sha256')} = %s LIMIT 1), {entrant.sql()} "
        f"FROM {quote(Seat._meta.db_table)} s "
        f"INNER JOIN {quote(Entrant._meta.db_table)} e ON s.{quote('entrant_id')} = e.{quote('id')} "
        f"LEFT OUTER JOIN {quote(EntrantMember._meta.db_table)} m ON m.{quote('entrant_id')} = e.{quote('id')} "
        f"LEFT OUTER JOIN {quote(Player._meta.db_table)} p ON m.{quote('player_id')} = p.{quote('id')} "
        f"WHERE s.{quote('table_id')} = %s ORDER BY s.{quote('position')}, m.{quote('id')}",
        entrant,
    )


def _seated_and_duplicate(table: Table, sha256: str | None = None) -> tuple[list[SeatedEntrant], int | None]:
    """The table's entrants in seat order with their players, in one query (a row per seat and player;
    an entrant without players keeps its seat); with `sha256`, the same query also reads the id of
    the table's record with that hash, if one was stored (`record_duplicate`)."""
    sql, entrant_columns = _seated_sql()
    with prepared_sql.cursor() as cursor:
        cursor.execute(sql, [table.pk, sha256 or "", table.pk])
        rows = cursor.fetchall()
    seats: dict[int, tuple[Entrant, list[_SeatedPlayer], set[int]]] = {}
    duplicate: int | None = None
    for seat_id, player_id, player_name, user_id, duplicate_id, *values in rows:
        if seat_id not in seats:
            seats[seat_id] = (entrant_columns.build(values), [], set())  # type: ignore[assignment]
        entrant, players, users = seats[seat_id]
        if player_id is not None:
            players.append(_SeatedPlayer(player_id=player_id, name=player_name, entrant_id=entrant.pk))
            if user_id is not None:
                users.add(user_id)
        duplicate = duplicate_id if sha256 is not None else None
    seated = [SeatedEntrant(entrant=e, players=tuple(p), user_ids=frozenset(u)) for e, p, u in seats.values()]
    return seated, duplicate


def _seated(table: Table) -> list[SeatedEntrant]:
    return _seated_and_duplicate(table)[0]


def _create_record(
    *, tournament: Tournament, table: Table, parsed: ParsedRecord, actor: Any, entrant: Entrant | None,
    source: str, batch: ImportBatch | None = None,
    seated: tuple[list[SeatedEntrant], int | None] | None = None,
) -> GameRecord:
    """Check the record against the (locked) tournament's table and store it as pending.
    `seated`: `_seated_and_duplicate(table, parsed.sha256)` when the caller read it already."""
    round_ = table.round
    if round_.status == Round.Status.DRAFT:
        raise TournamentError(ErrorCode.ROUND_NOT_PUBLISHED, _("The round is not published yet."))
    if table.is_bye:
        raise TournamentError(ErrorCode.INVALID_INPUT, _("A bye has no game to record."))
    profile = tournament_profile(tournament)
    entrants, duplicate = seated if seated is not None else _seated_and_duplicate(table, parsed.sha256)
    _check_game(parsed.doc, tournament, profile, len(entrants))
    seat_entrants = seat_entrants_for(parsed.doc, profile, entrants)
    if duplicate is not None:
        raise TournamentError(ErrorCode.RECORD_DUPLICATE, _("This record was already submitted for this table."),
                              record_id=duplicate)
    variant = parsed.doc.get("variant", {})
    try:
        # No savepoint: the callers' own atomic block (record_submit, _import_one) rolls back on the error.
        with transaction.atomic(savepoint=False):
            record = GameRecord(
                tournament=tournament, table=table,
                submitted_by=actor if getattr(actor, "is_authenticated", False) else None,
                submitted_for=entrant, source=source, batch=batch, raw=parsed.text, sha256=parsed.sha256,
                game=tournament.game, variant=variant if isinstance(variant, dict) else {},
                seat_entrants=seat_entrants,
            )
            # the record and its audit row in one statement (PostgreSQL): neither if the record is a duplicate
            audit_insert_with(record, action="game_record_submitted", tournament=tournament, actor=actor,
                              actor_entrant=entrant,
                              data={"table": table.pk, "source": source, "sha256": parsed.sha256})
    except IntegrityError as exc:
        raise TournamentError(
            ErrorCode.RECORD_DUPLICATE,
            _("This record was already submitted for this table."),
        ) from exc
    return record


def _enqueue(task_name: str, object_id: int, *more: Any) -> None:
    """Publish a games task; a broker that is down -> the task outbox (sent when the broker is back,
    `tournaments.task_outbox`); if the database refuses too, `records_reconcile` catches up."""
    from games import tasks
    from tournaments.task_outbox import publish

    try:
        publish(getattr(tasks, task_name), object_id, *more)
    except Exception:
        logger.exception("Could not enqueue %s(%s)", task_name, object_id)


def _enqueue_verify(record_id: int, tournament_id: int | None = None) -> None:
    """Send the record's verification once the transaction commits; with `tournament_id`, none while a
    task of the tournament is on its way that will take this record too (`verify_burst.wake`)."""
    from games import verify_burst

    def send() -> None:
        if tournament_id is None or not verify_burst.coalescing():
            _enqueue("record_verify", record_id)
        elif verify_burst.wake(tournament_id):
            _enqueue("record_verify", record_id, tournament_id)

    transaction.on_commit(send)


@transaction.atomic
def record_submit(
    *, table: Table, actor: Any = None, token: str | None = None, data: bytes | str, source: str,
    depth_checked: bool = False,
) -> GameRecord:
    """Store a record for `table` from a player of the table (account or token) or an organiser, and
    enqueue its verification. Nothing is stored when the record is refused. `depth_checked`: the
    request's JSON body (this record) passed the API's depth check already (`JsonDepthMiddleware`)."""
    if source not in SOURCES:
        raise TournamentError(ErrorCode.INVALID_INPUT, _("Unknown source %(source)s.") % {"source": repr(source)})
    parsed = record_parse(data, depth_checked=depth_checked)
    tournament = table.round.tournament
    if table.round.status == Round.Status.DRAFT:
        # A table of a published round takes no lock (issue 26, fourth pass): nothing the POST reads can
        # change under it. A round leaves the draft status once (published, then finished) and never
        # returns to it; a table never moves, becomes a bye or changes its seats once published; game and
        # variant, all `_create_record` reads of the tournament, are fixed at its creation; the record's
        # insert takes KEY SHARE on the tournament, table and entrant rows (none deleted meanwhile); two
        # equal records meet on the unique (table, sha256); the audit chain orders the audit rows. Waiting
        # on the tournament row instead put every POST behind each batch of verdicts the workers store
        # (which settle results and hold that lock). A draft table is read again under the tournament's
        # lock (without the bump of `public_version`: a pending record shows on no public page), as the
        # round may be published or discarded meanwhile.
        lock_tournament_quietly(table.round.tournament_id)
        fresh = Table.objects.select_related("round").filter(pk=table.pk).first()
        if fresh is None:  # the draft round was discarded meanwhile
            raise TournamentError(ErrorCode.NOT_FOUND, _("The table does not exist."))
        table = fresh
    seated = _seated_and_duplicate(table, parsed.sha256)
    entrant = reporting_entrant_among(actor, token, table, [(s.entrant, s.user_ids) for s in seated[0]])
    if entrant is None and not is_organiser(actor, tournament):
        raise TournamentError(
            ErrorCode.PERMISSION_DENIED, _("Only a player of this table or an organiser may submit its game record.")
        )
    record = _create_record(tournament=tournament, table=table, parsed=parsed, actor=actor, entrant=entrant,
                            source=source, seated=seated)
    _enqueue_verify(record.pk, tournament.pk)
    return record


# --- verification and settlement --------------------------------------------------------------------


def engine_version(game: str) -> str:
    try:
        return get_engine(game).version
    except LookupError:
        return ""


# What a verification writes (never the stored text, which can be a megabyte).
VERDICT_FIELDS = ["status", "complete", "error_code", "error_path", "error_message", "derived_result",
                  "derived_table_result", "engine_version", "verified_at", "result", "settlement", "settlement_note"]


def _apply_verdict(record: GameRecord, verdict: dict[str, Any], version: str, snapshot: dict[str, Any] | None,
                   profile: GameProfile) -> None:
    error = verdict.get("error") or {}
    record.status = GameRecord.Status.VALID if verdict.get("valid") else GameRecord.Status.INVALID
    record.complete = bool(verdict.get("complete"))
    record.error_code = str(error.get("code") or "")
    record.error_path = str(error.get("path") or "")[:500]
    record.error_message = str(error.get("message") or "")
    record.derived_result = verdict.get("result") if record.complete else None
    record.derived_table_result = None
    if record.status == GameRecord.Status.VALID and record.complete and record.derived_result:
        derived = settle.table_result(profile=profile, derived=record.derived_result,
                                      seat_entrants=record.seat_entrants, snapshot=snapshot)
        if derived is not None:
            derived = {**derived, **{k: {str(e): v for e, v in derived[k].items()}
                                     for k in ("scores", "placings") if k in derived}}
        record.derived_table_result = derived
    record.engine_version = version
    record.verified_at = timezone.now()


def _other_game(record: GameRecord) -> list[str]:
    """The variant keys in which a stored record's game is not its table's (records stored before the
    exact check at submission, or a tournament whose variant changed since): [] when it is the same."""
    tournament = record.table.round.tournament
    profile = tournament_profile(tournament)
    expected = dict(profile.variant)
    variant = record.variant if isinstance(record.variant, dict) else {}
    seats = len(record.seat_entrants or [])
    if "seats" in expected and isinstance(variant.get("seats"), int) and 0 < variant["seats"] < expected["seats"]:
        expected["seats"] = variant["seats"]  # a short-handed table (checked against the seated at submission)
    if record.game != tournament.game:
        return ["game"]
    return variant_differences(record.game, variant, expected, [{"seats": list(range(seats))}] if seats else None)


def _settle(record: GameRecord, locked: TableLocks, audit: list[Any]) -> None:
    """A valid complete record reports its result; a table with a different result is left alone.
    `locked`: the record's table, round and tournament, locked by the caller; the result's audit rows
    are appended to `audit` for the caller to write with its own."""
    expected = record.derived_table_result
    if expected is None:
        record.settlement = GameRecord.Settlement.NONE
        record.settlement_note = "The table's result could not be derived from the record."
        return
    differ = _other_game(record)
    if differ:
        record.settlement = GameRecord.Settlement.NONE
        keys = ", ".join(differ)
        record.settlement_note = f"The record's variant is another game than the table's ({keys}): it settles nothing."[:500]
        return
    reported: list[Any] = []
    try:
        outcome = result_report_from_record(
            table=record.table, actor=record.submitted_by, entrant=record.submitted_for,
            note=f"From game record #{record.pk}", locked=locked, audit=reported, **expected,
        )
    except TournamentError as err:
        if err.code not in (ErrorCode.RESULT_ALREADY_FINAL, ErrorCode.RESULT_ALREADY_REPORTED):
            record.settlement = GameRecord.Settlement.NONE
            record.settlement_note = err.message[:500]
            return
        current = (
            record.table.results.filter(state__in=[*Result.FINAL_STATES, Result.State.REPORTED])
            .prefetch_related("scores").order_by("-created_at", "-id").first()
        )
        record.result = current
        if current is not None and result_agrees(expected=expected, result=current):
            record.settlement = GameRecord.Settlement.UNCHANGED
            record.settlement_note = "The table already has this result."
        else:
            record.settlement = GameRecord.Settlement.CONFLICT
            record.settlement_note = "The table's result differs from the one the record proves."
        return
    audit.extend(reported)
    result = outcome.result
    record.result = result
    if not outcome.changed:
        record.settlement = GameRecord.Settlement.UNCHANGED
        record.settlement_note = "The table already has this result."
        return
    record.settlement = GameRecord.Settlement.SETTLED
    record.settlement_note = (
        "The result was confirmed." if result.state != Result.State.REPORTED else "The result is reported; the opponents or an organiser confirm it."
    )


def verify_record_text(text: str, *, file: str) -> tuple[Verdict, dict[str, Any] | None]:
    """The engine's verdict on a record's text and, when valid, its final position (the table is
    settled from it): both from one replay."""
    try:
        doc = load_json(text)
    except RecordError as err:
        return Verdict.invalid(file, None, err), None
    return verify_with_final_snapshot(doc, file=file)


# Background work stores its sentences (verdict errors, settlement notes, import item errors) in the
# database: always in English, whatever language the worker or the request that ran it eagerly is in.
@translation.override("en")
def record_verify(*, record_id: int) -> GameRecord:
    """Verify a record with the current engine, store the verdict, settle the table if valid and complete.

    Idempotent: keyed by (record, engine version); a second call with the same engine does nothing.
    The replay runs outside the transaction; the writes happen under the tournament lock.
    """
    try:
        record = GameRecord.objects.get(pk=record_id)
    except GameRecord.DoesNotExist as exc:
        raise TournamentError(ErrorCode.NOT_FOUND, _("The game record does not exist.")) from exc
    version = engine_version(record.game)
    if record.engine_version == version and record.status != GameRecord.Status.PENDING:
        return record
    # A record verified before (by another engine version: a re-verification) may find the verdict this
    # version gave it in an earlier run: kept, not replayed. A new record has none (a verdict is stored
    # with the record's own update), so it saves the query.
    stored: dict[str, Any] | None = None
    if record.engine_version:
        stored = (RecordVerdict.objects.filter(record_id=record_id, engine_version=version)
                  .values_list("verdict", flat=True).first())
    snapshot = None
    if stored is not None:
        verdict = stored
        if verdict.get("valid") and verdict.get("complete"):
            snapshot = settle.final_position(record.document())
    else:
        checked, final = verify_record_text(record.raw, file=f"record-{record.pk}")
        verdict = checked.to_json()
        if checked.valid and checked.complete:
            snapshot = final
    return _store_verdict(record_id=record_id, tournament_id=record.tournament_id, version=version, verdict=verdict,
                          snapshot=snapshot)


def _store_verdict(*, record_id: int, tournament_id: int, version: str, verdict: dict[str, Any],
                   snapshot: dict[str, Any] | None) -> GameRecord:
    """Under the tournament lock: `store_checked` for one record; the record as it is after."""
    with transaction.atomic():
        tournament = lock_tournament(tournament_id)
        stored = store_checked(tournament, {record_id: Checked(version, verdict, snapshot)})
        record = stored[0] if stored else GameRecord.objects.filter(pk=record_id).first()
    if record is None:  # deleted meanwhile
        raise TournamentError(ErrorCode.NOT_FOUND, _("The game record does not exist."))
    return record


@dataclass(frozen=True)
class Checked:
    """A replay's outcome for a stored record: the engine version, its verdict (`Verdict.to_json`) and, for
    a valid complete record, the final position (the table is settled from it)."""

    version: str
    verdict: dict[str, Any]
    snapshot: dict[str, Any] | None


@functools.cache
def _verdict_sql() -> tuple[str, list[Any], list[Columns]]:
    """The SQL of `_locked_for_verdicts`, its fixed parameters and its columns, written out once per
    process (`tournaments.raw_rows`). The two EXISTS of the table locks (`open_result_exists`,
    `addresses_at_table`) are compiled by the ORM, once, from the same expressions."""
    quote = connection.ops.quote_name
    records = quote(GameRecord._meta.db_table)
    exists = (GameRecord.objects.order_by().annotate(o=open_result_exists("table_id"), a=addresses_at_table("table_id"))
              .values_list("o", "a"))
    sql, params = exists.query.sql_with_params()
    head, tail = "SELECT ", f" FROM {records}"
    if not (sql.startswith(head) and sql.endswith(tail)):
        raise RuntimeError(f"Unexpected SQL for the table locks' EXISTS: {sql!r}")
    parts = [Columns(GameRecord, records, defer=("raw",)), Columns(Table, "t"), Columns(Round, "r"),
             Columns(get_user_model(), "u"), Columns(Entrant, "e")]
    return (
        f"SELECT {', '.join(part.sql() for part in parts)}, {sql[len(head):-len(tail)]} FROM {records} "
        f"INNER JOIN {quote(Table._meta.db_table)} t ON {records}.{quote('table_id')} = t.{quote('id')} "
        f"INNER JOIN {quote(Round._meta.db_table)} r ON t.{quote('round_id')} = r.{quote('id')} "
        f"LEFT OUTER JOIN {quote(get_user_model()._meta.db_table)} u "
        f"ON {records}.{quote('submitted_by_id')} = u.{quote('id')} "
        f"LEFT OUTER JOIN {quote(Entrant._meta.db_table)} e ON {records}.{quote('submitted_for_id')} = e.{quote('id')} "
        f"WHERE {records}.{quote('id')} = ANY(%s) ORDER BY {records}.{quote('id')} "
        f"FOR NO KEY UPDATE OF {records}, t, r", list(params), parts)


def locked_for_verdicts_orm(ids: list[int]) -> list[GameRecord]:
    """What `_locked_for_verdicts` reads, through the ORM (other databases; the reference of its test)."""
    return list(
        GameRecord.objects.select_for_update(of=("self", "table", "table__round"), no_key=True)
        .select_related("table__round", "submitted_for", "submitted_by").defer("raw")
        .annotate(table_has_open_result=open_result_exists("table_id"),
                  table_has_addresses=addresses_at_table("table_id"))
        .filter(pk__in=ids).order_by("pk"))


def _locked_for_verdicts(ids: list[int]) -> list[GameRecord]:
    """The records `ids` with their tables and rounds locked (`FOR NO KEY UPDATE`), without their text,
    with their table, round, submitter and entrant, and whether each table has an open result
    (`table_has_open_result`) and an address (`table_has_addresses`): what `select_related` and the two
    annotations gave, in one query written out once. The ORM spent about 6 ms of the worker's CPU
    compiling it for every batch of records verified (issue 26, third pass). SQLite: the ORM's query."""
    if connection.vendor != "postgresql":
        return locked_for_verdicts_orm(ids)
    sql, params, parts = _verdict_sql()
    with prepared_sql.cursor() as cursor:
        cursor.execute(sql, [*params, list(ids)])
        rows = cursor.fetchall()
    out = []
    for row in rows:
        (record, table, round_, user, entrant), flags = build_joined(parts, row)
        assert isinstance(record, GameRecord) and isinstance(table, Table)
        table.round = round_
        record.table = table
        record.submitted_by = user
        record.submitted_for = entrant
        record.table_has_open_result, record.table_has_addresses = flags  # type: ignore[attr-defined]
        out.append(record)
    return out


def store_checked(tournament: Tournament, checked: Mapping[int, Checked], *,
                  order: Mapping[int, int] | None = None) -> list[GameRecord]:
    """Store the verdicts of records replayed outside the lock and settle their tables, in the caller's
    transaction, which holds `tournament`'s lock; the records written, in `order` (record id -> rank;
    by id when not given).

    Only a record still pending, or verified by another engine version, is written (a record verified
    meanwhile by another task is left as it is). The records, their tables and rounds are locked by one
    query, which also reads whether each table has an open result and an addressee; each verdict is
    kept as its engine version's (first one wins); the valid complete records settle their tables in
    order (`settle_records`); a change of verdict gets an audit row after the results' rows."""
    records = [
        record for record in _locked_for_verdicts(list(checked))
        if record.status == GameRecord.Status.PENDING or record.engine_version != checked[record.pk].version
    ]
    if not records:
        return []
    records.sort(key=(lambda record: order.get(record.pk, 0)) if order is not None else (lambda record: record.pk))
    # One instance per table, so that a second record of a table sees the result the first settled.
    tables: dict[int, Table] = {}
    open_result: dict[int, bool] = {}
    for record in records:
        table = record.table = tables.setdefault(record.table_id, record.table)
        table.has_addresses = record.table_has_addresses  # type: ignore[attr-defined]
        open_result[table.pk] = record.table_has_open_result  # type: ignore[attr-defined]
    RecordVerdict.objects.bulk_create(
        [RecordVerdict(record=record, engine_version=checked[record.pk].version, verdict=checked[record.pk].verdict)
         for record in records], ignore_conflicts=True)
    previous = {record.pk: (record.status, record.error_code) for record in records}
    profile = tournament_profile(tournament)
    for record in records:
        outcome = checked[record.pk]
        _apply_verdict(record, outcome.verdict, outcome.version, outcome.snapshot, profile)
    audit: list[AuditLog] = []
    settle_records(tournament, [record for record in records if record.status == GameRecord.Status.VALID
                                and record.complete and record.settlement == GameRecord.Settlement.NONE],
                   audit, open_result=open_result)
    for record in records:
        if previous[record.pk] != (record.status, record.error_code):
            audit.append(verified_entry(tournament, record))
    write_fields(records, VERDICT_FIELDS)
    audit_write(audit)
    return records


def verified_entry(tournament: Tournament, record: GameRecord) -> AuditLog:
    """The audit row of a record's new verdict; also announces `record.verified` to the tournament's
    webhooks once the caller's transaction commits (tournaments.webhooks)."""
    webhook_emit("record.verified", tournament=tournament, data={
        "record": {"id": record.pk, "status": record.status, "complete": record.complete,
                   "error_code": record.error_code, "engine_version": record.engine_version,
                   "settlement": record.settlement},
        "table": {"id": record.table_id}})
    return audit_entry(
        action="game_record_verified", tournament=tournament, obj=record, actor=None,
        data={"status": record.status, "complete": record.complete, "error_code": record.error_code,
              "engine_version": record.engine_version, "settlement": record.settlement})


def settle_records(tournament: Tournament, records: list[GameRecord], audit: list[AuditLog], *,
                   open_result: Mapping[int, bool] | None = None) -> None:
    """Settle the tables of valid complete records (in the order given), as `_settle` one by one would:
    the plain reports at once (`results_report_from_records`), then the others one by one. The records'
    tables are locked (with their rounds, after the tournament) and carry `has_addresses`;
    `open_result`: per table id, whether it had an open result when locked (read again when not given)."""
    def locks(record: GameRecord, *, read: bool) -> TableLocks:
        return TableLocks(tournament=tournament, round=record.table.round, table=record.table,
                          has_open_result=(open_result or {}).get(record.table_id) if read else None,
                          has_addresses=getattr(record.table, "has_addresses", None))

    plain = [record for record in records if record.derived_table_result is not None]
    outcomes = dict(zip((record.pk for record in plain), results_report_from_records(
        tournament=tournament, audit=audit,
        reports=[RecordReport(locked=locks(record, read=True), entrant=record.submitted_for,
                              actor=record.submitted_by, note=f"From game record #{record.pk}",
                              **record.derived_table_result)
                 for record in plain],
    ), strict=True))
    for record in records:
        outcome = outcomes.get(record.pk)
        if isinstance(outcome, TournamentError):
            record.settlement = GameRecord.Settlement.NONE
            record.settlement_note = outcome.message[:500]
        elif outcome is not None:
            record.result = outcome.result
            record.settlement = GameRecord.Settlement.SETTLED
            record.settlement_note = "The result is reported; the opponents or an organiser confirm it."
    for record in records:
        if record.pk not in outcomes or outcomes[record.pk] is None:
            # (an open result read when the table was locked may be one settled just above)
            _settle(record, locks(record, read=False), audit)


VERIFY_TIMEOUT_CODE = "verification_timeout"


@translation.override("en")
def record_verify_timed_out(*, record_id: int, seconds: int) -> GameRecord | None:
    """The verification ran out of time: store that as this engine version's verdict (invalid, code
    `verification_timeout`) so that the record is not retried for ever and its page says why."""
    found = GameRecord.objects.filter(pk=record_id).values_list("game", "tournament_id").first()
    if found is None:
        return None
    game, tournament_id = found
    verdict = {
        "file": f"record-{record_id}", "valid": False, "complete": False, "game": game, "result": None,
        "error": {"path": "", "code": VERIFY_TIMEOUT_CODE,
                  "message": f"The verification took longer than {seconds} seconds; the record is too costly to check."},
    }
    return _store_verdict(record_id=record_id, tournament_id=tournament_id, version=engine_version(game),
                          verdict=verdict, snapshot=None)


def records_needing_verification(*, tournament: Tournament | None = None) -> list[int]:
    """Ids of records never verified or verified by another engine version than the current one."""
    records = GameRecord.objects.all()
    if tournament is not None:
        records = records.filter(tournament=tournament)
    ids: list[int] = []
    for game in records.order_by().values_list("game", flat=True).distinct():
        version = engine_version(game)
        ids.extend(
            records.filter(game=game).filter(~Q(engine_version=version) | Q(status=GameRecord.Status.PENDING))
            .order_by("pk").values_list("pk", flat=True)
        )
    return sorted(ids)


# --- bulk import ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class ImportEntry:
    name: str
    data: bytes | None
    error_code: str = ""
    error_message: str = ""


def _zip_members(data: bytes) -> tuple[zipfile.ZipFile, list[zipfile.ZipInfo]]:
    """The archive and its .json members, from the central directory alone (nothing unpacked); limits checked."""
    try:
        archive = zipfile.ZipFile(io.BytesIO(data))
        members = [m for m in archive.infolist() if not m.is_dir() and m.filename.lower().endswith(".json")
                   and not m.filename.startswith("__MACOSX/")]
    except (zipfile.BadZipFile, zipfile.LargeZipFile, ValueError, OSError) as exc:
        raise TournamentError(
            ErrorCode.IMPORT_UNREADABLE,
            _("The ZIP file cannot be read: %(error)s.") % {"error": exc},
        ) from exc
    if len(members) > max_import_items():
        raise TournamentError(
            ErrorCode.IMPORT_TOO_LARGE,
            _("The ZIP file holds more than %(max)s records.") % {"max": max_import_items()},
        )
    if sum(m.file_size for m in members) > max_import_uncompressed():
        raise TournamentError(ErrorCode.IMPORT_TOO_LARGE, _("The ZIP file unpacks to too much data."))
    return archive, members


def _zip_entries(data: bytes, start: int = 0, stop: int | None = None) -> list[ImportEntry]:
    archive, members = _zip_members(data)
    limit = max_record_bytes()
    entries = []
    for member in members[start:stop]:  # only the members asked for are unpacked
        name = member.filename[-255:]
        if member.file_size > limit:
            entries.append(ImportEntry(name, None, ErrorCode.RECORD_TOO_LARGE,
                                       _("The record is larger than %(limit)s bytes.") % {"limit": limit}))
            continue
        try:
            with archive.open(member) as handle:
                content = handle.read(limit + 1)  # never trust the declared size (zip bomb)
        except (zipfile.BadZipFile, RuntimeError, NotImplementedError, OSError, EOFError, ValueError) as exc:
            entries.append(ImportEntry(
                name,
                None,
                ErrorCode.RECORD_UNREADABLE,
                _("The member cannot be read: %(error)s.") % {"error": exc},
            ))
            continue
        if len(content) > limit:
            entries.append(ImportEntry(name, None, ErrorCode.RECORD_TOO_LARGE,
                                       _("The record is larger than %(limit)s bytes.") % {"limit": limit}))
            continue
        entries.append(ImportEntry(name, content))
    return entries


def _jsonl_lines(data: bytes) -> list[tuple[int, str]]:
    """The non-blank lines of a JSON Lines file with their line numbers (at most `max_import_items`)."""
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise TournamentError(ErrorCode.IMPORT_UNREADABLE, _("A JSON Lines file must be UTF-8 text.")) from exc
    lines = [(number, line) for number, line in enumerate(text.splitlines(), start=1) if line.strip()]
    if len(lines) > max_import_items():
        raise TournamentError(
            ErrorCode.IMPORT_TOO_LARGE,
            _("The file holds more than %(max)s records.") % {"max": max_import_items()},
        )
    return lines


def _jsonl_entries(data: bytes, start: int = 0, stop: int | None = None) -> list[ImportEntry]:
    # only the lines asked for are encoded (each chunk of a batch reads the whole upload)
    return [ImportEntry(f"line {number}", line.encode("utf-8")) for number, line in _jsonl_lines(data)[start:stop]]


def _is_zip(data: bytes) -> bool:
    return data[:4] == b"PK\x03\x04" or data[:4] == b"PK\x05\x06"


def _no_records() -> TournamentError:
    return TournamentError(ErrorCode.IMPORT_UNREADABLE, _("The file holds no records."))


def import_entries(data: bytes, *, start: int = 0, stop: int | None = None) -> list[ImportEntry]:
    """The items of a ZIP (its .json members) or JSON Lines file, in file order; limits checked.
    `start`, `stop`: the items `[start, stop)` only (a chunk of a batch; a ZIP unpacks only those)."""
    entries = _zip_entries(data, start, stop) if _is_zip(data) else _jsonl_entries(data, start, stop)
    if not entries and start == 0:
        raise _no_records()
    return entries


def import_item_sizes(data: bytes) -> list[int]:
    """The size in bytes of each item `import_entries` will give (a ZIP member's declared size), with the
    same refusals as `import_size`; the batch task cuts its chunks by them."""
    if _is_zip(data):
        sizes = [member.file_size for member in _zip_members(data)[1]]
    else:
        sizes = [len(line.encode("utf-8")) for _number, line in _jsonl_lines(data)]
    if not sizes:
        raise _no_records()
    return sizes


def import_size(data: bytes) -> int:
    """How many items `import_entries` will give, with the same refusals, without unpacking a ZIP's
    members nor encoding a JSON Lines file's lines (the upload is checked in the request)."""
    count = len(_zip_members(data)[1]) if _is_zip(data) else len(_jsonl_lines(data))
    if not count:
        raise _no_records()
    return count


@transaction.atomic
def records_import(*, tournament: Tournament, actor: Any, filename: str, data: bytes) -> ImportBatch:
    """An organiser uploads many records; they are stored and verified one by one in the background."""
    if not can_import_records(actor, tournament):
        raise TournamentError(ErrorCode.PERMISSION_DENIED, _("Only an organiser may import game records."))
    if len(data) > max_import_bytes():
        raise TournamentError(
            ErrorCode.IMPORT_TOO_LARGE,
            _("The file is larger than %(limit)s bytes.") % {"limit": max_import_bytes()},
        )
    total = import_size(data)
    tournament = lock_tournament(tournament.pk)
    batch = ImportBatch.objects.create(
        tournament=tournament, created_by=actor, filename=(filename or "").replace("\x00", "")[-255:], total=total,
    )
    upload_write(batch.pk, data)
    batch.upload = data
    audit_record(action="game_records_imported", tournament=tournament, obj=batch, actor=actor,
                 data={"filename": batch.filename, "total": batch.total})
    transaction.on_commit(lambda: _enqueue("import_batch_process", batch.pk))
    return batch


def _meta_number(value: Any) -> int | None:
    """A round or table number from `meta` (int or digits), None if absent or out of range."""
    number = _whole_number(value, max_digits=5)
    return number if number is not None and 1 <= number <= 32767 else None


def import_table(*, tournament: Tournament, doc: dict[str, Any]) -> Table:
    """The table of one imported record (`games.import_pipeline.tables_of`, which a bulk import runs for a
    whole chunk); `record_table_not_found` or a player's error if there is none."""
    from games import import_pipeline

    found = import_pipeline.tables_of(tournament, {0: doc})[0]
    if isinstance(found, TournamentError):
        raise found
    return found


def _import_one(batch: ImportBatch, index: int, entry: ImportEntry) -> int | None:
    """Store item `index` (a record or its error) in one transaction; the record id, if any."""
    with transaction.atomic():
        tournament = lock_tournament(batch.tournament_id)
        if ImportItem.objects.filter(batch=batch, index=index).exists():
            return None
        record: GameRecord | None = None
        code, message = entry.error_code, entry.error_message
        if entry.data is not None:
            try:
                with transaction.atomic():
                    parsed = record_parse(entry.data)
                    table = import_table(tournament=tournament, doc=parsed.doc)
                    record = _create_record(tournament=tournament, table=table, parsed=parsed,
                                            actor=batch.created_by, entrant=None, source=GameRecord.Source.IMPORT,
                                            batch=batch)
            except TournamentError as err:
                code, message = str(err.code), err.message
        ImportItem.objects.create(batch=batch, index=index, name=entry.name, record=record,
                                  error_code=str(code), error_message=message[:500])
        ImportBatch.objects.filter(pk=batch.pk).update(processed=F("processed") + 1)  # one item, once (unique index)
        return record.pk if record is not None else None


def import_batch_process(*, batch_id: int) -> ImportBatch:
    """Process the chunks of a batch one after the other, here (`games.import_pipeline`; the task
    `games.tasks.import_batch_process` spreads them over the workers instead): each item is stored once
    with its record or its error, each record verified and its table settled, in file order.

    Safe to run again (a redelivered task after a killed worker): items already stored are skipped
    (unique (batch, index)), records still pending are verified; nothing is duplicated.
    """
    from games import import_pipeline

    for start, stop in import_pipeline.import_batch_start(batch_id=batch_id):
        import_pipeline.import_chunk_process(batch_id=batch_id, start=start, stop=stop, in_order=False)
    return ImportBatch.objects.get(pk=batch_id)


STALLED_IMPORT_SECONDS = 3600


def records_reconcile(*, older_than_seconds: int | None = None) -> dict[str, list[int]]:
    """Enqueue again what a lost message left behind: records still pending and imports still queued
    some time after they were created, or still running an hour after (both tasks are safe to run twice)."""
    if older_than_seconds is None:
        older_than_seconds = int(getattr(settings, "RECORDS_RECONCILE_AGE_SECONDS", 120))
    cutoff = timezone.now() - timedelta(seconds=older_than_seconds)
    records = list(GameRecord.objects.filter(status=GameRecord.Status.PENDING, created_at__lt=cutoff,
                                             batch__isnull=True).order_by("pk").values_list("pk", flat=True)[:1000])
    # A batch still running long after it began lost a chunk's message (the broker refused a publish):
    # its task enqueues every chunk again, and the chunks skip what is done.
    stalled = timezone.now() - timedelta(seconds=STALLED_IMPORT_SECONDS)
    batches = list(ImportBatch.objects.filter(Q(status=ImportBatch.Status.QUEUED, created_at__lt=cutoff)
                                              | Q(status=ImportBatch.Status.RUNNING, created_at__lt=stalled))
                   .order_by("pk").values_list("pk", flat=True)[:100])
    for record_id in records:
        _enqueue("record_verify", record_id)
    for batch_id in batches:
        _enqueue("import_batch_process", batch_id)
    return {"records": records, "batches": batches}
