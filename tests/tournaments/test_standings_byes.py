"""How a bye enters the tiebreaks (tournaments/standings/compute.py; docs/formats.md, Tiebreaks):
hand-worked, pure.

Five entrants, three rounds, 2 points a win, a draw 1 each, a bye 2 points (8:4):
    round 1: 1 beats 2 8:4, 3 beats 4 8:5, 5 has the bye
    round 2: 1 beats 3 8:7, 5 beats 2 8:3, 4 has the bye
    round 3: 5 beats 1 8:6, 2 and 4 draw 6:6, 3 has the bye
Points: 1: 4, 2: 1, 3: 4 (2 + bye), 4: 3 (bye + draw), 5: 6 (bye + 2 wins).
"""

from __future__ import annotations

import pytest

from tournaments.standings import GameLine, PlayedGame, StandingsError, compute_standings


def duel(key: int, round_: int, a: int, b: int, sa: int, sb: int) -> PlayedGame:
    pa, pb = (1, 2) if sa > sb else (2, 1) if sb > sa else (1, 1)
    ma, mb = (2.0, 0.0) if sa > sb else (0.0, 2.0) if sb > sa else (1.0, 1.0)
    return PlayedGame(key, (GameLine(a, pa, ma, float(sa)), GameLine(b, pb, mb, float(sb))), 2.0, round=round_)


def bye(key: int, round_: int, entrant: int) -> PlayedGame:
    return PlayedGame(key, (GameLine(entrant, 1, 2.0, 8.0),), 2.0, is_bye=True, score_against_bye=4.0, round=round_)


GAMES = [
    duel(1, 1, 1, 2, 8, 4), duel(2, 1, 3, 4, 8, 5), bye(3, 1, 5),
    duel(4, 2, 1, 3, 8, 7), duel(5, 2, 5, 2, 8, 3), bye(6, 2, 4),
    duel(7, 3, 5, 1, 8, 6), duel(8, 3, 2, 4, 6, 6), bye(9, 3, 3),
]
ORDER = ["match_points", "median_buchholz", "buchholz", "opponents_match_win_pct"]


def rows(bye_rule: str = "own_score") -> dict[int, dict[str, float]]:
    return {r.entrant_id: dict(r.values) for r in compute_standings(range(1, 6), GAMES, ORDER, bye_rule=bye_rule)}


def test_omw_counts_a_bye_as_a_won_round_of_the_opponents_own_percentage() -> None:
    # match-win percentages, byes as won rounds: 1: 4/6, 2: 1/6 -> 1/3 (the floor), 3: 4/6, 4: 3/6,
    # 5: 6/6. (Leaving the byes out of the maximum only: 3: 4/4, 4: 3/4, 5: 6/4 = 150 %.)
    # OMW 1 (met 2, 3, 5): (1/3 + 2/3 + 1) / 3 = 0.666667 (was (1/3 + 1 + 1.5) / 3 = 0.944)
    # OMW 2 (met 1, 5, 4): (2/3 + 1 + 1/2) / 3 = 0.722222 (was 0.972)
    # OMW 3 (met 4, 1; the bye is no opponent): (1/2 + 2/3) / 2 = 0.583333
    values = rows()
    assert values[1]["opponents_match_win_pct"] == pytest.approx(0.666667)
    assert values[2]["opponents_match_win_pct"] == pytest.approx(0.722222)
    assert values[3]["opponents_match_win_pct"] == pytest.approx(0.583333)
    assert all(0 < v["opponents_match_win_pct"] <= 1 for v in values.values())


def test_a_bye_counts_as_a_game_against_oneself_and_is_cut_first() -> None:
    # Buchholz, own-score rule: 1 met 2 (1), 3 (4), 5 (6) = 11; 3 met 4 (3), 1 (4), and its bye
    # counts its own 4: 11; 5 met 2 (1), 1 (4) + its own 6 = 11; 4 met 3 (4), 2 (1) + its own 3 = 8.
    # Median Buchholz: 1: [1, 4, 6] -> 4. 3: [3, 4, bye 4]: the low cut takes the bye, the high cut
    # the 4 -> 3. Without the bye as a value 3 had 2 opponents, no cut, 7: it ranked above 1, who beat it.
    values = rows()
    assert [values[e]["buchholz"] for e in (1, 3, 4, 5)] == [11, 11, 8, 11]
    assert values[1]["median_buchholz"] == 4
    assert values[3]["median_buchholz"] == 3
    ranked = [r.entrant_id for r in compute_standings(range(1, 6), GAMES, ORDER)]
    assert ranked.index(1) < ranked.index(3)


def test_fide_virtual_opponent_is_available() -> None:
    # FIDE C.02 13.15.2 (2009): the virtual opponent of a bye in round R has the holder's points
    # before R, gets the maximum minus the bye's points (2 - 2 = 0) and draws (1) every later round.
    # 5 (bye in round 1): 0 + 0 + 1 * 2 = 2 -> Buchholz 1 + 4 + 2 = 7
    # 4 (bye in round 2): 0 + 0 + 1 * 1 = 1 -> Buchholz 4 + 1 + 1 = 6
    # 3 (bye in round 3): 2 + 0 + 0 = 2 -> Buchholz 3 + 4 + 2 = 9; median of [bye 2, 3, 4]: the low
    #   cut takes the bye (2), the high cut the 4 -> 3
    values = rows("virtual_opponent")
    assert [values[e]["buchholz"] for e in (3, 4, 5)] == [9, 6, 7]
    assert values[3]["median_buchholz"] == 3
    assert values[1]["buchholz"] == 11  # no bye: unchanged


def test_unknown_bye_rule_is_refused() -> None:
    with pytest.raises(StandingsError):
        compute_standings([1], [], ["match_points"], bye_rule="ignore")
