"""Exact search for round robin schedules at tables of 3 or N whose meetings are as even as possible.

A schedule gives every round a partition of its playing entrants into tables of fixed sizes (the byes
of each round are fixed beforehand). With T meetings in all and P pairs, the ideal is that every pair
meets ``floor(T/P)`` or ``ceil(T/P)`` times ("no pair meets twice while another never meets"). That is
not always possible: six entrants at two tables of three leave, in every round, the nine pairs of a
complete bipartite graph apart, and no number of rounds makes them even (3 rounds: 0 to 2 meetings at
best). :func:`even_schedule` therefore searches windows ``[low, low + spread]`` of allowed meetings per
pair, the narrowest spread first, by depth-first search with pruning:

* a table is only formed if none of its pairs goes above the window;
* after each round every entrant must still be able to reach ``low`` meetings with every other
  entrant (it meets at most ``size - 1`` others per remaining round) and must not be forced above it;
* rounds with the same byes are interchangeable, so their partitions are taken in non-decreasing
  order; without byes round 1 is fixed (relabelling the entrants maps any schedule onto it).

The search counts the tables it tries; past ``node_limit`` it gives up and says so (``proven`` is then
False), and the caller falls back to a local search.
"""

from __future__ import annotations

import itertools
from collections.abc import Iterator, Sequence
from dataclasses import dataclass

NODE_LIMIT = 150_000


@dataclass(frozen=True)
class ScheduleSearch:
    """The outcome of :func:`even_schedule`."""

    rounds: tuple[tuple[tuple[int, ...], ...], ...] | None  # tables per round (entrant ids); None: none found
    low: int  # the fewest meetings of any pair in ``rounds`` (or in the ideal window when none found)
    high: int  # the most meetings of any pair
    even: bool  # every pair meets floor(T/P) or ceil(T/P) times
    proven: bool  # the search was exhaustive: no narrower window than [low, high] has a schedule


class _GaveUp(Exception):
    pass


def _partitions(players: Sequence[int], sizes: Sequence[int]) -> Iterator[tuple[tuple[int, ...], ...]]:
    """Every partition of ``players`` into tables of ``sizes`` (a multiset), each exactly once."""
    if not players:
        yield ()
        return
    first, rest = players[0], players[1:]
    for size in sorted(set(sizes), reverse=True):
        remaining_sizes = list(sizes)
        remaining_sizes.remove(size)
        for companions in itertools.combinations(rest, size - 1):
            left = [p for p in rest if p not in companions]
            for tail in _partitions(left, remaining_sizes):
                yield ((first, *companions), *tail)


class _Search:
    def __init__(
        self,
        entrants: Sequence[int],
        sizes: Sequence[int],
        bye_rounds: Sequence[Sequence[int]],
        low: int,
        high: int,
        node_limit: int,
    ) -> None:
        self.entrants = list(entrants)
        self.index = {entrant: i for i, entrant in enumerate(self.entrants)}
        self.n = len(self.entrants)
        self.sizes = sorted(sizes, reverse=True)
        self.bye_rounds = [frozenset(byes) for byes in bye_rounds]
        self.low, self.high = low, high
        self.nodes = 0
        self.node_limit = node_limit
        self.meet = [[0] * self.n for _ in range(self.n)]
        self.widest = max(self.sizes) - 1
        # plays_after[r][e]: rounds after r (exclusive) in which entrant e plays
        rounds = len(self.bye_rounds)
        self.plays_after = [
            [sum(1 for later in self.bye_rounds[r + 1 :] if entrant not in later) for entrant in self.entrants]
            for r in range(rounds)
        ]
        self.chosen: list[tuple[tuple[int, ...], ...]] = []

    def run(self) -> list[tuple[tuple[int, ...], ...]] | None:
        if self._round(0, None):
            return self.chosen
        return None

    def _feasible_after(self, r: int) -> bool:
        meet, low, high = self.meet, self.low, self.high
        for i in range(self.n):
            row = meet[i]
            capacity = self.widest * self.plays_after[r][i]
            deficit = 0
            room = 0
            for j in range(self.n):
                if j != i:
                    if row[j] < low:
                        deficit += low - row[j]
                    room += high - row[j]
            if deficit > capacity:
                return False
            # entrant i still meets at least (smallest table - 1) others in each later round it plays
            if room < (min(self.sizes) - 1) * self.plays_after[r][i]:
                return False
        return True

    def _round(self, r: int, previous: tuple[tuple[int, ...], ...] | None) -> bool:
        if r == len(self.bye_rounds):
            return all(
                self.meet[i][j] >= self.low for i in range(self.n) for j in range(i + 1, self.n)
            )
        players = [e for e in self.entrants if e not in self.bye_rounds[r]]
        same_byes = r > 0 and self.bye_rounds[r] == self.bye_rounds[r - 1]
        fixed_first = r == 0 and not any(self.bye_rounds)
        for partition in self._tables(players, list(self.sizes)):
            if same_byes and previous is not None and partition < previous:
                continue
            if self._feasible_after(r):
                self.chosen.append(partition)
                if self._round(r + 1, partition):
                    return True
                self.chosen.pop()
            if fixed_first:
                break
        return False

    def _tables(self, players: list[int], sizes: list[int]) -> Iterator[tuple[tuple[int, ...], ...]]:
        """Partitions of ``players`` whose tables keep every pair within the window; each yielded with
        its meetings added (the caller undoes them), in canonical order."""
        if not players:
            yield ()
            return
        first, rest = players[0], players[1:]
        meet, index, high = self.meet, self.index, self.high
        fi = index[first]
        for size in sorted(set(sizes), reverse=True):
            remaining_sizes = list(sizes)
            remaining_sizes.remove(size)
            # prefer companions first has met least (finds balanced schedules sooner)
            candidates = sorted(rest, key=lambda e: meet[fi][index[e]])
            for companions in itertools.combinations(candidates, size - 1):
                self.nodes += 1
                if self.nodes > self.node_limit:
                    raise _GaveUp
                table = (first, *sorted(companions, key=index.__getitem__))
                ids = [index[e] for e in table]
                if any(meet[a][b] >= high for a, b in itertools.combinations(ids, 2)):
                    continue
                for a, b in itertools.combinations(ids, 2):
                    meet[a][b] += 1
                    meet[b][a] += 1
                left = [p for p in rest if p not in companions]
                for tail in self._tables(left, remaining_sizes):
                    yield (table, *tail)
                for a, b in itertools.combinations(ids, 2):
                    meet[a][b] -= 1
                    meet[b][a] -= 1


def even_schedule(
    entrants: Sequence[int],
    sizes: Sequence[int],
    bye_rounds: Sequence[Sequence[int]],
    *,
    node_limit: int = NODE_LIMIT,
) -> ScheduleSearch:
    """The schedule of ``len(bye_rounds)`` rounds with the narrowest window of meetings per pair.

    ``sizes``: the table sizes of every round; ``bye_rounds``: who sits out in each round.
    """
    n = len(entrants)
    pairs = n * (n - 1) // 2
    per_round = sum(size * (size - 1) // 2 for size in sizes)
    total = per_round * len(bye_rounds)
    ideal_low, ideal_high = total // pairs, -(-total // pairs)
    budget = node_limit
    spread = ideal_high - ideal_low
    while spread <= max(1, len(bye_rounds)):
        # windows [low, low + spread] that contain the mean, the one closest to the mean first
        lows = [low for low in range(max(0, ideal_high - spread), ideal_low + 1)]
        lows.sort(key=lambda low: abs((low + spread / 2) - total / pairs))
        for low in lows:
            search = _Search(entrants, sizes, bye_rounds, low, low + spread, budget)
            try:
                found = search.run()
            except _GaveUp:
                return ScheduleSearch(None, ideal_low, ideal_high, False, False)
            budget -= search.nodes
            if found is not None:
                meetings = _meetings(entrants, found)
                return ScheduleSearch(
                    tuple(found), min(meetings), max(meetings),
                    max(meetings) - min(meetings) <= ideal_high - ideal_low, True,
                )
        spread += 1
    return ScheduleSearch(None, ideal_low, ideal_high, False, False)


def _meetings(entrants: Sequence[int], rounds: Sequence[Sequence[Sequence[int]]]) -> list[int]:
    counts = {frozenset(pair): 0 for pair in itertools.combinations(entrants, 2)}
    for tables in rounds:
        for table in tables:
            for pair in itertools.combinations(table, 2):
                counts[frozenset(pair)] += 1
    return list(counts.values())
