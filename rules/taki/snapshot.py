"""A TAKI position as the JSON the replay viewer renders (docs/replay-trace.md, ``kind: "taki"``)."""

from __future__ import annotations

from typing import Any

from rules.taki.game import Variant
from rules.taki.state import TakiState

DISCARD_SHOWN = 6


def snapshot(state: TakiState | Variant) -> dict[str, Any]:
    """The position of ``state``; a bare ``Variant`` is the empty table before the deal.

    >>> from rules.taki.game import parse_variant
    >>> v = parse_variant({"seats": 2}, None)
    >>> s = snapshot(v)
    >>> s["kind"], s["hands"], s["stock_count"], s["to_move"]
    ('taki', [[], []], 0, None)
    >>> s = snapshot(TakiState.dealt(v, [["3r"], ["4g"]], "5r", ["6b", "7y"], 1))
    >>> s["discard_top"], s["stock_count"], s["lead_color"], s["to_move"]
    (['5r'], 2, 'r', 1)
    """
    if isinstance(state, Variant):
        return _empty(state)
    over = state.winner is not None
    return {
        "game": "taki",
        "kind": "taki",
        "seats": state.n,
        "to_move": None if over else state.to_move,
        "over": over,
        "winners": [state.winner] if state.winner is not None else None,
        "hands": [list(h) for h in state.hands],
        "discard_top": list(state.discard[-DISCARD_SHOWN:]),
        "discard_count": len(state.discard),
        "stock_count": len(state.stock),
        "direction": state.direction,
        "lead_color": state.lead_color,
        "lead_symbol": state.lead_symbol,
        "open_taki": state.open_taki,
        "pending_draw": state.plus2,
        "pending_plus3": state.plus3_by,
        "finished": [state.winner] if state.winner is not None else [],
        "phases": list(state.phases) if state.phases is not None else None,
        "last": None,
    }


def _empty(variant: Variant) -> dict[str, Any]:
    n = variant.seats
    return {
        "game": "taki",
        "kind": "taki",
        "seats": n,
        "to_move": None,
        "over": False,
        "winners": None,
        "hands": [[] for _ in range(n)],
        "discard_top": [],
        "discard_count": 0,
        "stock_count": 0,
        "direction": 1,
        "lead_color": None,
        "lead_symbol": None,
        "open_taki": None,
        "pending_draw": 0,
        "pending_plus3": None,
        "finished": [],
        "phases": None,
        "last": None,
    }


def label(action: dict[str, Any]) -> str:
    """A short English description of a TAKI entry.

    >>> label({"seat": 1, "play": ["taki_b", "3b", "plus2_b"], "last_card": True})
    'Seat 1: play taki_b 3b plus2_b, last card'
    >>> label({"seat": 0, "play": ["plus_r"], "draw": True})
    'Seat 0: play plus_r, draw'
    >>> label({"seat": 3, "draw": True})
    'Seat 3: draw'
    """
    parts: list[str] = []
    play = action.get("play")
    if isinstance(play, list) and play:
        parts.append("play " + " ".join(str(c) for c in play))
    if action.get("draw") is True:
        parts.append("draw")
    if action.get("close") is True:
        parts.append("close")
    if action.get("last_card") is True:
        parts.append("last card")
    return f"Seat {action.get('seat', '?')}: " + ", ".join(parts)


def last_action(action: dict[str, Any]) -> dict[str, Any]:
    """The snapshot's ``last``: ``{"seat", "play", "draw"?}``."""
    last: dict[str, Any] = {"seat": action.get("seat"), "play": list(action.get("play") or [])}
    if action.get("draw") is True:
        last["draw"] = True
    return last
