"""A Tac-Tik position as the JSON the replay viewer renders (docs/replay-trace.md, ``kind: "marbles"``).

``fresh`` lists the ring fields holding a *pieu*; bases never lock in Tac-Tik, so ``locked`` is empty.
"""

from __future__ import annotations

from typing import Any

from rules.tactik.state import State
from rules.track.snapshot import marble_label as label
from rules.track.snapshot import marble_last as last_action
from rules.track.snapshot import marbles_snapshot

__all__ = ["label", "last_action", "snapshot"]


def snapshot(state: State) -> dict[str, Any]:
    """The position of ``state``; ``deal`` and ``last`` are filled in by the trace.

    >>> from rules.tactik.game import parse_variant
    >>> s = snapshot(State(parse_variant({"seats": 6})))
    >>> s["ring"], s["starts"], s["teams"], s["prefield"]
    (96, [0, 16, 32, 48, 64, 80], [[0, 3], [1, 4], [2, 5]], [4, 4, 4, 4, 4, 4])
    """
    variant = state.variant
    over = state.winners is not None
    return marbles_snapshot(
        game="tactik",
        board=state.board,
        occupancy=state.marbles.at.items(),
        active=range(variant.seats),
        sides=variant.teams,
        fresh=state.pieux,
        locked=(),
        hands=state.hands,
        to_move=None if over else state.to_move,
        over=over,
        winners=state.winners,
        dealer=state.dealer,
        deal_in_cycle=state.deal_index,
    )
