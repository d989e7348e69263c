"""The cross-group rule compares like with like (docs/formats.md, Groups; issue 28): rest rounds are
not wins, and with groups of unequal size the results against the teams below the smallest group's
size are left out (as UEFA ranks runners-up across groups of 5 and 6). Pure, hand-worked."""

from __future__ import annotations

from tournaments.standings.compute import GameLine, PlayedGame, compute_standings
from tournaments.standings.final_ranking import best_of_groups, comparable_group_entries, group_place_key

ORDER = ["match_points", "marble_difference", "buchholz"]


def game(key: int, winner: int, loser: int, score: tuple[int, int]) -> PlayedGame:
    return PlayedGame(key, (GameLine(winner, 1, 2.0, float(score[0])), GameLine(loser, 2, 0.0, float(score[1]))), 2.0)


def bye(key: int, entrant: int) -> PlayedGame:
    return PlayedGame(key, (GameLine(entrant, 1, 2.0, 8.0),), 2.0, is_bye=True, score_against_bye=4.0)


# Group A of 3 (1, 2, 3): every team rests once (a bye: 2 points, 8:4). 1 beats 2 8:4 and 3 8:7,
# 2 beats 3 8:6. Group B of 4 (4, 5, 6, 7): 4 beats everyone 8:4, 5 beats 6 8:7 and 7 8:4,
# 6 beats 7 8:7.
GROUP_A = [1, 2, 3]
GROUP_B = [4, 5, 6, 7]
GAMES = [
    game(1, 1, 2, (8, 4)), game(2, 1, 3, (8, 7)), game(3, 2, 3, (8, 6)),
    bye(4, 1), bye(5, 2), bye(6, 3),
    game(7, 4, 5, (8, 4)), game(8, 4, 6, (8, 4)), game(9, 4, 7, (8, 4)),
    game(10, 5, 6, (8, 7)), game(11, 5, 7, (8, 4)), game(12, 6, 7, (8, 7)),
]


def test_a_rest_round_is_not_a_win_across_groups() -> None:
    # The thirds, 3 (A) and 6 (B), by hand:
    #   counting the bye as a game (the old rule): 3 has 2 points in 3 games (the bye) and
    #   -1 - 2 + 4 = +1 marbles; 6 has 2 points in 3 games and -4 - 1 + 1 = -4: 3 went through.
    #   like with like: the bye is left out, and so is 6's win over 7 (B's 4th: the smallest group
    #   has 3). 3: 0 points in 2 games, -1 - 2 = -3; 6: 0 points in 2 games, -4 - 1 = -5. 3 still
    #   ahead here -- now because it lost closer to the top two, not because it rested.
    old = {row.entrant_id: row for row in compute_standings(GROUP_A + GROUP_B, GAMES, ORDER)}
    assert (old[3].values["match_points"], old[3].games_played, old[3].values["marble_difference"]) == (2.0, 3, 1.0)
    entries = comparable_group_entries({1: GROUP_A, 2: GROUP_B}, GAMES, ORDER)
    assert (entries[3].values["match_points"], entries[3].games_played) == (0.0, 2)
    assert entries[3].values["marble_difference"] == -3.0
    assert (entries[6].values["match_points"], entries[6].games_played) == (0.0, 2)
    assert entries[6].values["marble_difference"] == -5.0
    # the runners-up: 2 (A) beat 3 8:6, lost 4:8 -> 2 points in 2 games, -4 + 2 = -2;
    # 5 (B) beat 6 8:7, lost 4:8 (the win over 7 left out) -> 2 points in 2 games, -4 + 1 = -3
    assert group_place_key(entries[2], 2, ORDER) < group_place_key(entries[5], 2, ORDER)


def test_the_bye_no_longer_lifts_a_third_who_lost_both_real_games() -> None:
    # The case: A's third lost both real games, B's third won a game. A3 (3) loses 7:8 and
    # 6:8 and rests; B3 (6) beats B's 4th 8:7 and loses 7:8 twice.
    games = [
        game(1, 1, 2, (8, 4)), game(2, 1, 3, (8, 7)), game(3, 2, 3, (8, 6)),
        bye(4, 1), bye(5, 2), bye(6, 3),
        game(7, 4, 5, (8, 4)), game(8, 4, 6, (8, 7)), game(9, 4, 7, (8, 4)),
        game(10, 5, 6, (8, 7)), game(11, 5, 7, (8, 4)), game(12, 6, 7, (8, 7)),
    ]
    # Old: both 2 points in 3 games; marbles 3: -1 - 2 + 4 = +1 (the bye's 8:4), 6: -1 - 1 + 1 = -1,
    # so 3 took the one best-third place. Like with like: 3 over its 2 real games -1 - 2 = -3; 6 over
    # the games against B's top 3 (the win over 7 left out) -1 - 1 = -2: 6 goes through.
    old = {row.entrant_id: row for row in compute_standings(GROUP_A + GROUP_B, games, ORDER)}
    old_key = {e: group_place_key(old[e], 3, ORDER) for e in (3, 6)}
    assert old_key[3] < old_key[6]
    entries = comparable_group_entries({1: GROUP_A, 2: GROUP_B}, games, ORDER)
    keyed = [[(e, group_place_key(entries[e], place, ORDER)) for place, e in enumerate(group, 1)]
             for group in (GROUP_A, GROUP_B)]
    assert best_of_groups(keyed, 5) == [1, 4, 2, 5, 6]


def test_groups_of_equal_size_keep_every_real_game() -> None:
    games = [game(1, 1, 2, (8, 4)), game(2, 3, 4, (8, 5)), bye(3, 1)]
    entries = comparable_group_entries({1: [1, 2], 2: [3, 4]}, games, ORDER)
    assert {e: (entry.games_played, entry.values["match_points"]) for e, entry in entries.items()} == {
        1: (1, 2.0), 2: (1, 0.0), 3: (1, 2.0), 4: (1, 0.0)
    }
