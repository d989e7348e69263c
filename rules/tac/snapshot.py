"""A TAC position as the JSON the replay viewer renders (docs/replay-trace.md, ``kind: "marbles"``)."""

from __future__ import annotations

from typing import Any

from rules.tac.actions import BOARD
from rules.tac.state import EMPTY, RING, START, TacState
from rules.track.snapshot import marble_label as label
from rules.track.snapshot import marble_last as last_action
from rules.track.snapshot import marbles_snapshot

__all__ = ["label", "last_action", "snapshot"]


def snapshot(state: TacState) -> dict[str, Any]:
    """The position of ``state``; ``deal`` and ``last`` are filled in by the trace, which knows the record.

    >>> from rules.tac.game import parse_variant
    >>> s = snapshot(TacState(parse_variant({})))
    >>> s["kind"], s["prefield"], s["marbles"], s["teams"]
    ('marbles', [4, 4, 4, 4], [[], [], [], []], [[0, 2], [1, 3]])
    """
    cfg = state.cfg
    board = state.board
    occupancy = [(p, c) for p, c in enumerate(board) if c != EMPTY]
    fresh = [START[c] for c in range(4) if state.fresh[c] and board[START[c]] == c]
    locked = [p for p in state.locked_set() if p >= RING]
    snap = marbles_snapshot(
        game="tac",
        board=BOARD,
        occupancy=occupancy,
        active=cfg.active,
        sides=cfg.sides,
        fresh=fresh,
        locked=locked,
        hands=state.hands,
        to_move=None if state.over else state.to_move,
        over=state.over,
        winners=list(state.winners) if state.over else None,
        dealer=state.dealer,
        deal_in_cycle=state.deal_index,
    )
    snap["mode"] = cfg.mode
    snap["skipped"] = state.skipped if state.skipped >= 0 else None
    snap["must_tac"] = state.must_tac
    snap["cards_used"] = state.cards_used
    return snap
