"""Properties of the standings over random tournaments (hypothesis): order-independent, consistent ranks,
points conserved."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.standings import (
    TIEBREAKS,
    GameLine,
    PlayedGame,
    compute_standings,
    placing_match_points,
    placings_from_scores,
)


@st.composite
def tournaments(draw: st.DrawFn) -> tuple[list[int], list[PlayedGame], list[str]]:
    entrants = draw(st.integers(min_value=2, max_value=14))
    table = draw(st.integers(min_value=2, max_value=min(4, entrants)))
    rounds = draw(st.integers(min_value=0, max_value=5))
    rng = random.Random(draw(st.integers(min_value=0, max_value=10**6)))
    points = sorted((float(rng.randint(0, 3)) for _ in range(table)), reverse=True)
    games: list[PlayedGame] = []
    key = 0
    for _ in range(rounds):
        ids = list(range(1, entrants + 1))
        rng.shuffle(ids)
        while len(ids) >= table:
            seated, ids = ids[:table], ids[table:]
            scores = [rng.randint(0, 8) for _ in seated]
            placings = placings_from_scores(scores, None)
            mp = placing_match_points(placings, points)
            key += 1
            games.append(PlayedGame(key=key, max_points=points[0], lines=tuple(
                GameLine(e, p, m, s) for e, p, m, s in zip(seated, placings, mp, scores, strict=True))))
        for bye in ids:
            key += 1
            games.append(PlayedGame(key=key, max_points=points[0], is_bye=True, score_against_bye=4,
                                    lines=(GameLine(bye, 1, points[0], 8),)))
    order = ["match_points", *draw(st.permutations([t for t in TIEBREAKS if t != "match_points"]))][
        : draw(st.integers(min_value=1, max_value=len(TIEBREAKS)))]
    return list(range(1, entrants + 1)), games, order


@settings(max_examples=150, deadline=None)
@given(tournaments(), st.randoms(use_true_random=False))
def test_standings_do_not_depend_on_the_order_of_games(data: tuple, shuffler: random.Random) -> None:
    ids, games, order = data
    shuffled = games[:]
    shuffler.shuffle(shuffled)
    assert compute_standings(ids, games, order) == compute_standings(list(reversed(ids)), shuffled, order)


@settings(max_examples=150, deadline=None)
@given(tournaments())
def test_ranks_follow_match_points_and_points_are_conserved(data: tuple) -> None:
    ids, games, order = data
    rows = compute_standings(ids, games, order)
    assert sorted(r.entrant_id for r in rows) == ids
    assert [r.rank for r in rows] == sorted(r.rank for r in rows)
    points = [r.values["match_points"] for r in rows]
    assert points == sorted(points, reverse=True)
    for previous, row in zip(rows, rows[1:], strict=False):
        if previous.rank == row.rank:
            assert all(previous.values[code] == row.values[code] for code in order if code != "head_to_head")
    distributed = sum(line.match_points for game in games for line in game.lines)
    assert abs(sum(points) - distributed) < 1e-3  # values are rounded to 6 decimals
    assert sum(r.games_played for r in rows) == sum(len(g.lines) for g in games)


def test_standings_do_not_depend_on_the_order_of_a_tables_lines() -> None:
    # The lines of a table come from the database in no fixed order: here by entrant, up and down.
    # Eight entrants, four rounds of two four-entrant tables worth 2, 1, 0, 0 (ties share the mean):
    #   t1: 2 6 first, 3, 4        t2: 5, 8 1 second, 7       t3: 3 5 first, 6, 8
    #   t4: 1, 4 2 7 second        t5: 4 7 first, 6 8 third   t6: 3, 2, 1 5 third
    #   t7: 4 6 2 first, 1         t8: 5 7 8 3 first
    # Match points: 1: 5/2, 2: 23/6, 3: 17/4, 4: 17/6, 5: 17/4, 6: 5/2, 7: 31/12, 8: 5/4; over the
    # 8 available, with the floor 1/3, the match-win percentages are 1, 6, 7, 8: 1/3; 2: 23/48;
    # 3, 5: 17/32; 4: 17/48. Entrant 7 met 5 8 1, 1 4 2, 4 6 8, 5 8 3:
    # (3 * 17/32 + 6 * 1/3 + 2 * 17/48 + 23/48) / 12 = 51/128 = 0.3984375, exactly halfway between
    # two six-decimal values: a float sum taken in another order lands on either side.
    def table(key: int, lines: list[tuple[int, int]]) -> PlayedGame:
        placings = [placing for _, placing in lines]
        points = placing_match_points(placings, [2, 1, 0, 0])
        return PlayedGame(key=key, max_points=2, lines=tuple(
            GameLine(e, p, m) for (e, p), m in zip(lines, points, strict=True)))

    tables = [
        [(2, 1), (6, 1), (3, 3), (4, 4)], [(5, 1), (8, 2), (1, 2), (7, 4)], [(3, 1), (5, 1), (6, 3), (8, 4)],
        [(1, 1), (4, 2), (2, 2), (7, 2)], [(4, 1), (7, 1), (6, 3), (8, 3)], [(3, 1), (2, 2), (1, 3), (5, 3)],
        [(4, 1), (6, 1), (2, 1), (1, 4)], [(5, 1), (7, 1), (8, 1), (3, 1)],
    ]
    ids = list(range(1, 9))
    forward = compute_standings(ids, [table(k, sorted(lines)) for k, lines in enumerate(tables)], list(TIEBREAKS))
    backward = compute_standings(ids, [table(k, sorted(lines, reverse=True)) for k, lines in enumerate(tables)],
                                 list(TIEBREAKS))
    assert forward == backward
    seventh = next(row for row in forward if row.entrant_id == 7)
    assert seventh.values["opponents_match_win_pct"] in (0.398437, 0.398438)
