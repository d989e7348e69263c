"""Web pages of game records: the record page with its replay viewer, step fragments and downloads,
submitting a record for a table, the records of a tournament or table, the organiser's bulk import.

Views parse, check permission (`games.permissions` / `tournaments.permissions`), call one service or
selector, render. Who may see a record is decided by `games.selectors.record_visible_or_404`; a
player with a private report link reaches the same pages under /report/<token>/.

The replay comes from `rules.core.trace` (per-step snapshots); it is computed once per record text
and engine version and kept in the Django cache. Each step is a server-rendered SVG
(`games.replay.render_svg`); htmx swaps the step fragment, plain links work without JavaScript.
"""

from __future__ import annotations

import dataclasses
import json
from dataclasses import dataclass, field
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.cache import cache
from django.core.exceptions import PermissionDenied
from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.safestring import mark_safe
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from games import permissions as game_permissions
from games.forms import RecordsImportForm, RecordSubmitForm
from games.models import GameRecord, ImportBatch
from games.replay import render_svg
from games.replay.describe import describe_move, describe_position
from games.selectors import batch_progress, record_visible_or_404, records_for_table, records_for_tournament
from games.services import engine_version, record_submit, records_import
from rules.core.trace import trace_bytes
from tournaments import permissions
from tournaments.errors import TournamentError
from tournaments.models import Round, Table, Tournament
from tournaments.views.organiser import organised_tournament
from tournaments.views.public import visible_table, visible_tournament

TRACE_CACHE_SECONDS = 24 * 3600
TRACE_MAX_STEPS = 5000
RECORDS_PER_PAGE = 100


# The replay: a cached trace --------------------------------------------------------------------------------


SNAPSHOT_CHUNK = 50  # snapshots are cached in chunks: a step fragment loads one chunk, not the whole trace


@dataclass
class Replay:
    """What the viewer needs from a trace, as plain JSON-able data.

    The cache holds the outline (every step without its snapshot, plus the verdict) under `key`, and the
    snapshots in chunks of SNAPSHOT_CHUNK under `key:<chunk>`; a chunk evicted on its own is traced again.
    """

    key: str
    record: GameRecord
    steps: list[dict[str, Any]]  # {"index", "path", "kind", "seat", "action", "label"}: no snapshot
    valid: bool
    complete: bool
    error: dict[str, Any] | None  # {"code", "path", "message"} of the trace's verdict
    failed_action: dict[str, Any] | None
    truncated: bool
    chunks: dict[int, list[dict[str, Any]]] = field(default_factory=dict)

    @property
    def has_failure_step(self) -> bool:
        """An invalid record gets one step more: the last good position with the failure highlighted
        (not when the trace was cut short: its last step is then not the last good position)."""
        return not self.valid and bool(self.steps) and not self.truncated

    @property
    def total(self) -> int:
        return len(self.steps) + (1 if self.has_failure_step else 0)

    def snapshot(self, index: int) -> dict[str, Any]:
        chunk = index // SNAPSHOT_CHUNK
        if chunk not in self.chunks:
            snapshots = cache.get(f"{self.key}:{chunk}")
            if snapshots is None:
                snapshots = _trace_and_store(self.record, self.key)[1].get(chunk, [])
            self.chunks[chunk] = snapshots
        snapshots = self.chunks[chunk]
        offset = index % SNAPSHOT_CHUNK
        return snapshots[offset] if offset < len(snapshots) else {}


def _outline_step(step: Any) -> dict[str, Any]:
    """A trace step without its snapshot; a deal step keeps its dealer (for the move list's label)."""
    outline = {name: value for name, value in dataclasses.asdict(step).items() if name != "snapshot"}
    if step.kind == "deal":
        outline["dealer"] = step.snapshot.get("dealer")
    return outline


def _trace_and_store(record: GameRecord, key: str) -> tuple[dict[str, Any], dict[int, list[dict[str, Any]]]]:
    """Trace the record, cache outline and snapshot chunks, and return them."""
    trace = trace_bytes(record.raw, file=f"record-{record.pk}.json", max_steps=TRACE_MAX_STEPS)
    verdict = trace.verdict.to_json()
    outline = {
        "steps": [_outline_step(step) for step in trace.steps],
        "valid": bool(verdict.get("valid")),
        "complete": bool(verdict.get("complete")),
        "error": verdict.get("error"),
        "failed_action": trace.failed_action,
        "truncated": trace.truncated,
    }
    snapshots = [step.snapshot for step in trace.steps]
    chunks = {
        index // SNAPSHOT_CHUNK: snapshots[index : index + SNAPSHOT_CHUNK]
        for index in range(0, len(snapshots), SNAPSHOT_CHUNK)
    }
    cache.set_many(
        {key: outline, **{f"{key}:{chunk}": part for chunk, part in chunks.items()}}, TRACE_CACHE_SECONDS
    )
    return outline, chunks


def record_replay(record: GameRecord) -> Replay:
    """The record's replay, from the cache (key: the text's sha256 and the engine version) or traced now."""
    key = f"games:trace:{record.sha256}:{engine_version(record.game) or 'none'}"
    outline = cache.get(key)
    chunks: dict[int, list[dict[str, Any]]] = {}
    if outline is None:
        outline, chunks = _trace_and_store(record, key)
    return Replay(key=key, record=record, chunks=chunks, **outline)


def describe_texts() -> dict[str, str]:
    """The words of the board's text description (games.replay.describe) in the visitor's language."""
    return {
        "seat": _("Seat {n}"),
        # Translators: one player's marbles, e.g. "Julia: 2 in the prefield; on the track 3 fields after the start."
        "line": _("{name}: {parts}."),
        "plays": _("{name} plays next."),
        "over": _("The game is over."),
        "prefield": _("{n} in the prefield"),
        "track": _("on the track {where}"),
        "no_track": _("none on the track"),
        "home": _("in home {slots}"),
        "on_start": _("on the start field"),
        "protected": _("on the start field (protected)"),
        "field_after": _("1 field after the start"),
        "fields_after": _("{n} fields after the start"),
        "in_home": _("in home {slot}"),
        "marble": _("marble {where}"),
        # Translators: a marble's move, e.g. "marble 3 fields after the start, 7 forward into home 2".
        "forward": _("{marble}, {n} forward {to}"),
        "backward": _("{marble}, {n} back {to}"),
        "to_home": _("into home {slot}"),
        "to_field": _("to {where}"),
        "enter": _("a marble from the prefield onto the start field"),
        "swap": _("{first} swaps places with {second}"),
        # Translators: a marble of another player, e.g. "Julia's marble 3 fields after the start".
        "owned": _("{owner}'s {marble}"),
        "strike": _("strikes {marble}"),
        "skip": _("skips the next player"),
        "discard": _("discards the card"),
        "move": _("{name}: {card}, {what}"),
        "then": _("{first}; then {second}"),
    }


def svg_labels() -> dict[str, str]:
    """The words drawn inside the SVGs, in the visitor's language ({n} and {names} are placeholders)."""
    return {
        "seat": _("Seat {n}"),
        "to_move": _("to move"),
        "over": _("Game over"),
        "winners": _("Winners: {names}"),
        "stock": _("Stock"),
        "discard": _("Discard pile"),
        "direction_cw": _("clockwise"),
        "direction_ccw": _("counter-clockwise"),
        "lead": _("Lead colour"),
        "open_taki": _("Open TAKI"),
        "pending_draw": _("Draw {n}"),
        "bowl": _("Bowl"),
        "stack": _("Stack"),
        "collected": _("Collected"),
        "obliged": _("obliged"),
        "colours": _("Colour order"),
        "empty": _("empty"),
        "prefield": _("Prefield"),
        "last_card": _("Card played"),
        "invalid": _("Invalid action"),
        "cards": _("Cards: {n}"),
        "finished": _("Out"),
        "skipped": _("skipped"),
        "banned": _("banned"),
        "mirror": _("Mirrored"),
        "plus3": _("+3 by {name}"),
        # Translators: a label and its value in the replay board, e.g. "Stack: 3".
        "label_value": _("{label}: {value}"),
    }


def seat_names(record: GameRecord) -> list[str]:
    """Per seat, the player name written in the record (the seats of a team share the entrant).
    It parses the record: a view reads it once and passes the list on."""
    try:
        document = record.document()
    except Exception:
        return []
    players = document.get("players") if isinstance(document, dict) else None
    names: dict[int, str] = {}
    for player in players if isinstance(players, list) else []:
        if not isinstance(player, dict):
            continue
        for seat in player.get("seats") or []:
            if isinstance(seat, int) and 0 <= seat < 16:
                names[seat] = str(player.get("name", ""))[:60]
    return [names.get(seat, "") for seat in range(max(names, default=-1) + 1)]


def _token(value: Any) -> str:
    return str(value) if isinstance(value, str | int) and not isinstance(value, bool) else "?"


def _marble_notation(action: dict[str, Any]) -> str:
    """The choice of a marble-game action in record notation: "62→H0:1, 26→30", "enter", "12↔40"."""
    if action.get("enter") is True:
        return _("enter")
    if isinstance(action.get("moves"), list):
        segments = [s for s in action["moves"] if isinstance(s, list) and len(s) == 2]
        return ", ".join(f"{_token(a)}→{_token(b)}" for a, b in segments)
    if isinstance(action.get("swap"), list) and len(action["swap"]) == 2:
        return f"{_token(action['swap'][0])}↔{_token(action['swap'][1])}"
    if "strike" in action:
        return _("strike from %(field)s") % {"field": _token(action["strike"])}
    if action.get("skip") is True:
        return _("skip")
    if action.get("discard") is True:
        return _("discard")
    return ""


def action_label(action: dict[str, Any] | None, names: list[str]) -> str:
    """A short description of a record action in the visitor's language, e.g. "Anna: 7 — 62→H0:1"."""
    if not isinstance(action, dict):
        return ""
    seat = action.get("seat")
    who = _seat_name(seat, names) if isinstance(seat, int) else ""
    if isinstance(action.get("play"), list) or action.get("draw"):  # TAKI
        cards = " ".join(_token(card) for card in action.get("play") or [])
        what = (
            cards
            + (" + " if cards and action.get("draw") else "")
            + (_("draw") if action.get("draw") else "")
        )
    elif "event" in action:  # ZACK!
        event = action.get("event")
        if event == "throw":
            what = (
                _("throw %(card)s") % {"card": _token(action.get("card", ""))}
                if action.get("card")
                else _("throw")
            )
        elif event == "challenge":
            what = _("challenge %(colour)s (%(reason)s)") % {
                "colour": _token(action.get("color")),
                "reason": _("too slow") if action.get("reason") == "slow" else _("out of turn"),
            }
        elif event == "player_card":
            what = _("player card")
        else:
            what = _token(event)
    else:  # marble games
        card = _token(action.get("card")) + (f" ({_token(action['as'])})" if action.get("as") else "")
        what = f"{card} — {_marble_notation(action)}".rstrip(" —")
        then = action.get("then")
        if isinstance(then, dict):
            then_card = _token(then.get("card")) if then.get("card") else ""
            what += ", " + _("then") + f" {then_card} — {_marble_notation(then)}".rstrip(" —")
    return f"{who}: {what}" if who else what


def step_label(step: dict[str, Any], names: list[str]) -> str:
    kind = step.get("kind")
    if kind == "start":
        return _("Start")
    if kind == "deal":
        path = str(step.get("path") or "")
        number = int(path.rsplit("/", 1)[-1]) + 1 if path.rsplit("/", 1)[-1].isdigit() else 0
        dealer = step.get("dealer")
        if isinstance(dealer, int):
            return _("Deal %(n)d, dealer %(name)s") % {"n": number, "name": _seat_name(dealer, names)}
        return _("Deal %(n)d") % {"n": number}
    return action_label(step.get("action"), names) or str(step.get("label") or "")


def _seat_name(seat: int, names: list[str]) -> str:
    if 0 <= seat < len(names) and names[seat]:
        return names[seat]
    return _("Seat %(n)d") % {"n": seat}


def _card_played(action: dict[str, Any] | None) -> str:
    """The card (or cards, or ZACK! event) of a raw action, for the caption under the board."""
    if not isinstance(action, dict):
        return ""
    if isinstance(action.get("play"), list):
        return " ".join(str(card) for card in action["play"]) + (
            " + " + _("draw") if action.get("draw") else ""
        )
    if action.get("draw"):
        return _("draw")
    if "event" in action:
        return " ".join(str(action[key]) for key in ("event", "card", "color") if key in action)
    card = action.get("card")
    if card is None:
        return ""
    text = str(card) + (f" ({action['as']})" if action.get("as") else "")
    then = action.get("then")
    if isinstance(then, dict) and then.get("card"):
        text += f" → {then['card']}"
    return text


@dataclass(frozen=True)
class RecordUrls:
    """The URLs of one record's pages: under /t/<slug>/ or, for a report-link holder, /report/<token>/."""

    record: GameRecord
    token: str | None = None

    def _name(self, name: str) -> str:
        return f"games:token-{name}" if self.token else f"games:{name}"

    def _args(self) -> list[Any]:
        return [self.token, self.record.pk] if self.token else [self.record.tournament.slug, self.record.pk]

    @property
    def detail(self) -> str:
        return reverse(self._name("record-detail"), args=self._args())

    @property
    def json(self) -> str:
        return reverse(self._name("record-json"), args=self._args())

    def step(self, n: int) -> str:
        return f"{self.detail}steps/{n}/"

    def svg(self, n: int) -> str:
        return f"{self.detail}steps/{n}.svg"

    def page(self, n: int) -> str:
        return f"{self.detail}?step={n}"


def _failure_label(replay: Replay, names: list[str]) -> str:
    """The label of an invalid record's extra step: the failing action, else the verdict's error path."""
    described = action_label(replay.failed_action, names) or (replay.error or {}).get("path") or "/"
    return _("Invalid: %(action)s") % {"action": described}


def _step_context(
    record: GameRecord, replay: Replay, n: int, urls: RecordUrls, names: list[str]
) -> dict[str, Any]:
    """Everything the step fragment shows: the SVG, the step's label, hands, the card played, links."""
    if not 0 <= n < replay.total:
        raise Http404("No such step.")
    failing = replay.has_failure_step and n == len(replay.steps)
    shown = min(n, len(replay.steps) - 1)
    step = replay.steps[shown]
    error = replay.error or {}
    if failing:
        highlight: dict[str, Any] = {
            "action": replay.failed_action,
            "invalid": True,
            "message": error.get("message", ""),
        }
        label = _failure_label(replay, names)
        action = replay.failed_action
    else:
        highlight = {"action": step.get("action"), "invalid": False}
        label = step_label(step, names)
        action = step.get("action")
    snapshot = replay.snapshot(shown)
    svg = render_svg(snapshot, highlight=highlight, seat_names=names, labels=svg_labels())
    texts = describe_texts()
    hands: list[dict[str, Any]] = []
    if snapshot.get("kind") == "marbles":
        for seat, cards in enumerate(snapshot.get("hands") or []):
            hands.append({"seat": seat, "name": _seat_name(seat, names), "cards": list(cards or [])})
    return {
        "record": record,
        "n": n,
        "number": n + 1,
        "total": replay.total,
        "last": replay.total - 1,
        "label": label,
        "failing": failing,
        "error": error if failing else None,
        "svg": mark_safe(svg),  # noqa: S308 - every text in it is escaped by games.replay
        "position_words": describe_position(snapshot, names, texts),
        "move_words": describe_move(action if isinstance(action, dict) else None, snapshot, names, texts,
                                    after=not failing),
        "hands": hands,
        "card_played": _card_played(action),
        "acting_seat": (action or {}).get("seat") if isinstance(action, dict) else None,
        "urls": urls,
        "svg_url": urls.svg(n),
        "prev_url": urls.step(n - 1) if n > 0 else "",
        "next_url": urls.step(n + 1) if n + 1 < replay.total else "",
        "prev_page": urls.page(n - 1) if n > 0 else "",
        "next_page": urls.page(n + 1) if n + 1 < replay.total else "",
    }


def _step_number(value: Any) -> int:
    try:
        return int(value)
    except (TypeError, ValueError):
        return 0


# Record pages ----------------------------------------------------------------------------------------------


def _visible_record(
    request: HttpRequest, record_id: int, *, slug: str | None, token: str | None
) -> GameRecord:
    record = record_visible_or_404(user=request.user, record_id=record_id, token=token)
    if slug is not None and record.tournament.slug != slug:
        raise Http404("No such record.")
    return record


def _record_page(request: HttpRequest, record: GameRecord, token: str | None) -> HttpResponse:
    urls = RecordUrls(record, token)
    replay = record_replay(record)
    n = _step_number(request.GET.get("step", 0))
    names = seat_names(record)
    step = _step_context(record, replay, n, urls, names) if replay.total else None
    moves = [
        {"n": index, "label": step_label(s, names), "url": urls.step(index), "page": urls.page(index)}
        for index, s in enumerate(replay.steps)
    ]
    if replay.has_failure_step:
        failure = len(replay.steps)
        moves.append(
            {
                "n": failure,
                "label": _failure_label(replay, names),
                "url": urls.step(failure),
                "page": urls.page(failure),
                "failing": True,
            }
        )
    tournament = record.tournament
    return render(
        request,
        "games/record_detail.html",
        {
            **(step or {}),
            "tournament": tournament,
            "record": record,
            "table": record.table,
            "round": record.table.round,
            "seat_names": names,
            "derived_winners": _winner_names(record, names),
            "derived_extra": _derived_extra(record),
            "replay": replay,
            "step": step,
            "moves": moves,
            "urls": urls,
            "token": token,
            "is_organiser": permissions.is_organiser(request.user, tournament),
            "failure_page": urls.page(len(replay.steps)) if replay.has_failure_step else "",
        },
    )


def _derived_extra(record: GameRecord) -> list[tuple[str, str]]:
    """The derived result's other fields (TAC coop `cards_used`, TAKI `phases`, …) as (key, value) pairs."""
    result = record.derived_result if isinstance(record.derived_result, dict) else {}
    return [
        (str(key), json.dumps(value, ensure_ascii=False) if isinstance(value, list | dict) else str(value))
        for key, value in result.items()
        if key != "winners"
    ][:10]


def _winner_names(record: GameRecord, names: list[str]) -> list[str]:
    result = record.derived_result if isinstance(record.derived_result, dict) else {}
    return [_seat_name(seat, names) for seat in result.get("winners") or [] if isinstance(seat, int)]


@require_GET
def record_detail(request: HttpRequest, slug: str, record_id: int) -> HttpResponse:
    return _record_page(request, _visible_record(request, record_id, slug=slug, token=None), None)


@require_GET
def token_record_detail(request: HttpRequest, token: str, record_id: int) -> HttpResponse:
    return _record_page(request, _visible_record(request, record_id, slug=None, token=token), token)


def _step_fragment(request: HttpRequest, record: GameRecord, n: int, token: str | None) -> HttpResponse:
    replay = record_replay(record)
    context = _step_context(record, replay, n, RecordUrls(record, token), seat_names(record))
    return render(request, "games/_replay_step.html", context)


@require_GET
def record_step(request: HttpRequest, slug: str, record_id: int, n: int) -> HttpResponse:
    return _step_fragment(request, _visible_record(request, record_id, slug=slug, token=None), n, None)


@require_GET
def token_record_step(request: HttpRequest, token: str, record_id: int, n: int) -> HttpResponse:
    return _step_fragment(request, _visible_record(request, record_id, slug=None, token=token), n, token)


def json_download(record: GameRecord) -> HttpResponse:
    """The record exactly as submitted, as an attachment (the page's link and the API's download)."""
    response = HttpResponse(record.raw.encode("utf-8"), content_type="application/json; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="record-{record.pk}.json"'
    response["X-Content-Type-Options"] = "nosniff"
    return response


@require_GET
def record_json(request: HttpRequest, slug: str, record_id: int) -> HttpResponse:
    return json_download(_visible_record(request, record_id, slug=slug, token=None))


@require_GET
def token_record_json(request: HttpRequest, token: str, record_id: int) -> HttpResponse:
    return json_download(_visible_record(request, record_id, slug=None, token=token))


def _svg_download(record: GameRecord, n: int) -> HttpResponse:
    replay = record_replay(record)
    context = _step_context(record, replay, n, RecordUrls(record), seat_names(record))
    svg = '<?xml version="1.0" encoding="UTF-8"?>\n' + str(context["svg"])
    response = HttpResponse(svg, content_type="image/svg+xml; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="record-{record.pk}-step-{n + 1}.svg"'
    # Opened directly, the SVG may not run anything (it never contains scripts; this is belt and braces).
    response["Content-Security-Policy"] = "default-src 'none'; style-src 'unsafe-inline'"
    return response


@require_GET
def record_step_svg(request: HttpRequest, slug: str, record_id: int, n: int) -> HttpResponse:
    return _svg_download(_visible_record(request, record_id, slug=slug, token=None), n)


@require_GET
def token_record_step_svg(request: HttpRequest, token: str, record_id: int, n: int) -> HttpResponse:
    return _svg_download(_visible_record(request, record_id, slug=None, token=token), n)


# Lists -----------------------------------------------------------------------------------------------------


def _records_page(request: HttpRequest, queryset: Any) -> Any:
    queryset = queryset.select_related("table__round").order_by("-created_at", "-pk")
    return Paginator(queryset, RECORDS_PER_PAGE).get_page(request.GET.get("page"))


@require_GET
def records_list(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = visible_tournament(request, slug)
    is_organiser = permissions.is_organiser(request.user, tournament)
    records = records_for_tournament(user=request.user, tournament=tournament)
    conflicts_only = request.GET.get("settlement") == "conflict"
    if conflicts_only:
        records = records.filter(settlement="conflict")
    return render(
        request,
        "games/records_list.html",
        {
            "tournament": tournament,
            "page": _records_page(request, records),
            "table": None,
            "is_organiser": is_organiser,
            "conflicts_only": conflicts_only,
        },
    )


@require_GET
def table_records(request: HttpRequest, slug: str, table_id: int) -> HttpResponse:
    tournament = visible_tournament(request, slug)
    table = visible_table(request, tournament, table_id)
    is_organiser = permissions.is_organiser(request.user, tournament)
    can_submit = request.user.is_authenticated and game_permissions.can_submit_record(
        request.user, None, table
    )
    return render(
        request,
        "games/records_list.html",
        {
            "tournament": tournament,
            "page": _records_page(request, records_for_table(user=request.user, table=table)),
            "table": table,
            "is_organiser": is_organiser,
            "can_submit": can_submit,
            "conflicts_only": False,
        },
    )


# Submitting ------------------------------------------------------------------------------------------------


def _submit_page(
    request: HttpRequest, *, tournament: Tournament, table: Table, token: str | None, entrant: Any
) -> HttpResponse:
    if table.is_bye:
        raise Http404("A bye has no game record.")
    form = RecordSubmitForm()
    status = 200
    if request.method == "POST":
        form = RecordSubmitForm(request.POST, request.FILES)
        if form.is_valid():
            try:
                record = record_submit(
                    table=table,
                    actor=request.user if request.user.is_authenticated else None,
                    token=token,
                    data=form.cleaned_data["data"],
                    source=form.cleaned_data["source"],
                )
            except TournamentError as error:
                form.add_error(None, error.message)
                status = error.http_status
            else:
                _submitted_message(request, record)
                return redirect(RecordUrls(record, token).detail)
        else:
            status = 400
    return render(
        request,
        "games/record_submit.html",
        {
            "tournament": tournament,
            "table": table,
            "round": table.round,
            "form": form,
            "entrant": entrant,
            "token": token,
        },
        status=status,
    )


def _submitted_message(request: HttpRequest, record: GameRecord) -> None:
    if record.status == "valid":
        if record.settlement == "settled":
            messages.success(request, _("The record is valid; its result was reported for the table."))
        elif record.settlement == "conflict":
            messages.warning(
                request,
                _("The record is valid, but it contradicts the reported result; the organiser decides."),
            )
        else:
            messages.success(request, _("The record is valid."))
    elif record.status == "invalid":
        messages.error(request, _("The record is not valid. The result of the table is unchanged."))
    else:
        messages.info(request, _("Record received. It is being verified; this page shows the verdict."))


@login_required
def record_submit_view(request: HttpRequest, slug: str, table_id: int) -> HttpResponse:
    """A player of the table (logged in) or an organiser submits the table's record."""
    tournament = visible_tournament(request, slug)
    table = visible_table(request, tournament, table_id)
    if not game_permissions.can_submit_record(request.user, None, table):
        raise PermissionDenied(_("Only a player of this table or an organiser may submit its record."))
    entrants = permissions.entrants_of_user_at_table(request.user, table)
    return _submit_page(
        request, tournament=tournament, table=table, token=None, entrant=entrants[0] if entrants else None
    )


def token_record_submit(request: HttpRequest, token: str, table_id: int) -> HttpResponse:
    """A player with a private report link submits the record of one of their tables."""
    entrant = permissions.entrant_for_token(token)
    if entrant is None:
        raise Http404("This report link is not valid.")
    table = get_object_or_404(
        Table.objects.select_related("round"), pk=table_id, round__tournament_id=entrant.tournament_id
    )
    if table.round.status == Round.Status.DRAFT or not game_permissions.can_submit_record(None, token, table):
        raise Http404("This table is not one of yours.")
    return _submit_page(request, tournament=entrant.tournament, table=table, token=token, entrant=entrant)


# Bulk import (organisers) ----------------------------------------------------------------------------------


@login_required
def records_import_view(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = organised_tournament(request, slug)
    form = RecordsImportForm()
    status = 200
    if request.method == "POST":
        form = RecordsImportForm(request.POST, request.FILES)
        if form.is_valid():
            upload = form.cleaned_data["import_file"]
            try:
                batch = records_import(
                    tournament=tournament, actor=request.user, filename=upload.name or "", data=upload.read()
                )
            except TournamentError as error:
                form.add_error(None, error.message)
                status = error.http_status
            else:
                return redirect("games:import-detail", slug=tournament.slug, batch_id=batch.pk)
        else:
            status = 400
    recent = ImportBatch.objects.filter(tournament=tournament).defer("upload").order_by("-created_at", "-pk")[:10]
    return render(
        request,
        "games/records_import.html",
        {"tournament": tournament, "form": form, "recent": recent},
        status=status,
    )


def _batch_context(tournament: Tournament, batch: ImportBatch) -> dict[str, Any]:
    # The page shows the per-record report once the batch is done; the polls before only the bar.
    progress = batch_progress(
        batch=batch, with_items=batch.status in (ImportBatch.Status.DONE, ImportBatch.Status.FAILED)
    )
    total = int(progress.get("total") or 0)
    processed = int(progress.get("processed") or 0)
    items = []
    for item in progress.get("items") or []:
        record_id = item.get("record_id")
        items.append(
            {
                **item,
                "url": reverse("games:record-detail", args=[tournament.slug, record_id]) if record_id else "",
            }
        )
    done = bool(progress.get("done"))
    return {
        "tournament": tournament,
        "batch": batch,
        "total": total,
        "processed": processed,
        "percent": round(100 * processed / total) if total else (100 if done else 0),
        "done": done,
        "items": items,
        "valid": sum(1 for item in items if item.get("status") == "valid"),
        "invalid": sum(1 for item in items if item.get("status") == "invalid"),
        "refused": sum(1 for item in items if not item.get("record_id")),
        "progress_url": reverse("games:import-progress", args=[tournament.slug, batch.pk]),
    }


def _organised_batch(request: HttpRequest, slug: str, batch_id: int) -> tuple[Tournament, ImportBatch]:
    tournament = organised_tournament(request, slug)
    return tournament, get_object_or_404(ImportBatch.objects.defer("upload"), pk=batch_id, tournament=tournament)


@login_required
@require_GET
def import_detail(request: HttpRequest, slug: str, batch_id: int) -> HttpResponse:
    tournament, batch = _organised_batch(request, slug, batch_id)
    return render(request, "games/import_detail.html", _batch_context(tournament, batch))


@login_required
@require_GET
def import_progress(request: HttpRequest, slug: str, batch_id: int) -> HttpResponse:
    tournament, batch = _organised_batch(request, slug, batch_id)
    return render(request, "games/_import_progress.html", _batch_context(tournament, batch))
