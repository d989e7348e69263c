"""The shared ring: positions, tokens, paths and occupancy."""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import rules
from rules.core.errors import ErrorCode, RecordError
from rules.track import Board, Marbles

B = Board(seats=4)


def test_doctests_of_the_rules_package() -> None:
    failures = 0
    for info in pkgutil.walk_packages(rules.__path__, "rules."):
        if info.name.endswith("__main__"):
            continue
        module = importlib.import_module(info.name)
        failures += doctest.testmod(module).failed
    assert failures == 0


@pytest.mark.parametrize("token", [64, -1, "H4:1", "H0:0", "H0:5", "h0:1", "H0:1 ", True, None, 1.5])
def test_bad_tokens_are_malformed(token: object) -> None:
    with pytest.raises(RecordError) as info:
        B.parse(token, "/t")
    assert info.value.code is ErrorCode.MALFORMED and info.value.path == "/t"


def test_token_roundtrip() -> None:
    for pos in range(B.ring + 16):
        assert B.parse(B.token(pos), "") == pos


def test_forward_paths() -> None:
    assert B.path(0, 60, 2) == (61, 62, 63, 0, 1, 2)
    assert B.path(0, 62, B.home(0, 3)) == (63, 0, B.home(0, 1), B.home(0, 2), B.home(0, 3))
    assert B.path(0, 0, B.home(0, 2)) == (B.home(0, 1), B.home(0, 2))
    assert B.path(0, 0, B.home(0, 2), branch=False) is None  # a fresh marble never branches
    assert B.path(1, 62, B.home(0, 1)) is None  # not its own home
    assert B.path(0, B.home(0, 1), B.home(0, 4)) == (B.home(0, 2), B.home(0, 3), B.home(0, 4))
    assert B.path(0, B.home(0, 3), B.home(0, 1)) is None
    assert B.path(0, B.home(0, 1), 5) is None
    assert B.path(0, 5, 5) is None


def test_backward_paths_tac_four() -> None:
    for j in range(4):
        path = B.path(2, 32 + j, B.home(2, 4 - j), backward=True)
        assert path is not None and len(path) == 4
    assert B.path(2, 33, 29, backward=True) == (32, 31, 30, 29)
    assert B.path(0, B.home(0, 3), B.home(0, 1), backward=True) == (B.home(0, 2), B.home(0, 1))


def test_targets() -> None:
    assert B.targets(0, 62, 3) == (1, B.home(0, 1))
    assert B.targets(0, 62, 7) == (5,)
    assert B.targets(3, 49, 4, backward=True) == (45, B.home(3, 3))
    assert B.targets(0, B.home(0, 2), 2) == (B.home(0, 4),)
    assert B.targets(0, B.home(0, 2), 3) == ()
    tock = Board(seats=6, home_entry_offset=2)
    assert tock.entry(1) == 18 and tock.ring == 96


def test_marbles_occupancy() -> None:
    m = Marbles(B, {0: 0, 5: 1, B.home(0, 4): 0, B.home(0, 3): 0})
    assert m.prefield(0) == 1 and m.home_count(0) == 2 and m.ring_positions(0) == [0]
    assert m.locked(B.home(0, 4)) and m.locked(B.home(0, 3))
    m2 = m.copy()
    assert m2.move(0, 5) == 1 and m2.prefield(1) == 4
    assert m.colour_at(5) == 1  # the copy is independent
    m2.swap(5, B.home(0, 4))
    assert m2.colour_at(5) == 0
