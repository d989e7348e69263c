"""Swiss pairing on fake entrants: tables of 2, 3 and N, byes, first rounds, quality invariants."""

from __future__ import annotations

import itertools

import pytest

from tournaments.pairing import PairingEntrant, PairingError, PairingRequest, swiss_pair
from tournaments.pairing.simulation import fake_entrants, simulate_swiss


def ids_at_tables(result):
    return [entrant for table in result.tables for entrant in table.entrant_ids]


def test_first_round_by_seed_pairs_top_half_against_bottom_half():
    request = PairingRequest(entrants=fake_entrants(8), table_size=2, first_round="seed")
    result = swiss_pair(request)
    assert sorted(tuple(sorted(t.entrant_ids)) for t in result.tables) == [(1, 5), (2, 6), (3, 7), (4, 8)]
    assert result.byes == ()


def test_first_round_by_rating_uses_ratings():
    entrants = tuple(PairingEntrant(id=i, rating=float(i * 10)) for i in range(1, 5))  # 4 is strongest
    result = swiss_pair(PairingRequest(entrants=entrants, table_size=2, first_round="rating"))
    assert sorted(tuple(sorted(t.entrant_ids)) for t in result.tables) == [(1, 3), (2, 4)]


def test_random_first_round_is_fixed_by_the_seed_and_changes_with_it():
    request = PairingRequest(entrants=fake_entrants(20), table_size=2, first_round="random", random_seed=7)
    first, again = swiss_pair(request), swiss_pair(request)
    assert first.tables == again.tables
    other = swiss_pair(
        PairingRequest(entrants=fake_entrants(20), table_size=2, first_round="random", random_seed=8)
    )
    assert other.tables != first.tables


def test_bye_goes_to_lowest_ranked_without_a_bye():
    entrants = tuple(
        PairingEntrant(id=i, score=float(10 - i), rank=i, byes=1 if i == 5 else 0) for i in range(1, 6)
    )
    result = swiss_pair(PairingRequest(entrants=entrants, table_size=2, round_number=3))
    assert result.byes == (4,)  # 5 is lowest but already had a bye


def test_score_groups_are_paired_together_and_rematches_avoided():
    entrants = tuple(
        PairingEntrant(id=i, score=score) for i, score in zip(range(1, 7), (2, 2, 1, 1, 0, 0), strict=True)
    )
    met = frozenset({frozenset((1, 2)), frozenset((3, 4)), frozenset((5, 6))})
    result = swiss_pair(PairingRequest(entrants=entrants, table_size=2, round_number=3, met_pairs=met))
    pairs = {frozenset(t.entrant_ids) for t in result.tables}
    assert not pairs & met
    assert result.rematches == 0
    # 1 and 2 have met, so each floats to the 1-point group: total score difference 1 + 1 + 1 + 1
    assert result.score_spread == 4.0


def test_rematch_only_when_impossible_and_then_reported():
    entrants = tuple(PairingEntrant(id=i) for i in range(1, 5))
    met = frozenset(frozenset(pair) for pair in itertools.combinations(range(1, 5), 2))
    result = swiss_pair(PairingRequest(entrants=entrants, table_size=2, round_number=4, met_pairs=met))
    assert result.rematches == 2
    assert [w.code for w in result.warnings].count("rematch") == 2


def test_same_club_avoided_when_score_allows():
    entrants = (
        PairingEntrant(id=1, score=1, club="Basel"),
        PairingEntrant(id=2, score=1, club="Basel"),
        PairingEntrant(id=3, score=1, club="Bern"),
        PairingEntrant(id=4, score=1, club="Bern"),
    )
    request = PairingRequest(entrants=entrants, table_size=2, round_number=2, avoid_same_club=True)
    assert {frozenset(t.entrant_ids) for t in swiss_pair(request).tables} & {
        frozenset((1, 2)),
        frozenset((3, 4)),
    } == set()


def test_score_difference_outweighs_club():
    entrants = (
        PairingEntrant(id=1, score=2, club="Basel"),
        PairingEntrant(id=2, score=2, club="Basel"),
        PairingEntrant(id=3, score=0, club="Bern"),
        PairingEntrant(id=4, score=0, club="Zug"),
    )
    request = PairingRequest(entrants=entrants, table_size=2, round_number=2, avoid_same_club=True)
    result = swiss_pair(request)
    assert frozenset((1, 2)) in {frozenset(t.entrant_ids) for t in result.tables}
    assert "same_club" in [w.code for w in result.warnings]


def test_forbidden_pair_kept_apart_at_tables_of_three():
    entrants = tuple(PairingEntrant(id=i) for i in range(1, 7))
    request = PairingRequest(
        entrants=entrants, table_size=3, forbidden_pairs=frozenset({frozenset((1, 2)), frozenset((1, 3))})
    )
    for table in swiss_pair(request).tables:
        assert not ({1, 2} <= set(table.entrant_ids) or {1, 3} <= set(table.entrant_ids))


def test_smaller_tables_instead_of_byes_when_allowed():
    request = PairingRequest(entrants=fake_entrants(10), table_size=4, min_table_size=3)
    result = swiss_pair(request)
    assert sorted(len(t.entrant_ids) for t in result.tables) == [3, 3, 4]
    assert result.byes == ()
    strict = swiss_pair(PairingRequest(entrants=fake_entrants(10), table_size=4))
    assert sorted(len(t.entrant_ids) for t in strict.tables) == [4, 4]
    assert len(strict.byes) == 2


def test_first_round_of_three_spreads_the_seeds():
    result = swiss_pair(PairingRequest(entrants=fake_entrants(9), table_size=3))
    assert sorted(tuple(sorted(t.entrant_ids)) for t in result.tables) == [(1, 4, 7), (2, 5, 8), (3, 6, 9)]


@pytest.mark.parametrize(
    "request_kwargs, message",
    [
        ({"table_size": 1}, "at least 2"),
        ({"table_size": 4, "min_table_size": 5}, "smallest table"),
        ({"table_size": 2, "first_round": "alphabet"}, "first-round order"),
    ],
)
def test_bad_requests_raise_pairing_error(request_kwargs, message):
    with pytest.raises(PairingError, match=message):
        swiss_pair(PairingRequest(entrants=fake_entrants(4), **request_kwargs))


def test_duplicate_entrant_is_an_error():
    with pytest.raises(PairingError, match="twice"):
        swiss_pair(PairingRequest(entrants=(PairingEntrant(id=1), PairingEntrant(id=1)), table_size=2))


def test_empty_and_single_entrant_fields():
    assert swiss_pair(PairingRequest(entrants=(), table_size=2)).tables == ()
    lone = swiss_pair(PairingRequest(entrants=(PairingEntrant(id=3),), table_size=2))
    assert lone.tables == () and lone.byes == (3,)


def test_two_per_table_128_entrants_nine_rounds_without_rematches():
    simulation = simulate_swiss(128, 2, 9, seed=5)
    assert simulation.total_rematches == 0
    assert simulation.most_byes == 0
    assert simulation.seat_spread <= 2


def test_odd_field_gets_byes_evenly():
    simulation = simulate_swiss(25, 2, 7, seed=2)
    assert simulation.total_rematches == 0
    assert simulation.most_byes == 1
    assert all(r.byes == 1 for r in simulation.rounds)


def test_three_per_table_192_entrants_beats_greedy_grouping():
    simulation = simulate_swiss(192, 3, 7, seed=1)
    for measured in simulation.rounds:
        assert measured.rematches <= measured.greedy_rematches
    assert sum(r.greedy_rematches for r in simulation.rounds) > 50
    assert simulation.total_rematches * 10 <= sum(r.greedy_rematches for r in simulation.rounds)


def test_taki_tables_of_four_use_a_table_of_three_instead_of_byes():
    simulation = simulate_swiss(23, 4, 5, seed=3, min_table_size=3)
    assert all(r.byes == 0 for r in simulation.rounds)
    result = swiss_pair(PairingRequest(entrants=fake_entrants(23), table_size=4, min_table_size=3))
    assert sorted(len(t.entrant_ids) for t in result.tables) == [3, 4, 4, 4, 4, 4]


def test_n_player_tables_with_clubs_stay_rematch_free_and_fast():
    simulation = simulate_swiss(120, 6, 6, seed=4, min_table_size=3, clubs=5)
    assert simulation.total_rematches == 0
    assert sum(r.greedy_rematches for r in simulation.rounds) > 100
    assert max(r.seconds for r in simulation.rounds) < 5
