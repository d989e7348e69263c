"""Seeded random play: invariants at every step, and every random record validates valid + complete."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from rules.core.errors import RecordError
from rules.core.replay import verify_document
from rules.tac import ENGINE
from rules.tac.actions import MOVES, Play
from rules.tac.randomplay import random_game
from rules.tac.state import HOME_BASE, TacState

VARIANTS: list[dict[str, Any]] = [
    {},
    {"master": True},
    {"mode": "ffa3"},
    {"mode": "ffa3", "master": True},
    {"mode": "2v1"},
    {"mode": "2v1", "master": True},
    {"mode": "coop"},
    {"mode": "coop", "master": True},
]


def check_invariants(state: TacState) -> None:
    cfg = state.cfg
    for colour in range(4):
        expected = 4 if colour in cfg.active else 0
        assert state.marble_count(colour) == expected
        assert 0 <= state.pre[colour] <= expected
    for pos in range(64, 80):
        colour = state.board[pos]
        assert colour == -1 or HOME_BASE[colour] <= pos < HOME_BASE[colour] + 4
    for colour in range(4):
        if state.fresh[colour]:
            assert state.board[16 * colour] == colour
    hand_cards = [c for h in state.hands for c in h]
    for card in set(hand_cards):
        assert hand_cards.count(card) <= cfg.deck[card]


def unlisted(play: Play) -> Play | None:
    """A variant of a listed move that is off by one field (never a legal move of the same card)."""
    if play.kind != MOVES or len(play.moves) != 1:
        return None
    frm, to = play.moves[0]
    if to >= 64:
        return None
    return Play(play.card, MOVES, moves=((frm, (to + 1) % 64),), as_=play.as_)


def play_checked_game(variant: dict[str, Any], seed: int, *, exhaustive: bool) -> int:
    """Play one random game, checking the invariants before every turn; return the number of turns."""
    seen = [0]

    def observe(state: TacState) -> None:
        seen[0] += 1
        check_invariants(state)
        copy = state.clone()
        assert copy == state
        legal = state.legal_actions()
        assert legal, "a seat always has at least a discard"
        if exhaustive:
            for action in legal:
                trial = state.clone()
                trial.apply(action)
                check_invariants(trial)
                wrong = unlisted(action)
                if wrong is not None and wrong not in legal:
                    with pytest.raises(RecordError):
                        state.clone().apply(wrong)
            assert copy == state, "generating and trying actions must not change the state"

    record = random_game(variant, random.Random(seed), observe)
    assert record["result"] is not None
    return seen[0]


@pytest.mark.parametrize("variant", VARIANTS, ids=[json.dumps(v) for v in VARIANTS])
def test_tac_random_records_validate(variant: dict[str, Any]) -> None:
    for seed in range(6):
        record = ENGINE.random_record(variant, random.Random(seed))
        verdict = verify_document(json.loads(json.dumps(record)), file=f"seed{seed}")
        assert verdict.valid and verdict.complete, verdict.text_line()
        assert verdict.result == record["result"]


def test_tac_random_records_are_seeded() -> None:
    a = ENGINE.random_record({"master": True}, random.Random(5))
    b = ENGINE.random_record({"master": True}, random.Random(5))
    assert a == b


@pytest.mark.parametrize("variant", VARIANTS[:4], ids=[json.dumps(v) for v in VARIANTS[:4]])
def test_tac_invariants_every_step(variant: dict[str, Any]) -> None:
    play_checked_game(variant, 1, exhaustive=True)


@pytest.mark.slow
@pytest.mark.parametrize("variant", VARIANTS, ids=[json.dumps(v) for v in VARIANTS])
def test_tac_many_random_games(variant: dict[str, Any]) -> None:
    for seed in range(1000):
        record = ENGINE.random_record(variant, random.Random(1000 + seed))
        verdict = verify_document(json.loads(json.dumps(record)), file=f"seed{seed}")
        assert verdict.valid and verdict.complete, verdict.text_line()
    for seed in range(5):
        play_checked_game(variant, 2000 + seed, exhaustive=True)
