"""The hall display's live boards (issue 30): the tables of the current round whose scoresheet is being
kept, each as its board position and whose turn it is — never a hand, never the options.

`/t/<slug>/hall/boards/` answers an HTML fragment that static/js/hall.js polls and puts into the hall
display's "Tables being played" panel (the hall page itself lives in `tournaments`, which never imports
`games`; the page finds this URL through the `hall_boards_url` tag of `games_links`). A scoresheet entry
does not bump the tournament's `public_version` (issue 26), so this fragment has its own validator: its
ETag is a hash of the round, the open sheets' ids and versions, the visibility and the language, read in
one small query, and a poll answers 304 while no sheet changed. Each board is rendered once per sheet
version and language and kept in the cache. Same visibility as the public pages: a private tournament is
404 for whoever may not see it; draft rounds are never shown.
"""

from __future__ import annotations

import hashlib
from typing import Any

from django.core.cache import cache
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.template.loader import render_to_string
from django.utils.safestring import mark_safe
from django.utils.translation import get_language
from django.views.decorators.http import require_GET

from games.models import Scoresheet
from games.replay import UnknownSnapshot, render_svg
from games.scoresheet.selectors import scoresheet_view
from games.scoresheet.words import seat_label, seat_names
from games.views import svg_labels
from tournaments.models import Round
from tournaments.views.public import visible_tournament

HALL_BOARDS_SHOWN = 8
CACHE_SECONDS = 6 * 3600
# Keys of a position that carry a player's cards: removed before drawing, whatever the renderer does.
HIDDEN_KEYS = frozenset({"hands", "hand"})


def public_position(snapshot: Any) -> dict[str, Any]:
    """The snapshot without any hand: what the hall may show of a table."""
    if not isinstance(snapshot, dict):
        return {}
    return {key: value for key, value in snapshot.items() if key not in HIDDEN_KEYS}


def _board_html(sheet_id: int, version: int) -> str:
    """One table's board at `version`, rendered once per (sheet, version, language)."""
    key = f"hall-board:v1:{sheet_id}:{version}:{get_language()}"
    html = cache.get(key)
    if html is not None:
        return str(html)
    sheet = Scoresheet.objects.select_related("table__board").filter(pk=sheet_id).first()
    if sheet is None:
        return ""
    view = scoresheet_view(sheet)
    names = seat_names(sheet.players)
    last = view.last if isinstance(view.last, dict) and "card" in view.last else None
    try:
        svg = render_svg(public_position(view.snapshot), highlight={"action": last, "invalid": False} if last else None,
                         seat_names=names, labels=svg_labels())
    except UnknownSnapshot:
        svg = ""
    seat = view.seat if isinstance(view.seat, int) and 0 <= view.seat < len(names) else None
    html = render_to_string("games/hall_board.html", {
        "sheet": sheet,
        "table": sheet.table,
        "svg": mark_safe(svg),  # noqa: S308 - every text in it is escaped by games.replay
        "deal": (view.deal + 1) if isinstance(view.deal, int) else None,
        "phase": view.phase,
        "to_move": seat_label(seat, names) if seat is not None else "",
        "over": bool(view.over),
    })
    cache.set(key, html, CACHE_SECONDS)
    return html


@require_GET
def hall_boards(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = visible_tournament(request, slug)
    round_ = tournament.rounds.exclude(status=Round.Status.DRAFT).order_by("-number").only("pk", "number").first()
    sheets = list(
        Scoresheet.objects.filter(table__round=round_, status=Scoresheet.Status.OPEN)
        .order_by("table__number", "pk").values_list("pk", "version")[:HALL_BOARDS_SHOWN]
    ) if round_ is not None else []
    tag = hashlib.sha256(
        f"{tournament.pk}|{tournament.is_public}|{round_.pk if round_ else 0}|{sheets}|{get_language()}".encode()
    ).hexdigest()[:32]
    etag = f'"hall-boards-{tag}"'
    if etag in [value.strip() for value in request.headers.get("If-None-Match", "").split(",")]:
        response = HttpResponse(status=304)
    else:
        boards = [html for pk, version in sheets if (html := _board_html(pk, version))]
        response = render(request, "games/hall_boards.html", {"boards": [mark_safe(b) for b in boards]})  # noqa: S308
    response["ETag"] = etag
    response["Cache-Control"] = "private, no-cache"
    response["Vary"] = "Cookie, Accept-Language"
    return response
