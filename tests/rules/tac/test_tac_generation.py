"""Move generation and move checking agree: on random positions, a play is accepted exactly when listed."""

from __future__ import annotations

import random

import pytest

from rules.core.errors import RecordError
from rules.tac.actions import ENTER, MOVES, SKIP, STRIKE, SWAP, Play
from rules.tac.game import parse_variant
from rules.tac.state import HOME_BASE, START, Entry, TacState

CARDS = ["1", "2", "3", "4", "5", "6", "8", "9", "10", "12", "13", "trickser", "engel", "krieger", "7"]


def random_position(rng: random.Random) -> TacState:
    state = TacState(parse_variant({"master": True}))
    free_ring = list(range(64))
    rng.shuffle(free_ring)
    for colour in range(4):
        n = rng.randint(0, 4)
        home = rng.sample(range(4), rng.randint(0, n)) if rng.random() < 0.5 else []
        for slot in home:
            state.board[HOME_BASE[colour] + slot] = colour
        for _ in range(n - len(home)):
            state.board[free_ring.pop()] = colour
        state.pre[colour] = 4 - n
        if state.board[START[colour]] == colour and rng.random() < 0.5:
            state.fresh[colour] = True
    for seat in range(4):
        state.hands[seat] = [rng.choice(CARDS) for _ in range(rng.randint(1, 3))]
    state.to_move = 0
    state.history.append(Entry(None, "9", True))
    return state


def candidates(card: str) -> list[Play]:
    out = [Play(card, ENTER), Play(card, SKIP)]
    out += [Play(card, STRIKE, fields=(f,)) for f in range(64)]
    out += [Play(card, SWAP, fields=(a, b)) for a in range(64) for b in range(a + 1, 64)]
    out += [Play(card, MOVES, moves=((a, b),)) for a in range(80) for b in range(80) if a != b]
    return out


def accepted(state: TacState, play: Play) -> bool:
    trial = state.clone()
    try:
        trial.play_turn(0, play, "")
    except RecordError:
        return False
    return True


@pytest.mark.parametrize("seed", range(12))
def test_tac_generation_matches_checking(seed: int) -> None:
    rng = random.Random(seed)
    state = random_position(rng)
    if state.winning_side() is not None:
        return
    for card in sorted(set(state.hands[0])):
        listed = set(state.card_plays(0, card, False))
        if card == "7":
            for play in listed:
                assert accepted(state, play)
            continue
        brute = {p for p in candidates(card) if accepted(state, p)}
        assert brute == listed, card
        assert bool(listed) == bool(state.card_plays(0, card, True))
