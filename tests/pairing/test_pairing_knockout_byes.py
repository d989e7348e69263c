"""Knockout byes: at tables of N as at tables of 2 the byes go to the top seeds, the first-round
tables are as even as possible with the top seeds' tables the smaller ones, and a bracket played to
form still ends in seed order.

Hand-worked, 10 entrants at tables of 4 with 2 advancing: 4 first-round tables feed 2 tables of 4
(8 places, seeds 1-8 if seeds win: 1 4 5 8 | 2 3 6 7, the standard draw of 8). 10 entrants over 4
tables: 2, 2, 3, 3, the tables of 2 (both go on unplayed) are those of seeds 1 and 2: the byes are
seeds 1-4, {1, 4} under the first round-2 table and {2, 3} under the second; seeds 5, 8 and 6, 7 play
for the other places, seed 9 against the stronger pair 5, 8 and seed 10 against 6, 7.
"""

from __future__ import annotations

import pytest

from tournaments.pairing import PairingRequest, PairingResult, knockout_bracket, knockout_next_round
from tournaments.pairing.simulation import fake_entrants


def first_round(count: int, table_size: int, advance: int) -> list[tuple[tuple[int, ...], bool]]:
    """(seeds, played) of each first-round table in bracket order."""
    bracket = knockout_bracket(
        PairingRequest(entrants=fake_entrants(count), table_size=table_size), advance=advance
    )
    return [(tuple(sorted(t.seeds)), t.number is not None) for t in bracket.rounds[0].tables]


def bye_seeds(count: int, table_size: int, advance: int) -> list[int]:
    bracket = knockout_bracket(
        PairingRequest(entrants=fake_entrants(count), table_size=table_size), advance=advance
    )
    return sorted(bracket.first_round.byes)


def test_ten_at_tables_of_four_two_advancing_gives_the_byes_to_seeds_one_to_four() -> None:
    assert first_round(10, 4, 2) == [((1, 4), False), ((5, 8, 9), True), ((2, 3), False), ((6, 7, 10), True)]
    assert bye_seeds(10, 4, 2) == [1, 2, 3, 4]


def test_ten_at_tables_of_four_one_advancing_puts_the_top_seeds_at_the_smaller_tables() -> None:
    # 4 tables, 1 advancing: 2, 2, 3, 3; a table of 2 is played (1 of 2 goes on): no byes
    assert first_round(10, 4, 1) == [((1, 8), True), ((2, 7), True), ((3, 6, 9), True), ((4, 5, 10), True)]
    assert bye_seeds(10, 4, 1) == []


def test_seven_at_tables_of_three() -> None:
    # 9 places: 1 6 9 | 2 5 8 | 3 4 7; 7 entrants: 2, 2, 3, every table played, no byes
    assert first_round(7, 3, 1) == [((1, 6), True), ((2, 5), True), ((3, 4, 7), True)]
    assert bye_seeds(7, 3, 1) == []


@pytest.mark.parametrize("advance", [1, 2])
def test_thirteen_at_tables_of_four(advance: int) -> None:
    # 13 over 4 tables: 3, 3, 3, 4; the seed-4 table is the full one; no byes
    tables = first_round(13, 4, advance)
    assert sorted(tables) == [
        ((1, 8, 9), True),
        ((2, 7, 10), True),
        ((3, 6, 11), True),
        ((4, 5, 12, 13), True),
    ]
    assert bye_seeds(13, 4, advance) == []


def test_eleven_and_nine_at_tables_of_four_two_advancing() -> None:
    # 11: 2, 3, 3, 3: one bye table, seeds 1 and 2 (both go on to round 2, the table of 1 4 5 8 of
    # the standard draw becoming 1 2 5 8, so that 3 and 4 reach the final from the other table)
    assert first_round(11, 4, 2) == [
        ((1, 2), False),
        ((5, 8, 11), True),
        ((3, 7, 9), True),
        ((4, 6, 10), True),
    ]
    # 9: 2, 2, 2, 3: seeds 1-6 have byes and 7-9 play the one table; round 2 is 1 4 7 8 | 2 3 5 6
    # (1 4 5 8 | 2 3 6 7 cannot be split into byes and a played pair)
    assert first_round(9, 4, 2) == [((1, 4), False), ((7, 8, 9), True), ((2, 6), False), ((3, 5), False)]
    assert bye_seeds(9, 4, 2) == [1, 2, 3, 4, 5, 6]


@pytest.mark.parametrize(
    ("count", "byes", "tables"),
    [
        (5, [1, 2, 3], [(4, 5)]),
        (6, [1, 2], [(4, 5), (3, 6)]),
        (12, [1, 2, 3, 4], [(8, 9), (5, 12), (7, 10), (6, 11)]),
    ],
)
def test_tables_of_two_keep_the_standard_draw(count: int, byes: list[int], tables: list) -> None:
    assert bye_seeds(count, 2, 1) == byes
    assert [seeds for seeds, played in first_round(count, 2, 1) if played] == tables


@pytest.mark.parametrize(("table_size", "advance"), [(2, 1), (3, 1), (4, 1), (4, 2), (6, 2), (6, 3), (8, 4)])
def test_no_entrant_with_a_bye_is_seeded_below_one_who_plays(table_size: int, advance: int) -> None:
    for count in range(2, 70):
        bracket = knockout_bracket(
            PairingRequest(entrants=fake_entrants(count), table_size=table_size), advance=advance
        )
        tables = bracket.rounds[0].tables
        played = [seed for t in tables if t.number is not None for seed in t.seeds]
        byes = [seed for t in tables if t.number is None for seed in t.seeds]
        assert sorted(played + byes) == list(range(1, count + 1))
        if byes and played:
            assert max(byes) < min(played), (count, table_size, advance)
        sizes = [t.size for t in tables]
        assert max(sizes) - min(sizes) <= 1, (count, table_size, advance)
        by_top_seed = [t.size for t in sorted(tables, key=lambda t: min(t.seeds))]
        assert by_top_seed == sorted(by_top_seed), (count, table_size, advance)
        if len(bracket.rounds) > 1:
            main = [t for t in bracket.rounds[1].tables if t.kind == "main"]
            assert all(t.size == table_size for t in main), (count, table_size, advance)
        assert_played_to_form_the_best_seeds_go_on(bracket, advance)


def assert_played_to_form_the_best_seeds_go_on(bracket, advance: int) -> None:
    """The better seed always wins: after every round the entrants left are the best seeds."""
    result = bracket.first_round
    for finished_round in range(1, len(bracket.rounds)):
        on = {e for t in result.tables for e in sorted(t.entrant_ids)[:advance]}
        if finished_round == 1:
            on |= set(result.byes)
        assert on == set(range(1, len(on) + 1)), finished_round
        finished = {t.number: sorted(t.entrant_ids) for t in result.tables}
        result = knockout_next_round(bracket, finished, round_number=finished_round)
        result = PairingResult(tables=tuple(t for t in result.tables if set(t.entrant_ids) <= on), byes=())


def test_twenty_five_at_tables_of_six_balance_the_byes_round_two_tables() -> None:
    # 25 entrants at tables of 6, 3 advancing: 8 first-round tables feed 4 round-2 tables (24 places);
    # 7 tables of 3 are byes (seeds 1-21), the table of seeds 22-25 plays under seed 1's round-2 table.
    # The byes' seeds are dealt in serpentine laps, turning at each end (backwards first: 3 advancing
    # is odd), so the three round-2 tables made of byes alone are equally strong: each sums to 71
    # (1 + ... + 21 less seed 1's table 1, 8, 9 is 213, over three tables); a lap dealt the other way
    # gives 73, 69 and 71 (mutation run seed 2611).
    bracket = knockout_bracket(PairingRequest(entrants=fake_entrants(25), table_size=6), advance=3)
    first = bracket.rounds[0].tables
    by_position = {t.position: t for t in first}
    sums = []
    for table in bracket.rounds[1].tables:
        feeders = [by_position[source.position] for source in table.sources]
        if all(feeder.number is None for feeder in feeders):
            sums.append(sum(seed for feeder in {f.position: f for f in feeders}.values() for seed in feeder.seeds))
    assert sorted(t.seeds for t in first if t.number is not None) == [(22, 23, 24, 25)]
    assert sums == [71, 71, 71]
