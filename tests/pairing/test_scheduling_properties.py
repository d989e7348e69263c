"""Property tests of the scheduler: boards and table-by-table release never break their rules."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.pairing import PairedTable
from tournaments.scheduling import Board, PlannedGame, SchedulingError, assign_boards, releasable_games


@settings(max_examples=300, deadline=None)
@given(
    table_count=st.integers(min_value=0, max_value=80),
    extra_boards=st.integers(min_value=0, max_value=5),
    accessible_every=st.integers(min_value=1, max_value=6),
    needy=st.sets(st.integers(min_value=1, max_value=160), max_size=6),
    avoid=st.booleans(),
)
def test_boards_are_distinct_and_accessible(table_count, extra_boards, accessible_every, needy, avoid):
    tables = [PairedTable(n, (2 * n - 1, 2 * n)) for n in range(1, table_count + 1)]
    boards = [Board(100 + i, accessible=i % accessible_every == 0) for i in range(table_count + extra_boards)]
    history = {100 + i: {i + 1, i + 2} for i in range(0, table_count, 3)}
    try:
        assignment = assign_boards(
            tables, boards, needs_accessible=needy, played_at=history, avoid_repeat_boards=avoid
        )
    except SchedulingError:
        needing = sum(1 for t in tables if needy & set(t.entrant_ids))
        assert needing > sum(1 for b in boards if b.accessible)
        return
    assert sorted(a.table_number for a in assignment) == list(range(1, table_count + 1))
    assert len({a.board_id for a in assignment}) == table_count
    accessible = {b.id for b in boards if b.accessible}
    for table, placed in zip(tables, assignment, strict=True):
        if needy & set(table.entrant_ids):
            assert placed.board_id in accessible


@st.composite
def planned_games(draw):
    entrants = list(range(1, draw(st.integers(min_value=2, max_value=12)) + 1))
    games = []
    for round_number in range(1, draw(st.integers(min_value=1, max_value=4)) + 1):
        shuffled = draw(st.permutations(entrants))
        size = draw(st.integers(min_value=2, max_value=4))
        for start in range(0, len(shuffled) - 1, size):
            members = tuple(shuffled[start : start + size])
            if len(members) >= 2:
                board = draw(st.one_of(st.none(), st.integers(min_value=1, max_value=3)))
                games.append(PlannedGame(len(games) + 1, round_number, members, board))
    reported = draw(st.sets(st.sampled_from([g.id for g in games]))) if games else set()
    started = draw(st.sets(st.sampled_from([g.id for g in games]))) if games else set()
    return games, reported, started | reported


@settings(max_examples=500, deadline=None)
@given(planned_games())
def test_released_games_never_clash(case):
    games, reported, started = case
    released = releasable_games(games, reported=reported, started=started)
    running = [g for g in games if g.id in started and g.id not in reported]
    seen_entrants: set[int] = set()
    seen_boards: set[int] = set()
    for game in released:
        assert game.id not in started
        assert not set(game.entrant_ids) & seen_entrants
        assert not any(set(game.entrant_ids) & set(r.entrant_ids) for r in running)
        if game.board_id is not None:
            assert game.board_id not in seen_boards
            assert all(r.board_id != game.board_id for r in running)
            seen_boards.add(game.board_id)
        seen_entrants |= set(game.entrant_ids)
        for earlier in games:  # every earlier game of its entrants has been reported
            if earlier.round_number < game.round_number and set(earlier.entrant_ids) & set(game.entrant_ids):
                assert earlier.id in reported
    if not running and any(g.id not in reported for g in games):
        assert released  # with nothing running, the earliest open game can always start
