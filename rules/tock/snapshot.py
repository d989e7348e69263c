"""A Tock position as the JSON the replay viewer renders (docs/replay-trace.md, ``kind: "marbles"``).

``fresh`` lists the start fields holding a protected marble; ``banned`` says the seat to move must
discard (a 10 was played before it). Goals never lock in Tock, so ``locked`` is empty.
"""

from __future__ import annotations

from typing import Any

from rules.tock.state import TockState
from rules.track.snapshot import marble_label as label
from rules.track.snapshot import marble_last as last_action
from rules.track.snapshot import marbles_snapshot

__all__ = ["label", "last_action", "snapshot"]


def snapshot(state: TockState) -> dict[str, Any]:
    """The position of ``state``; ``deal`` and ``last`` are filled in by the trace.

    >>> from rules.tock.game import parse_variant
    >>> s = snapshot(TockState.initial(parse_variant({"seats": 6, "mode": "teams", "quick_start": True})))
    >>> s["ring"], s["teams"], s["fresh"], s["prefield"]
    (96, [[0, 3], [1, 4], [2, 5]], [0, 16, 32, 48, 64, 80], [3, 3, 3, 3, 3, 3])
    """
    variant = state.variant
    n = variant.seats
    at = state.marbles.at
    over = state.winners is not None
    sides = sorted({variant.team_of(s) for s in range(n)}) if variant.teams else []
    fresh = [state.starts[c] for c in state.protected if at.get(state.starts[c]) == c]
    snap = marbles_snapshot(
        game="tock",
        board=state.board,
        occupancy=at.items(),
        active=range(n),
        sides=sides,
        fresh=fresh,
        locked=(),
        hands=state.hands,
        to_move=None if over or state.to_move < 0 else state.to_move,
        over=over,
        winners=state.winners,
        dealer=state.dealer,
        deal_in_cycle=state.deal_index,
    )
    snap["banned"] = state.banned
    snap["mode"] = variant.mode
    return snap
