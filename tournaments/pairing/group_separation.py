"""The knockout draw after groups: teams of one group kept apart as long as the bracket allows.

The seeded list (group winners first: A1, B1, C1, ..., then the runners-up, then the best thirds)
fixes *tiers*: the places a tier holds in the standard draw (1 v 16, 8 v 9, ...) stay its places, so
group winners keep the top seeds and the byes. Inside a tier the entrants may change places. Among
all such draws the one chosen has, compared in this order (a smaller count wins):

1. the fewest pairs of one group who meet at the first table one of them plays (round 1, or
   round 2 for an entrant with a bye);
2. the fewest pairs of one group in the same half of the bracket (who could meet before the final),
   then in the same quarter, the same eighth, ... down to the same first-round table;
3. of draws equal on all of these, the one nearest the seeded list (the search tries the seeded
   order first and keeps a later draw only when it is strictly better).

The search is exact: a depth-first branch and bound over the seed places in seed order, each
partial draw bounded below by spreading every group's undrawn members over the blocks of each level
as evenly as the blocks' free places allow (a relaxation: it ignores the tiers). It stops early when
the draw reaches that bound at the root, and after ``budget`` draws tried it keeps the best found
(``exact=False``); the exhaustive tests (2-8 groups, 1-4 qualifiers, with and without best thirds)
finish well inside it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

SEARCH_BUDGET = 400_000  # draws tried for the first meetings and the halves (exact within it)
DEEP_BUDGET = 20_000  # draws tried for the quarters, eighths, ... after that (best found)


@dataclass(frozen=True)
class SeparatedDraw:
    """``seeding``: the entrant ids in their new seed order. ``cost``: the counts of the order above
    (first meetings, same half, same quarter, ..., same first-round table). ``exact``: no draw has
    fewer first meetings, nor as few with fewer pairs in one half. ``deep_exact``: nor is any draw
    better on the finer levels (quarters ...)."""

    seeding: tuple[int, ...]
    cost: tuple[int, ...]
    exact: bool
    deep_exact: bool = True


@dataclass(frozen=True)
class BracketShape:
    """Where each seed sits: ``position[s]`` the 0-based first-round table of seed ``s + 1`` in tree
    order, ``played[s]`` whether that table is played (a bye table is not), ``feeders`` tables per
    table of the next round, ``rounds`` the number of rounds."""

    position: tuple[int, ...]
    played: tuple[bool, ...]
    feeders: int
    rounds: int

    def meeting_round(self, a: int, b: int) -> int:
        """The round at which seeds ``a`` and ``b`` (0-based) could first meet."""
        pa, pb = self.position[a], self.position[b]
        round_number = 1
        while pa != pb:
            pa //= self.feeders
            pb //= self.feeders
            round_number += 1
        if round_number == 1 and not self.played[a]:
            return 2  # a bye table: its entrants go on together
        return round_number

    def first_round(self, seed: int) -> int:
        return 1 if self.played[seed] else 2


def pair_cost(shape: BracketShape, a: int, b: int, components: int | None = None) -> list[int]:
    """The cost vector of one same-group pair at seeds ``a`` and ``b`` (0-based)."""
    meet = shape.meeting_round(a, b)
    first = max(shape.first_round(a), shape.first_round(b))
    vector = [1 if meet <= first else 0]
    for level in range(shape.rounds - 1, 0, -1):  # same half (meet before the final), quarter, ...
        vector.append(1 if meet <= level else 0)
    return vector[:components]


def draw_cost(shape: BracketShape, seeding: Sequence[int], group_of: Mapping[int, int]) -> tuple[int, ...]:
    """The cost vector of a whole draw (``seeding``: entrant ids in seed order)."""
    total = [0] * shape.rounds
    for a in range(len(seeding)):
        for b in range(a + 1, len(seeding)):
            if group_of[seeding[a]] == group_of[seeding[b]]:
                for index, value in enumerate(pair_cost(shape, a, b)):
                    total[index] += value
    return tuple(total)


def separate_groups(
    seeding: Sequence[int],
    group_of: Mapping[int, int],
    tier_of: Mapping[int, int],
    shape: BracketShape,
    *,
    budget: int = SEARCH_BUDGET,
) -> SeparatedDraw:
    """The draw of ``seeding`` (entrant ids in seed order) that keeps groups apart (module docstring).

    ``group_of``: entrant -> its group; ``tier_of``: entrant -> its tier (its place in the group; the
    best thirds share one tier). The tiers' seed places are kept; entrants move only inside a tier.
    """
    if len(shape.position) != len(seeding):
        raise ValueError("The bracket shape and the seeding differ in size.")
    if len({group_of[e] for e in seeding}) < 2:
        return SeparatedDraw(tuple(seeding), draw_cost(shape, seeding, group_of), True)
    first = _Search(seeding, group_of, tier_of, shape, budget, components=2).run()
    if shape.rounds <= 2:
        return first
    incumbent = first.seeding, list(draw_cost(shape, first.seeding, group_of))
    deep = _Search(seeding, group_of, tier_of, shape, DEEP_BUDGET, incumbent=incumbent).run()
    return SeparatedDraw(deep.seeding, deep.cost, first.exact, deep.exact)


class _Search:
    """Branch and bound over the seed places (module docstring).

    Places are drawn most constrained first: the smallest tier first (a lone best third before the
    eight winners), then in seed order. Two lower bounds on what the undrawn places still add, taken
    component by component at their larger: (a) each undrawn place costs at least its cheapest
    undrawn candidate against the places drawn so far; (b) at each level, each group's undrawn
    members spread as evenly as the blocks' free places allow (tiers ignored).
    """

    def __init__(
        self,
        seeding: Sequence[int],
        group_of: Mapping[int, int],
        tier_of: Mapping[int, int],
        shape: BracketShape,
        budget: int,
        *,
        components: int | None = None,
        incumbent: tuple[Sequence[int], list[int]] | None = None,
    ) -> None:
        self.seeding = list(seeding)
        self.shape = shape
        self.count = count = len(seeding)
        self.group_of = group_of
        self.width = width = min(shape.rounds, components or shape.rounds)
        self.budget = budget
        self.costs = [[pair_cost(shape, a, b, width) if a != b else [0] * width for b in range(count)] for a in range(count)]
        self.tier_of_slot = [tier_of[e] for e in seeding]
        self.by_tier: dict[int, list[int]] = {}
        for entrant in seeding:
            self.by_tier.setdefault(tier_of[entrant], []).append(entrant)
        self.order = sorted(range(count), key=lambda slot: (len(self.by_tier[self.tier_of_slot[slot]]), slot))
        self.groups = sorted({group_of[e] for e in seeding})
        # the members of each group in each tier (at most one per tier in a group draw)
        self.member = {(group_of[e], tier_of[e]): e for e in seeding}
        self.levels: list[tuple[int, list[int]]] = []  # (cost index, block of each seed place)
        for index in range(1, width):  # same half, same quarter, ...
            level = shape.rounds - index
            divisor = shape.feeders ** (level - 1)
            self.levels.append((index, [shape.position[slot] // divisor for slot in range(count)]))
        self.undrawn = {g: sum(1 for e in seeding if group_of[e] == g) for g in self.groups}
        self.drawn = dict.fromkeys(self.groups, 0)
        self.profile = {g: frozenset(tier_of[e] for e in seeding if group_of[e] == g) for g in self.groups}
        self.in_block: list[dict[tuple[int, int], int]] = [{} for _ in self.levels]
        self.free: list[dict[int, int]] = []
        for _index, blocks in self.levels:
            room: dict[int, int] = {}
            for block in blocks:
                room[block] = room.get(block, 0) + 1
            self.free.append(room)
        # added[slot][entrant]: what putting ``entrant`` at ``slot`` adds against the drawn places
        self.added = [{e: [0] * width for e in self.by_tier[self.tier_of_slot[slot]]} for slot in range(count)]
        self.at: list[int | None] = [None] * count
        self.used: set[int] = set()
        self.current = [0] * width
        self.best_cost: list[int] | None = None if incumbent is None else list(incumbent[1])
        self.best_draw = tuple(seeding) if incumbent is None else tuple(incumbent[0])
        self.nodes = 0
        self.exhausted = False

    def run(self) -> SeparatedDraw:
        self.root_bound = self.bound()
        self.search(0)
        if self.best_cost is None:  # a budget smaller than one draw: the seeded order stands
            return SeparatedDraw(tuple(self.seeding), draw_cost(self.shape, self.seeding, self.group_of), False)
        exact = not self.exhausted or self.best_cost == self.root_bound
        return SeparatedDraw(self.best_draw, tuple(self.best_cost), exact)

    def place(self, slot: int, entrant: int, sign: int) -> None:
        g = self.group_of[entrant]
        vector = self.added[slot][entrant]
        for i in range(self.width):
            self.current[i] += sign * vector[i]
        for other in range(self.count):
            if self.at[other] is None and other != slot:
                mate = self.member.get((g, self.tier_of_slot[other]))
                if mate is not None and mate != entrant:
                    target = self.added[other][mate]
                    for i, value in enumerate(self.costs[slot][other]):
                        target[i] += sign * value
        self.undrawn[g] -= sign
        self.drawn[g] += sign
        for li, (_index, blocks) in enumerate(self.levels):
            key = (g, blocks[slot])
            self.in_block[li][key] = self.in_block[li].get(key, 0) + sign
            self.free[li][blocks[slot]] -= sign
        self.at[slot] = entrant if sign > 0 else None
        if sign > 0:
            self.used.add(entrant)
        else:
            self.used.discard(entrant)

    def bound(self) -> list[int]:
        """A lower bound of what the undrawn places add (class docstring)."""
        spread = [0] * self.width
        for li, (index, _blocks) in enumerate(self.levels):
            room = self.free[li]
            per_slot = 0
            for g in self.groups:
                left = self.undrawn[g]
                if not left:
                    continue
                counts = {block: self.in_block[li].get((g, block), 0) for block in room if room[block] > 0}
                spare = {block: room[block] for block in counts}
                while left:
                    block = min((b for b in counts if spare[b] > 0), key=lambda b: counts[b], default=None)
                    if block is None:
                        break
                    per_slot += counts[block]
                    counts[block] += 1
                    spare[block] -= 1
                    left -= 1
            spread[index] = per_slot
        by_slot = [0] * self.width
        for slot in range(self.count):
            if self.at[slot] is None:
                options = [v for e, v in self.added[slot].items() if e not in self.used]
                if options:
                    for i in range(self.width):
                        by_slot[i] += min(v[i] for v in options)
        return [max(a, b) for a, b in zip(by_slot, spread, strict=True)]

    def candidates(self, slot: int) -> list[int]:
        """The undrawn entrants of the slot's tier, cheapest first (then in seeded order); of the
        groups with nobody drawn yet and the same tiers (interchangeable) only the first."""
        options = []
        fresh: set[frozenset[int]] = set()
        for order, entrant in enumerate(self.by_tier[self.tier_of_slot[slot]]):
            if entrant in self.used:
                continue
            g = self.group_of[entrant]
            if self.drawn[g] == 0:
                if self.profile[g] in fresh:
                    continue
                fresh.add(self.profile[g])
            options.append((self.added[slot][entrant], order, entrant))
        options.sort()
        return [entrant for _added, _order, entrant in options]

    def search(self, depth: int) -> bool:
        """True when the search must stop (the root bound is reached or the budget spent)."""
        if depth == self.count:
            if self.best_cost is None or self.current < self.best_cost:
                self.best_cost = list(self.current)
                self.best_draw = tuple(e for e in self.at if e is not None)
            return self.best_cost == self.root_bound
        slot = self.order[depth]
        for entrant in self.candidates(slot):
            self.nodes += 1
            if self.nodes > self.budget:
                self.exhausted = True
                return True
            self.place(slot, entrant, 1)
            stop = False
            if self.best_cost is None or [c + e for c, e in zip(self.current, self.bound(), strict=True)] < self.best_cost:
                stop = self.search(depth + 1)
            self.place(slot, entrant, -1)
            if stop:
                return True
        return False

