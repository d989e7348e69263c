"""Seeded random ZACK! Partien: invariants at every event, and every random record verifies complete."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

from rules.core.errors import RecordError
from rules.core.replay import verify_document
from rules.zack import ENGINE
from rules.zack.actions import Challenge, PlayerCard, Throw, parse_event
from rules.zack.game import parse_variant
from rules.zack.state import ZackState

VARIANTS: list[dict[str, Any]] = [
    {},
    {"seats": 3},
    {"seats": 5, "stop_cards": True},
    {"seats": 6, "stop_cards": True},
    {"seats": 4, "again_back": False},
    {"colors": ["violet", "green", "orange"], "stop_cards": True, "again_back": False},
]


def _start(record: dict[str, Any]) -> ZackState:
    variant = parse_variant(record["variant"])
    deal = record["deals"][0]
    return ZackState(
        variant, colours=variant.colours, stacks=deal["stacks"], obliged=(deal["dealer"] + 1) % variant.seats
    )


def _unlisted_actions(state: ZackState) -> list[Throw | Challenge | PlayerCard]:
    """Actions the rules refuse now: they must not be among the legal ones and must raise."""
    out: list[Throw | Challenge | PlayerCard] = []
    obliged = state.obliged
    other = next(c for c in state.colours if c != state.colours[obliged])
    out.append(Challenge(seat=obliged, color=other, reason="slow"))
    for seat in range(state.n):
        out.append(Challenge(seat=seat, color=state.colours[seat], reason="out_of_turn"))
        if not state.stacks[seat]:
            out.append(Throw(seat=seat))
        if not state.holds_player_card(seat):
            out.append(PlayerCard(seat=seat))
    return out


def check_invariants(state: ZackState) -> None:
    assert state.card_count() == state.total, "ZACK! cards are conserved between stacks and bowl"
    assert 0 <= state.obliged < state.n
    assert sorted(state.colours) == sorted(state.variant.colours)
    twin = state.clone()
    assert twin.snapshot() == state.snapshot()
    legal = state.legal_actions()
    assert legal or state.is_terminal()
    for action in legal:
        trial = state.clone()
        trial.apply(action)
        assert trial.card_count() == state.total
    assert twin.snapshot() == state.snapshot(), "trying actions on clones leaves the original alone"
    for action in _unlisted_actions(state):
        assert action not in legal
        with pytest.raises(RecordError):
            state.clone().apply(action)


def play_and_check(variant: dict[str, Any], seed: int, *, every_step: bool) -> Counter[str]:
    record = ENGINE.random_record(dict(variant), random.Random(seed))
    verdict = verify_document(record, file=f"seed-{seed}")
    assert verdict.valid and verdict.complete, verdict.to_json()
    assert verdict.result is not None and verdict.result["winners"] == record["result"]["winners"]
    state = _start(record)
    seen: Counter[str] = Counter()
    for raw in record["deals"][0]["events"]:
        if every_step:
            check_invariants(state)
        event = parse_event(raw, "", state.n)
        if isinstance(event, Throw):
            seen["fault" if event.seat != state.obliged else "throw"] += 1
            seen["late_cards"] += bool(event.after)
        elif isinstance(event, Challenge):
            state.apply(event)
            seen["challenge_won" if state.obliged == event.seat else "challenge_lost"] += 1
            seen[event.reason] += 1
            continue
        else:
            seen["player_card"] += 1
        state.apply(event)
    assert state.is_terminal()
    assert state.card_count() == state.total
    return seen


@pytest.mark.parametrize("variant", VARIANTS, ids=[str(v) for v in VARIANTS])
def test_random_games_keep_the_invariants(variant: dict[str, Any]) -> None:
    for seed in range(40):
        play_and_check(variant, seed, every_step=True)


def test_random_logs_are_plausible() -> None:
    """Random logs hold faults, late cards, and challenges of both kinds that succeed and fail."""
    seen: Counter[str] = Counter()
    for seed in range(60):
        seen += play_and_check({"seats": 4, "stop_cards": True}, seed, every_step=False)
    for key in ("fault", "late_cards", "challenge_won", "challenge_lost", "slow", "out_of_turn"):
        assert seen[key] > 0, seen
    assert seen["throw"] > 20 * seen["fault"] / 2, seen  # mostly correct play


def test_random_records_are_reproducible() -> None:
    a = ENGINE.random_record({"seats": 5}, random.Random(7))
    b = ENGINE.random_record({"seats": 5}, random.Random(7))
    assert a == b


@pytest.mark.slow
def test_many_random_games() -> None:
    for variant in VARIANTS:
        for seed in range(100, 300):
            play_and_check(variant, seed, every_step=seed % 10 == 0)
