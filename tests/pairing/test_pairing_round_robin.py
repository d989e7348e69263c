"""Round robin: Berger tables for 2 per table, even meetings for 3 or N per table."""

from __future__ import annotations

import itertools
from collections import Counter

import pytest

from tournaments.pairing import PairingError, PairingRequest, round_robin_rounds
from tournaments.pairing.simulation import fake_entrants


def meetings(results):
    counter = Counter()
    for result in results:
        for table in result.tables:
            counter.update(frozenset(pair) for pair in itertools.combinations(table.entrant_ids, 2))
    return counter


def all_pairs(count):
    return [frozenset(pair) for pair in itertools.combinations(range(1, count + 1), 2)]


@pytest.mark.parametrize("count", [2, 3, 4, 7, 8, 11, 16])
def test_two_per_table_every_pair_exactly_once(count):
    results = round_robin_rounds(PairingRequest(entrants=fake_entrants(count), table_size=2))
    assert len(results) == (count if count % 2 else count - 1)
    met = meetings(results)
    assert all(met[pair] == 1 for pair in all_pairs(count))
    assert sum(met.values()) == len(all_pairs(count))
    for result in results:
        placed = [e for t in result.tables for e in t.entrant_ids] + list(result.byes)
        assert sorted(placed) == list(range(1, count + 1))
        assert result.max_meetings == result.min_meetings == 1
    if count % 2:
        assert Counter(b for r in results for b in r.byes) == Counter(range(1, count + 1))


def test_two_per_table_seats_alternate_evenly():
    results = round_robin_rounds(PairingRequest(entrants=fake_entrants(10), table_size=2))
    first_seat = Counter(t.entrant_ids[0] for r in results for t in r.tables)
    assert all(4 <= first_seat[entrant] <= 5 for entrant in range(1, 11))


def test_double_round_robin_swaps_seats():
    results = round_robin_rounds(PairingRequest(entrants=fake_entrants(6), table_size=2), double=True)
    assert len(results) == 10
    met = meetings(results)
    assert all(met[pair] == 2 for pair in all_pairs(6))
    seatings = Counter(t.entrant_ids for r in results for t in r.tables)
    assert all(seatings[(a, b)] == 1 and seatings[(b, a)] == 1 for (a, b) in list(seatings))
    assert results[0].max_meetings == 2


def test_nine_entrants_tables_of_three_four_rounds_every_pair_once():
    results = round_robin_rounds(PairingRequest(entrants=fake_entrants(9), table_size=3))
    assert len(results) == 4
    met = meetings(results)
    assert all(met[pair] == 1 for pair in all_pairs(9))
    assert results[0].max_meetings == results[0].min_meetings == 1


def test_fifteen_entrants_tables_of_three_spread_evenly():
    results = round_robin_rounds(PairingRequest(entrants=fake_entrants(15), table_size=3))
    assert len(results) == 7
    met = meetings(results)
    assert max(met[pair] for pair in all_pairs(15)) <= 2
    assert results[0].max_meetings == max(met[pair] for pair in all_pairs(15))
    assert results[0].min_meetings == min(met[pair] for pair in all_pairs(15))


def test_n_per_table_with_byes_rotates_byes_and_reports_meetings():
    results = round_robin_rounds(PairingRequest(entrants=fake_entrants(13), table_size=4))
    byes = Counter(b for r in results for b in r.byes)
    assert all(len(r.byes) == 1 for r in results)
    assert max(byes.values()) == 1
    met = meetings(results)
    assert results[0].max_meetings == max(met[pair] for pair in all_pairs(13))
    for result in results:
        assert all(len(t.entrant_ids) == 4 for t in result.tables)


def test_n_per_table_seats_rotate():
    results = round_robin_rounds(PairingRequest(entrants=fake_entrants(16), table_size=4))
    seat_counts = Counter(
        (e, seat) for r in results for t in r.tables for seat, e in enumerate(t.entrant_ids)
    )
    for entrant in range(1, 17):
        assert max(seat_counts[(entrant, seat)] for seat in range(4)) <= 2


def test_too_small_or_bad_round_robins_raise():
    with pytest.raises(PairingError):
        round_robin_rounds(PairingRequest(entrants=fake_entrants(1), table_size=2))
    with pytest.raises(PairingError):
        round_robin_rounds(PairingRequest(entrants=fake_entrants(6), table_size=2), rounds=3)
    with pytest.raises(PairingError):
        round_robin_rounds(PairingRequest(entrants=fake_entrants(2), table_size=3))
