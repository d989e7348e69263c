"""A ZACK! position as the JSON the replay viewer renders (docs/replay-trace.md, ``kind: "zack"``)."""

from __future__ import annotations

from typing import Any

from rules.zack.game import ZackVariant
from rules.zack.state import ZackState


def snapshot(state: ZackState | ZackVariant) -> dict[str, Any]:
    """The position of ``state``; a bare ``ZackVariant`` is the table before the deal.

    >>> v = ZackVariant(seats=3, colours=("red", "blue", "green"))
    >>> s = snapshot(ZackState(v, colours=v.colours, stacks=[["left"], ["red"], []], obliged=1))
    >>> s["stacks"], s["obliged"], s["to_move"], s["hands"]
    ([['left'], ['red'], []], 1, 1, [[], [], []])
    """
    if isinstance(state, ZackVariant):
        n = state.seats
        return _common(n, list(state.colours)) | {
            "bowl": [],
            "stacks": [[] for _ in range(n)],
            "collected": [0] * n,
            "obliged": None,
            "mirror": False,
            "player_cards": [],
        }
    over = state.winner is not None
    snap = _common(state.n, list(state.colours))
    snap.update(
        {
            "to_move": None if over else state.obliged,
            "over": over,
            "winners": [state.winner] if state.winner is not None else None,
            "bowl": [{"seat": b.seat, "card": b.card} for b in state.bowl],
            "stacks": [list(stack) for stack in state.stacks],
            "collected": list(state.collected),
            "obliged": None if over else state.obliged,
            "mirror": state.mirrored(),
            "player_cards": [{"seat": p.seat, "colour": p.colour} for p in state.loose],
        }
    )
    return snap


def _common(n: int, colours: list[str]) -> dict[str, Any]:
    return {
        "game": "zack",
        "kind": "zack",
        "seats": n,
        "to_move": None,
        "over": False,
        "winners": None,
        "hands": [[] for _ in range(n)],
        "colours": colours,
        "last": None,
    }


def label(action: dict[str, Any]) -> str:
    """A short English description of a ZACK! event.

    >>> label({"seat": 2, "event": "throw", "card": "green"})
    'Seat 2: throw green'
    >>> label({"seat": 3, "event": "challenge", "color": "green", "reason": "slow"})
    'Seat 3: challenge green (slow)'
    >>> label({"seat": 1, "event": "player_card"})
    'Seat 1: player card'
    """
    seat = action.get("seat", "?")
    event = action.get("event")
    if event == "throw":
        text = "throw" + (f" {action['card']}" if "card" in action else "")
        if "choose" in action:
            text += f" → {action['choose']}"
    elif event == "challenge":
        text = f"challenge {action.get('color', '?')} ({action.get('reason', '?')})"
    else:
        text = "player card"
    after = action.get("after")
    if isinstance(after, list) and after:
        text += f", {len(after)} after"
    return f"Seat {seat}: {text}"


def last_action(action: dict[str, Any]) -> dict[str, Any]:
    """The snapshot's ``last``: ``{"seat", "event", "card"?}``."""
    last: dict[str, Any] = {"seat": action.get("seat"), "event": action.get("event")}
    if "card" in action:
        last["card"] = action["card"]
    return last
