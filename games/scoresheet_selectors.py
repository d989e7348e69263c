"""Reads of the live scoresheets, shared by the API and the page: who may see a sheet, the sheet as JSON.

A sheet is seen by whoever may keep it (a player of the table by account or report token, or an
organiser); anyone else gets 403 where the tournament is visible to them, 404 where it is not.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from django.http import Http404
from django.utils.translation import gettext as _

from games import scoresheet_services
from games.models import Scoresheet
from games.permissions import can_keep_scoresheet
from tournaments.errors import ErrorCode, TournamentError
from tournaments.models import Table
from tournaments.permissions import can_view_tournament


def _check_keeper(user: Any, token: str | None, table: Table) -> None:
    if can_keep_scoresheet(user, token, table):
        return
    if can_view_tournament(user, table.round.tournament):
        raise TournamentError(
            ErrorCode.PERMISSION_DENIED, _("Only a player of this table or an organiser may keep its scoresheet.")
        )
    raise Http404("No such scoresheet.")


def scoresheet_get(*, user: Any, token: str | None, sheet_id: int, with_state: bool = True) -> Scoresheet:
    """The sheet if `user`/`token` may keep it; 404 if it does not exist (or its tournament is hidden).
    `with_state=False` leaves the engine state unread (a write checks who acts before it locks the row)."""
    sheets = Scoresheet.objects.select_related("tournament", "table__round__tournament")
    if not with_state:
        sheets = sheets.defer("state")
    sheet = sheets.filter(pk=sheet_id).first()
    if sheet is None:
        raise Http404("No such scoresheet.")
    _check_keeper(user, token, sheet.table)
    return sheet


def table_for_scoresheet(*, user: Any, token: str | None, table_id: int) -> Table:
    """The table if `user`/`token` may keep its scoresheet; 404 for a table they cannot see at all."""
    table = Table.objects.select_related("round__tournament").filter(pk=table_id).first()
    if table is None:
        raise Http404("No such table.")
    _check_keeper(user, token, table)
    return table


def open_scoresheet(table: Table) -> Scoresheet | None:
    return Scoresheet.objects.filter(table=table, status=Scoresheet.Status.OPEN).first()


def latest_scoresheet(table: Table) -> Scoresheet | None:
    """The open sheet of the table, else its latest finished one (to show where its record went)."""
    return open_scoresheet(table) or (
        Scoresheet.objects.filter(table=table, status=Scoresheet.Status.FINISHED).select_related("record")
        .order_by("-finished_at", "-pk").first()
    )


def scoresheet_view(sheet: Scoresheet) -> Any:
    """The engine's `SheetView` of the stored state (kept on the instance: the engine computes the options)."""
    view = getattr(sheet, "_sheet_view", None)
    if view is None:
        view = scoresheet_services.engine().sheet_view(sheet.state)
        sheet._sheet_view = view  # type: ignore[attr-defined]
    return view


def scoresheet_data(sheet: Scoresheet, view: Any = None) -> dict[str, Any]:
    """The sheet for the API: ids, status, `version`, and the engine's view (phase, deal, whose turn
    `seat`, `options` in record notation, `snapshot`, `last`, `over`, `winners`, `entries`) plus `state`."""
    view = view if view is not None else scoresheet_view(sheet)
    fields = {f.name: getattr(view, f.name) for f in dataclasses.fields(view)} if dataclasses.is_dataclass(
        view) else dict(view)
    table = sheet.table
    return {
        "id": sheet.pk,
        "tournament": sheet.tournament.slug,
        "table": table.pk,
        "round_number": table.round.number,
        "table_number": table.number,
        "game": sheet.game,
        "variant": sheet.variant,
        "status": sheet.status,
        "version": sheet.version,
        "players": sheet.players,
        "phase": fields.get("phase"),
        "deal": fields.get("deal"),
        "seat": fields.get("seat"),
        "options": list(fields.get("options") or []),
        "last": fields.get("last"),
        "over": bool(fields.get("over")),
        "winners": fields.get("winners"),
        "entries": scoresheet_services.sheet_entries(sheet),
        "correctable": dict(fields.get("correctable") or {}),
        "snapshot": fields.get("snapshot"),
        "state": sheet.state,
        "record": sheet.record_id,
        "time_up": sheet.time_up,
        "created_at": sheet.created_at,
        "updated_at": sheet.updated_at,
        "finished_at": sheet.finished_at,
    }
