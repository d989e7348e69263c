"""A live scoresheet for the marble games: entries in record notation, options, and the final record.

Pure functions over a JSON-serialisable state (the app stores it as is). See docs/scoresheet.md.

>>> state = sheet_start(game="tac", variant={}, dealer=3,
...     players=[{"name": n, "seats": [s]} for s, n in enumerate("ABCD")])
>>> v = sheet_view(state)
>>> v.phase, v.deal, v.seat, v.entries
('announce', 0, None, 0)
>>> state = sheet_add(state, {"announce": [True, True, False, True]})
>>> state = sheet_add(state, {"exchange": ["1", "5", "7", "9"]})
>>> v = sheet_view(state)
>>> v.phase, v.seat, {"seat": 0, "card": "1", "enter": True} in v.options
('turn', 0, True)
>>> sheet_add(state, {"seat": 1, "card": "1", "enter": True})
Traceback (most recent call last):
...
rules.scoresheet.sheet.EntryRefused: wrong_seat: Seat 0 is to move, not seat 1.
"""

from __future__ import annotations

import json
from collections import OrderedDict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from rules.core.errors import ErrorCode, RecordError
from rules.core.replay import verify_document
from rules.scoresheet.games import GameRules
from rules.scoresheet.sheet import SHEET_FORMAT, EntryRefused, Sheet, header_digest, header_of, load, remember

SUPPORTED_GAMES: frozenset[str] = frozenset({"tac", "tock", "tactik"})

__all__ = [
    "SUPPORTED_GAMES",
    "EntryRefused",
    "SheetView",
    "sheet_add",
    "record_entries",
    "sheet_correct",
    "sheet_record",
    "sheet_start",
    "sheet_undo",
    "sheet_view",
    "split_steps",
]


@dataclass(frozen=True)
class SheetView:
    """What the page shows: whose entry, the entries that may come next, and the position."""

    phase: str
    deal: int
    seat: int | None
    options: list[dict[str, Any]]
    snapshot: dict[str, Any]
    last: dict[str, Any] | None
    over: bool
    winners: list[int] | None
    entries: int
    # the running deal's facts that sheet_correct may still replace: {"announce": [...], "exchange":
    # [...], "cards": [every card of the deck]} (only the keys entered; empty once the deal closes)
    correctable: dict[str, Any] = field(default_factory=dict)


def _rules(header: Mapping[str, Any]) -> GameRules:
    game = header.get("game")
    variant = dict(header.get("variant") or {})
    if game == "tac":
        from rules.scoresheet.tac import TacRules

        return TacRules(variant)
    if game in SUPPORTED_GAMES:
        import importlib

        module = importlib.import_module(f"rules.scoresheet.{game}")
        rules: GameRules = module.RULES(variant)
        return rules
    raise EntryRefused(ErrorCode.UNSUPPORTED_FORMAT.value, f"No scoresheet for the game {game!r}.")


def sheet_start(
    *,
    game: str,
    variant: Mapping[str, Any],
    players: Sequence[Mapping[str, Any]],
    dealer: int,
    meta: Mapping[str, Any] | None = None,
    setup: Mapping[str, Any] | None = None,
) -> dict[str, Any]:
    """A new, empty sheet; EntryRefused (bad_variant, malformed, ...) if the table cannot be recorded.

    ``setup`` (optional) starts from a position, exactly a record's ``setup`` (spec 2): its hands are
    known, the deals after it are dealt unseen; ``dealer`` must then be the setup's dealer.
    """
    if game not in SUPPORTED_GAMES:
        raise EntryRefused(ErrorCode.UNSUPPORTED_FORMAT.value, f"No scoresheet for the game {game!r}.")
    state: dict[str, Any] = {
        "format": SHEET_FORMAT,
        "game": game,
        "variant": dict(variant),
        "players": [dict(p) for p in players],
        "dealer": dealer,
    }
    if meta:
        state["meta"] = dict(meta)
    if setup is not None:
        state["setup"] = json.loads(json.dumps(setup))
        if setup.get("dealer") != dealer:
            raise EntryRefused(ErrorCode.BAD_SETUP.value, "The dealer differs from the setup's.", None, "/setup/dealer")
    doc: dict[str, Any] = {
        "format": "game-record/1",
        "game": game,
        "variant": state["variant"],
        "players": state["players"],
        "deals": [],
    }
    if meta:
        doc["meta"] = state["meta"]
    if setup is not None:
        doc["setup"] = state["setup"]
    verdict = verify_document(doc)
    if not verdict.valid:
        assert verdict.error is not None
        raise EntryRefused(verdict.error.code, verdict.error.message, None, verdict.error.path)
    try:
        rules = _rules(state)
    except (RecordError, ImportError) as err:
        if isinstance(err, ImportError):
            raise EntryRefused(ErrorCode.UNSUPPORTED_FORMAT.value, f"No scoresheet for {game} yet.") from None
        raise EntryRefused(err.code.value, err.message, None, err.path) from None
    if isinstance(dealer, bool) or not isinstance(dealer, int) or dealer not in rules.active:
        raise EntryRefused(ErrorCode.MALFORMED.value, f"Seat {dealer!r} cannot deal: it is not in play.", None)
    state["entries"] = []
    state["digest"] = header_digest(header_of(state))
    _load(state)  # a setup is replayed once now, so that a bad one is refused here
    return state


def _load(state: Mapping[str, Any]) -> Sheet:
    if not isinstance(state, Mapping) or state.get("format") != SHEET_FORMAT:
        raise EntryRefused(ErrorCode.UNSUPPORTED_FORMAT.value, "Not a scoresheet state.")
    return load(state, _rules)


def _state(sheet: Sheet) -> dict[str, Any]:
    return {
        "format": SHEET_FORMAT,
        **header_of(sheet.header),
        "entries": list(sheet.entries),
        "digest": sheet.digests[-1],
    }


_VIEWS: OrderedDict[str, SheetView] = OrderedDict()
_VIEWS_KEPT = 64


def sheet_view(state: Mapping[str, Any]) -> SheetView:
    """The sheet now: phase, whose entry, the options (see docs/scoresheet.md) and the position.

    A worker keeps the views of recent states (a reload or a second phone costs nothing); treat the
    returned lists and objects as read-only.
    """
    sheet = _load(state)
    key = sheet.digests[-1]
    cached = _VIEWS.get(key)
    if cached is not None and cached.entries == len(sheet.entries):
        _VIEWS.move_to_end(key)
        return cached
    view = _view(sheet)
    _VIEWS[key] = view
    while len(_VIEWS) > _VIEWS_KEPT:
        _VIEWS.popitem(last=False)
    return view


def _view(sheet: Sheet) -> SheetView:
    rules = sheet.rules
    phase = sheet.phase()
    if phase != "over":
        sheet._open_deal()  # the next deal is dealt (unseen) as soon as the last one closed
    deal_no = len(sheet.deals) - 1
    seat: int | None = None
    options: list[dict[str, Any]] = []
    if phase == "announce":
        options.append(_announce_template(sheet))
        if rules.exchange_required():
            options.append(_exchange_template(sheet))
        else:
            seat = rules.to_move(sheet.state)
    elif phase == "exchange":
        options.append(_exchange_template(sheet))
    elif phase == "turn":
        seat = rules.to_move(sheet.state)
    elif rules.pending_answer(sheet.state):
        seat = sheet.state.to_move
    if seat is not None:
        options.extend(rules.options(sheet.state, seat))
    snap = rules.snapshot(sheet.state)
    snap["deal"] = len(sheet.deals) - 1
    snap["hand_sizes"] = [len(h) for h in sheet.state.hands]
    if sheet.last is not None and sheet.current() is not None and sheet.current().turns:  # type: ignore[union-attr]
        from rules.track.snapshot import marble_last

        snap["last"] = marble_last(sheet.last)
        if "discard" in sheet.last:
            snap["discarded"] = True
    over = phase == "over"
    if over:
        snap["over"] = True
        snap["to_move"] = None
        snap["winners"] = rules.winners(sheet.state)
    correctable: dict[str, Any] = {}
    deal = sheet.current()
    if phase != "over" and deal is not None and not deal.closed and not deal.setup:
        if deal.announce is not None:
            correctable["announce"] = list(deal.announce)
        if deal.exchange is not None:
            correctable["exchange"] = list(deal.exchange)
        if correctable:
            correctable["cards"] = sorted(rules.deck)
    return SheetView(
        correctable=correctable,
        phase=phase,
        deal=deal_no,
        seat=seat,
        options=options,
        snapshot=snap,
        last=dict(sheet.entries[-1]) if sheet.entries else None,
        over=over,
        winners=rules.winners(sheet.state) if over else None,
        entries=len(sheet.entries),
    )


def _announce_template(sheet: Sheet) -> dict[str, Any]:
    rules = sheet.rules
    return {"announce": [False if s in rules.active else None for s in range(rules.seats)]}


def _exchange_template(sheet: Sheet) -> dict[str, Any]:
    rules = sheet.rules
    cards = sorted(sheet.cycle.pool())
    return {"exchange": [cards if rules.partner(s) is not None else None for s in range(rules.seats)]}


def record_entries(record: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The entries a table enters to keep `record` on a sheet, in order: per deal its announcements, its
    exchange, then its turns (the deal's hidden `hands` are never entered). The inverse of `sheet_record`
    for a record's public part; benchmarks and tests play records through a sheet with it."""
    entries: list[dict[str, Any]] = []
    for deal in record.get("deals", []):
        if "announce" in deal:
            entries.append({"announce": deal["announce"]})
        if "exchange" in deal:
            entries.append({"exchange": deal["exchange"]})
        entries.extend(deal.get("turns", []))
    return entries


def sheet_add(state: Mapping[str, Any], entry: Mapping[str, Any]) -> dict[str, Any]:
    """The state with `entry` added; EntryRefused (and nothing changes) if the rules refuse it."""
    sheet = _load(state)
    sheet.add(entry)
    remember(sheet)
    return _state(sheet)


def sheet_correct(state: Mapping[str, Any], entry: Mapping[str, Any]) -> dict[str, Any]:
    """The state with the running deal's announcements or exchange replaced by `entry` (its
    ``{"announce": [...]}`` or ``{"exchange": [...]}``), the turns after it kept and checked again.

    Allowed until the deal closes (its last card); EntryRefused ``nothing_to_correct`` when the running
    deal has no such entry yet (enter it instead) or is closed, else the refusal of the corrected entry
    or of the first later entry that no longer fits (``turn`` names it; nothing changes).
    """
    sheet = _load(state)
    kinds = [k for k in ("announce", "exchange") if isinstance(entry, Mapping) and k in entry]
    if len(kinds) != 1:
        raise EntryRefused(ErrorCode.MALFORMED.value, "A correction is {\"announce\": [...]} or {\"exchange\": [...]}.")
    kind = kinds[0]
    deal = sheet.current()
    at = None
    if deal is not None and not deal.closed:
        at = deal.announce_entry if kind == "announce" else deal.exchange_entry
    if at is None:
        raise EntryRefused(
            "nothing_to_correct",
            f"The running deal has no {'announcements' if kind == 'announce' else 'exchange'} to correct.",
            None, "", {"reason": "nothing_to_correct", "kind": kind},
        )
    entries = list(sheet.entries)
    fixed = Sheet(sheet.header, sheet.rules) if at == 0 else _load({**_state(sheet), "entries": entries[:at],
                                                                    "digest": sheet.digests[at]})
    for k, item in enumerate([dict(entry), *entries[at + 1 :]], start=at):
        try:
            fixed.add(item)
        except EntryRefused as err:
            if err.turn is None:
                err.turn = k
            err.params.setdefault("corrected", at)
            raise
    remember(fixed)
    return _state(fixed)


def sheet_undo(state: Mapping[str, Any]) -> dict[str, Any]:
    """The state without its last entry (also across a deal's end); EntryRefused if there is none."""
    sheet = _load(state)
    if not sheet.entries:
        raise EntryRefused("nothing_to_undo", "There is no entry to undo.")
    out = _state(sheet)
    out["entries"] = out["entries"][:-1]
    out["digest"] = sheet.digests[-2]
    return out


def sheet_record(state: Mapping[str, Any], *, time_up: bool = False) -> dict[str, Any]:
    """The game-record/1 document of the sheet, with the hidden facts completed (docs/scoresheet.md).

    The record verifies valid (and complete once the game is over); ``time_up`` ends an unfinished game
    at the time limit (``termination: "adjudication"``). EntryRefused names the entry when the hidden
    facts cannot be completed without breaking a rule.
    """
    sheet = _load(state)
    doc = sheet.record(time_up=time_up)
    verdict = verify_document(doc)
    if not verdict.valid:
        assert verdict.error is not None
        raise sheet.refusal(verdict.error.code, verdict.error.message, verdict.error.path, None)
    return doc


def split_steps(
    options: Sequence[Mapping[str, Any]], card: str, chosen: Sequence[Sequence[Any]]
) -> dict[str, Any]:
    """Offer a split card (TAC's 7, Tock's 7, Tac-Tik's 7x1) one segment at a time.

    ``options`` are a view's options, ``chosen`` the segments tapped so far (``[[from, to], ...]``, in any
    order). Returns ``{"next": [segments that can still follow], "done": [the complete entries that
    consist of exactly the chosen segments]}``. Options are listed once per resulting position, so the
    order of the segments does not matter here.

    >>> opts = [{"seat": 0, "card": "7", "moves": [[3, 10]]},
    ...         {"seat": 0, "card": "7", "moves": [[3, 5], [20, 25]]}]
    >>> split_steps(opts, "7", [])["next"]
    [[3, 10], [3, 5], [20, 25]]
    >>> split_steps(opts, "7", [[20, 25]])
    {'next': [[3, 5]], 'done': []}
    """
    picked = [list(seg) for seg in chosen]
    following: list[list[Any]] = []
    done: list[dict[str, Any]] = []
    for option in options:
        if option.get("card") != card or "moves" not in option:
            continue
        rest = [list(seg) for seg in option["moves"]]
        if all(seg in rest and not rest.remove(seg) for seg in picked):  # type: ignore[func-returns-value]
            if not rest:
                done.append(dict(option))
            for seg in rest:
                if seg not in following:
                    following.append(seg)
    return {"next": following, "done": done}
