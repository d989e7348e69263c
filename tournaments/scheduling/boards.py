"""Assign a round's tables to the physical tables (boards) of a venue.

An assignment problem: placing table t at board b costs, in this order, a missing accessibility
(an entrant who needs an accessible table at a board that is not: not allowed), how many of the
table's entrants already played at that board (only when the organiser asks to avoid it), and the
distance between the table's number and the board's place in the list (so that without constraints
table 1 plays at the first board). Up to 64 tables this is solved exactly by a minimum-weight
matching; bigger rounds take the boards greedily, hardest tables first.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from datetime import datetime

import networkx as nx  # type: ignore[import-untyped]

from tournaments.pairing.values import PairedTable
from tournaments.scheduling.values import Board, BoardAssignment, SchedulingError

EXACT_LIMIT = 64
REPEAT_WEIGHT = 10**6


def assign_boards(
    tables: Sequence[PairedTable],
    boards: Sequence[Board],
    *,
    needs_accessible: Collection[int] = (),
    played_at: Mapping[int, Collection[int]] | None = None,
    avoid_repeat_boards: bool = False,
    start: datetime | None = None,
) -> tuple[BoardAssignment, ...]:
    """One board per table.

    ``needs_accessible``: entrant ids that need an accessible board. ``played_at``: board id ->
    entrant ids that already played there (used when ``avoid_repeat_boards``). Raises
    SchedulingError when there are fewer boards than tables or too few accessible boards.
    """
    if len({board.id for board in boards}) != len(boards):
        raise SchedulingError("A board is listed twice.")
    if len(tables) > len(boards):
        raise SchedulingError(f"{len(tables)} tables but only {len(boards)} boards at the venue.")
    needy = set(needs_accessible)
    history = {board_id: set(ids) for board_id, ids in (played_at or {}).items()}
    requiring = [table for table in tables if needy & set(table.entrant_ids)]
    accessible = [board for board in boards if board.accessible]
    if len(requiring) > len(accessible):
        raise SchedulingError(
            f"{len(requiring)} tables need an accessible board but the venue has {len(accessible)}."
        )

    def allowed(table: PairedTable, board: Board) -> bool:
        return board.accessible or not (needy & set(table.entrant_ids))

    def cost(table_index: int, table: PairedTable, board_index: int, board: Board) -> int:
        repeats = _repeats(table, board, history) if avoid_repeat_boards else 0
        return REPEAT_WEIGHT * repeats + abs(table_index - board_index)

    chosen: dict[int, int] = {}  # table index -> board index
    if len(tables) <= EXACT_LIMIT:
        graph = nx.Graph()
        for table_index, table in enumerate(tables):
            for board_index, board in enumerate(boards):
                if allowed(table, board):
                    graph.add_edge(
                        ("table", table_index),
                        ("board", board_index),
                        weight=cost(table_index, table, board_index, board),
                    )
        for first, second in nx.min_weight_matching(graph):
            table_node, board_node = (first, second) if first[0] == "table" else (second, first)
            chosen[table_node[1]] = board_node[1]
        if len(chosen) != len(tables):
            raise SchedulingError("The accessible boards cannot host every table that needs one.")
    else:
        free = set(range(len(boards)))
        order = sorted(range(len(tables)), key=lambda index: (tables[index] not in requiring, index))
        for table_index in order:
            table = tables[table_index]
            options = [index for index in free if allowed(table, boards[index])]
            if not options:
                raise SchedulingError("The accessible boards cannot host every table that needs one.")
            best = min(options, key=lambda index: (cost(table_index, table, index, boards[index]), index))
            chosen[table_index] = best
            free.remove(best)
    return tuple(
        BoardAssignment(
            table_number=table.number,
            board_id=boards[chosen[index]].id,
            start=start,
            repeats=_repeats(table, boards[chosen[index]], history),
        )
        for index, table in enumerate(tables)
    )


def _repeats(table: PairedTable, board: Board, history: Mapping[int, set[int]]) -> int:
    return len(history.get(board.id, set()) & set(table.entrant_ids))
