"""Every write of a live scoresheet (issues 16 and 26): start, add an entry, undo, finish (or the organiser's
time call), abandon. The game itself is `rules.scoresheet` (pure): these functions read the sheet, check
who acts, call the engine, store its new JSON state and audit the change.

Two tables never wait for each other (issue 26). An entry, an undo and an abandon read the sheet without
a lock, check the caller and the `version`, let the engine work outside any transaction, then write in
one short transaction: an `UPDATE` of the sheet row guarded by the version it was read at (and `open`),
and the audit row. A write that lost the race (another phone changed the sheet meanwhile, or finished
it) updates no row and is refused with `scoresheet_stale` (409) or `scoresheet_closed`, so two phones
entering at once cannot both succeed. Only finish, which turns the sheet into a record that settles the
table's result, takes the tournament lock (then the sheet row, `select_for_update`), as every service
that touches results; the record document is built before it. None of these writes bumps the
tournament's `public_version`: the public pages do not show a sheet's progress.

The engine's position after the last entry is shared by every worker process (`games.scoresheet.positions`),
so an entry costs one entry's work wherever it lands, not a replay of the game.

An entry the engine refuses changes nothing and is raised as `EntryRefusedError` (HTTP 400, the engine's
verdict code as the error code, the turn in details). Finishing turns the sheet into a `GameRecord`
through the same checks as an uploaded record (`games.services._create_record`) and enqueues the same
verification task on commit.
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
from games.scoresheet import positions
from games.scoresheet.rows import check_open, check_version, guarded_write, sheet_read
from games.services import (
    _create_record,
    _enqueue_verify,
    _seated,
    record_parse,
    seat_entrants_for,
)
from tournaments.errors import ErrorCode, TournamentError
from tournaments.models import Entrant, Round, Table, Tournament
from tournaments.permissions import can_view_tournament, is_organiser, reporting_entrant
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
    card (games.scoresheet.words), details `turn` and the engine's `reason` with its parameters."""
    from games.scoresheet.words import refusal_text, seat_names

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


def _acting_entrant(actor: Any, token: str | None, table: Table, tournament: Tournament) -> Entrant | None:
    """The entrant on whose behalf `actor`/`token` acts (None for an organiser who plays no seat there);
    PERMISSION_DENIED if neither a player of the table nor an organiser, NOT_FOUND if the tournament is
    hidden from them as well. One query for a report token (the table's entrants)."""
    entrant = reporting_entrant(actor, token, table)
    if entrant is not None or is_organiser(actor, tournament):
        return entrant
    if can_view_tournament(actor, tournament):
        raise _denied()
    raise TournamentError(ErrorCode.NOT_FOUND, _("The scoresheet does not exist."))


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
    tournament's. At most one open sheet per table (`scoresheet_exists`, 409, names it: the partial unique
    constraint decides between two phones starting at once). Locks nothing: a sheet settles nothing yet."""
    table = Table.objects.select_related("round__tournament").get(pk=table.pk)
    tournament = table.round.tournament
    entrant = _acting_entrant(actor, token, table, tournament)
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
                              % {"last": len(seat_entrants) - 1}, http_status=422)  # the table's seats: 422
    meta = {"event": tournament.name, "round": table.round.number, "table": table.number, "scribe": "scoresheet"}
    try:
        state = engine().sheet_start(game=tournament.game, variant=variant, players=players, dealer=dealer, meta=meta)
    except engine().EntryRefused as err:
        raise _refused(err, players) from err
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


def _readied(sheet_id: int, actor: Any, token: str | None, version: Any) -> tuple[Scoresheet, Entrant | None, int]:
    """The sheet, the entrant acting and the version, checked in this order: who acts, then the version."""
    sheet = sheet_read(sheet_id)
    entrant = _acting_entrant(actor, token, sheet.table, sheet.tournament)
    version = check_version(version)
    check_open(sheet, version)
    return sheet, entrant, version


def _engine_step(sheet: Scoresheet, step: Any) -> tuple[dict[str, Any], Any]:
    """The engine's new state (outside any transaction, from the shared position) and its view."""
    eng = engine()
    positions.take_up(sheet.pk, sheet.state)
    try:
        state = step(eng, sheet.state)
    except eng.EntryRefused as err:
        raise _refused(err, sheet.players) from err
    view = eng.sheet_view(state)
    return state, view


def _stored(sheet: Scoresheet, version: int, state: dict[str, Any], view: Any) -> None:
    guarded_write(sheet, version, state=state, entries=int(view.entries))
    sheet._sheet_view = view  # type: ignore[attr-defined]  # read again by the answer (scoresheet_data)


def scoresheet_add(*, sheet_id: int, actor: Any = None, token: str | None = None, version: Any,
                   entry: Any) -> Scoresheet:
    """Add one entry in record notation (a turn's action, or a deal's `{"exchange": [...]}` /
    `{"announce": [...]}`); the engine refuses anything that cannot be legal, and nothing changes.
    Four queries with a report token: the sheet, the table's entrants, the guarded UPDATE, the audit row."""
    sheet, entrant, version = _readied(sheet_id, actor, token, version)
    if not isinstance(entry, dict) or len(json.dumps(entry)) > ENTRY_MAX_CHARS:
        raise TournamentError(ErrorCode.INVALID_INPUT, _("An entry is one JSON object in record notation."))
    state, view = _engine_step(sheet, lambda eng, current: eng.sheet_add(current, entry))
    with transaction.atomic():
        _stored(sheet, version, state, view)
        audit_record(action="scoresheet_entry_added", tournament=sheet.tournament, obj=sheet, actor=actor,
                     actor_entrant=entrant, data={"version": sheet.version, "index": sheet.entries - 1, "entry": entry})
    positions.leave(sheet.pk, state)
    return sheet


def scoresheet_undo(*, sheet_id: int, actor: Any = None, token: str | None = None, version: Any) -> Scoresheet:
    """Take back the last entry (across a deal boundary too); `nothing_to_undo` on an empty sheet."""
    sheet, entrant, version = _readied(sheet_id, actor, token, version)
    entries = sheet_entries(sheet)
    state, view = _engine_step(sheet, lambda eng, current: eng.sheet_undo(current))
    with transaction.atomic():
        _stored(sheet, version, state, view)
        audit_record(action="scoresheet_entry_undone", tournament=sheet.tournament, obj=sheet, actor=actor,
                     actor_entrant=entrant,
                     data={"version": sheet.version, "index": len(entries) - 1,
                           "entry": entries[-1] if entries else None})
    positions.leave(sheet.pk, state)
    return sheet


def scoresheet_finish(*, sheet_id: int, actor: Any = None, token: str | None = None, version: Any,
                      time_up: Any = False) -> Scoresheet:
    """Turn the sheet into a `GameRecord` of its table, verified and settled like an uploaded record.

    Without `time_up` the game must be over (`scoresheet_not_over`). `time_up` is the organiser's time
    call at the time limit: the record ends where the sheet stands (a partial record, which never
    settles; the organiser enters the time-limit result). Hidden facts that break a rule (a must-play,
    an announcement) are refused naming the turn, and the sheet stays open to be corrected.

    The record is built from the sheet as read (no lock); then the tournament is locked, then the sheet
    row, which must still be open at `version` (else stale/closed, and nothing is stored).
    """
    sheet = sheet_read(sheet_id)
    entrant = _acting_entrant(actor, token, sheet.table, sheet.tournament)
    if not isinstance(time_up, bool):
        raise TournamentError(ErrorCode.INVALID_INPUT, _("`time_up` must be true or false."))
    if time_up and not is_organiser(actor, sheet.tournament):
        raise TournamentError(ErrorCode.PERMISSION_DENIED, _("Only an organiser may call time."))
    version = check_version(version)
    check_open(sheet, version)
    eng = engine()
    positions.take_up(sheet.pk, sheet.state)
    view = eng.sheet_view(sheet.state)
    if not view.over and not time_up:
        raise TournamentError(ErrorCode.SCORESHEET_NOT_OVER,
                              _("The game is not over yet; enter its remaining turns (or an organiser calls time)."))
    try:
        document = eng.sheet_record(sheet.state, time_up=time_up and not view.over)
    except eng.EntryRefused as err:
        raise _refused(err, sheet.players) from err
    parsed = record_parse(json.dumps(document, ensure_ascii=False))
    with transaction.atomic():
        tournament = lock_tournament(sheet.tournament_id)
        locked = sheet_read(sheet_id, for_update=True)
        check_open(locked, version)
        table = locked.table
        record: GameRecord = _create_record(tournament=tournament, table=table, parsed=parsed, actor=actor,
                                            entrant=entrant, source=GameRecord.Source.SCORESHEET)
        _enqueue_verify(record.pk)
        locked.status = Scoresheet.Status.FINISHED
        locked.record = record
        locked.time_up = time_up and not view.over
        locked.finished_at = timezone.now()
        locked.version += 1
        locked.save(update_fields=["status", "record", "time_up", "finished_at", "version", "updated_at"])
        audit_record(action="scoresheet_finished", tournament=tournament, obj=locked, actor=actor,
                     actor_entrant=entrant,
                     data={"record": record.pk, "time_up": locked.time_up, "entries": sheet_entries(locked)})
    locked._sheet_view = view  # type: ignore[attr-defined]
    return locked


def scoresheet_correct(*, sheet_id: int, actor: Any = None, token: str | None = None, version: Any,
                       entry: Any) -> Scoresheet:
    """Correct the running deal's announcements or exchange in place (`{"announce": [...]}` or
    `{"exchange": [...]}`) until the deal closes; the turns after it are checked again, and a refusal
    (`nothing_to_correct`, or the first entry that no longer fits) changes nothing. Like an entry: the
    engine's work outside any transaction, then the version-guarded write of the sheet row only."""
    sheet, entrant, version = _readied(sheet_id, actor, token, version)
    if not isinstance(entry, dict) or len(json.dumps(entry)) > ENTRY_MAX_CHARS:
        raise TournamentError(ErrorCode.INVALID_INPUT, _("An entry is one JSON object in record notation."))
    before = sheet_entries(sheet)
    state, view = _engine_step(sheet, lambda eng, current: eng.sheet_correct(current, entry))
    after = state.get("entries") or []
    index = next((i for i, (old, new) in enumerate(zip(before, after, strict=False)) if old != new), None)
    with transaction.atomic():
        _stored(sheet, version, state, view)
        audit_record(action="scoresheet_entry_corrected", tournament=sheet.tournament, obj=sheet, actor=actor,
                     actor_entrant=entrant,
                     data={"version": sheet.version, "index": index, "entry": entry,
                           "was": before[index] if index is not None else None})
    positions.leave(sheet.pk, state)
    return sheet


def scoresheet_abandon(*, sheet_id: int, actor: Any = None, token: str | None = None, version: Any) -> Scoresheet:
    """Close the sheet without a record (a wrong start, a game recorded otherwise); a new one may start."""
    sheet, entrant, version = _readied(sheet_id, actor, token, version)
    with transaction.atomic():
        guarded_write(sheet, version, status=Scoresheet.Status.ABANDONED, finished_at=timezone.now())
        audit_record(action="scoresheet_abandoned", tournament=sheet.tournament, obj=sheet, actor=actor,
                     actor_entrant=entrant, data={"entries": sheet_entries(sheet)})
    return sheet
