"""Tables of 3 or N: a score-ordered grouping improved by swaps between tables (local search).

Start from the entrants in standings order cut into consecutive tables (the "greedy" grouping), then
repeatedly swap two entrants of different tables whenever that lowers the lexicographic cost
(rematched pairs, then squared score differences, then same-club/forbidden pairs). Swaps are tried
between nearby tables first; a table that still holds a rematch or a conflict may swap with any table.
Because only strictly better swaps are taken and rematches come first, the result never has more
rematched pairs than the greedy grouping it started from.
"""

from __future__ import annotations

from collections.abc import Sequence

from tournaments.pairing.costs import PairCosts, TableCost

NEARBY_TABLES = 4
MAX_PASSES = 40


def consecutive_tables(ordered_ids: Sequence[int], sizes: Sequence[int]) -> list[list[int]]:
    """Cut ``ordered_ids`` into consecutive tables of the given sizes (the greedy grouping)."""
    tables: list[list[int]] = []
    start = 0
    for size in sizes:
        tables.append(list(ordered_ids[start : start + size]))
        start += size
    return tables


def spread_tables(ordered_ids: Sequence[int], sizes: Sequence[int]) -> list[list[int]]:
    """Deal ``ordered_ids`` round the tables (first round by seed: table 1 gets seeds 1, T+1, 2T+1...).

    ``sizes`` must be largest first and differ by at most one (as :func:`table_sizes` makes them).
    """
    tables: list[list[int]] = [[] for _ in sizes]
    index = 0
    for entrant_id in ordered_ids:
        while len(tables[index % len(tables)]) >= sizes[index % len(tables)]:
            index += 1
        tables[index % len(tables)].append(entrant_id)
        index += 1
    return tables


def improve_tables(
    tables: list[list[int]], costs: PairCosts, *, max_passes: int = MAX_PASSES
) -> list[list[int]]:
    """Local search: swap entrants between tables while the total cost strictly falls."""
    table_costs = [costs.table(table) for table in tables]
    zero = TableCost()
    for _ in range(max_passes):
        improved = False
        for first_index in range(len(tables)):
            troubled = table_costs[first_index].rematches > 0 or table_costs[first_index].conflicts > 0
            if troubled:  # the best swap with any table, so a far table is used only when it is better
                partner = _best_partner(tables, table_costs, first_index, costs)
                if partner is not None and _best_swap(tables, table_costs, first_index, partner, costs, zero):
                    improved = True
                continue
            for second_index in range(first_index + 1, min(len(tables), first_index + 1 + NEARBY_TABLES)):
                if _best_swap(tables, table_costs, first_index, second_index, costs, zero):
                    improved = True
        if not improved:
            break
    return tables


def _best_partner(
    tables: list[list[int]], table_costs: list[TableCost], first_index: int, costs: PairCosts
) -> int | None:
    """The table whose best swap with ``first_index`` lowers the cost most (None: no swap helps)."""
    first = tables[first_index]
    best: tuple[TableCost, int] | None = None
    zero = TableCost()
    for second_index, second in enumerate(tables):
        if second_index == first_index:
            continue
        before = table_costs[first_index] + table_costs[second_index]
        for first_seat in range(len(first)):
            for second_seat in range(len(second)):
                new_first = first.copy()
                new_second = second.copy()
                new_first[first_seat], new_second[second_seat] = second[second_seat], first[first_seat]
                change = costs.table(new_first) + costs.table(new_second) - before
                if change < zero and (best is None or change < best[0]):
                    best = (change, second_index)
    return None if best is None else best[1]


def _best_swap(
    tables: list[list[int]],
    table_costs: list[TableCost],
    first_index: int,
    second_index: int,
    costs: PairCosts,
    zero: TableCost,
) -> bool:
    """Apply the best strictly improving swap between two tables; True when one was applied."""
    first, second = tables[first_index], tables[second_index]
    before = table_costs[first_index] + table_costs[second_index]
    best: tuple[TableCost, int, int, TableCost, TableCost] | None = None
    for first_seat in range(len(first)):
        for second_seat in range(len(second)):
            new_first = first.copy()
            new_second = second.copy()
            new_first[first_seat], new_second[second_seat] = second[second_seat], first[first_seat]
            first_cost, second_cost = costs.table(new_first), costs.table(new_second)
            change = first_cost + second_cost - before
            if change < zero and (best is None or change < best[0]):
                best = (change, first_seat, second_seat, first_cost, second_cost)
    if best is None:
        return False
    _, first_seat, second_seat, first_cost, second_cost = best
    first[first_seat], second[second_seat] = second[second_seat], first[first_seat]
    table_costs[first_index], table_costs[second_index] = first_cost, second_cost
    return True
