"""The completion of hidden cards (rules.cards.hidden.assign_hidden) is exact: it finds an assignment
whenever one exists, checked against brute force on small random problems."""

from __future__ import annotations

import itertools
import random
from collections import Counter

import pytest

from rules.cards import hidden
from rules.cards.hidden import assign_hidden

CARDS = ["1", "2", "3", "13", "tac"]


def brute(slots, pool, forbidden, need) -> bool:
    hands = [h for h in slots if slots[h] > 0]
    if any(slots.get(h, 0) <= 0 and cards for h, cards in need.items()):
        return False
    choices = []
    for h in hands:
        allowed = [c for c in pool if c not in forbidden.get(h, ())]
        combos = [
            combo for combo in itertools.combinations_with_replacement(sorted(allowed), slots[h])
            if h not in need or any(c in need[h] for c in combo)
        ]
        choices.append(combos)
    for pick in itertools.product(*choices):
        used = Counter(c for combo in pick for c in combo)
        if all(used[c] <= pool[c] for c in used):
            return True
    return False


def problem(rng: random.Random):
    pool = Counter({c: rng.randint(0, 3) for c in CARDS})
    slots = {h: rng.randint(0, 3) for h in range(rng.randint(1, 3))}
    forbidden = {h: set(rng.sample(CARDS, rng.randint(0, 3))) for h in slots}
    need = {h: frozenset(rng.sample(CARDS, rng.randint(1, 2))) for h in slots if rng.random() < 0.4}
    return slots, pool, forbidden, need


def check(found, slots, pool, forbidden, need) -> None:
    used: Counter[str] = Counter()
    for h, n in slots.items():
        assert len(found[h]) == max(n, 0)
        assert not set(found[h]) & set(forbidden.get(h, ()))
        if h in need:
            assert set(found[h]) & need[h]
        used.update(found[h])
    assert all(used[c] <= pool[c] for c in used)


@pytest.mark.parametrize("greedy", [True, False])
def test_assignment_is_found_exactly_when_one_exists(greedy: bool, monkeypatch: pytest.MonkeyPatch) -> None:
    if not greedy:  # the flow alone must be exact too (the greedy only saves time)
        monkeypatch.setattr(hidden, "_greedy", lambda *a: None)
    rng = random.Random(7)
    exists = 0
    for _ in range(1500):
        slots, pool, forbidden, need = problem(rng)
        found = assign_hidden(slots, pool, forbidden=forbidden, need=need)
        expected = brute(slots, pool, forbidden, need)
        assert (found is not None) == expected, (slots, pool, forbidden, need)
        if found is not None:
            exists += 1
            check(found, slots, pool, forbidden, need)
    assert 300 < exists < 1400  # both answers are well represented


def test_a_need_takes_the_only_card_another_hand_could_spare() -> None:
    # hand 0 needs a 1; hand 1 may hold only 1 or 2; one 1 and one 2 are left
    slots = {0: 1, 1: 1}
    pool = Counter({"1": 1, "2": 1})
    found = assign_hidden(slots, pool, forbidden={1: {"3"}}, need={0: {"1"}})
    assert found == {0: ["1"], 1: ["2"]}
    assert assign_hidden({0: 1, 1: 1}, pool, need={0: {"1"}, 1: {"1"}}) is None
