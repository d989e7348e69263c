"""Knockout brackets: standard seeding, byes to top seeds, third place, top K of N, stages."""

from __future__ import annotations

import pytest

from tournaments.pairing import (
    PairingEntrant,
    PairingError,
    PairingRequest,
    knockout_bracket,
    knockout_next_round,
    knockout_places,
    stage_knockout,
)
from tournaments.pairing.simulation import fake_entrants


def bracket_for(count, table_size=2, advance=1, third_place=True):
    return knockout_bracket(
        PairingRequest(entrants=fake_entrants(count), table_size=table_size),
        advance=advance,
        third_place=third_place,
    )


def test_sixteen_standard_seeding():
    bracket = bracket_for(16)
    pairs = [tuple(sorted(t.entrant_ids)) for t in bracket.first_round.tables]
    assert pairs == [(1, 16), (8, 9), (4, 13), (5, 12), (2, 15), (7, 10), (3, 14), (6, 11)]
    assert [r.name for r in bracket.rounds] == ["Round of 16", "Quarter-finals", "Semi-finals", "Final"]
    assert [t.kind for t in bracket.rounds[-1].tables] == ["main", "third_place"]


def test_byes_go_to_top_seeds():
    bracket = bracket_for(12)
    assert sorted(bracket.first_round.byes) == [1, 2, 3, 4]
    assert len(bracket.first_round.tables) == 4


def play_out(bracket, winner_rule=min):
    """Play every round, the lowest id winning; returns the final standings of the last round."""
    result = bracket.first_round
    for finished_round in range(1, len(bracket.rounds)):
        finished = {
            t.number: sorted(t.entrant_ids, key=lambda e: (e != winner_rule(t.entrant_ids), e))
            for t in result.tables
        }
        result = knockout_next_round(bracket, finished, round_number=finished_round)
    return result


@pytest.mark.parametrize("count", [2, 3, 5, 8, 12, 16, 17, 31])
def test_favourites_reach_the_final(count):
    final_round = play_out(bracket_for(count))
    final = final_round.tables[0]
    assert sorted(final.entrant_ids) == [1, 2]
    if count >= 4:
        assert sorted(final_round.tables[1].entrant_ids) == [3, 4]
    else:
        assert len(final_round.tables) == 1


def test_no_third_place_when_not_asked():
    assert len(play_out(bracket_for(8, third_place=False)).tables) == 1


def test_tables_of_four_top_two_advance():
    bracket = bracket_for(16, table_size=4, advance=2)
    assert [len(t.entrant_ids) for t in bracket.first_round.tables] == [4, 4, 4, 4]
    final_round = play_out(bracket)
    assert sorted(final_round.tables[0].entrant_ids) == [1, 2, 3, 4]
    assert sorted(final_round.tables[1].entrant_ids) == [5, 6, 7, 8]


def test_tables_of_three_one_advances_with_byes():
    bracket = bracket_for(7, table_size=3, advance=1)
    played = [e for t in bracket.first_round.tables for e in t.entrant_ids]
    assert sorted(played + list(bracket.first_round.byes)) == list(range(1, 8))
    sizes = {
        t.entrant_ids[0] if 1 not in t.entrant_ids else 1: len(t.entrant_ids)
        for t in bracket.first_round.tables
    }
    assert sizes[1] == 2  # the missing entrants make the top seeds' tables smaller
    assert sorted(len(t.entrant_ids) for t in bracket.first_round.tables) == [2, 2, 3]
    final_round = play_out(bracket)
    assert sorted(final_round.tables[0].entrant_ids) == [1, 2, 3]


def test_bad_knockouts_raise():
    with pytest.raises(PairingError, match="divide"):
        bracket_for(8, table_size=3, advance=2)
    with pytest.raises(PairingError):
        bracket_for(8, table_size=2, advance=2)
    with pytest.raises(PairingError):
        bracket_for(1)


def test_next_round_checks_results():
    bracket = bracket_for(8)
    with pytest.raises(PairingError, match="no result"):
        knockout_next_round(bracket, {1: (1, 8)}, round_number=1)
    with pytest.raises(PairingError, match="not the entrants"):
        knockout_next_round(bracket, {t.number: (1, 99) for t in bracket.first_round.tables}, round_number=1)
    with pytest.raises(PairingError, match="complete"):
        knockout_next_round(bracket, {1: (1, 2), 2: (3, 4)}, round_number=3)


def test_round_is_inferred_when_unambiguous():
    bracket = bracket_for(8)
    finished = {t.number: tuple(sorted(t.entrant_ids)) for t in bracket.first_round.tables}
    inferred = knockout_next_round(bracket, finished)
    assert inferred == knockout_next_round(bracket, finished, round_number=1)
    with pytest.raises(PairingError, match="round_number"):
        knockout_next_round(bracket, {1: (1, 4), 2: (2, 3)})


def test_seat_counts_balance_later_rounds():
    bracket = bracket_for(4, third_place=False)
    finished = {t.number: tuple(sorted(t.entrant_ids)) for t in bracket.first_round.tables}
    entrants = (PairingEntrant(id=1, seat_counts=(3, 0)), PairingEntrant(id=2, seat_counts=(0, 3)))
    final = knockout_next_round(bracket, finished, round_number=1, entrants=entrants)
    assert final.tables[0].entrant_ids == (2, 1)


def test_stage_knockout_from_groups_crosses_groups():
    bracket = stage_knockout([[11, 12, 13], [21, 22, 23]], qualifiers=2, third_place=False)
    pairs = {frozenset(t.entrant_ids) for t in bracket.first_round.tables}
    assert pairs == {frozenset((11, 22)), frozenset((21, 12))}


def test_stage_knockout_from_swiss_standings():
    bracket = stage_knockout([list(range(100, 120))], qualifiers=8)
    pairs = {frozenset(t.entrant_ids) for t in bracket.first_round.tables}
    assert frozenset((100, 107)) in pairs and frozenset((103, 104)) in pairs


def test_stage_knockout_rejects_short_groups():
    with pytest.raises(PairingError):
        stage_knockout([[1, 2], [3]], qualifiers=2)
    with pytest.raises(PairingError):
        stage_knockout([[1, 2], [2, 3]], qualifiers=2)


def play_all(bracket):
    """Lowest id wins every table; returns round -> table -> finishing order."""
    results = {}
    result = bracket.first_round
    for round_number in range(1, len(bracket.rounds) + 1):
        results[round_number] = {t.number: tuple(sorted(t.entrant_ids)) for t in result.tables}
        if round_number < len(bracket.rounds):
            result = knockout_next_round(bracket, results[round_number], round_number=round_number)
    return results


def test_placement_matches_decide_every_place():
    bracket = knockout_bracket(PairingRequest(entrants=fake_entrants(8), table_size=2), placements=True)
    assert [t.kind for t in bracket.rounds[-1].tables] == ["main", "third_place", "placement", "placement"]
    assert [t.best_place for t in bracket.rounds[-1].tables] == [1, 3, 5, 7]
    places = knockout_places(bracket, play_all(bracket))
    assert places == {entrant: (entrant, entrant) for entrant in range(1, 9)}


def test_first_round_losers_with_byes_share_places():
    bracket = knockout_bracket(PairingRequest(entrants=fake_entrants(12), table_size=2), placements=True)
    places = knockout_places(bracket, play_all(bracket))
    assert [places[e] for e in (5, 8, 9, 12)] == [(5, 5), (8, 8), (9, 12), (9, 12)]


def test_places_without_third_place_are_shared():
    bracket = knockout_bracket(PairingRequest(entrants=fake_entrants(6), table_size=2), third_place=False)
    places = knockout_places(bracket, play_all(bracket))
    assert places == {1: (1, 1), 2: (2, 2), 3: (3, 4), 4: (3, 4), 5: (5, 6), 6: (5, 6)}


def test_places_of_a_running_knockout_leave_out_who_still_plays():
    bracket = knockout_bracket(PairingRequest(entrants=fake_entrants(8), table_size=2))
    first_round = {t.number: tuple(sorted(t.entrant_ids)) for t in bracket.first_round.tables}
    assert knockout_places(bracket, {1: first_round}) == {5: (5, 8), 6: (5, 8), 7: (5, 8), 8: (5, 8)}


def test_tables_of_four_placements_rank_everyone():
    bracket = knockout_bracket(
        PairingRequest(entrants=fake_entrants(16), table_size=4), advance=2, placements=True
    )
    places = knockout_places(bracket, play_all(bracket))
    assert places == {entrant: (entrant, entrant) for entrant in range(1, 17)}
