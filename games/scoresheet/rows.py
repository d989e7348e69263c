"""A live scoresheet's row (issue 26): read once with what a write and its answer use, and written by an
`UPDATE` guarded by the version it was read at, so that an entry locks only its own row and only while
its short transaction lasts. A write that lost the race (another phone changed or closed the sheet
meanwhile) updates nothing and is refused as `scoresheet_stale` or `scoresheet_closed` (HTTP 409)."""

from __future__ import annotations

from typing import Any

from django.utils import timezone
from django.utils.translation import gettext as _

from games.models import Scoresheet
from tournaments.errors import ErrorCode, TournamentError

SHEET_FIELDS = (
    "id", "tournament_id", "table_id", "status", "game", "variant", "players", "state", "version", "entries",
    "created_at", "updated_at", "finished_at", "time_up", "record_id",
    "tournament__id", "tournament__slug", "tournament__is_public", "tournament__game",
    "table__id", "table__number", "table__round_id", "table__is_bye",
    "table__round__id", "table__round__number", "table__round__status", "table__round__tournament_id",
)


def sheet_read(sheet_id: int, *, for_update: bool = False) -> Scoresheet:
    """The sheet with what a write and its answer use (its tournament's slug and visibility, its table and
    round numbers): one query, the state read once. NOT_FOUND if there is none."""
    sheets = Scoresheet.objects.select_related("tournament", "table__round").only(*SHEET_FIELDS)
    if for_update:
        sheets = sheets.select_for_update(of=("self",), no_key=True)
    sheet = sheets.filter(pk=sheet_id).first()
    if sheet is None:
        raise TournamentError(ErrorCode.NOT_FOUND, _("The scoresheet does not exist."))
    sheet.table.round.tournament = sheet.tournament  # one object: permissions read it through the table
    return sheet


def check_version(version: Any) -> int:
    if isinstance(version, bool) or not isinstance(version, int):
        raise TournamentError(ErrorCode.INVALID_INPUT, _("Send the `version` of the sheet you are looking at."))
    return version


def closed_error(sheet: Scoresheet) -> TournamentError:
    return TournamentError(ErrorCode.SCORESHEET_CLOSED, _("This scoresheet is closed."), version=sheet.version,
                           status=sheet.status)


def stale_error(version: int) -> TournamentError:
    return TournamentError(
        ErrorCode.SCORESHEET_STALE,
        _("Someone else changed the scoresheet meanwhile; here is its current state. Check it and enter again."),
        version=version,
    )


def check_open(sheet: Scoresheet, version: int) -> None:
    if sheet.status != Scoresheet.Status.OPEN:
        raise closed_error(sheet)
    if version != sheet.version:
        raise stale_error(sheet.version)


def guarded_write(sheet: Scoresheet, version: int, **fields: Any) -> None:
    """Store `fields` on the sheet if it is still open at `version` (one guarded UPDATE, which locks only
    this row until the caller's transaction ends); otherwise the fresh sheet says why: closed or stale."""
    now = timezone.now()
    done = Scoresheet.objects.filter(pk=sheet.pk, version=version, status=Scoresheet.Status.OPEN).update(
        version=version + 1, updated_at=now, **fields)
    if not done:
        fresh = Scoresheet.objects.filter(pk=sheet.pk).values("status", "version").first() or {
            "status": Scoresheet.Status.ABANDONED, "version": version}
        sheet.status, sheet.version = fresh["status"], fresh["version"]
        if sheet.status != Scoresheet.Status.OPEN:
            raise closed_error(sheet)
        raise stale_error(sheet.version)
    for name, value in fields.items():
        setattr(sheet, name, value)
    sheet.version, sheet.updated_at = version + 1, now
