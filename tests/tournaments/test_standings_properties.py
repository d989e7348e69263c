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
