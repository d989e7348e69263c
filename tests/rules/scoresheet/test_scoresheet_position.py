"""rules.scoresheet.position (issue 26): a position dumped by one process and restored by another gives the
same views, undo and record as a replay from the start, and bytes of another state or code are refused."""

from __future__ import annotations

import doctest
import random
from typing import Any

import pytest

import rules.scoresheet as scoresheet
from rules.core.registry import get_engine
from rules.scoresheet import position, sheet_add, sheet_record, sheet_start, sheet_undo, sheet_view
from rules.scoresheet import sheet as sheet_module
from tests.games.scoresheet_support import public_entries


def _forget() -> None:
    """As a process that never saw the sheet."""
    sheet_module._CACHE.clear()
    scoresheet._VIEWS.clear()


def test_doctests() -> None:
    assert doctest.testmod(position).failed == 0


@pytest.mark.parametrize(("game", "variant", "seed"), [("tac", {"master": True}, 1), ("tock", {"mode": "teams"}, 3),
                                                      ("tactik", {"seats": 6}, 4)])
def test_restored_position_is_the_replayed_one(game: str, variant: dict[str, Any], seed: int) -> None:
    record = get_engine(game).random_record(variant, random.Random(seed))
    entries = public_entries(record)[:160]
    state = sheet_start(game=game, variant=variant, players=record["players"], dealer=record["deals"][0]["dealer"])
    sizes = []
    for index, entry in enumerate(entries):
        blob = position.position_dump(state)
        sizes.append(len(blob))
        _forget()
        assert position.position_restore(state, blob)
        assert position.position_cached(state)
        after = sheet_add(state, entry)
        restored_view = sheet_view(after)
        if index % 40 == 7:
            assert sheet_undo(after)["digest"] == state["digest"]
        _forget()
        assert sheet_view(after) == restored_view  # the same as a replay from the start
        state = after
    blob = position.position_dump(state)
    _forget()
    assert position.position_restore(state, blob)
    from_position = sheet_record(state, time_up=True)
    _forget()
    assert sheet_record(state, time_up=True) == from_position
    assert max(sizes) < 40_000  # the entries stay in the state; the bytes hold the position


def test_foreign_bytes_are_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    players = [{"name": n, "seats": [s]} for s, n in enumerate("ABCD")]
    state = sheet_start(game="tac", variant={}, dealer=0, players=players)
    one = sheet_add(state, {"announce": [True, True, True, True]})
    blob = position.position_dump(one)
    _forget()
    assert not position.position_restore(state, blob)  # another state (fewer entries, another digest)
    assert not position.position_restore({**one, "digest": state["digest"]}, blob)
    assert not position.position_restore(one, blob[:-5])  # truncated
    assert not position.position_restore(one, None)
    assert not position.position_cached(one)
    monkeypatch.setattr(position, "_CODE", ["other-code"])
    assert not position.position_restore(one, blob)  # dumped by other code
    monkeypatch.setattr(position, "_CODE", [])
    assert position.position_restore(one, blob)


@pytest.mark.parametrize(("game", "variant", "seed"), [("tac", {"master": True}, 1), ("tactik", {"seats": 4}, 2)])
def test_closed_deals_keep_little_in_the_bytes(game: str, variant: dict[str, Any], seed: int) -> None:
    """A closed deal keeps only its hands as dealt, not its discard checks and hidden-card bookkeeping:
    from the first quarter of a whole game to the last, the bytes grow by under 400 per deal closed
    (585-915 when closed deals kept everything; 190-335 now), and a game taken up from them late, and
    finished there, gives the record of the game never dumped."""
    record = get_engine(game).random_record(variant, random.Random(seed))
    entries = public_entries(record)
    state = sheet_start(game=game, variant=variant, players=record["players"], dealer=record["deals"][0]["dealer"])
    points: list[tuple[int, int]] = []  # (deal, bytes) every tenth entry
    states = [state]
    for entry in entries:
        state = sheet_add(state, entry)
        states.append(state)
        if len(states) % 10 == 0:
            points.append((sheet_view(state).deal, len(position.position_dump(state))))
    quarter = len(points) // 4
    early = max(points[:quarter], key=lambda p: p[1])
    late = max(points[-quarter:], key=lambda p: p[1])
    assert late[0] - early[0] >= 10
    assert (late[1] - early[1]) / (late[0] - early[0]) < 400
    whole = sheet_record(state, time_up=True)
    for at in (len(entries) // 2, len(entries) - 3):
        blob = position.position_dump(states[at])
        _forget()
        assert position.position_restore(states[at], blob)
        later = states[at]
        for entry in entries[at:]:
            later = sheet_add(later, entry)
        assert later["digest"] == state["digest"]
        assert sheet_record(later, time_up=True) == whole
        _forget()
