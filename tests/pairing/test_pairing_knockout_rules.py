"""Knockout rules the organiser meets: a stage of group winners only, what each bad request says,
round names, and the checks on a finished round's results."""

from __future__ import annotations

import pytest

from tournaments.pairing import (
    PairingError,
    PairingRequest,
    knockout_bracket,
    knockout_next_round,
    knockout_places,
    stage_knockout,
)
from tournaments.pairing.simulation import fake_entrants

GROUPS = [[11, 12, 13], [21, 22, 23], [31, 32, 33], [41, 42, 43]]


def first_round_pairs(bracket) -> set[frozenset[int]]:
    return {frozenset(table.entrant_ids) for table in bracket.first_round.tables}


def test_a_knockout_of_group_winners_only_seeds_them_in_group_order() -> None:
    # one qualifier per group: A1, B1, C1, D1 are seeds 1-4, so A1 v D1 and B1 v C1
    bracket = stage_knockout(GROUPS, qualifiers=1)
    assert bracket.seeding == (11, 21, 31, 41)
    assert first_round_pairs(bracket) == {frozenset((11, 41)), frozenset((21, 31))}
    assert [r.name for r in bracket.rounds] == ["Semi-finals", "Final"]
    # two group winners play the final at once
    final_only = stage_knockout(GROUPS[:2], qualifiers=1, third_place=False)
    assert [r.name for r in final_only.rounds] == ["Final"]
    assert first_round_pairs(final_only) == {frozenset((11, 21))}


@pytest.mark.parametrize(
    ("standings", "qualifiers", "message"),
    [
        (GROUPS, 0, "At least one entrant per standings list must qualify."),
        ([], 1, "No standings given."),
        ([[1, 2, 3], [4]], 2, "Standings list 2 has 1 entrants; 2 should qualify."),
        ([[1, 2], [2, 3]], 2, "An entrant appears in two standings lists."),
    ],
)
def test_a_bad_stage_knockout_says_what_is_wrong(standings, qualifiers, message) -> None:
    with pytest.raises(PairingError) as raised:
        stage_knockout(standings, qualifiers=qualifiers)
    assert str(raised.value) == message


def test_a_bad_bracket_request_says_what_is_wrong() -> None:
    def bracket(count: int, size: int, advance: int):
        return knockout_bracket(PairingRequest(entrants=fake_entrants(count), table_size=size), advance=advance)

    with pytest.raises(PairingError, match=r"^Between 1 and 1 entrants can advance from a table of 2, not 2\.$"):
        bracket(8, 2, 2)
    with pytest.raises(PairingError, match=r"^Between 1 and 3 entrants can advance from a table of 4, not 0\.$"):
        bracket(8, 4, 0)
    with pytest.raises(PairingError, match=r"^A knockout needs at least 2 entrants\.$"):
        bracket(1, 2, 1)
    # the largest possible advance is fine, and so is the smallest field
    assert len(bracket(8, 4, 2).rounds) == 2  # 2 tables of 4, then the final
    assert [r.name for r in bracket(2, 2, 1).rounds] == ["Final"]


def test_round_names_count_the_main_tables() -> None:
    rounds = knockout_bracket(PairingRequest(entrants=fake_entrants(32), table_size=2), third_place=False).rounds
    assert [r.name for r in rounds] == ["Round of 32", "Round of 16", "Quarter-finals", "Semi-finals", "Final"]
    four = knockout_bracket(PairingRequest(entrants=fake_entrants(64), table_size=4), advance=2).rounds
    assert [r.name for r in four] == ["Round of 64", "Round of 32", "Quarter-finals", "Semi-finals", "Final"]


def test_results_of_a_finished_round_are_checked_table_by_table() -> None:
    bracket = knockout_bracket(PairingRequest(entrants=fake_entrants(8), table_size=2))
    drawn = {t.number: tuple(sorted(t.entrant_ids)) for t in bracket.first_round.tables}
    with pytest.raises(PairingError, match=r"^Round 1 has no table 9\.$"):
        knockout_next_round(bracket, {**drawn, 9: (1, 2)}, round_number=1)
    with pytest.raises(PairingError, match=r"^Round 1, table 1: give all 2 entrants once, in finishing order\.$"):
        knockout_next_round(bracket, {**drawn, 1: (drawn[1][0],)}, round_number=1)
    with pytest.raises(PairingError, match=r"^Round 1, table 1: give all 2 entrants once"):
        knockout_next_round(bracket, {**drawn, 1: (drawn[1][0], drawn[1][0])}, round_number=1)
    with pytest.raises(PairingError, match=r"^This bracket has rounds 1 to 3, not 4\.$"):
        knockout_next_round(bracket, drawn, round_number=4)
    with pytest.raises(PairingError, match=r"^This bracket has rounds 1 to 3, not 0\.$"):
        knockout_next_round(bracket, drawn, round_number=0)
    # round 2: the winners of tables 1+2 and 3+4 meet; an entrant given at both tables is refused
    semis = knockout_next_round(bracket, drawn, round_number=1)
    one, two = (t.entrant_ids for t in semis.tables)
    with pytest.raises(PairingError, match=r"^Round 2: an entrant finished at two tables\.$"):
        knockout_next_round(bracket, {1: one, 2: (one[0], two[1])}, round_number=2)
    final = knockout_next_round(bracket, {1: one, 2: two}, round_number=2)
    # the final holds the winners, the third-place table the losers of the semi-finals
    assert [set(t.entrant_ids) for t in final.tables] == [{one[0], two[0]}, {one[1], two[1]}]
    assert [t.number for t in final.tables] == [1, 2]


def test_places_of_a_finished_knockout_of_four() -> None:
    bracket = knockout_bracket(PairingRequest(entrants=fake_entrants(4), table_size=2))
    semis = {t.number: tuple(sorted(t.entrant_ids)) for t in bracket.first_round.tables}
    assert semis == {1: (1, 4), 2: (2, 3)}
    # nobody's place is known after the semi-finals: everybody plays once more
    assert knockout_places(bracket, {1: semis}) == {}
    places = knockout_places(bracket, {1: semis, 2: {1: (2, 1), 2: (4, 3)}})
    assert places == {2: (1, 1), 1: (2, 2), 4: (3, 3), 3: (4, 4)}


def test_the_round_is_inferred_when_round_one_and_the_final_share_table_numbers() -> None:
    # 4 entrants: the semi-finals are tables 1 and 2, and so are the final and the third-place table.
    bracket = knockout_bracket(PairingRequest(entrants=fake_entrants(4), table_size=2))
    semis = {t.number: tuple(sorted(t.entrant_ids)) for t in bracket.first_round.tables}
    # the entrants drawn at round 1: these are the semi-final results, and the final follows
    final = knockout_next_round(bracket, semis)
    assert [set(t.entrant_ids) for t in final.tables] == [{1, 2}, {4, 3}]
    # other entrants at the same table numbers: the final's results, and the bracket is complete
    with pytest.raises(PairingError) as raised:
        knockout_next_round(bracket, {1: (2, 1), 2: (3, 4)})
    assert str(raised.value) == "The final has been played: the bracket is complete."


def test_entrants_not_given_sit_as_newcomers_when_seats_are_balanced() -> None:
    from tournaments.pairing import PairingEntrant

    bracket = knockout_bracket(PairingRequest(entrants=fake_entrants(4), table_size=2), third_place=False)
    semis = {t.number: tuple(sorted(t.entrant_ids)) for t in bracket.first_round.tables}
    # only entrant 2's seat history is known: it sat first three times, so it now sits second
    final = knockout_next_round(bracket, semis, round_number=1,
                                entrants=(PairingEntrant(id=2, seat_counts=(3, 0)),))
    assert [t.entrant_ids for t in final.tables] == [(1, 2)]


def test_a_stage_knockout_without_a_third_place_table() -> None:
    with_third = stage_knockout(GROUPS, qualifiers=1)
    without = stage_knockout(GROUPS, qualifiers=1, third_place=False)
    assert [t.kind for t in with_third.rounds[-1].tables] == ["main", "third_place"]
    assert [t.kind for t in without.rounds[-1].tables] == ["main"]
    assert without.third_place is False


def test_round_two_is_fed_by_neighbouring_tables_of_round_one() -> None:
    from tournaments.pairing.values import BracketSource

    bracket = knockout_bracket(PairingRequest(entrants=fake_entrants(16), table_size=2))
    first = bracket.rounds[0].tables
    assert [t.position for t in first] == list(range(1, 9))
    assert [tuple(sorted(t.seeds)) for t in first[:2]] == [(1, 16), (8, 9)]
    # the winners of 1 v 16 and 8 v 9 meet, then those of 4 v 13 and 5 v 12, ...
    assert [t.sources for t in bracket.rounds[1].tables] == [
        (BracketSource(2 * i + 1, 1), BracketSource(2 * i + 2, 1)) for i in range(4)
    ]


def test_round_one_of_the_bracket_shows_the_seat_order_and_the_seeds_of_the_pairing() -> None:
    from tournaments.pairing import PairingEntrant

    # seed 1 has always sat first: the seat balance puts it second at its table
    entrants = tuple(PairingEntrant(id=i, seed=i, seat_counts=(5, 0) if i == 1 else ()) for i in range(1, 5))
    bracket = knockout_bracket(PairingRequest(entrants=entrants, table_size=2))
    played = {t.number: t.entrant_ids for t in bracket.first_round.tables}
    assert played[1] == (4, 1)
    for table in bracket.rounds[0].tables:
        assert table.entrant_ids == played[table.number]
        assert table.seeds == tuple(bracket.seeding.index(e) + 1 for e in table.entrant_ids)
    assert bracket.rounds[0].tables[0].seeds == (4, 1)


def test_a_first_round_table_with_no_more_entrants_than_advance_is_not_played() -> None:
    # 10 entrants at tables of 4, 2 advancing: 16 slots dealt 1 8 9 16 | 4 5 12 13 | 2 7 10 15 |
    # 3 6 11 14; the tables hold 2, 3, 2 and 3 entrants (the top seeds' tables the smaller), and at
    # the tables of 2 both advance without playing: seeds 1-4 (test_pairing_knockout_byes.py)
    bracket = knockout_bracket(PairingRequest(entrants=fake_entrants(10), table_size=4), advance=2)
    assert [(tuple(sorted(t.seeds)), t.number) for t in bracket.rounds[0].tables] == [
        ((1, 4), None), ((5, 8, 9), 1), ((2, 3), None), ((6, 7, 10), 2)
    ]
    assert sorted(bracket.first_round.byes) == [1, 2, 3, 4]
    assert [len(t.entrant_ids) for t in bracket.first_round.tables] == [3, 3]


def test_a_final_is_played_even_when_it_holds_no_more_entrants_than_advance() -> None:
    # two entrants, tables of 4 with 2 advancing: the bracket is the final alone, and it is played
    bracket = knockout_bracket(PairingRequest(entrants=fake_entrants(2), table_size=4), advance=2)
    assert [r.name for r in bracket.rounds] == ["Final"]
    assert [(t.number, t.size) for t in bracket.rounds[0].tables] == [(1, 2)]
    assert bracket.first_round.byes == () and len(bracket.first_round.tables) == 1
