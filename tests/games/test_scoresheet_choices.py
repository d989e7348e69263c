"""The scoresheet page's taps (games.scoresheet.choices): every follow-up of the marble cards is reached
tap by tap, a 7's segments in any order, and every option of real positions is reachable."""

from __future__ import annotations

import doctest
import random

from games.scoresheet import choices as scoresheet_choices
from games.scoresheet.choices import entry_steps, next_choices
from rules import scoresheet
from tests.games.conftest import random_record
from tests.games.scoresheet_support import public_entries

FOLLOW_UPS = [
    {"seat": 1, "card": "tac", "as": "13", "enter": True},
    {"seat": 2, "card": "narr", "then": {"card": "5", "moves": [[35, 40]]}},
    {"seat": 2, "card": "narr", "then": {"card": "tac", "as": "7", "moves": [[1, 3], [40, 45]]}},
    {"seat": 3, "card": "teufel", "then": {"card": "13", "enter": True}},
    {"seat": 1, "card": "krieger", "strike": 28},
    {"seat": 0, "card": "engel", "moves": [[17, 18]]},
    {"seat": 0, "card": "engel", "enter": 3},
    {"seat": 3, "card": "trickser", "swap": [2, 41]},
    {"seat": 0, "card": "8", "skip": True},
    {"seat": 0, "card": "7", "moves": [[62, "H0:1"], [26, 30]]},
    {"seat": 1, "card": "9", "discard": True},
]


def _tap_through(options: list[dict], entry: dict, order: list[int] | None = None) -> dict | None:
    """Follow `entry`'s steps (segments in `order`) through next_choices; the entry the last tap completes."""
    steps = [s.key for s in entry_steps(entry, with_seat=scoresheet_choices._with_seat(options))]
    if order is not None:
        where = [i for i, key in enumerate(steps) if "seg:" in key]
        segments = [steps[i] for i in where]
        for i, j in zip(where, order, strict=True):
            steps[i] = segments[j]
    path: list[str] = []
    for depth, key in enumerate(steps):
        choices = {c.key: c for c in next_choices(options, path)}
        assert key in choices, (entry, path, list(choices))
        if depth == len(steps) - 1:
            return choices[key].complete
        assert choices[key].continues
        path.append(key)
    return None


def test_doctests() -> None:
    assert doctest.testmod(scoresheet_choices).failed == 0


def test_every_follow_up_is_reached_tap_by_tap() -> None:
    for entry in FOLLOW_UPS:
        assert _tap_through(FOLLOW_UPS, entry) == entry
    seven = FOLLOW_UPS[9]
    assert _tap_through(FOLLOW_UPS, seven, order=[1, 0]) == seven  # the partner's segment tapped first


def test_every_option_of_real_positions_is_reachable() -> None:
    record = random_record("tac", {"master": True}, seed=4)
    players = [{"name": f"P{s}", "seats": [s]} for s in range(4)]
    state = scoresheet.sheet_start(game="tac", variant={"master": True}, players=players,
                                   dealer=record["deals"][0]["dealer"])
    rng = random.Random(1)
    for entry in public_entries(record)[:16]:
        options = [o for o in scoresheet.sheet_view(state).options if "card" in o]
        for option in rng.sample(options, min(len(options), 3)):
            assert _tap_through(options, option) == option
        state = scoresheet.sheet_add(state, entry)
