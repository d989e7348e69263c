"""How a knockout at tables of N deals the seeds when the byes hold the top ones (hand-worked from the
rules in tournaments/pairing/knockout.py: every round's top ``advance`` are the best seeds left, the
round-2 field is dealt serpentine over the tables ordered by their best seed, and the seeds below the
round-2 field are dealt over the played tables with the best challenger against the weakest unit)."""

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


def first_round(count: int, table_size: int, advance: int) -> list[tuple[tuple[int, ...], bool]]:
    request = PairingRequest(entrants=fake_entrants(count), table_size=table_size)
    bracket = knockout_bracket(request, advance=advance)
    return [(tuple(sorted(t.seeds)), t.number is not None) for t in bracket.rounds[0].tables]


def test_fourteen_at_tables_of_six_three_advancing() -> None:
    # 4 first-round tables feed 2 tables of 6 (12 places), then the final. 14 over 4 tables: 3 3 4 4,
    # the tables of 3 (3 advance: byes) under the top seeds, holding seeds 1-6 as in the final of
    # 1 4 5 | 2 3 6. The rest of the round-2 field, 7-12, is dealt serpentine over the two round-2
    # tables, best first, turning at each end; with 3 advancing (odd) the first lap runs backwards:
    # 7 -> table of 2, 8 9 -> table of 1, 10 11 -> table of 2, 12 -> table of 1: units 8 9 12 and
    # 7 10 11 (round-2 tables 1 4 5 8 9 12 and 2 3 6 7 10 11, 39 each). 13 and 14 play at those
    # tables, the better challenger (13) against the weaker unit (8 9 12).
    assert first_round(14, 6, 3) == [
        ((1, 4, 5), False), ((8, 9, 12, 13), True), ((2, 3, 6), False), ((7, 10, 11, 14), True)
    ]


def test_seventeen_at_tables_of_four_two_advancing() -> None:
    # 8 first-round tables feed 4 tables of 4 (16 places), 2 semi-finals, the final. 17 over 8 tables:
    # seven tables of 2 (byes) and one of 3, the one of 3 under seed 1 (the weakest unit meets the
    # best): 15 16 17 beside 1 8. Round-2 units of the other tables as in the semi-finals 1 4 5 8 |
    # 2 3 6 7: 4 5, 2 7, 3 6; then 9-14 go serpentine over them by best seed (2 7, 3 6, 4 5), forwards
    # with 2 advancing (even): 9 -> 2 7, 10 -> 3 6, 11 12 -> 4 5, 13 -> 3 6, 14 -> 2 7. Inside each
    # round-2 table its four seeds are dealt the same way over its two first-round tables: 4 12 | 5 11.
    assert first_round(17, 4, 2) == [
        ((1, 8), False), ((15, 16, 17), True), ((4, 12), False), ((5, 11), False),
        ((2, 14), False), ((7, 9), False), ((3, 13), False), ((6, 10), False),
    ]


def test_later_rounds_have_no_byes() -> None:
    # after round 1 everyone left sits at a table: the final and the third-place table of 4 entrants
    bracket = knockout_bracket(PairingRequest(entrants=fake_entrants(4), table_size=2))
    semis = {t.number: tuple(sorted(t.entrant_ids)) for t in bracket.first_round.tables}
    final = knockout_next_round(bracket, semis, round_number=1)
    assert final.byes == ()
    assert sorted(sorted(t.entrant_ids) for t in final.tables) == [[1, 2], [3, 4]]


def test_seven_with_placements_the_first_round_losers_share_fifth_to_seventh() -> None:
    # 7 at tables of 2: seed 1 has a bye, 4-5, 2-7 and 3-6 play. Those who go out in a first round with
    # a bye share their places (knockout_bracket): no placement table for the losers 7 and 6, who
    # would otherwise play for 6th while 5 waited. Played to form: 5, 6 and 7 share 5th-7th.
    bracket = knockout_bracket(PairingRequest(entrants=fake_entrants(7), table_size=2), placements=True)
    assert [t.kind for t in bracket.rounds[1].tables] == ["main", "main"]
    result = bracket.first_round
    finished: dict[int, dict[int, tuple[int, ...]]] = {}
    for round_number in range(1, len(bracket.rounds) + 1):
        finished[round_number] = {t.number: tuple(sorted(t.entrant_ids)) for t in result.tables}
        if round_number < len(bracket.rounds):
            result = knockout_next_round(bracket, finished[round_number], round_number=round_number)
    places = knockout_places(bracket, finished)
    assert places == {1: (1, 1), 2: (2, 2), 3: (3, 3), 4: (4, 4), 5: (5, 7), 6: (5, 7), 7: (5, 7)}


def test_eight_at_tables_of_three_the_last_lap_runs_back_to_seed_one() -> None:
    # 3 first-round tables feed a final of 3; 8 entrants: 2 3 3, the table of 2 the top seed's. Seeds
    # dealt lap by lap, turning at each end: 1 2 3, then 6 5 4 back, and the last lap (the weakest
    # seeds) runs back to seed 1 as well: 8 -> seed 2's table, 7 -> seed 3's (seed 1's is full).
    assert first_round(8, 3, 1) == [((1, 6), True), ((2, 5, 8), True), ((3, 4, 7), True)]


def test_eleven_at_tables_of_three_round_two_is_the_standard_draw_where_the_byes_allow() -> None:
    # 9 first-round tables feed 3 round-2 tables of 3 and a final. 11 entrants: seven byes (seeds 1-7)
    # and two tables of 2. The byes fill round 2 as 1 6 7 | 2 5 _ | 3 4 _; the played tables' units
    # 8 and 9 complete it as the standard draw of 9 has them (2 5 8, 3 4 9), and 10 and 11 meet them
    # with the better challenger (10) against the weaker unit (9): 8-11 under 2 5, 9-10 under 3 4.
    bracket = knockout_bracket(PairingRequest(entrants=fake_entrants(11), table_size=3))
    tables = bracket.rounds[0].tables
    assert [tuple(sorted(t.seeds)) for t in tables if t.number is not None] == [(8, 11), (9, 10)]
    under = [sorted(s for t in tables[i : i + 3] for s in t.seeds if s <= 9) for i in (0, 3, 6)]
    assert under == [[1, 6, 7], [2, 5, 8], [3, 4, 9]]


def test_five_at_tables_of_three_still_play_for_third_place() -> None:
    # 5 at tables of 3, one advancing: seed 1 has a bye, 2 5 and 3 4 play; the final is 1 2 3. The
    # third-place table (the two seconds: 5 and 4) is played although round 1 was uneven: the rule
    # that losers after a bye share their places is for placement tables, not for third place.
    bracket = knockout_bracket(PairingRequest(entrants=fake_entrants(5), table_size=3))
    assert [(t.position, t.kind, t.best_place) for t in bracket.rounds[1].tables] == [
        (1, "main", 1), (2, "third_place", 4)
    ]
    semis = {t.number: tuple(sorted(t.entrant_ids)) for t in bracket.first_round.tables}
    final = knockout_next_round(bracket, semis, round_number=1)
    assert [sorted(t.entrant_ids) for t in final.tables] == [[1, 2, 3], [4, 5]]


def test_a_final_of_three_entrants_at_tables_of_two_is_at_position_one() -> None:
    bracket = knockout_bracket(PairingRequest(entrants=fake_entrants(3), table_size=2))
    assert [(t.position, t.kind) for t in bracket.rounds[1].tables] == [(1, "main")]


def test_the_third_place_table_decides_its_places_while_the_final_is_still_on() -> None:
    # 4 at tables of 2: semi-finals 1-4 and 2-3; in round 2 the final (table 1) is still being played
    # when the third-place table (table 2) reports 3 before 4: their places are known, the finalists'
    # are not.
    bracket = knockout_bracket(PairingRequest(entrants=fake_entrants(4), table_size=2))
    results = {1: {1: (1, 4), 2: (2, 3)}, 2: {2: (3, 4)}}
    assert knockout_places(bracket, results) == {3: (3, 3), 4: (4, 4)}


def test_a_stage_knockout_seeds_by_place_and_group_whatever_the_entrant_ids() -> None:
    # Swiss standings 40, 7, 23, 5 (ids against the order): seeds 1-4 are 40, 7, 23, 5, so the
    # semi-finals are 40 v 5 and 7 v 23 (1 v 4, 2 v 3), not by id
    bracket = stage_knockout([[40, 7, 23, 5]], qualifiers=4)
    assert bracket.seeding == (40, 7, 23, 5)
    assert sorted(sorted(t.entrant_ids) for t in bracket.first_round.tables) == [[5, 40], [7, 23]]


def test_the_bracket_records_its_table_size() -> None:
    # the final-places page labels tables of 3 or more by it (tournaments/views/final_places.py)
    request = PairingRequest(entrants=fake_entrants(8), table_size=4)
    assert knockout_bracket(request, advance=2).table_size == 4
    assert stage_knockout([[1, 2, 3, 4, 5, 6]], qualifiers=6, table_size=3).table_size == 3


def test_results_of_tables_1_and_2_of_an_eight_knockout_need_the_round_number() -> None:
    # 8 at tables of 2: round 1 has tables 1-4, the semi-finals tables 1 and 2, the final and the
    # third-place table 1 and 2 again: results for tables 1 and 2 alone could be any of the rounds
    bracket = knockout_bracket(PairingRequest(entrants=fake_entrants(8), table_size=2))
    with pytest.raises(PairingError) as raised:
        knockout_next_round(bracket, {1: (1, 4), 2: (2, 3)})
    assert str(raised.value) == "Cannot tell which knockout round these results belong to; pass round_number."


def test_later_rounds_have_no_byes_when_seats_are_balanced_either() -> None:
    bracket = knockout_bracket(PairingRequest(entrants=fake_entrants(4), table_size=2))
    semis = {t.number: tuple(sorted(t.entrant_ids)) for t in bracket.first_round.tables}
    final = knockout_next_round(bracket, semis, round_number=1, entrants=fake_entrants(4))
    assert final.byes == ()


def test_a_stage_knockout_passes_on_advance_and_placements() -> None:
    # 16 qualifiers at tables of 4, 2 advancing, every place played for: 4 first-round tables, 2
    # semi-finals, the final. The 3rd and 4th of round 1 play on for 9th-16th at placement tables,
    # and after the semi-finals for 9th-12th and 13th-16th; the semi-finals' 3rd and 4th play for 5th.
    bracket = stage_knockout([list(range(1, 17))], qualifiers=16, table_size=4, advance=2, placements=True)
    assert [[(t.kind, t.best_place) for t in r.tables] for r in bracket.rounds[1:]] == [
        [("main", 1), ("main", 1), ("placement", 9), ("placement", 9)],
        [("main", 1), ("third_place", 5), ("placement", 9), ("placement", 13)],
    ]


def test_round_one_results_without_a_round_number_name_the_wrong_entrant() -> None:
    # 8 at tables of 2: only round 1 has tables 1-4, so results for tables 1-4 are round 1's even
    # without round_number; an entrant swapped between tables 1 and 2 is then reported as such, not
    # as an unknown round (mutation run seed 2611: `_finished_round` took any list with round 1 in it
    # as ambiguous)
    bracket = knockout_bracket(PairingRequest(entrants=fake_entrants(8), table_size=2))
    drawn = {t.number: tuple(t.entrant_ids) for t in bracket.first_round.tables}
    results = dict(drawn)
    results[1] = (drawn[1][0], drawn[2][0])
    results[2] = (drawn[1][1], drawn[2][1])
    with pytest.raises(PairingError) as raised:
        knockout_next_round(bracket, results)
    assert str(raised.value) == "Round 1, table 1: these are not the entrants drawn at that table."
