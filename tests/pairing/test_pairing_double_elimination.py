"""Double elimination at tables of two (tournaments/pairing/double_elimination.py; docs/formats.md,
Double elimination). Hand-worked brackets, then properties for 3-32 entrants with byes."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.pairing import PairingError
from tournaments.pairing.double_elimination import (
    double_elimination,
    double_elimination_places,
    double_elimination_ready,
    double_elimination_resolve,
    played_tables_per_losers_round,
)


def play(count: int, *, reset: bool = True, winner=min, upsets: dict[str, str] | None = None) -> tuple[dict[str, int], dict[int, tuple[int, int]]]:
    """Play every table as soon as it is ready; ``winner`` picks among the two seeds (ids = seeds)."""
    bracket = double_elimination(count, reset=reset)
    seeding = list(range(1, count + 1))
    results: dict[str, int] = {}
    while ready := double_elimination_ready(bracket, seeding, results):
        for key in ready:
            a, b = double_elimination_resolve(bracket, seeding, results)[key].entrants
            assert a and b
            results[key] = (max if upsets and key in upsets else winner)(a, b)
    return results, double_elimination_places(bracket, seeding, results)


def test_six_entrants_by_hand() -> None:
    # bracket of 8; W1: 1 v - (bye), 4 v 5, 2 v - (bye), 3 v 6; better seeds win.
    # W2: 1 v 4, 2 v 3; W3: 1 v 2. L1: (-, 5) bye, (-, 6) bye. L2 (W2 losers reversed): 5 v 3
    # (loser of W2-2), 6 v 4 (loser of W2-1): 5 and 6 out in L2 -> share 5-6. L3: 3 v 4: 4 out -> 4th.
    # L4: 3 v 2 (loser of W3): 3 out -> 3rd. GF: 1 v 2, 1 wins: no reset. 1, 2, 3, 4, 5-6.
    results, places = play(6)
    assert results == {"W1-2": 4, "W1-4": 3, "W2-1": 1, "W2-2": 2, "W3-1": 1, "L2-1": 3, "L2-2": 4,
                       "L3-1": 3, "L4-1": 2, "GF": 1}
    assert places == {1: (1, 1), 2: (2, 2), 3: (3, 3), 4: (4, 4), 5: (5, 6), 6: (5, 6)}


def test_three_entrants_by_hand() -> None:
    # bracket of 4: 1 has a bye, 2 v 3 (2 wins); W2: 1 v 2. L1: (-, 3) bye; L2: 3 v 2 (loser of W2):
    # 3 out, 3rd. GF 1 v 2: 1. Places 1, 2, 3; 2 + 1 = 3 played... 2N - 2 = 4 tables: W1-2, W2-1, L2-1, GF
    results, places = play(3)
    assert results == {"W1-2": 2, "W2-1": 1, "L2-1": 2, "GF": 1}
    assert places == {1: (1, 1), 2: (2, 2), 3: (3, 3)}


def test_five_entrants_by_hand() -> None:
    # bracket of 8: only 4 v 5 plays in W1 (4). W2: 1 v 4 (1), 2 v 3 (2). W3: 1 v 2 (1).
    # L1: (-, 5) bye, (-, -) empty. L2: 5 v 3 (loser of W2-2): 3; (-) v 4 (loser of W2-1): bye for 4.
    # L3: 3 v 4: 3, 4 out (4th). L4: 3 v 2: 2, 3 out (3rd). 5 out in L2 alone: 5th. GF 1 v 2: 1.
    results, places = play(5)
    assert results == {"W1-2": 4, "W2-1": 1, "W2-2": 2, "W3-1": 1, "L2-1": 3, "L3-1": 3, "L4-1": 2, "GF": 1}
    assert places == {1: (1, 1), 2: (2, 2), 3: (3, 3), 4: (4, 4), 5: (5, 5)}


def test_eight_entrants_places_by_hand() -> None:
    # no byes: L1 losers (the W1 losers who lose again: 7, 8) share 7-8, L2 losers 5-6, L3 4th, L4 3rd
    _results, places = play(8)
    assert places == {1: (1, 1), 2: (2, 2), 3: (3, 3), 4: (4, 4), 5: (5, 6), 6: (5, 6), 7: (7, 8), 8: (7, 8)}


def test_sixteen_entrants_ranges() -> None:
    _results, places = play(16)
    assert sorted(set(places.values())) == [(1, 1), (2, 2), (3, 3), (4, 4), (5, 6), (7, 8), (9, 12), (13, 16)]


def test_grand_final_reset_when_the_losers_champion_wins() -> None:
    # 4 entrants: 3 beats 2 in W1 (upset). W2: 1 v 3: 1. L1: 4 v 2: 2 (4 out, 4th). L2: 2 v 3: 2 (3rd: 3).
    # GF: 1 v 2, 2 wins -> both have lost once: GF2, 2 wins again: 2 first, 1 second.
    bracket = double_elimination(4)
    seeding = [1, 2, 3, 4]
    results = {"W1-1": 1, "W1-2": 3, "W2-1": 1, "L1-1": 2, "L2-1": 2, "GF": 2}
    assert double_elimination_ready(bracket, seeding, results) == ["GF2"]
    assert double_elimination_places(bracket, seeding, results) == {3: (3, 3), 4: (4, 4)}
    results["GF2"] = 2
    assert double_elimination_places(bracket, seeding, results) == {1: (2, 2), 2: (1, 1), 3: (3, 3), 4: (4, 4)}
    # without the reset GF decides
    no_reset = double_elimination(4, reset=False)
    places = double_elimination_places(no_reset, seeding, {k: v for k, v in results.items() if k != "GF2"})
    assert places[2] == (1, 1) and places[1] == (2, 2)


def test_no_reset_when_the_winners_champion_wins_the_final() -> None:
    bracket = double_elimination(4)
    results = {"W1-1": 1, "W1-2": 2, "W2-1": 1, "L1-1": 3, "L2-1": 2, "GF": 1}
    assert double_elimination_resolve(bracket, [1, 2, 3, 4], results)["GF2"].state == "skipped"
    assert double_elimination_places(bracket, [1, 2, 3, 4], results)[1] == (1, 1)


def test_bad_results_are_refused() -> None:
    bracket = double_elimination(4)
    with pytest.raises(PairingError):
        double_elimination_resolve(bracket, [1, 2, 3, 4], {"W1-1": 2})  # 2 is not at W1-1 (1 v 4)
    with pytest.raises(PairingError):
        double_elimination_resolve(bracket, [1, 2, 3, 4], {"W2-1": 1})  # not known yet
    with pytest.raises(PairingError):
        double_elimination_resolve(double_elimination(3), [1, 2, 3], {"W1-1": 1})  # a bye takes no result
    with pytest.raises(PairingError):
        double_elimination(1)


@settings(max_examples=150, deadline=None)
@given(count=st.integers(min_value=3, max_value=32), reset=st.booleans(), seed=st.integers(0, 10**6))
def test_places_partition_the_field_and_everyone_but_the_champion_loses_twice(count: int, reset: bool, seed: int) -> None:
    rng = random.Random(seed)
    results, places = play(count, reset=reset, winner=lambda a, b: rng.choice((a, b)))
    # every entrant has a place; a range (best, worst) is held by exactly worst - best + 1 entrants;
    # the ranges tile 1..count; 1st and 2nd are single
    assert set(places) == set(range(1, count + 1))
    ranges = sorted(set(places.values()))
    assert ranges[0] == (1, 1) and ranges[1] == (2, 2)
    expected = 1
    for best, worst in ranges:
        assert best == expected
        assert sum(1 for r in places.values() if r == (best, worst)) == worst - best + 1
        expected = worst + 1
    assert expected == count + 1
    # the ranges are fixed by the field (which L round each went out in), not by the results
    counts = played_tables_per_losers_round(double_elimination(count, reset=reset))
    assert sum(counts.values()) == count - 2
    # losses: the champion at most 1, every other entrant exactly 2 (only 1 for the runner-up
    # without a reset when the losers' champion lost the final)
    bracket = double_elimination(count, reset=reset)
    states = double_elimination_resolve(bracket, list(range(1, count + 1)), results)
    losses = {e: 0 for e in range(1, count + 1)}
    for state in states.values():
        if state.state == "done":
            losses[state.loser] += 1  # type: ignore[index]
    champion = next(e for e, r in places.items() if r == (1, 1))
    assert losses[champion] <= 1
    for entrant, count_ in losses.items():
        if entrant != champion:
            assert count_ == 2 or (places[entrant] == (2, 2) and count_ == 1)
    # tables played: 2N - 2, one more when the final was reset
    played = sum(1 for s in states.values() if s.state == "done")
    assert played in (2 * count - 2, 2 * count - 1)


@pytest.mark.parametrize("count", range(3, 33))
def test_better_seed_always_winning_gives_the_seed_order_at_the_top(count: int) -> None:
    # played to form, 1 wins, 2 is second, 3 third (2 loses only to 1, and 3 only to 1 and 2)
    _results, places = play(count)
    assert places[1] == (1, 1) and places[2] == (2, 2) and places[3] == (3, 3)
    # a better seed never places below a worse one
    for better in range(1, count):
        assert places[better][0] <= places[better + 1][0]
