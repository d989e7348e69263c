"""Issue 13 (rounds half), pure: even round robin schedules at tables of 3 or N, and Swiss byes at N tables."""

from __future__ import annotations

import itertools
from collections import Counter

import pytest

from tournaments.pairing import PairingEntrant, PairingRequest, round_robin_rounds, swiss_pair
from tournaments.pairing.ordering import table_sizes
from tournaments.pairing.schedule_search import even_schedule
from tournaments.pairing.simulation import play_round


def _meetings(results, count):
    met = Counter()
    for result in results:
        for table in result.tables:
            met.update(frozenset(pair) for pair in itertools.combinations(table.entrant_ids, 2))
    return [met[frozenset(pair)] for pair in itertools.combinations(range(1, count + 1), 2)]


def _narrowest_spread_by_brute_force(count: int, size: int, rounds: int) -> int:
    """Every schedule of `rounds` rounds of `count` entrants at full tables of `size` (no byes)."""
    people = list(range(count))
    partitions = []

    def split(left, tables):
        if not left:
            partitions.append(tuple(tables))
            return
        first, rest = left[0], left[1:]
        for companions in itertools.combinations(rest, size - 1):
            split([p for p in rest if p not in companions], [*tables, (first, *companions)])

    split(people, [])
    best = None
    for schedule in itertools.combinations_with_replacement(partitions, rounds):
        met = Counter()
        for tables in schedule:
            for table in tables:
                met.update(itertools.combinations(table, 2))
        values = [met[pair] for pair in itertools.combinations(people, 2)]
        spread = max(values) - min(values)
        best = spread if best is None else min(best, spread)
    return best


def _request(count, size=3):
    return PairingRequest(entrants=tuple(PairingEntrant(id=i, seed=i) for i in range(1, count + 1)), table_size=size)


@pytest.mark.parametrize("rounds", [2, 3, 4, 5])
def test_groups_of_six_at_tables_of_three_have_the_narrowest_spread_and_say_no_even_schedule_exists(rounds):
    """Tock 2v2v2 / Tac-Tik 6 in groups of 6: every round leaves the 9 pairs of a K(3,3) apart, so no
    schedule has every pair meet floor or ceil times; the schedule has the narrowest spread there is."""
    results = round_robin_rounds(_request(6), rounds=rounds)
    assert len(results) == rounds
    values = _meetings(results, 6)
    assert (results[0].min_meetings, results[0].max_meetings) == (min(values), max(values))
    assert max(values) - min(values) == _narrowest_spread_by_brute_force(6, 3, rounds) == 2
    assert results[0].even_possible is False


def test_an_even_schedule_is_found_wherever_one_exists():
    seven = round_robin_rounds(_request(7), rounds=7)  # 7 at tables of 3, one bye a round: every pair twice
    assert set(_meetings(seven, 7)) == {2} and seven[0].even_possible is True
    assert Counter(b for r in seven for b in r.byes) == Counter(range(1, 8))
    ten = round_robin_rounds(_request(10), rounds=4)  # 10 at tables of 3: nobody meets twice
    assert max(_meetings(ten, 10)) == 1 and ten[0].even_possible is True


def test_schedule_search_proves_impossibility_and_gives_up_honestly():
    six = even_schedule(list(range(6)), [3, 3], [()] * 3)
    assert (six.low, six.high, six.even, six.proven) == (0, 2, False, True)
    sizes, byes = table_sizes(12, 3, None)
    budget = even_schedule(list(range(12)), sizes, [()] * 5, node_limit=50)
    assert budget.rounds is None and budget.proven is False


def test_swiss_ten_teams_at_tables_of_three_tries_other_bye_holders_before_a_rematch():
    """Tac-Tik 6 with 10 teams (3 tables and a bye): rounds 1-4 are rematch-free for every seed, and the
    byes stay fair (nobody sits out twice before everyone sat out once)."""
    import random

    for seed in range(12):
        rng = random.Random(seed)
        entrants = tuple(PairingEntrant(id=i, seed=i) for i in range(1, 11))
        met: set[frozenset[int]] = set()
        for number in range(1, 5):
            result = swiss_pair(PairingRequest(entrants=entrants, table_size=3, round_number=number,
                                               met_pairs=frozenset(met)))
            assert result.rematches == 0, (seed, number)
            entrants = play_round(entrants, result, rng)
            assert max(e.byes for e in entrants) <= 1
            for table in result.tables:
                met.update(frozenset(pair) for pair in itertools.combinations(table.entrant_ids, 2))
