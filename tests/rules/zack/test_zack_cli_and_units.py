"""ZACK! through the command line and the registry, the module doctests, and small unit checks."""

from __future__ import annotations

import doctest
import json
import subprocess
import sys
from pathlib import Path

import pytest

import rules.zack.cards
import rules.zack.state
from rules.core.errors import RecordError
from rules.core.registry import get_engine
from rules.zack import ENGINE
from rules.zack.actions import Challenge, PlayerCard, Throw, parse_event
from rules.zack.cards import reference_deck
from rules.zack.game import ZackVariant, parse_variant
from rules.zack.state import BowlCard, ZackState

ROOT = Path(__file__).resolve().parents[3]


def test_registered() -> None:
    assert get_engine("zack") is ENGINE
    assert ENGINE.name == "zack" and ENGINE.version.startswith("zack-")


@pytest.mark.parametrize("module", [rules.zack.cards, rules.zack.state])
def test_doctests(module: object) -> None:
    result = doctest.testmod(module)  # type: ignore[arg-type]
    assert result.attempted > 0 and result.failed == 0


def test_cli_random_logs_have_mistakes_and_challenges(tmp_path: Path) -> None:
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "rules",
            "random",
            "zack",
            "--seed",
            "2",
            "--count",
            "6",
            "--out",
            str(tmp_path),
        ],
        cwd=ROOT,
        capture_output=True,
        timeout=60,
        check=True,
    )
    assert run.returncode == 0
    files = sorted(tmp_path.glob("*.json"))
    assert len(files) == 6
    check = subprocess.run(
        [sys.executable, "-m", "rules", "validate", "--json", *map(str, files)],
        cwd=ROOT,
        capture_output=True,
        timeout=60,
    )
    assert check.returncode == 0, check.stdout
    verdicts = [json.loads(line) for line in check.stdout.decode().splitlines()]
    assert all(v["valid"] and v["complete"] for v in verdicts)
    faults = challenges = 0
    for f in files:
        record = json.loads(f.read_text())
        variant = parse_variant(record["variant"])
        deal = record["deals"][0]
        state = ZackState(
            variant,
            colours=variant.colours,
            stacks=deal["stacks"],
            obliged=(deal["dealer"] + 1) % variant.seats,
        )
        for raw in deal["events"]:
            event = parse_event(raw, "", state.n)
            faults += isinstance(event, Throw) and event.seat != state.obliged
            challenges += isinstance(event, Challenge)
            state.apply(event)
    assert faults > 0 and challenges > 0


def _state(stacks: list[list[str]], obliged: int, bowl: list[BowlCard] | None = None) -> ZackState:
    variant = ZackVariant(seats=4, colours=("red", "blue", "green", "yellow"), stop_cards=True)
    return ZackState(variant, colours=variant.colours, stacks=stacks, bowl=bowl or [], obliged=obliged)


def test_collected_cards_go_under_the_stack_in_throw_order() -> None:
    state = _state([["blue"], ["left2"], ["red"], []], obliged=0)
    state.apply(Throw(seat=0))
    state.apply(Throw(seat=1))
    state.apply(Challenge(seat=2, color="red", reason="slow"))  # Anita is not obliged: Corinna collects
    assert list(state.stacks[2]) == ["red", "blue", "left2"]
    assert state.obliged == 0 and state.bowl == []


def test_late_cards_return_under_their_stacks_in_order() -> None:
    state = _state([["stop_mirror"], ["red", "green", "blue"], [], []], obliged=0)
    late = (Throw(seat=1, card="red"), Throw(seat=1, card="green"))
    state.apply(Throw(seat=0, after=late))
    assert list(state.stacks[1]) == ["blue", "red", "green"]
    assert state.mirrored() and state.obliged == 0


def test_stop_swap_passes_colours_left() -> None:
    state = _state([["stop_swap"], [], [], []], obliged=0)
    state.apply(Throw(seat=0))
    assert state.colours == ["yellow", "red", "blue", "green"]
    assert state.holder("red") == 1


def test_top_four_counts_only_zack_cards() -> None:
    state = _state([["red"], ["green"], ["yellow"], ["blue", "red"]], obliged=0)
    state.apply(Throw(seat=3))  # fault
    state.apply(PlayerCard(seat=2))  # fault, not a ZACK! card
    for seat in (1, 2, 3):
        state.apply(Throw(seat=seat))
    assert state.fault_in_reach(3)  # blue is the 4th ZACK! card from the top
    assert state.fault_in_reach(2)  # three ZACK! cards on Corinna's player card
    state.apply(Throw(seat=0))
    assert not state.fault_in_reach(3) and not state.fault_in_reach(2)


def test_reference_deck_has_72_cards_with_six_colours() -> None:
    deck = reference_deck(
        ("red", "blue", "yellow", "green", "orange", "violet"), again_back=True, stop_cards=True
    )
    assert sum(deck.values()) == 72
    beginners = reference_deck(("red", "blue", "green"), again_back=False, stop_cards=False)
    assert "again" not in beginners and "stop_swap" not in beginners and "orange" not in beginners


def test_apply_refuses_with_a_path() -> None:
    state = _state([[], ["blue"], [], []], obliged=0)
    with pytest.raises(RecordError) as err:
        state.apply(Throw(seat=0), "/deals/0/events/3")
    assert err.value.code.value == "illegal_move" and err.value.path == "/deals/0/events/3"
