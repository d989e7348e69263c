"""The knockout draw after groups keeps teams of one group apart (docs/formats.md, Groups; issue 28).

The checks read the real bracket (`stage_knockout`'s rounds and sources), not the search's own
picture of it: an entrant's first table is its round-1 table, or for a bye the round-2 table its bye
feeds; two entrants "meet at a first table" when one of them is in the part of the bracket that
feeds the other's first table.
"""

from __future__ import annotations

import itertools
from math import comb, factorial

import pytest

from tournaments.pairing import Bracket, group_knockout_seeding, stage_knockout
from tournaments.pairing.group_separation import BracketShape, separate_groups
from tournaments.pairing.knockout import bracket_shape
from tournaments.standings.final_ranking import best_of_groups


def _feeding(bracket: Bracket) -> dict[tuple[int, int], set[int]]:
    """(round, position) -> every entrant who can reach that main table."""
    reach: dict[tuple[int, int], set[int]] = {}
    for table in bracket.rounds[0].tables:
        reach[(1, table.position)] = set(table.entrant_ids)
    for bracket_round in bracket.rounds[1:]:
        for table in bracket_round.tables:
            if table.kind != "main":
                continue
            reach[(bracket_round.number, table.position)] = set().union(
                *(reach[(bracket_round.number - 1, source.position)] for source in table.sources)
            )
    return reach


def _first_tables(bracket: Bracket) -> dict[int, tuple[int, int]]:
    first: dict[int, tuple[int, int]] = {}
    byes: dict[int, int] = {}
    for table in bracket.rounds[0].tables:
        for entrant in table.entrant_ids:
            if table.number is not None:
                first[entrant] = (1, table.position)
            else:
                byes[entrant] = table.position
    if byes:
        for table in bracket.rounds[1].tables:
            for source in table.sources:
                for entrant, position in byes.items():
                    if source.position == position and table.kind == "main":
                        first[entrant] = (2, table.position)
    return first


def first_table_meetings(bracket: Bracket, group_of: dict[int, int]) -> int:
    """Pairs of one group who can meet at the first table one of them plays."""
    reach, first = _feeding(bracket), _first_tables(bracket)
    count = 0
    for a, b in itertools.combinations(sorted(group_of), 2):
        same_group = a in first and b in first and group_of[a] == group_of[b]
        if same_group and (b in reach[first[a]] or a in reach[first[b]]):
            count += 1
    return count


def halves(bracket: Bracket) -> tuple[set[int], set[int]]:
    reach = _feeding(bracket)
    final = next(t for t in bracket.rounds[-1].tables if t.kind == "main")
    top, bottom = (reach[(len(bracket.rounds) - 1, s.position)] for s in final.sources)
    return top, bottom


def _groups(count: int, size: int = 6) -> list[list[int]]:
    return [[100 * (g + 1) + place for place in range(1, size + 1)] for g in range(count)]


def _seeded(groups: list[list[int]], qualifiers: int, extra: int) -> list[int]:
    """A1, B1, ..., A2, ... and ``extra`` best of the next place (the cross-group rule's order: here
    the later groups' are better, so the best thirds are not simply the first groups')."""
    keyed = [[(e, (float(place), -float(g))) for place, e in enumerate(group)] for g, group in enumerate(groups)]
    return best_of_groups(keyed, len(groups) * qualifiers + extra)


def _bracket(groups: list[list[int]], seeding: list[int]) -> Bracket:
    return stage_knockout([seeding], qualifiers=len(seeding), third_place=False, separate=False)


CASES = [
    (groups, qualifiers, extra)
    for groups in range(2, 9)
    for qualifiers in range(1, 5)
    for extra in range(0, groups)
    if groups * qualifiers + extra >= 2
]


def _brute_force_minimum(groups: list[list[int]], seeded: list[int], group_of: dict[int, int]) -> int:
    """The fewest first-table meetings over every draw that keeps the tiers' seed places."""
    tier_of = {e: place for group in groups for place, e in enumerate(group)}
    tiers: dict[int, list[int]] = {}
    for slot, entrant in enumerate(seeded):
        tiers.setdefault(tier_of[entrant], []).append(slot)
    best = None
    for arrangement in itertools.product(*(itertools.permutations(slots) for slots in tiers.values())):
        draw = list(seeded)
        for original, moved in zip(tiers.values(), arrangement, strict=True):
            for source, target in zip(original, moved, strict=True):
                draw[target] = seeded[source]
        meetings = first_table_meetings(_bracket(groups, draw), group_of)
        best = meetings if best is None else min(best, meetings)
    assert best is not None
    return best


@pytest.mark.parametrize(("group_count", "qualifiers", "extra"), CASES)
def test_no_avoidable_same_group_meeting_at_a_first_table(group_count: int, qualifiers: int, extra: int) -> None:
    # 2-8 groups, 1-4 qualifiers each, 0 or more best of the next place: the draw never lets two of a
    # group meet at the first table either plays when any draw avoids it, and splits every group
    # between the halves as evenly as its size allows (at most one more in one half)
    groups = _groups(group_count)
    seeded = _seeded(groups, qualifiers, extra)
    group_of = {e: g for g, group in enumerate(groups) for e in group if e in seeded}
    draw = group_knockout_seeding(groups, seeded)
    assert draw.exact
    assert sorted(draw.seeding) == sorted(seeded)
    tier_of = {e: place for group in groups for place, e in enumerate(group)}
    assert [tier_of[e] for e in draw.seeding] == [tier_of[e] for e in seeded]  # tiers keep their seeds
    bracket = _bracket(groups, list(draw.seeding))
    meetings = first_table_meetings(bracket, group_of)
    assert meetings == draw.cost[0]
    if group_count >= 3:
        assert meetings == 0
    else:  # two groups: compare with every draw
        assert meetings == _brute_force_minimum(groups, seeded, group_of)
    if len(bracket.rounds) > 1:
        top, bottom = halves(bracket)
        for g in set(group_of.values()):
            members = {e for e, group in group_of.items() if group == g}
            assert abs(len(members & top) - len(members & bottom)) <= 1, (g, members, top)


def test_two_groups_with_a_best_runner_up_cannot_avoid_a_first_meeting() -> None:
    # A1 B1 and the better runner-up (B2): 3 entrants, seed 1 has a bye, 2 v 3 play. B2 meets B1 at
    # once (seed 2) or A1 must wait for it at A1's first table (seed 1) -- one meeting either way
    groups = [[1, 2], [3, 4]]
    draw = group_knockout_seeding(groups, [1, 3, 4])
    assert draw.cost[0] == 1
    assert draw.seeding == (3, 1, 4)  # B2 plays A1 first; B1 waits in the final


def test_three_groups_into_eight_no_longer_gives_c1_v_c2() -> None:
    # the case: A1 B1 C1 A2 B2 C2 + best thirds A3 B3 in the standard draw gave C1 v C2
    groups = [["A1", "A2", "A3", "A4"], ["B1", "B2", "B3", "B4"], ["C1", "C2", "C3", "C4"]]
    ids = {name: index for index, name in enumerate(sum(groups, []), start=1)}
    numeric = [[ids[n] for n in group] for group in groups]
    seeded = [ids[n] for n in ("A1", "B1", "C1", "A2", "B2", "C2", "A3", "B3")]
    names = {v: k for k, v in ids.items()}
    plain = stage_knockout([seeded], qualifiers=8, third_place=False, separate=False)
    assert ("C1", "C2") in {tuple(sorted(names[e] for e in t.entrant_ids)) for t in plain.rounds[0].tables}
    draw = group_knockout_seeding(numeric, seeded)
    tables = {tuple(sorted(names[e] for e in t.entrant_ids)) for t in _bracket(numeric, list(draw.seeding)).rounds[0].tables}
    # winners keep seeds 1-3 and meet the best thirds / a runner-up of another group
    assert all(a[0] != b[0] for a, b in tables), tables
    assert draw.cost == (0, 2, 0)  # groups A and B (3 qualifiers each) have one pair in a half: the least


def test_six_groups_into_sixteen_with_best_thirds() -> None:
    # 6 groups, 2 each and the 4 best thirds: the run had 3 same-group tables of 8
    groups = _groups(6)
    # A1-F1 (seeds 1-6), A2-F2 (7-12), and the best thirds D3, C3, B3, A3 in that order (13-16)
    seeded = [g[0] for g in groups] + [g[1] for g in groups] + [groups[g][2] for g in (3, 2, 1, 0)]
    group_of = {e: g for g, group in enumerate(groups) for e in group if e in seeded}
    plain = first_table_meetings(_bracket(groups, seeded), group_of)
    assert plain == 4  # the plain order: 1 v 16 (A1 v A3), 2 v 15 (B1 v B3), 3 v 14, 4 v 13
    draw = group_knockout_seeding(groups, seeded)
    assert first_table_meetings(_bracket(groups, list(draw.seeding)), group_of) == 0
    # 4 groups of 3 qualifiers have one pair in a half each, 2 groups of 2 none
    assert draw.cost[1] == 4


def test_the_seeded_order_stands_when_it_already_keeps_groups_apart() -> None:
    groups = _groups(2)
    seeded = [101, 201, 102, 202]  # A1 v B2, B1 v A2
    assert group_knockout_seeding(groups, seeded).seeding == tuple(seeded)


def test_stage_knockout_separates_by_default_and_keeps_played_brackets_when_asked() -> None:
    groups = _groups(3, 3)
    separated = stage_knockout(groups, qualifiers=2, third_place=False)
    plain = stage_knockout(groups, qualifiers=2, third_place=False, separate=False)
    group_of = {e: g for g, group in enumerate(groups) for e in group}
    assert first_table_meetings(plain, group_of) > 0
    assert first_table_meetings(separated, group_of) == 0


def test_search_is_optimal_on_every_small_draw() -> None:
    # whole cost vectors against brute force: every tier permutation of up to 6! x 6! draws is costed
    # by the module's own pair costs, and the search must find the lexicographic minimum
    from tournaments.pairing.group_separation import draw_cost

    for group_count, qualifiers, extra in [(3, 2, 0), (3, 2, 2), (4, 2, 1), (5, 1, 3), (3, 3, 1), (6, 1, 2)]:
        groups = _groups(group_count)
        seeded = _seeded(groups, qualifiers, extra)
        group_of = {e: g for g, group in enumerate(groups) for e in group}
        tier_of = {e: place for group in groups for place, e in enumerate(group)}
        shape = bracket_shape(len(seeded))
        tiers: dict[int, list[int]] = {}
        for slot, entrant in enumerate(seeded):
            tiers.setdefault(tier_of[entrant], []).append(slot)
        assert prod_factorial(len(slots) for slots in tiers.values()) <= 600_000
        best = min(
            draw_cost(shape, _apply(seeded, tiers, arrangement), group_of)
            for arrangement in itertools.product(*(itertools.permutations(s) for s in tiers.values()))
        )
        assert separate_groups(seeded, group_of, tier_of, shape).cost == best, (group_count, qualifiers, extra)


def prod_factorial(sizes: object) -> int:
    total = 1
    for size in sizes:  # type: ignore[attr-defined]
        total *= factorial(size)
    return total


def _apply(seeded: list[int], tiers: dict[int, list[int]], arrangement: tuple[tuple[int, ...], ...]) -> list[int]:
    draw = list(seeded)
    for original, moved in zip(tiers.values(), arrangement, strict=True):
        for source, target in zip(original, moved, strict=True):
            draw[target] = seeded[source]
    return draw


def test_a_spent_budget_keeps_the_best_draw_found_and_says_so() -> None:
    groups = _groups(8)
    seeded = _seeded(groups, 4, 1)
    group_of = {e: g for g, group in enumerate(groups) for e in group}
    tier_of = {e: place for group in groups for place, e in enumerate(group)}
    shape = bracket_shape(len(seeded))
    assert separate_groups(seeded, group_of, tier_of, shape, budget=3).exact is False
    assert isinstance(shape, BracketShape)


def test_halves_bound_for_reference() -> None:
    # a group of m qualifiers has at least C(floor(m/2), 2) + C(ceil(m/2), 2) pairs in one half
    groups = _groups(4)
    seeded = _seeded(groups, 4, 0)
    assert group_knockout_seeding(groups, seeded).cost[1] == 4 * (comb(2, 2) + comb(2, 2))
