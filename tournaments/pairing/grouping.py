"""Tables of 3 or N: a score-ordered grouping improved by swaps between tables (local search).

Start from the entrants in standings order cut into consecutive tables (the "greedy" grouping), then
repeatedly swap two entrants of different tables whenever that lowers the cost (rematched pairs,
then squared score differences, then same-club/forbidden pairs). Swaps are tried between nearby
tables first; a table that still holds a rematch or a conflict swaps with whichever table gives the
best improvement. Because only strictly better swaps are taken and rematches come first, the result
never has more rematched pairs than the greedy grouping it started from.

The three costs are folded into one integer per pair with weights far enough apart that, for any
swap (which changes at most two tables), a lower rematch count always wins, then the score term,
then the conflicts. A swap's change is computed from the 2(N-1) pairs it touches, not the whole table.
"""

from __future__ import annotations

from collections.abc import Sequence

from tournaments.pairing.costs import PairCosts

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


class _SwapSearch:
    """Integer pair costs (cached) and the cost of each table, for fast swap evaluation."""

    def __init__(self, tables: list[list[int]], costs: PairCosts) -> None:
        self.tables = tables
        self.costs = costs
        members = [entrant for table in tables for entrant in table]
        scores = [costs.scores[entrant] for entrant in members] or [0.0]
        widest = max(len(table) for table in tables) if tables else 2
        pairs_touched = 2 * widest * widest  # more than any swap changes
        top_score = round((max(scores) - min(scores)) ** 2 * 100)
        self.conflict_weight = 1
        self.score_weight = pairs_touched + 1
        self.rematch_weight = self.score_weight * (top_score * pairs_touched + 1)
        self.cache: dict[tuple[int, int], int] = {}
        self.table_costs = [self.table_cost(table) for table in tables]

    def pair(self, first: int, second: int) -> int:
        key = (first, second) if first < second else (second, first)
        cached = self.cache.get(key)
        if cached is None:
            difference = self.costs.scores[first] - self.costs.scores[second]
            cached = self.score_weight * round(difference * difference * 100)
            if self.costs.is_rematch(first, second):
                cached += self.rematch_weight
            if self.costs.is_conflict(first, second):
                cached += self.conflict_weight
            self.cache[key] = cached
        return cached

    def table_cost(self, table: Sequence[int]) -> int:
        return sum(self.pair(a, b) for index, a in enumerate(table) for b in table[index + 1 :])

    def troubled(self, index: int) -> bool:
        """The table holds a rematch or a conflict (not just a score difference)."""
        return (
            self.table_costs[index] % self.score_weight != 0 or self.table_costs[index] >= self.rematch_weight
        )

    def best_swap(self, first_index: int, second_index: int) -> tuple[int, int, int]:
        """(change, seat in first, seat in second) of the best swap; change >= 0 means none helps.

        Swapping a (of table A) with b (of table B) changes the cost by
        cross_A(b) - 2 pair(a, b) - inner_A(a) + cross_B(a) - inner_B(b), where inner_A(a) is a's
        cost with its own table and cross_A(b) is b's cost with all of A: O(N^2) per pair of tables.
        """
        first, second = self.tables[first_index], self.tables[second_index]
        pair = self.pair
        cross = [[pair(a, b) for b in second] for a in first]
        inner_first = [sum(pair(a, x) for x in first if x != a) for a in first]
        inner_second = [sum(pair(b, y) for y in second if y != b) for b in second]
        with_second = [sum(row) for row in cross]  # a's cost with all of B
        with_first = [
            sum(cross[i][j] for i in range(len(first))) for j in range(len(second))
        ]  # b with all of A
        best = (0, -1, -1)
        for i in range(len(first)):
            base = with_second[i] - inner_first[i]
            row = cross[i]
            for j in range(len(second)):
                change = base + with_first[j] - inner_second[j] - 2 * row[j]
                if change < best[0]:
                    best = (change, i, j)
        return best

    def apply(self, first_index: int, second_index: int, first_seat: int, second_seat: int) -> None:
        first, second = self.tables[first_index], self.tables[second_index]
        first[first_seat], second[second_seat] = second[second_seat], first[first_seat]
        self.table_costs[first_index] = self.table_cost(first)
        self.table_costs[second_index] = self.table_cost(second)


def improve_tables(
    tables: list[list[int]], costs: PairCosts, *, max_passes: int = MAX_PASSES
) -> list[list[int]]:
    """Local search: swap entrants between tables while the total cost strictly falls."""
    if len(tables) < 2:
        return tables
    search = _SwapSearch(tables, costs)
    stuck: set[int] = set()  # troubled tables no swap with any table can help (until they change)
    for _ in range(max_passes):
        improved = False
        for first_index in range(len(tables)):
            if search.troubled(first_index):
                if first_index in stuck:
                    continue
                # the best swap with any table, so a far table is used only when it is better
                best = (0, -1, -1, -1)
                for second_index in range(len(tables)):
                    if second_index != first_index:
                        change, first_seat, second_seat = search.best_swap(first_index, second_index)
                        if change < best[0]:
                            best = (change, second_index, first_seat, second_seat)
                if best[0] < 0:
                    search.apply(first_index, best[1], best[2], best[3])
                    stuck.discard(best[1])
                    improved = True
                else:
                    stuck.add(first_index)
                continue
            for second_index in range(first_index + 1, min(len(tables), first_index + 1 + NEARBY_TABLES)):
                change, first_seat, second_seat = search.best_swap(first_index, second_index)
                if change < 0:
                    search.apply(first_index, second_index, first_seat, second_seat)
                    stuck.discard(second_index)
                    improved = True
        if not improved:
            break
    return tables
