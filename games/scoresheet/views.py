"""The live scoresheet page (issue 16): one phone per table records the game tap by tap.

`/t/<slug>/tables/<id>/scoresheet/` (a logged-in player of the table or an organiser) and
`/report/<token>/tables/<id>/scoresheet/` (a private report link). GET shows the sheet: the board
(`games.replay.render_svg` of the engine's snapshot, the last entry marked), whose turn it is, and the
taps that may come next (`games.scoresheet.choices`); a tap that narrows the choice is a plain link
(`?p=` keys), a tap that completes an entry is a small POST form carrying the entry and the sheet's
`version`. Every POST answers with a redirect (303) back to the page, a refusal or a stale version as a
notice on it; htmx (hx-boost) swaps only the sheet, and everything works without JavaScript.
"""

from __future__ import annotations

import json
from typing import Any

from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.views.decorators.gzip import gzip_page

from games.models import Scoresheet
from games.permissions import can_call_time, can_keep_scoresheet
from games.replay import UnknownSnapshot, render_svg
from games.replay.describe import describe_move, describe_position
from games.scoresheet import services
from games.scoresheet.choices import Seats, entry_label, next_choices, path_labels
from games.scoresheet.selectors import latest_scoresheet, scoresheet_view
from games.scoresheet.words import card_name, card_sort_key, seat_label
from games.views import RecordUrls, describe_texts, svg_labels
from tournaments import permissions
from tournaments.errors import ErrorCode, TournamentError
from tournaments.idempotency import HEADER as IDEMPOTENCY_HEADER
from tournaments.models import Round, Table, Tournament
from tournaments.services.tournaments import tournament_profile
from tournaments.views.public import visible_table, visible_tournament

HISTORY_SHOWN = 12


def _page_url(table: Table, token: str | None) -> str:
    if token:
        return reverse("games:token-scoresheet", args=[token, table.pk])
    return reverse("games:scoresheet", args=[table.round.tournament.slug, table.pk])


NOTICE_KEY = "scoresheet-notice"


def _notice(request: HttpRequest, level: str, text: str) -> None:
    request.session[NOTICE_KEY] = {"level": level, "text": text}


def _seat_names(players: list[dict[str, Any]]) -> list[str]:
    names: dict[int, str] = {}
    for player in players:
        for seat in player.get("seats") or []:
            if isinstance(seat, int):
                names[seat] = str(player.get("name", ""))
    return [names.get(seat, _("Seat %(n)s") % {"n": seat}) for seat in range(max(names, default=-1) + 1)]


def _int(value: Any) -> int | None:
    try:
        return int(str(value))
    except (TypeError, ValueError):
        return None


def _templates(view: Any) -> tuple[list[Any] | None, list[Any] | None]:
    """The deal's announcement and exchange templates among the options (a value per seat; None for a
    seat that has none; an exchange lists the cards a seat may give)."""
    announce = exchange = None
    for option in view.options or []:
        if isinstance(option, dict) and isinstance(option.get("announce"), list) and announce is None:
            announce = option["announce"]
        if isinstance(option, dict) and isinstance(option.get("exchange"), list) and exchange is None:
            exchange = option["exchange"]
    return announce, exchange


def _posted_entry(request: HttpRequest, sheet: Scoresheet) -> Any:
    """The entry of a POST: a tap's `entry` (JSON), or the exchange / announcement form of a deal."""
    kind = request.POST.get("kind")
    if kind in ("exchange", "announce"):
        announce, exchange = _templates(scoresheet_view(sheet))
        template = announce if kind == "announce" else exchange
        if template is None:
            return None
        if kind == "announce":
            return {"announce": [None if value is None else request.POST.get(f"seat-{seat}") == "yes"
                                 for seat, value in enumerate(template)]}
        return {"exchange": [None if value is None else (request.POST.get(f"seat-{seat}") or None)
                             for seat, value in enumerate(template)]}
    try:
        return json.loads(request.POST.get("entry", ""))
    except ValueError:
        return None


def _correction(request: HttpRequest, sheet: Scoresheet) -> Any:
    """The corrected announcements or exchange of the running deal, from the correction form."""
    kind = request.POST.get("kind")
    current = scoresheet_view(sheet).correctable.get(kind) if kind in ("announce", "exchange") else None
    if not isinstance(current, list):
        return {kind or "announce": None}
    if kind == "announce":
        return {"announce": [None if value is None else request.POST.get(f"seat-{seat}") == "yes"
                             for seat, value in enumerate(current)]}
    return {"exchange": [None if value is None else (request.POST.get(f"seat-{seat}") or None)
                         for seat, value in enumerate(current)]}


def _post(request: HttpRequest, table: Table, token: str | None) -> HttpResponse:
    action = request.POST.get("action", "")
    version = _int(request.POST.get("version"))
    sheet_id = _int(request.POST.get("sheet")) or 0
    user = request.user if request.user.is_authenticated else None
    common = {"actor": user, "token": token}
    target = _page_url(table, token)
    try:
        if action == "start":
            players = services.seat_players(table)
            order = [_int(request.POST.get(f"seat-{seat}")) for seat in range(len(players))]
            default = [p["id"] for p in players]
            services.scoresheet_start(table=table, dealer=_int(request.POST.get("dealer")),
                                      seat_order=None if order == default or not any(order) else order, **common)
        else:
            sheet = Scoresheet.objects.filter(pk=sheet_id, table=table).first()
            if sheet is None:
                raise Http404("No such scoresheet.")
            if action == "add":
                services.scoresheet_add(sheet_id=sheet.pk, version=version, entry=_posted_entry(request, sheet),
                                        **common)
            elif action == "correct":
                services.scoresheet_correct(sheet_id=sheet.pk, version=version, entry=_correction(request, sheet),
                                            **common)
                _notice(request, "info", _("Corrected; the deal was checked again."))
            elif action == "undo":
                services.scoresheet_undo(sheet_id=sheet.pk, version=version, **common)
                _notice(request, "info", _("The last entry was taken back."))
            elif action in ("finish", "time"):
                sheet = services.scoresheet_finish(sheet_id=sheet.pk, version=version, time_up=action == "time",
                                                   **common)
                if sheet.record is not None:
                    return _leave_sheet(request, RecordUrls(sheet.record, token).detail)
            elif action == "abandon":
                services.scoresheet_abandon(sheet_id=sheet.pk, version=version, **common)
                _notice(request, "info", _("The scoresheet was abandoned; a new one may be started."))
            else:
                raise TournamentError(ErrorCode.INVALID_INPUT, _("Unknown action."))
    except TournamentError as err:
        level = "warn" if err.code == ErrorCode.SCORESHEET_STALE else "error"
        text = err.message
        if isinstance(err.details.get("turn"), int):
            text = _("%(message)s (turn %(turn)s)") % {"message": text, "turn": err.details["turn"] + 1}
        if request.headers.get(IDEMPOTENCY_HEADER):
            # A tap the phone kept while offline (static/js/offline_reports.js): the refusal is its answer,
            # stored with its key, and the phone shows it as refused with the reason.
            return render(request, "games/scoresheet_refused.html", {"text": text}, status=409 if level == "warn" else 422)
        _notice(request, level, text)
    return redirect(target, permanent=False)


def _leave_sheet(request: HttpRequest, url: str) -> HttpResponse:
    """Go to another page (the record after Finish): htmx swaps only `#sheet`, which that page has not,
    so an htmx request is told to load the whole page (HX-Redirect); a plain form POST is redirected."""
    if request.headers.get("HX-Request") == "true":
        response = HttpResponse(status=204)
        response["HX-Redirect"] = url
        return response
    return redirect(url)


def _seats(names: list[str], view: Any) -> Seats:
    """The seats for the taps' labels: player and colour, and who plays a Narr's or Teufel's follow-up
    (the Narr's player from the hand it receives; the Teufel's victim, the next seat with cards)."""
    sizes = list((view.snapshot or {}).get("hand_sizes") or [])

    def follower(seat: int, fn: str) -> int | None:
        if fn == "narr":
            return seat
        if fn == "teufel" and sizes:
            count = len(sizes)
            return next((t for t in ((seat + d) % count for d in range(1, count)) if sizes[t] > 0), None)
        return None

    return Seats(names=[seat_label(seat, names) for seat in range(len(names))], follower=follower)


def _turn_context(request: HttpRequest, sheet: Scoresheet, view: Any, token: str | None,
                  seats: Seats | None = None) -> dict[str, Any]:
    options = [o for o in (view.options or []) if isinstance(o, dict) and "card" in o]
    if not options:
        return {"taps": [], "path": [], "path_labels": []}
    path = list(request.GET.getlist("p"))[:20]
    choices = next_choices(options, path, seats)
    if path and not choices:
        path, choices = [], next_choices(options, [], seats)
    base = _page_url(sheet.table, token)
    taps = []
    for choice in choices:
        query = "&".join(f"p={_quote(key)}" for key in [*path, choice.key])
        taps.append({
            "label": choice.label,
            "kind": choice.kind,
            "entry": json.dumps(choice.complete, ensure_ascii=False) if choice.complete is not None else "",
            "url": f"{base}?{query}" if choice.continues else "",
            "words": _tap_words(view, sheet, [*path, choice.key]),
            **_tap_board(view, [*path, choice.key]),
        })
    back = "&".join(f"p={_quote(key)}" for key in path[:-1])
    return {
        "path": path,
        "path_labels": path_labels(options, path, seats),
        "taps": taps,
        "back_url": f"{base}?{back}" if back else base,
    }


def _tap_words(view: Any, sheet: Scoresheet, keys: list[str]) -> str:
    """A tap's move in words (games.replay.describe), from the position before it: "Julia Baumann: 7, marble
    3 fields after the start, 7 forward into home 2". Only a tap that names a marble's move or an entry."""
    card = next((key[5:] for key in keys if key.startswith("card:")), "")
    last = keys[-1].rsplit("|", 1)[-1] if keys else ""
    action: dict[str, Any] = {"seat": view.seat, "card": card}
    if last.endswith("enter"):
        action["enter"] = True
    elif "seg:" in last and ">" in last:
        source, target = last.split("seg:", 1)[1].split(">", 1)
        action["moves"] = [[int(t) if t.isdigit() else t for t in (source, target)]]
    else:
        return ""
    return describe_move(action, view.snapshot or {}, _seat_names(sheet.players), describe_texts(), after=False)


def _tap_board(view: Any, keys: list[str]) -> dict[str, str]:
    """Where a tap's move is on the board (the board's `data-pos`), for static/games/board_pick.js: `from` the
    marble, `to` its target (a 7's segment, a Trickser's second marble, the start field a marble enters;
    a Krieger's struck marble is its own target). Empty for a tap that is no marble move (a card, "discarded")."""
    last = keys[-1] if keys else ""
    for prefix in ("seg:", "swap:", "strike:", "enter"):
        index = last.rfind(prefix)
        if index < 0 or (index and last[index - 1] not in ".:"):
            continue
        rest = last[index + len(prefix):]
        if prefix == "seg:" and ">" in rest:
            source, target = rest.split(">", 1)
            return {"pick_from": source, "pick_to": target, "pick_kind": "move"}
        if prefix == "swap:" and ":" in rest:
            source, target = rest.split(":", 1)
            return {"pick_from": source, "pick_to": target, "pick_kind": "swap"}
        if prefix == "strike:" and rest:
            return {"pick_from": rest, "pick_to": rest, "pick_kind": "strike"}
        if prefix == "enter":
            card = next((key[5:] for key in keys if key.startswith("card:")), "")
            borrowed = next((key[3:] for key in keys if key.startswith("as:")), "")
            if rest.startswith(":") and rest[1:].isdigit():
                seat = int(rest[1:])
            elif not rest and "engel" not in (card, borrowed) and "." not in last:
                seat = view.seat
            else:
                return {}  # the Engel's plain "enter" (whose marble depends on the seats): the buttons only
            starts = (view.snapshot or {}).get("starts") or []
            if isinstance(seat, int) and 0 <= seat < len(starts):
                return {"pick_from": f"P{seat}", "pick_to": str(starts[seat]), "pick_kind": "enter"}
        return {}
    return {}


def _quote(value: str) -> str:
    from urllib.parse import quote

    return quote(value, safe="")


def _sheet_context(request: HttpRequest, sheet: Scoresheet, token: str | None) -> dict[str, Any]:
    view = scoresheet_view(sheet)
    names = _seat_names(sheet.players)
    last = view.last if isinstance(view.last, dict) and "card" in view.last else None
    try:
        svg = render_svg(view.snapshot or {}, highlight={"action": last, "invalid": False}, seat_names=names,
                         labels=svg_labels())
    except UnknownSnapshot:
        svg = ""
    entries = services.sheet_entries(sheet)
    announce, exchange = _templates(view)
    seats = _seats(names, view)
    correct = view.correctable or {}
    context: dict[str, Any] = {
        "sheet": sheet,
        "view": view,
        "svg": mark_safe(svg),  # noqa: S308 - every text in it is escaped by games.replay
        "names": names,
        "to_move": seats.name(view.seat) if isinstance(view.seat, int) and 0 <= view.seat < len(names) else "",
        "last_label": entry_label(view.last, seats) if view.last else "",
        "position_words": describe_position(view.snapshot or {}, names, describe_texts()),
        "move_words": describe_move(last, view.snapshot or {}, names, describe_texts()) if last else "",
        "history": [
            {"n": index + 1, "label": entry_label(entry, seats)}
            for index, entry in list(enumerate(entries))[::-1][:HISTORY_SHOWN]
        ],
        "entry_count": len(entries),
        "deal_number": (view.deal + 1) if isinstance(view.deal, int) else None,
        "announce_seats": [
            {"seat": seat, "name": seats.name(seat)} for seat, value in enumerate(announce or []) if value is not None
        ] if announce is not None else None,
        "exchange_seats": [
            {"seat": seat, "name": seats.name(seat), "cards": _card_choices(value)}
            for seat, value in enumerate(exchange or []) if isinstance(value, list)
        ] if exchange is not None else None,
        "correct_announce": [
            {"seat": seat, "name": seats.name(seat), "said": bool(value)}
            for seat, value in enumerate(correct.get("announce") or []) if value is not None
        ] if "announce" in correct else None,
        "correct_exchange": [
            {"seat": seat, "name": seats.name(seat), "card": value, "cards": _card_choices(correct.get("cards") or [])}
            for seat, value in enumerate(correct.get("exchange") or []) if value is not None
        ] if "exchange" in correct else None,
    }
    context.update(_turn_context(request, sheet, view, token, seats))
    return context


def _card_choices(cards: Any) -> list[dict[str, str]]:
    """Cards for a select, in card order, each with its name in the visitor's language."""
    return [{"value": str(card), "label": card_name(card)} for card in sorted(cards or [], key=card_sort_key)]


def _name(names: list[str], seat: int) -> str:
    return names[seat] if 0 <= seat < len(names) else _("Seat %(n)s") % {"n": seat}


def _sheet_page(request: HttpRequest, *, tournament: Tournament, table: Table, token: str | None) -> HttpResponse:
    if table.is_bye:
        raise Http404("A bye has no game to record.")
    if request.method == "POST":
        return _post(request, table, token)
    supported = tournament.game in services.supported_games()
    sheet = latest_scoresheet(table) if supported else None
    context: dict[str, Any] = {
        "tournament": tournament,
        "table": table,
        "round": table.round,
        "token": token,
        "supported": supported,
        "page_url": _page_url(table, token),
        "submit_url": (reverse("games:token-record-submit", args=[token, table.pk]) if token
                       else reverse("games:record-submit", args=[tournament.slug, table.pk])),
        "notice": request.session.pop(NOTICE_KEY, None),
        "profile": tournament_profile(tournament),
        "may_call_time": can_call_time(request.user, table),
        "sheet": None,
    }
    if sheet is not None and sheet.status == Scoresheet.Status.FINISHED:
        context["finished"] = sheet
        context["record_url"] = RecordUrls(sheet.record, token).detail if sheet.record else ""
        sheet = None
    if sheet is not None:
        context.update(_sheet_context(request, sheet, token))
    elif supported:
        players = services.seat_players(table)
        context["start_players"] = players
        context["start_seats"] = [
            {"seat": seat, "player": player, "name": player["name"]} for seat, player in enumerate(players)
        ]
    return render(request, "games/scoresheet.html", context)


# Compressed (issue 26): a hall's phones share a slow connection. BREACH needs a secret and input the
# attacker chooses in one compressed body: the CSRF token is masked afresh per response, and the only input
# the page reflects is its `?p=` taps, kept only when they are taps the engine offers (else the page starts
# over), so a report token in the page's links cannot be guessed by varying it; Django's gzip also pads each
# response by a random length (Heal The BREACH).
@gzip_page
@login_required
def scoresheet_page(request: HttpRequest, slug: str, table_id: int) -> HttpResponse:
    """A logged-in player of the table or an organiser keeps the table's live scoresheet."""
    tournament = visible_tournament(request, slug)
    table = visible_table(request, tournament, table_id)
    if not can_keep_scoresheet(request.user, None, table):
        raise PermissionDenied(_("Only a player of this table or an organiser may keep its scoresheet."))
    return _sheet_page(request, tournament=tournament, table=table, token=None)


@gzip_page
def token_scoresheet_page(request: HttpRequest, token: str, table_id: int) -> HttpResponse:
    """A player with a private report link keeps the scoresheet of one of their tables."""
    entrant = permissions.entrant_for_token(token)
    if entrant is None:
        raise Http404("This report link is not valid.")
    table = get_object_or_404(Table.objects.select_related("round__tournament"), pk=table_id,
                              round__tournament_id=entrant.tournament_id)
    if table.round.status == Round.Status.DRAFT or not can_keep_scoresheet(None, token, table):
        raise Http404("This table is not one of yours.")
    return _sheet_page(request, tournament=entrant.tournament, table=table, token=token)
