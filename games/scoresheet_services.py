"""Every write of a live scoresheet (issue 16): start, add an entry, undo, finish (or the organiser's time
call), abandon. The game itself is `rules.scoresheet` (pure): these functions load the sheet, check who
acts, call the engine, store its new JSON state and audit the change.

Each write is one transaction: the tournament row first (as every service), then the `Scoresheet` row
(`select_for_update`), then, when finishing, what `games.services` locks to store the record. A write
names the `version` it was made on; a stale version is refused with `scoresheet_stale` (409), so two
phones entering at once cannot both succeed. An entry the engine refuses changes nothing and is raised
as `EntryRefusedError` (HTTP 400, the engine's verdict code as the error code, the turn in details).
Finishing turns the sheet into a `GameRecord` through the same checks as an uploaded record
(`games.services._create_record`) and enqueues the same verification task on commit.
"""

from __future__ import annotations

import json
from types import ModuleType
from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from games.demo import table_players
from games.models import GameRecord, Scoresheet
from games.permissions import can_call_time, can_keep_scoresheet
from games.services import (
    _create_record,
    _enqueue_verify,
    _seated,
    record_parse,
    seat_entrants_for,
)
from tournaments.errors import ErrorCode, TournamentError
from tournaments.models import Entrant, Round, Table, Tournament
from tournaments.permissions import reporting_entrant
from tournaments.services.audit import audit_record
from tournaments.services.locking import lock_tournament
from tournaments.services.tournaments import tournament_profile

ENTRY_MAX_CHARS = 10_000  # one entry in record notation is a few hundred characters at most


def engine() -> ModuleType:
    """The pure scoresheet engine (`rules.scoresheet`), imported when first needed."""
    from rules import scoresheet

    return scoresheet


def sheet_entries(sheet: Scoresheet) -> list[Any]:
    """Every entry of the sheet, in order (the engine's state keeps them under "entries")."""
    entries = sheet.state.get("entries") if isinstance(sheet.state, dict) else None
    return list(entries) if isinstance(entries, list) else []


def supported_games() -> frozenset[str]:
    try:
        return frozenset(engine().SUPPORTED_GAMES)
    except ImportError:
        return frozenset()


class EntryRefusedError(TournamentError):
    """The engine refused an entry (or the record at the end): HTTP 400, `code` is the verdict code
    (`illegal_move`, `wrong_seat`, `must_play`, …), details name the `turn` when the engine does."""

    def __init__(self, code: str, message: str, **details: Any) -> None:
        super().__init__(code, message, **details)  # type: ignore[arg-type]

    @property
    def http_status(self) -> int:
        return 400


def _refused(err: Any, players: Any = None) -> EntryRefusedError:
    """The engine's refusal as a 400: the message in the visitor's language naming the player and the
    card (games.scoresheet_words), details `turn` and the engine's `reason` with its parameters."""
    from games.scoresheet_words import refusal_text, seat_names

    details: dict[str, Any] = {}
    turn = getattr(err, "turn", None)
    if turn is not None:
        details["turn"] = turn
    params = dict(getattr(err, "params", None) or {})
    if params:
        details["reason"] = params
    code = str(getattr(err, "code", "illegal_move"))
    message = str(getattr(err, "message", err))
    if params.get("reason"):
        message = refusal_text(code, message, params, seat_names(players or []))
    return EntryRefusedError(code, message, **details)


def _denied() -> TournamentError:
    return TournamentError(
        ErrorCode.PERMISSION_DENIED, _("Only a player of this table or an organiser may keep its scoresheet.")
    )


def _acting_entrant(actor: Any, token: str | None, table: Table) -> Entrant | None:
    """The entrant on whose behalf `actor`/`token` acts; PERMISSION_DENIED if neither a player of the
    table nor an organiser."""
    if not can_keep_scoresheet(actor, token, table):
        raise _denied()
    return reporting_entrant(actor, token, table)


def _sheet_variant(tournament: Tournament, table: Table, seated: int) -> dict[str, Any]:
    """The tournament's variant as the record carries it; a short-handed table plays with fewer seats."""
    profile = tournament_profile(tournament)
    variant = dict(profile.variant)
    if "seats" in variant and seated < profile.entrants_per_table:
        variant["seats"] = seated * profile.players_per_entrant
    return variant


def seat_players(table: Table) -> list[dict[str, Any]]:
    """The record's `players` in the table's order, sorted by seat (one seat each)."""
    return sorted(table_players(table), key=lambda player: player["seats"][0])


def _players(table: Table, order: list[Any] | None) -> list[dict[str, Any]]:
    """The record's `players`: the table's order (`games.demo.table_players`), or the seat order the
    players confirmed (`order`: a Player id per seat), which must give each entrant one side."""
    default = seat_players(table)
    if order is None:
        return default
    by_id = {p["id"]: p for p in default}
    if not isinstance(order, list) or len(order) != len(default) or any(
        isinstance(pid, bool) or not isinstance(pid, int) for pid in order
    ):
        raise TournamentError(
            ErrorCode.INVALID_INPUT,
            _("The seat order must name each of the table's %(n)s players once, by id.") % {"n": len(default)},
        )
    if sorted(order) != sorted(by_id):
        raise TournamentError(
            ErrorCode.INVALID_INPUT,
            _("The seat order must name each of the table's %(n)s players once, by id.") % {"n": len(default)},
        )
    return [{"name": by_id[pid]["name"], "id": pid, "seats": [seat]} for seat, pid in enumerate(order)]


@transaction.atomic
def scoresheet_start(
    *, table: Table, actor: Any = None, token: str | None = None, dealer: Any, seat_order: list[Any] | None = None
) -> Scoresheet:
    """Open the live scoresheet of `table` with `dealer` dealing the first deal; the variant is the
    tournament's. At most one open sheet per table (`scoresheet_exists`, 409, names it)."""
    tournament = lock_tournament(table.round.tournament_id)
    table = Table.objects.select_related("round").get(pk=table.pk)
    entrant = _acting_entrant(actor, token, table)
    if table.round.status == Round.Status.DRAFT:
        raise TournamentError(ErrorCode.ROUND_NOT_PUBLISHED, _("The round is not published yet."))
    if table.is_bye:
        raise TournamentError(ErrorCode.INVALID_INPUT, _("A bye has no game to record."))
    if tournament.game not in supported_games():
        raise TournamentError(
            ErrorCode.SCORESHEET_UNSUPPORTED,
            _("Games of %(game)s cannot be recorded on a live scoresheet; upload their records instead.")
            % {"game": tournament.get_game_display()},
        )
    if isinstance(dealer, bool) or not isinstance(dealer, int):
        raise TournamentError(ErrorCode.INVALID_INPUT, _("The dealer must be a seat number."))
    existing = Scoresheet.objects.filter(table=table, status=Scoresheet.Status.OPEN).values_list("pk", flat=True).first()
    if existing is not None:
        raise TournamentError(ErrorCode.SCORESHEET_EXISTS, _("This table already has an open scoresheet."),
                              scoresheet_id=existing)
    seated = _seated(table)
    players = _players(table, seat_order)
    variant = _sheet_variant(tournament, table, len(seated))
    seat_entrants = seat_entrants_for({"game": tournament.game, "variant": variant, "players": players},
                                      tournament_profile(tournament), seated)
    if not 0 <= dealer < len(seat_entrants):
        raise TournamentError(ErrorCode.INVALID_INPUT, _("The dealer must be one of the seats 0 to %(last)s.")
                              % {"last": len(seat_entrants) - 1})
    meta = {"event": tournament.name, "round": table.round.number, "table": table.number, "scribe": "scoresheet"}
    try:
        state = engine().sheet_start(game=tournament.game, variant=variant, players=players, dealer=dealer, meta=meta)
    except engine().EntryRefused as err:
        raise _refused(err) from err
    try:
        with transaction.atomic():
            sheet = Scoresheet.objects.create(
                tournament=tournament, table=table, game=tournament.game, variant=variant, players=players,
                state=state,
                created_by=actor if getattr(actor, "is_authenticated", False) else None, created_for=entrant,
            )
    except IntegrityError as exc:
        raise TournamentError(ErrorCode.SCORESHEET_EXISTS, _("This table already has an open scoresheet.")) from exc
    audit_record(action="scoresheet_started", tournament=tournament, obj=sheet, actor=actor, actor_entrant=entrant,
                 data={"table": table.pk, "dealer": dealer, "players": players, "variant": variant})
    return sheet


def _lock_sheet(sheet_id: int, version: Any) -> tuple[Tournament, Scoresheet]:
    """Lock the sheet's tournament, then the sheet; it must be open and at `version`."""
    tournament_id = Scoresheet.objects.filter(pk=sheet_id).values_list("tournament_id", flat=True).first()
    if tournament_id is None:
        raise TournamentError(ErrorCode.NOT_FOUND, _("The scoresheet does not exist."))
    tournament = lock_tournament(tournament_id)
    sheet = Scoresheet.objects.select_for_update().select_related("table__round").get(pk=sheet_id)
    if isinstance(version, bool) or not isinstance(version, int):
        raise TournamentError(ErrorCode.INVALID_INPUT, _("Send the `version` of the sheet you are looking at."))
    return tournament, sheet


def _check_open(sheet: Scoresheet, version: int) -> None:
    if sheet.status != Scoresheet.Status.OPEN:
        raise TournamentError(ErrorCode.SCORESHEET_CLOSED, _("This scoresheet is closed."), version=sheet.version,
                              status=sheet.status)
    if version != sheet.version:
        raise TournamentError(
            ErrorCode.SCORESHEET_STALE,
            _("Someone else changed the scoresheet meanwhile; here is its current state. Check it and enter again."),
            version=sheet.version,
        )


def _save(sheet: Scoresheet, state: dict[str, Any]) -> None:
    view = engine().sheet_view(state)
    sheet.state = state
    sheet._sheet_view = view  # type: ignore[attr-defined]  # read again by the answer (scoresheet_data)
    sheet.version += 1
    sheet.entries = int(view.entries)
    sheet.save(update_fields=["state", "version", "entries", "updated_at"])


@transaction.atomic
def scoresheet_add(*, sheet_id: int, actor: Any = None, token: str | None = None, version: Any,
                   entry: Any) -> Scoresheet:
    """Add one entry in record notation (a turn's action, or a deal's `{"exchange": [...]}` /
    `{"announce": [...]}`); the engine refuses anything that cannot be legal, and nothing changes."""
    tournament, sheet = _lock_sheet(sheet_id, version)
    entrant = _acting_entrant(actor, token, sheet.table)
    _check_open(sheet, version)
    if not isinstance(entry, dict) or len(json.dumps(entry)) > ENTRY_MAX_CHARS:
        raise TournamentError(ErrorCode.INVALID_INPUT, _("An entry is one JSON object in record notation."))
    try:
        state = engine().sheet_add(sheet.state, entry)
    except engine().EntryRefused as err:
        raise _refused(err, sheet.players) from err
    _save(sheet, state)
    audit_record(action="scoresheet_entry_added", tournament=tournament, obj=sheet, actor=actor,
                 actor_entrant=entrant, data={"version": sheet.version, "index": sheet.entries - 1, "entry": entry})
    return sheet


@transaction.atomic
def scoresheet_undo(*, sheet_id: int, actor: Any = None, token: str | None = None, version: Any) -> Scoresheet:
    """Take back the last entry (across a deal boundary too); `nothing_to_undo` on an empty sheet."""
    tournament, sheet = _lock_sheet(sheet_id, version)
    entrant = _acting_entrant(actor, token, sheet.table)
    _check_open(sheet, version)
    entries = sheet_entries(sheet)
    try:
        state = engine().sheet_undo(sheet.state)
    except engine().EntryRefused as err:
        raise _refused(err) from err
    _save(sheet, state)
    audit_record(action="scoresheet_entry_undone", tournament=tournament, obj=sheet, actor=actor,
                 actor_entrant=entrant,
                 data={"version": sheet.version, "index": len(entries) - 1, "entry": entries[-1] if entries else None})
    return sheet


@transaction.atomic
def scoresheet_finish(*, sheet_id: int, actor: Any = None, token: str | None = None, version: Any,
                      time_up: bool = False) -> Scoresheet:
    """Turn the sheet into a `GameRecord` of its table, verified and settled like an uploaded record.

    Without `time_up` the game must be over (`scoresheet_not_over`). `time_up` is the organiser's time
    call at the time limit: the record ends where the sheet stands (a partial record, which never
    settles; the organiser enters the time-limit result). Hidden facts that break a rule (a must-play,
    an announcement) are refused naming the turn, and the sheet stays open to be corrected.
    """
    tournament, sheet = _lock_sheet(sheet_id, version)
    table = sheet.table
    entrant = _acting_entrant(actor, token, table)
    if time_up and not can_call_time(actor, table):
        raise TournamentError(ErrorCode.PERMISSION_DENIED, _("Only an organiser may call time."))
    _check_open(sheet, version)
    view = engine().sheet_view(sheet.state)
    if not view.over and not time_up:
        raise TournamentError(ErrorCode.SCORESHEET_NOT_OVER,
                              _("The game is not over yet; enter its remaining turns (or an organiser calls time)."))
    try:
        document = engine().sheet_record(sheet.state, time_up=time_up and not view.over)
    except engine().EntryRefused as err:
        raise _refused(err, sheet.players) from err
    parsed = record_parse(json.dumps(document, ensure_ascii=False))
    record: GameRecord = _create_record(tournament=tournament, table=table, parsed=parsed, actor=actor,
                                        entrant=entrant, source=GameRecord.Source.SCORESHEET)
    _enqueue_verify(record.pk)
    sheet.status = Scoresheet.Status.FINISHED
    sheet.record = record
    sheet.time_up = time_up and not view.over
    sheet.finished_at = timezone.now()
    sheet.version += 1
    sheet.save(update_fields=["status", "record", "time_up", "finished_at", "version", "updated_at"])
    audit_record(action="scoresheet_finished", tournament=tournament, obj=sheet, actor=actor, actor_entrant=entrant,
                 data={"record": record.pk, "time_up": sheet.time_up, "entries": sheet_entries(sheet)})
    return sheet


@transaction.atomic
def scoresheet_correct(*, sheet_id: int, actor: Any = None, token: str | None = None, version: Any,
                       entry: Any) -> Scoresheet:
    """Correct the running deal's announcements or exchange in place (`{"announce": [...]}` or
    `{"exchange": [...]}`) until the deal closes; the turns after it are checked again, and a refusal
    (`nothing_to_correct`, or the first entry that no longer fits) changes nothing."""
    tournament, sheet = _lock_sheet(sheet_id, version)
    entrant = _acting_entrant(actor, token, sheet.table)
    _check_open(sheet, version)
    if not isinstance(entry, dict) or len(json.dumps(entry)) > ENTRY_MAX_CHARS:
        raise TournamentError(ErrorCode.INVALID_INPUT, _("An entry is one JSON object in record notation."))
    before = sheet_entries(sheet)
    try:
        state = engine().sheet_correct(sheet.state, entry)
    except engine().EntryRefused as err:
        raise _refused(err, sheet.players) from err
    _save(sheet, state)
    index = next((i for i, (old, new) in enumerate(zip(before, state["entries"], strict=False)) if old != new), None)
    audit_record(action="scoresheet_entry_corrected", tournament=tournament, obj=sheet, actor=actor,
                 actor_entrant=entrant,
                 data={"version": sheet.version, "index": index, "entry": entry,
                       "was": before[index] if index is not None else None})
    return sheet


@transaction.atomic
def scoresheet_abandon(*, sheet_id: int, actor: Any = None, token: str | None = None, version: Any) -> Scoresheet:
    """Close the sheet without a record (a wrong start, a game recorded otherwise); a new one may start."""
    tournament, sheet = _lock_sheet(sheet_id, version)
    entrant = _acting_entrant(actor, token, sheet.table)
    _check_open(sheet, version)
    sheet.status = Scoresheet.Status.ABANDONED
    sheet.finished_at = timezone.now()
    sheet.version += 1
    sheet.save(update_fields=["status", "finished_at", "version", "updated_at"])
    audit_record(action="scoresheet_abandoned", tournament=tournament, obj=sheet, actor=actor, actor_entrant=entrant,
                 data={"entries": sheet_entries(sheet)})
    return sheet
