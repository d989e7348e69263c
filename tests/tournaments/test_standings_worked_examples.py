"""A second hand-worked standings example: a draw, four opponents each, a two-way tie and an entrant
below the opponents' match-win floor (pure functions, no database).

Six entrants, four rounds of two-entrant games, 2 match points for a win and 1 each for a draw:

    r1: 1-2 8:3   3-4 5:5 (draw)   5-6 8:1
    r2: 1-3 8:6   5-2 8:4          4-6 8:2
    r3: 1-4 8:6   2-6 8:0          5-3 8:2
    r4: 5-1 8:7   2-4 8:5          3-6 8:3

Match points: 1: 6, 2: 4, 3: 3 (draw + win), 4: 3 (draw + win), 5: 8, 6: 0.
Opponents (their points):  1: 2 3 4 5 (4 3 3 8)   2: 1 5 6 4 (6 8 0 3)   3: 4 1 5 6 (3 6 8 0)
                           4: 3 6 1 2 (3 0 6 4)   5: 6 2 3 1 (0 4 3 6)   6: 5 4 2 3 (8 3 4 3)
"""

from __future__ import annotations

import pytest

from tournaments.standings import (
    GameLine,
    PlayedGame,
    compute_standings,
    placing_match_points,
    placings_from_scores,
)


def duel(key: int, a: int, b: int, score_a: int, score_b: int) -> PlayedGame:
    placings = placings_from_scores([score_a, score_b], None)
    points = placing_match_points(placings, [2, 0])
    return PlayedGame(
        key=key,
        lines=(GameLine(a, placings[0], points[0], score_a), GameLine(b, placings[1], points[1], score_b)),
        max_points=2,
    )


GAMES = [
    duel(1, 1, 2, 8, 3), duel(2, 3, 4, 5, 5), duel(3, 5, 6, 8, 1),
    duel(4, 1, 3, 8, 6), duel(5, 5, 2, 8, 4), duel(6, 4, 6, 8, 2),
    duel(7, 1, 4, 8, 6), duel(8, 2, 6, 8, 0), duel(9, 5, 3, 8, 2),
    duel(10, 5, 1, 8, 7), duel(11, 2, 4, 8, 5), duel(12, 3, 6, 8, 3),
]
IDS = [1, 2, 3, 4, 5, 6]


def column(order: list[str], code: str) -> list[float]:
    rows = {row.entrant_id: row for row in compute_standings(IDS, GAMES, order)}
    return [rows[i].values[code] for i in IDS]


def test_a_draw_gives_each_side_half_the_points() -> None:
    assert placing_match_points(placings_from_scores([5, 5], None), [2, 0]) == (1.0, 1.0)
    assert column(["match_points"], "match_points") == [6, 4, 3, 3, 8, 0]


def test_marble_difference_counts_a_draw_as_zero() -> None:
    # 1: +5 +2 +2 -1; 2: -5 -4 +8 +3; 3: 0 -2 -6 +5; 4: 0 +6 -2 -3; 5: +7 +4 +6 +1; 6: -7 -6 -8 -5
    assert column(["match_points"], "marble_difference") == [8, 2, -3, 1, 18, -26]


def test_median_buchholz_drops_only_the_best_and_the_worst_of_four_opponents() -> None:
    assert column(["match_points"], "buchholz") == [18, 17, 17, 13, 13, 18]
    # 1: [3 3 4 8] -> 3 + 4; 2: [0 3 6 8] -> 9; 3: [0 3 6 8] -> 9; 4: [0 3 4 6] -> 7; 5: 7; 6: [3 3 4 8] -> 7
    assert column(["match_points"], "median_buchholz") == [7, 9, 9, 7, 7, 7]


def test_sonneborn_berger_counts_a_drawn_opponent_at_half() -> None:
    # 1 beat 2, 3, 4: 4 + 3 + 3; 2 beat 6, 4: 0 + 3; 3 drew 4 (3 / 2) and beat 6 (0); 4 likewise;
    # 5 beat everyone: 0 + 4 + 3 + 6; 6 beat nobody
    assert column(["match_points"], "sonneborn_berger") == [10, 3, 1.5, 1.5, 13, 0]


def test_head_to_head_counts_a_draw_as_half_and_leaves_the_pair_tied() -> None:
    rows = {row.entrant_id: row for row in compute_standings(IDS, GAMES, ["match_points", "head_to_head"])}
    assert rows[3].values["head_to_head"] == 0.5 and rows[4].values["head_to_head"] == 0.5
    # entrants alone in their group after match points are not compared with anybody
    assert [rows[i].values["head_to_head"] for i in (1, 2, 5, 6)] == [0, 0, 0, 0]
    assert [(rows[i].rank, rows[i].shared_rank) for i in IDS] == [
        (2, False), (3, False), (4, True), (4, True), (1, False), (6, False)
    ]


def test_rows_come_in_rank_order_and_a_two_way_tie_is_marked_on_both_rows_only() -> None:
    rows = compute_standings(IDS, GAMES, ["match_points", "sonneborn_berger"])
    assert [(row.entrant_id, row.rank, row.shared_rank) for row in rows] == [
        (5, 1, False), (1, 2, False), (2, 3, False), (3, 4, True), (4, 4, True), (6, 6, False)
    ]
    assert [row.games_played for row in rows] == [4, 4, 4, 4, 4, 4]


def test_a_later_tiebreak_separates_the_pair_and_nobody_shares_a_rank() -> None:
    rows = compute_standings(IDS, GAMES, ["match_points", "marble_difference"])
    assert [(row.entrant_id, row.rank, row.shared_rank) for row in rows] == [
        (5, 1, False), (1, 2, False), (2, 3, False), (4, 4, False), (3, 5, False), (6, 6, False)
    ]


def test_opponents_match_win_pct_lifts_a_pointless_opponent_to_one_third() -> None:
    # win%: 1: 6/8, 2: 4/8, 3: 3/8, 4: 3/8, 5: 8/8, 6: 0/8 -> raised to the floor 1/3
    third = 1 / 3
    expected = [
        (0.5 + 0.375 + 0.375 + 1) / 4,
        (0.75 + 1 + third + 0.375) / 4,
        (0.375 + 0.75 + 1 + third) / 4,
        (0.375 + third + 0.75 + 0.5) / 4,
        (third + 0.5 + 0.375 + 0.75) / 4,
        (1 + 0.375 + 0.5 + 0.375) / 4,
    ]
    assert column(["match_points"], "opponents_match_win_pct") == pytest.approx(expected, abs=1e-6)


def test_games_won_counts_games_finished_first_alone_a_draw_is_no_win() -> None:
    # 1 beat 2, 3, 4; 2 beat 6, 4; 3 beat 6 and drew 4; 4 beat 6 and drew 3; 5 beat all four; 6 none:
    # the draw 3-4 (a first place shared) is a win for neither, as Sonneborn-Berger counts it half
    assert column(["match_points"], "games_won") == [3, 2, 1, 1, 4, 0]


# ---------------------------------------------------------------- smaller rules, each on its own


def test_the_winner_is_placed_first_whatever_the_scores() -> None:
    # a TAC game is won by the side that brings its marbles home first, not by the higher score
    assert placings_from_scores([3, 8], 0) == (1, 2)
    assert placings_from_scores([8, 8], 1) == (2, 1)
    assert placings_from_scores([8, 8, 2], None) == (1, 1, 3)
    assert placings_from_scores([2, 8, 8], 0) == (1, 2, 2)


def test_unknown_and_repeated_tiebreaks_are_named_in_the_error() -> None:
    from tournaments.standings import TIEBREAKS, StandingsError

    with pytest.raises(StandingsError) as raised:
        compute_standings([1], [], ["match_points", "coin_toss", "dice"])
    assert str(raised.value) == f"Unknown tiebreak(s): coin_toss, dice. Known: {', '.join(TIEBREAKS)}."
    with pytest.raises(StandingsError) as raised:
        compute_standings([1], [], ["buchholz", "match_points", "buchholz"])
    assert str(raised.value) == "A tiebreak appears twice in the order."
    assert compute_standings([1], [], [])[0].rank == 1  # an empty order ranks everybody equal


def test_two_byes_add_up_in_points_and_marble_difference() -> None:
    def bye(key: int) -> PlayedGame:
        return PlayedGame(key=key, lines=(GameLine(9, 1, 2.0, 8.0),), max_points=2, is_bye=True,
                          score_against_bye=5)

    (row,) = compute_standings([9], [bye(1), bye(2)], ["match_points"])
    assert (row.values["match_points"], row.values["marble_difference"], row.games_played) == (4, 6, 2)
    # byes give no match-win percentage to count: nobody met, so no opponents' percentage either
    assert row.values["opponents_match_win_pct"] == 0 and row.values["games_won"] == 0


def test_win_percentage_over_one_point_games_and_fractional_buchholz() -> None:
    # Three-entrant tables worth 1 point for first place: a shared first place splits it (0.5 each).
    def table(key: int, lines: list[tuple[int, int]]) -> PlayedGame:
        placings = [placing for _, placing in lines]
        points = placing_match_points(placings, [1, 0, 0])
        return PlayedGame(key=key, lines=tuple(GameLine(e, p, m) for (e, p), m in zip(lines, points, strict=True)),
                          max_points=1)

    games = [table(1, [(1, 1), (2, 1), (3, 3)]), table(2, [(4, 1), (5, 2), (6, 3)])]
    rows = {row.entrant_id: row.values for row in compute_standings([1, 2, 3, 4, 5, 6], games, ["match_points"])}
    assert [rows[i]["match_points"] for i in (1, 2, 3, 4, 5, 6)] == [0.5, 0.5, 0, 1, 0, 0]
    assert rows[3]["buchholz"] == 1.0 and rows[1]["buchholz"] == 0.5
    # 1's win% is 0.5 / 1; 3's opponents 1 and 2 have 0.5 each; 5's opponents: 4 (1.0) and 6 (floor 1/3)
    assert rows[3]["opponents_match_win_pct"] == 0.5
    assert rows[5]["opponents_match_win_pct"] == pytest.approx((1 + 1 / 3) / 2, abs=1e-6)
    # sharing the first place is a draw between the two: half of the other's points each
    assert rows[1]["sonneborn_berger"] == 0.25
    # a shared first place is no win; 4, first alone, has one
    assert [rows[i]["games_won"] for i in (1, 2, 3, 4, 5, 6)] == [0, 0, 0, 1, 0, 0]


def test_values_are_given_to_six_decimals() -> None:
    # Three entrants share the first place of a table worth 1 point: a third of a point each.
    # Buchholz (and median Buchholz, with fewer than 3 opponents the same) is two thirds;
    # Sonneborn-Berger half of each opponent's third, twice: one third.
    game = PlayedGame(key=1, lines=tuple(GameLine(e, 1, 1 / 3) for e in (1, 2, 3)), max_points=1)
    for row in compute_standings([1, 2, 3], [game], ["match_points"]):
        assert row.values["match_points"] == 0.333333
        assert row.values["buchholz"] == row.values["median_buchholz"] == 0.666667
        assert row.values["sonneborn_berger"] == 0.333333
        assert row.values["opponents_match_win_pct"] == 0.333333


def test_marble_difference_is_given_to_six_decimals() -> None:
    # A four-entrant table, scores 2, 1, 0, 0: each line's own score minus the mean of the other three.
    # 1: 2 - (1 + 0 + 0) / 3 = 5/3; 2: 1 - (2 + 0 + 0) / 3 = 1/3; 3 and 4: 0 - (2 + 1 + 0) / 3 = -1.
    placings = placings_from_scores([2, 1, 0, 0], None)
    points = placing_match_points(placings, [3, 2, 1, 0])
    game = PlayedGame(key=1, lines=tuple(
        GameLine(e, p, m, s) for e, p, m, s in zip((1, 2, 3, 4), placings, points, (2, 1, 0, 0), strict=True)
    ), max_points=3)
    rows = {row.entrant_id: row.values for row in compute_standings([1, 2, 3, 4], [game], ["match_points"])}
    assert [rows[i]["marble_difference"] for i in (1, 2, 3, 4)] == [1.666667, 0.333333, -1, -1]


def test_placings_beyond_the_points_table_score_nothing() -> None:
    # points for the first two places only: third and fourth get 0, a tie for third shares 0
    assert placing_match_points([1, 2, 3, 4], [2, 1]) == (2.0, 1.0, 0.0, 0.0)
    assert placing_match_points([1, 2, 3, 3], [3, 2]) == (3.0, 2.0, 0.0, 0.0)
    assert placing_match_points([1, 2, 2], [3, 2]) == (3.0, 1.0, 1.0)


def test_a_bye_in_a_placing_game_changes_no_marble_difference() -> None:
    bye = PlayedGame(key=1, lines=(GameLine(3, 1, 2.0),), max_points=2, is_bye=True)
    (row,) = compute_standings([3], [bye], ["match_points"])
    assert (row.values["match_points"], row.values["marble_difference"]) == (2, 0)


def test_a_clear_winner_over_a_shared_second_place_has_won_the_game() -> None:
    # three entrants: 1 first alone, 2 and 3 share second: 1's game counts as won, nobody else's
    game = PlayedGame(key=1, max_points=2, lines=(GameLine(1, 1, 2.0), GameLine(2, 2, 0.5), GameLine(3, 2, 0.5)))
    rows = {row.entrant_id: row.values for row in compute_standings([1, 2, 3], [game], ["match_points"])}
    assert [rows[i]["games_won"] for i in (1, 2, 3)] == [1, 0, 0]
