"""The group draw (issue 28, docs/formats.md "Group draw"): pure, reproducible, balanced."""

from __future__ import annotations

from collections import Counter

import pytest

from tournaments.pairing.group_draw import DrawEntrant, GroupDrawError, draw_groups, draw_order


def _entrants(n: int, *, ratings: bool = False) -> list[DrawEntrant]:
    return [DrawEntrant(id=100 + i, seed=None if ratings else i, rating=float(2000 - 10 * i) if ratings else None)
            for i in range(1, n + 1)]


def test_snake_by_seed_worked_example() -> None:
    # 8 seeds into 3 groups: 1 2 3 | 3 2 1 | 1 2  ->  A: 1 6 7, B: 2 5 8, C: 3 4
    groups = draw_groups(_entrants(8), group_count=3, method="snake", by="seed", seed=5)
    by_group: dict[int, list[int]] = {}
    for entrant_id, group in sorted(groups.items()):
        by_group.setdefault(group, []).append(entrant_id - 100)
    assert by_group == {1: [1, 6, 7], 2: [2, 5, 8], 3: [3, 4]}


def test_snake_by_rating_orders_highest_first() -> None:
    # ratings 1990, 1980, ... (101 best); 106 has no rating and comes last; one rating of 0 ranks lowest
    entrants = [*_entrants(4, ratings=True), DrawEntrant(id=105, rating=0.0), DrawEntrant(id=106)]
    groups = draw_groups(entrants, group_count=2, method="snake", by="rating", seed=0)
    assert groups == {101: 1, 102: 2, 103: 2, 104: 1, 105: 1, 106: 2}
    with pytest.raises(GroupDrawError, match=r"^Unknown order 'age'; expected one of seed, rating\.$"):
        draw_groups(entrants, group_count=2, by="age")


@pytest.mark.parametrize("n,g", [(n, g) for g in range(2, 9) for n in range(2 * g, 4 * g + 3)])
def test_pots_one_of_each_pot_per_group_and_sizes_balanced(n: int, g: int) -> None:
    entrants = _entrants(n)
    groups = draw_groups(entrants, group_count=g, method="pots", by="seed", seed=n * 31 + g)
    sizes = Counter(groups.values())
    assert set(sizes) == set(range(1, g + 1))
    assert max(sizes.values()) - min(sizes.values()) <= 1
    for start in range(0, n - n % g, g):  # every full pot spreads over all groups
        pot = [e.id for e in entrants[start:start + g]]
        assert sorted(groups[i] for i in pot) == list(range(1, g + 1))


def test_same_seed_same_draw_other_seed_other_draw() -> None:
    entrants = _entrants(16)
    first = draw_groups(entrants, group_count=4, method="pots", seed=1234)
    assert draw_groups(list(reversed(entrants)), group_count=4, method="pots", seed=1234) == first
    assert any(draw_groups(entrants, group_count=4, method="pots", seed=s) != first for s in range(1, 6))


def test_default_is_seeded_pots_with_seed_zero() -> None:
    entrants = _entrants(12)
    assert draw_groups(entrants, group_count=4) == draw_groups(entrants, group_count=4, method="pots", by="seed",
                                                               seed=0)


def test_random_ignores_the_seeding_pots_never_do() -> None:
    entrants = _entrants(8)
    together = {"pots": 0, "random": 0}
    for method in together:
        for seed in range(30):
            groups = draw_groups(entrants, group_count=4, method=method, seed=seed)
            assert sorted(Counter(groups.values()).items()) == [(1, 2), (2, 2), (3, 2), (4, 2)]
            together[method] += groups[101] == groups[102]
    assert together["pots"] == 0 and together["random"] > 0


def test_random_is_balanced_and_reproducible() -> None:
    entrants = _entrants(10)
    groups = draw_groups(entrants, group_count=3, method="random", seed=7)
    assert sorted(Counter(groups.values()).values()) == [3, 3, 4]
    assert groups == draw_groups(entrants, group_count=3, method="random", seed=7)


def test_entrants_without_seed_come_last() -> None:
    entrants = [DrawEntrant(1, seed=None), DrawEntrant(2, seed=2), DrawEntrant(3, seed=1), DrawEntrant(4)]
    import random

    order = draw_order(entrants, "seed", random.Random(0))
    assert order[:2] == [3, 2] and set(order[2:]) == {1, 4}


def test_bad_input_is_refused() -> None:
    with pytest.raises(GroupDrawError, match="3 entrants cannot fill 2 groups of at least two"):
        draw_groups(_entrants(3), group_count=2)
    draw_groups(_entrants(4), group_count=2)  # exactly two per group is enough
    with pytest.raises(GroupDrawError, match=r"^A group draw needs at least two groups\.$"):
        draw_groups(_entrants(8), group_count=1)
    with pytest.raises(GroupDrawError, match=r"Unknown draw method 'hat'; expected one of pots, snake, random\."):
        draw_groups(_entrants(8), group_count=2, method="hat")
    with pytest.raises(GroupDrawError, match=r"^An entrant is listed twice\.$"):
        draw_groups([DrawEntrant(1), DrawEntrant(1), DrawEntrant(2), DrawEntrant(3)], group_count=2)
