"""The shared part of a marble-game snapshot (TAC, Tac-Tik, Tock): see docs/replay-trace.md."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from functools import lru_cache
from typing import Any

from rules.track.board import Board
from rules.track.marbles import MARBLES_PER_COLOUR


@lru_cache(maxsize=16)
def _geometry(board: Board) -> tuple[tuple[int | str, ...], tuple[int, ...], tuple[int, ...]]:
    """Every position's record token, the start fields and the home entries of a board (cached)."""
    cells = board.ring + board.home_slots * board.seats
    tokens = tuple(board.token(p) for p in range(cells))
    return (
        tokens,
        tuple(board.start(k) for k in range(board.seats)),
        tuple(board.entry(k) for k in range(board.seats)),
    )


def marbles_snapshot(
    *,
    game: str,
    board: Board,
    occupancy: Iterable[tuple[int, int]],
    active: Sequence[int],
    sides: Sequence[Sequence[int]],
    fresh: Iterable[int],
    locked: Iterable[int],
    hands: Sequence[Sequence[str]],
    to_move: int | None,
    over: bool,
    winners: Sequence[int] | None,
    dealer: int,
    deal_in_cycle: int,
) -> dict[str, Any]:
    """Build the common ``kind: "marbles"`` snapshot from plain board data.

    ``occupancy`` yields ``(position, colour)`` pairs; ``fresh`` ring fields; ``locked`` home positions.

    >>> from rules.track.board import Board
    >>> snap = marbles_snapshot(game="tac", board=Board(seats=4), occupancy=[(70, 1), (5, 1), (16, 1)],
    ...     active=[0, 1, 2, 3], sides=[[0, 2], [1, 3]], fresh=[16], locked=[], hands=[[], [], [], []],
    ...     to_move=None, over=False, winners=None, dealer=0, deal_in_cycle=0)
    >>> snap["marbles"][1], snap["prefield"], snap["home_count"]
    ([5, 16, 'H1:3'], [4, 1, 4, 4], [0, 1, 0, 0])
    """
    n = board.seats
    tokens, starts, entries = _geometry(board)
    per_seat: list[list[int]] = [[] for _ in range(n)]
    for pos, colour in occupancy:
        per_seat[colour].append(pos)
    active_set = set(active)
    marbles: list[list[int | str]] = []
    prefield: list[int] = []
    home_count: list[int] = []
    ring = board.ring
    for colour in range(n):
        positions = sorted(per_seat[colour])
        marbles.append([tokens[p] for p in positions])
        count = MARBLES_PER_COLOUR if colour in active_set else 0
        prefield.append(count - len(positions))
        home_count.append(sum(1 for p in positions if p >= ring))
    team_sides = [sorted(side) for side in sides]
    teams = team_sides if any(len(side) > 1 for side in team_sides) else []
    return {
        "game": game,
        "kind": "marbles",
        "seats": n,
        "to_move": to_move,
        "over": over,
        "winners": sorted(winners) if winners is not None else None,
        "hands": [list(h) for h in hands],
        "ring": ring,
        "starts": list(starts),
        "home_entries": list(entries),
        "home_slots": board.home_slots,
        "teams": teams,
        "active": sorted(active_set),
        "marbles": marbles,
        "prefield": prefield,
        "fresh": sorted(fresh),
        "locked": [str(tokens[p]) for p in sorted(locked)],
        "home_count": home_count,
        "marbles_per_seat": MARBLES_PER_COLOUR,
        "dealer": dealer,
        "deal": -1,
        "deal_in_cycle": deal_in_cycle,
        "last": None,
    }


def _part(action: dict[str, Any]) -> str:
    card = str(action.get("card", "?"))
    if "as" in action:
        card += f" (as {action['as']})"
    if "moves" in action and isinstance(action["moves"], list):
        segments = ", ".join(
            f"{seg[0]}→{seg[1]}" for seg in action["moves"] if isinstance(seg, list) and len(seg) == 2
        )
        return f"{card} — {segments}"
    if "swap" in action and isinstance(action["swap"], list) and len(action["swap"]) == 2:
        return f"{card} — swap {action['swap'][0]}↔{action['swap'][1]}"
    if "strike" in action:
        return f"{card} — strike {action['strike']}"
    if isinstance(action.get("then"), dict):
        return f"{card}, then {_part(action['then'])}"
    for key in ("enter", "skip", "discard"):
        if action.get(key) is True:
            return f"{card} — {key}"
    colour = action.get("enter")
    if isinstance(colour, int) and not isinstance(colour, bool):
        return f"{card} — enter colour {colour}"
    return card


def marble_label(action: dict[str, Any]) -> str:
    """A short English description of a marble-game action.

    >>> marble_label({"seat": 0, "card": "7", "moves": [[62, "H0:1"], [26, 30]]})
    'Seat 0: 7 — 62→H0:1, 26→30'
    >>> marble_label({"seat": 3, "card": "narr", "then": {"card": "5", "moves": [[35, 40]]}})
    'Seat 3: narr, then 5 — 35→40'
    >>> marble_label({"seat": 2, "card": "tac", "as": "13", "enter": True})
    'Seat 2: tac (as 13) — enter'
    """
    return f"Seat {action.get('seat', '?')}: {_part(action)}"


def marble_last(action: dict[str, Any]) -> dict[str, Any]:
    """The snapshot's ``last`` for a marble-game action: seat, card, and ``as``/``then`` when given."""
    last: dict[str, Any] = {"seat": action.get("seat"), "card": action.get("card")}
    if "as" in action:
        last["as"] = action["as"]
    then = action.get("then")
    if isinstance(then, dict):
        last["then"] = then.get("card")
        if "as" in then:
            last["then_as"] = then["as"]
    return last
