"""games.settle on real final positions and on every input it refuses (pure functions, no database)."""

from __future__ import annotations

import random

import pytest

from games import settle
from rules.core.registry import get_engine
from tournaments.profiles import profile_for


def test_zack_settlement_from_a_real_final_position_ranks_by_cards_left_in_the_stack() -> None:
    # A complete 4-seat ZACK! game (random play, seed 3): seat 0 wins; the final position leaves
    # 22, 14 and 14 cards in the other stacks. Fewer cards left is better, equal counts share a place.
    record = get_engine("zack").random_record({"seats": 4}, random.Random(3))
    snapshot = settle.final_position(record)
    assert snapshot is not None
    assert record["result"]["winners"] == [0]
    assert [len(stack) for stack in snapshot["stacks"]] == [0, 22, 14, 14]
    result = settle.table_result(profile=profile_for("zack", {"seats": 4}), derived=record["result"],
                                 seat_entrants=[5, 6, 7, 8], snapshot=snapshot)
    assert result == {"kind": "normal", "placings": {5: 1, 6: 4, 7: 2, 8: 2}, "winner": 5}


def test_final_position_of_an_invalid_record_is_none() -> None:
    record = get_engine("zack").random_record({"seats": 4}, random.Random(3))
    record["result"] = {"winners": [1], "termination": "rules"}  # not what the moves say
    assert settle.final_position(record) is None
    assert settle.final_position({"game": "zack"}) is None


def test_a_missing_stack_or_hand_counts_as_empty() -> None:
    zack = settle.table_result(profile=profile_for("zack", {"seats": 3}), derived={"winners": [0]},
                               seat_entrants=[5, 6, 7], snapshot={"stacks": [[], ["a"]]})
    assert zack is not None and zack["placings"] == {5: 1, 6: 3, 7: 2}
    taki = settle.table_result(profile=profile_for("taki", {"seats": 3}), derived={"winners": [0]},
                               seat_entrants=[5, 6, 7], snapshot={"hands": [[], ["a"]]})
    assert taki is not None and taki["placings"] == {5: 1, 6: 3, 7: 2}  # no hand: 0 cards, ahead of 1 card
    tock = settle.table_result(profile=profile_for("tock", {"mode": "ffa", "seats": 3}), derived={"winners": [0]},
                               seat_entrants=[5, 6, 7], snapshot={"home_count": [4, 1]})
    assert tock is not None and tock["placings"] == {5: 1, 6: 2, 7: 3}


def test_taki_seats_that_went_out_come_first_in_the_order_they_went_out() -> None:
    taki = settle.table_result(profile=profile_for("taki", {"seats": 4}), derived={"winners": [2]},
                               seat_entrants=[5, 6, 7, 8],
                               snapshot={"finished": [2, 3, 0], "hands": [[], ["a", "b"], [], []]})
    assert taki is not None and taki["placings"] == {7: 1, 8: 2, 5: 3, 6: 4}


def test_score_games_clamp_to_the_profile_and_count_missing_seats_as_zero() -> None:
    profile = profile_for("tac", {})
    result = settle.table_result(profile=profile, derived={"winners": [1, 3]}, seat_entrants=[1, 2, 1, 2],
                                 snapshot={"home_count": [4, 4, 3]})
    assert result == {"kind": "normal", "scores": {1: 7, 2: 4}, "winner": 2}
    over = settle.table_result(profile=profile, derived={"winners": [0, 2]}, seat_entrants=[1, 2, 1, 2],
                               snapshot={"home_count": [9, 0, 9, -3]})
    assert over is not None and over["scores"] == {1: profile.score_max, 2: profile.score_min}
    assert settle.table_result(profile=profile, derived={"winners": [0, 2]}, seat_entrants=[1, 2, 1, 2],
                               snapshot={"home_count": "4,4,3,3"}) is None


@pytest.mark.parametrize("winners", [[], None, [4], [-1], [0, 1]])
def test_no_result_without_one_winning_entrant_at_the_table(winners) -> None:
    derived = {} if winners is None else {"winners": winners}
    assert settle.table_result(profile=profile_for("taki", {"seats": 4}), derived=derived,
                               seat_entrants=[5, 6, 7, 8], snapshot=None) is None


def test_a_winner_holding_several_seats_is_one_entrant() -> None:
    result = settle.table_result(profile=profile_for("tac", {}), derived={"winners": [0, 2]},
                                 seat_entrants=[3, 4, 3, 4], snapshot={"home_count": [4, 0, 4, 2]})
    assert result == {"kind": "normal", "scores": {3: 8, 4: 2}, "winner": 3}


LINES = [{"entrant": 1, "score": None, "placing": 1, "is_winner": True, "forfeited": False},
         {"entrant": 2, "score": None, "placing": 2, "is_winner": False, "forfeited": False}]
PLACINGS = {"kind": "normal", "placings": {"1": 1, "2": 2}, "winner": "1"}


def test_result_matches_every_line_or_nothing() -> None:
    assert settle.result_matches(PLACINGS, LINES)
    assert not settle.result_matches(PLACINGS, [LINES[0], {**LINES[1], "placing": 1}])
    assert not settle.result_matches(PLACINGS, [LINES[0], {**LINES[1], "forfeited": True}])
    assert not settle.result_matches(PLACINGS, [{**LINES[0], "is_winner": False}, LINES[1]])
    assert not settle.result_matches(PLACINGS, [LINES[0], {**LINES[1], "is_winner": True}])
    assert not settle.result_matches({**PLACINGS, "winner": None}, LINES)
    assert not settle.result_matches(PLACINGS, [*LINES, {**LINES[1], "entrant": 3}])


def test_a_tock_seat_missing_from_the_final_position_counts_as_no_marble_home() -> None:
    # seat 1 has 0 marbles home and seat 2 is missing from home_count: both share second place
    tock = settle.table_result(profile=profile_for("tock", {"mode": "ffa", "seats": 3}), derived={"winners": [0]},
                               seat_entrants=[5, 6, 7], snapshot={"home_count": [4, 0]})
    assert tock is not None and tock["placings"] == {5: 1, 6: 2, 7: 2}


PHASE_GAME = {"seats": 4, "tournament": True}


def test_taki_phase_game_from_a_real_final_position_ranks_by_phase_before_cards() -> None:
    # A complete 4-seat TAKI phase game (random play, seed 4): seat 0 wins; the others reached phases
    # 6, 5, 5 and hold 3, 4, 5 cards. The phase comes first (lower is better): seats 2 and 3 (phase 5)
    # before seat 1 (phase 6) although seat 1 holds the fewest cards; between 2 and 3, fewer cards.
    record = get_engine("taki").random_record(dict(PHASE_GAME), random.Random(4))
    snapshot = settle.final_position(record)
    assert snapshot is not None
    assert record["result"] == {"winners": [0], "phases": [1, 6, 5, 5]}
    assert [len(hand) for hand in snapshot["hands"]] == [0, 3, 4, 5]
    result = settle.table_result(profile=profile_for("taki", PHASE_GAME), derived=record["result"],
                                 seat_entrants=[5, 6, 7, 8], snapshot=snapshot)
    assert result == {"kind": "normal", "placings": {5: 1, 6: 4, 7: 2, 8: 3}, "winner": 5}


def test_taki_phase_game_equal_phase_and_cards_share_a_place() -> None:
    # seed 5: phases 1, 2, 2, 2 and 0, 2, 4, 4 cards: seat 1 second, seats 2 and 3 share third
    record = get_engine("taki").random_record(dict(PHASE_GAME), random.Random(5))
    snapshot = settle.final_position(record)
    assert snapshot is not None
    assert record["result"] == {"winners": [0], "phases": [1, 2, 2, 2]}
    assert [len(hand) for hand in snapshot["hands"]] == [0, 2, 4, 4]
    result = settle.table_result(profile=profile_for("taki", PHASE_GAME), derived=record["result"],
                                 seat_entrants=[5, 6, 7, 8], snapshot=snapshot)
    assert result is not None and result["placings"] == {5: 1, 6: 2, 7: 3, 8: 3}


def test_taki_phase_game_a_seat_without_a_phase_comes_last_and_missing_hands_count_as_empty() -> None:
    # seat 3 has no phase: behind every seat that has one, though it holds no cards; seat 2 has no hand:
    # 0 cards, ahead of seat 1 at the same phase 4 with one card
    profile = profile_for("taki", PHASE_GAME)
    result = settle.table_result(profile=profile, derived={"winners": [0], "phases": [1, 4, 4]},
                                 seat_entrants=[5, 6, 7, 8], snapshot={"hands": [[], ["a"]]})
    assert result is not None and result["placings"] == {5: 1, 6: 3, 7: 2, 8: 4}
    # without a final position the cards are unknown: the phase alone decides, equal phases share
    blind = settle.table_result(profile=profile, derived={"winners": [0], "phases": [1, 3, 2, 3]},
                                seat_entrants=[5, 6, 7, 8], snapshot=None)
    assert blind is not None and blind["placings"] == {5: 1, 6: 3, 7: 2, 8: 3}
