"""Reads of the live scoresheets, shared by the API and the page: who may see a sheet, the sheet as JSON.

A sheet is seen by whoever may keep it (a player of the table by account or report token, or an
organiser); anyone else gets 403 where the tournament is visible to them, 404 where it is not.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from django.http import Http404
from django.utils.translation import gettext as _

from games.models import Scoresheet
from games.permissions import can_keep_scoresheet
from games.scoresheet import positions
from games.scoresheet import services as scoresheet_services
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
    """The engine's `SheetView` of the stored state (kept on the instance: the engine computes the options),
    from the shared position when this process does not hold it (`games.scoresheet.positions`)."""
    view = getattr(sheet, "_sheet_view", None)
    if view is None:
        positions.take_up(sheet.pk, sheet.state)  # the position another process left, instead of a replay
        view = scoresheet_services.engine().sheet_view(sheet.state)
        sheet._sheet_view = view  # type: ignore[attr-defined]
    return view


OPTIONS_INLINE = 100  # up to this many options travel with the answer; more are asked for by card


@dataclasses.dataclass(frozen=True)
class AnswerShape:
    """What an answer carries beyond the sheet's head (issue 26: what a phone needs for the next tap).

    `since`: the entries from this index on (None: the writer's default, see `scoresheet_data`);
    `options`: "all" (every option), "card" (those of `card`), "auto" (all of them if there are at most
    `OPTIONS_INLINE`, else none: the phone asks for the card it taps); `state`: the engine's opaque state."""

    since: int | None = None
    options: str = "auto"
    card: str | None = None
    state: bool = False


def _card(option: Any) -> str | None:
    card = option.get("card") if isinstance(option, dict) else None
    return card if isinstance(card, str) else None


def scoresheet_data(sheet: Scoresheet, view: Any = None, shape: AnswerShape | None = None,
                    since: int = 0) -> dict[str, Any]:
    """The sheet for the API: ids, status, `version`, the engine's view (phase, deal, whose turn `seat`,
    `last`, `over`, `winners`, `snapshot`), `entry_count` and the `entries` from `entries_from` on
    (`shape.since`, else `since`: 0 for a read, the changed tail for a write), the `cards` that may be
    played with `option_count`, and `options` as `shape` asks (`options_for`: "all", the card, or None
    when they were left out). `state` only on request."""
    shape = shape or AnswerShape()
    view = view if view is not None else scoresheet_view(sheet)
    fields = {f.name: getattr(view, f.name) for f in dataclasses.fields(view)} if dataclasses.is_dataclass(
        view) else dict(view)
    table = sheet.table
    entries = scoresheet_services.sheet_entries(sheet)
    start = min(max(shape.since if shape.since is not None else since, 0), len(entries))
    options = list(fields.get("options") or [])
    cards = list(dict.fromkeys(c for c in map(_card, options) if c is not None))
    if shape.options == "card":
        shown, options_for = [o for o in options if _card(o) == shape.card], shape.card
    elif shape.options == "all" or len(options) <= OPTIONS_INLINE:
        shown, options_for = options, "all"
    else:
        shown, options_for = [], None
    data = {
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
        "cards": cards,
        "option_count": len(options),
        "options_for": options_for,
        "options": shown,
        "last": fields.get("last"),
        "over": bool(fields.get("over")),
        "winners": fields.get("winners"),
        "entry_count": len(entries),
        "entries_from": start,
        "entries": entries[start:],
        "correctable": dict(fields.get("correctable") or {}),
        "snapshot": fields.get("snapshot"),
        "record": sheet.record_id,
        "time_up": sheet.time_up,
        "created_at": sheet.created_at,
        "updated_at": sheet.updated_at,
        "finished_at": sheet.finished_at,
    }
    if shape.state:
        data["state"] = sheet.state
    return data
