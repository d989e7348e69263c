"""Standings tiebreaks on hand-computed examples (pure functions, no database)."""

from __future__ import annotations

import pytest

from tournaments.standings import (
    TIEBREAKS,
    GameLine,
    PlayedGame,
    StandingsError,
    compute_standings,
    placing_match_points,
    placings_from_scores,
)


def duel(key: int, a: int, b: int, score_a: int, score_b: int, points: tuple[float, float] = (2, 0)) -> PlayedGame:
    """A two-entrant game; the higher score wins (equal scores: shared placing)."""
    placings = placings_from_scores([score_a, score_b], None)
    mp = placing_match_points(placings, points)
    return PlayedGame(
        key=key,
        lines=(GameLine(a, placings[0], mp[0], score_a), GameLine(b, placings[1], mp[1], score_b)),
        max_points=points[0],
    )


# Four entrants, three rounds:
#   r1: 1-2 8:3, 3-4 8:6     r2: 1-3 8:7, 2-4 8:2     r3: 1-4 5:8, 2-3 8:0
# match points: 1: 4, 2: 4, 3: 2, 4: 2
GAMES = [
    duel(1, 1, 2, 8, 3), duel(2, 3, 4, 8, 6),
    duel(3, 1, 3, 8, 7), duel(4, 2, 4, 8, 2),
    duel(5, 1, 4, 5, 8), duel(6, 2, 3, 8, 0),
]


def rows_by_id(order: list[str]) -> dict[int, dict]:
    return {row.entrant_id: {"rank": row.rank, "shared": row.shared_rank, **row.values}
            for row in compute_standings([1, 2, 3, 4], GAMES, order)}


def test_match_points_and_marble_difference() -> None:
    rows = rows_by_id(["match_points", "marble_difference"])
    assert [rows[i]["match_points"] for i in (1, 2, 3, 4)] == [4, 4, 2, 2]
    # 1: +5 +1 -3 = 3; 2: -5 +6 +8 = 9; 3: +2 -1 -8 = -7; 4: -2 -6 +3 = -5
    assert [rows[i]["marble_difference"] for i in (1, 2, 3, 4)] == [3, 9, -7, -5]
    assert [rows[i]["rank"] for i in (2, 1, 4, 3)] == [1, 2, 3, 4]


def test_buchholz_median_buchholz_and_sonneborn_berger() -> None:
    rows = rows_by_id(["match_points", "buchholz"])
    # opponents' points: 1 met 2,3,4 -> 4+2+2 = 8; 2 met 1,4,3 -> 4+2+2 = 8; 3 met 4,1,2 -> 2+4+4 = 10; 4 -> 10
    assert [rows[i]["buchholz"] for i in (1, 2, 3, 4)] == [8, 8, 10, 10]
    # median drops best and worst of three opponents
    assert [rows[i]["median_buchholz"] for i in (1, 2, 3, 4)] == [2, 2, 4, 4]
    # SB: 1 beat 2 (4) and 3 (2) -> 6; 2 beat 4 (2) and 3 (2) -> 4; 3 beat 4 (2) -> 2; 4 beat 1 (4) -> 4
    assert [rows[i]["sonneborn_berger"] for i in (1, 2, 3, 4)] == [6, 4, 2, 4]


def test_head_to_head_breaks_a_tie_between_the_entrants_who_met() -> None:
    rows = rows_by_id(["match_points", "head_to_head"])
    assert rows[1]["head_to_head"] == 1 and rows[2]["head_to_head"] == 0
    assert rows[1]["rank"] == 1 and rows[2]["rank"] == 2
    assert rows[3]["head_to_head"] == 1 and rows[3]["rank"] == 3  # 3 beat 4


def test_head_to_head_is_computed_within_the_final_tie_group_only() -> None:
    rows = rows_by_id(["match_points", "marble_difference", "head_to_head"])
    # marble difference already separates everyone: head-to-head stays 0
    assert all(rows[i]["head_to_head"] == 0 for i in (1, 2, 3, 4))


def test_opponents_match_win_percentage_and_games_won() -> None:
    rows = rows_by_id(["match_points", "opponents_match_win_pct", "games_won"])
    # win%: 1: 4/6, 2: 4/6, 3: 2/6 = 1/3, 4: 1/3. Entrant 1's opponents 2,3,4 -> (2/3 + 1/3 + 1/3) / 3
    assert rows[1]["opponents_match_win_pct"] == pytest.approx(4 / 9, abs=1e-6)
    assert rows[3]["opponents_match_win_pct"] == pytest.approx((1 / 3 + 2 / 3 + 2 / 3) / 3, abs=1e-6)
    assert [rows[i]["games_won"] for i in (1, 2, 3, 4)] == [2, 2, 1, 1]


def test_complete_ties_share_the_rank() -> None:
    games = [duel(1, 1, 2, 6, 6), duel(2, 3, 4, 6, 6)]
    rows = compute_standings([1, 2, 3, 4], games, ["match_points", "marble_difference"])
    assert [r.rank for r in rows] == [1, 1, 1, 1]
    assert all(r.shared_rank for r in rows)
    assert all(r.values["match_points"] == 1 for r in rows)


def test_byes_give_points_but_no_opponent() -> None:
    bye = PlayedGame(key=9, lines=(GameLine(5, 1, 2.0, 8.0),), max_points=2, is_bye=True, score_against_bye=4)
    rows = {r.entrant_id: r for r in compute_standings([1, 2, 5], [duel(1, 1, 2, 8, 3), bye], ["match_points"])}
    assert rows[5].values["match_points"] == 2
    assert rows[5].values["marble_difference"] == 4
    assert rows[5].values["buchholz"] == 2  # the bye rule: a game against itself (its own 2 points)
    assert rows[5].values["opponents_match_win_pct"] == 0  # no opponent
    assert rows[5].values["games_won"] == 0
    assert rows[5].games_played == 1


def test_three_team_table_marble_difference_uses_the_mean_of_opponents() -> None:
    placings = placings_from_scores([8, 5, 2], 0)
    mp = placing_match_points(placings, [3, 1, 0])
    game = PlayedGame(key=1, lines=tuple(GameLine(e, p, m, s) for e, p, m, s in
                                         zip([1, 2, 3], placings, mp, [8, 5, 2], strict=True)), max_points=3)
    rows = {r.entrant_id: r.values for r in compute_standings([1, 2, 3], [game], ["match_points"])}
    assert rows[1]["marble_difference"] == 8 - 3.5
    assert rows[2]["marble_difference"] == 5 - 5
    assert rows[3]["sonneborn_berger"] == 0
    assert rows[1]["sonneborn_berger"] == 1 + 0  # beat 2 (1 point) and 3 (0 points)


def test_placing_points_are_shared_by_ties() -> None:
    assert placing_match_points([1, 1, 3, 4], [3, 2, 1, 0]) == (2.5, 2.5, 1.0, 0.0)
    assert placings_from_scores([5, 5, 8], 2) == (2, 2, 1)


def test_unknown_or_repeated_tiebreaks_are_refused() -> None:
    with pytest.raises(StandingsError):
        compute_standings([1], [], ["match_points", "coin_toss"])
    with pytest.raises(StandingsError):
        compute_standings([1], [], ["match_points", "match_points"])


def test_every_tiebreak_is_reported_for_every_row() -> None:
    rows = compute_standings([1, 2, 3, 4, 7], GAMES, ["match_points"])
    assert all(set(r.values) == set(TIEBREAKS) for r in rows)
    assert rows[-1].entrant_id == 7 and rows[-1].games_played == 0
