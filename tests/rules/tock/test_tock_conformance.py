"""Seeded random play: invariants at every step, legal actions apply, unlisted ones are refused, and every
random record validates as valid and complete."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

from rules.core.errors import RecordError
from rules.core.replay import verify_document
from rules.tock import ENGINE
from rules.tock.actions import DISCARD, ENTER, MOVES, SWAP, TockAction
from rules.tock.cards import COPIES, RANKS, full_deck
from rules.tock.game import parse_variant
from rules.tock.state import TockState

VARIANTS: list[dict[str, Any]] = [
    {"seats": 2},
    {"seats": 3},
    {"seats": 4},
    {"seats": 5, "seven": "single"},
    {"seats": 6},
    {"seats": 4, "mode": "teams"},
    {"seats": 6, "mode": "teams", "quick_start": True},
    {"seats": 4, "quick_start": True, "seven": "single"},
    {"seats": 3, "ring_fields_per_seat": 12, "home_entry_offset": 3},
]


def check_invariants(state: TockState, dealt: Counter[str]) -> None:
    board = state.board
    at = state.marbles.at
    n = state.variant.seats
    per_colour = Counter(at.values())
    for colour, count in per_colour.items():
        assert 0 <= colour < n
        assert count <= 4
    for pos, colour in at.items():
        assert board.is_valid(pos)
        if board.is_home(pos):
            assert board.home_owner(pos) == colour, "a marble only ever enters its own goal"
    for colour in state.protected:
        assert at.get(state.starts[colour]) == colour, "a protected marble stands on its own start field"
    held = Counter(card for hand in state.hands for card in hand)
    assert not held - dealt, "hands only hold dealt cards"
    assert all(v <= COPIES for v in held.values())
    if state.winners is None and state.to_move >= 0:
        assert state.hands[state.to_move], "the seat to move holds cards"
    clone = state.clone()
    assert clone == state


def candidate_actions(state: TockState) -> list[TockAction]:
    """Single-segment moves, enters, discards and swaps of the seat to move, listed or not."""
    seat = state.to_move
    board = state.board
    colour = state.colour_of(seat)
    at = state.marbles.at
    out: list[TockAction] = []
    for card in dict.fromkeys(state.hands[seat]):
        out.append(TockAction(seat, card, DISCARD))
        out.append(TockAction(seat, card, ENTER))
        for frm in list(at):
            for steps in (1, 2, 4, 7, 12, 13):
                for backward in (False, True):
                    for to in board.targets(colour, frm, steps, backward=backward):
                        out.append(TockAction(seat, card, MOVES, ((frm, to),)))
        ring = [p for p in at if p < board.ring]
        for a in ring:
            for b in ring:
                if a != b and at[a] == colour and (at[b] != colour or a < b):
                    out.append(TockAction(seat, card, SWAP, ((a, b),)))
    return out


def play_checked(variant_raw: dict[str, Any], seed: int, *, candidates: bool) -> int:
    rng = random.Random(seed)
    variant = parse_variant(variant_raw)
    state = TockState.initial(variant)
    dealer = rng.randrange(variant.seats)
    deck: list[str] = []
    steps = 0
    deal_index = 0
    for _ in range(3000):
        if deal_index == 0:
            deck = full_deck()
            rng.shuffle(deck)
        size = variant.deal_sizes[deal_index]
        hands = [deck[i * size : (i + 1) * size] for i in range(variant.seats)]
        deck = deck[variant.seats * size :]
        state.begin_deal(dealer, deal_index, hands)
        dealt = Counter(c for h in hands for c in h)
        while state.to_move >= 0 and state.winners is None:
            check_invariants(state, dealt)
            legal = state.legal_actions()
            assert legal
            listed = set(legal)
            for action in rng.sample(legal, min(len(legal), 12)):
                probe = state.clone()
                probe.apply(action)
            if candidates:
                for action in candidate_actions(state):
                    if action in listed:
                        continue
                    probe = state.clone()
                    with pytest.raises(RecordError):
                        probe.apply(action)
                    assert probe == state, "a refused action changes nothing"
                other = (state.to_move + 1) % variant.seats
                with pytest.raises(RecordError):
                    state.clone().apply(legal[0]._replace(seat=other))
            before = state.clone()
            action = rng.choice(legal)
            state.apply(action)
            assert before != state
            steps += 1
        if state.winners is not None:
            check_invariants(state, dealt)
            assert state.legal_actions() == []
            winners = state.winners
            for colour in variant.team_of(winners[0]):
                assert state.home_count(colour) == 4
            return steps
        dealer = (dealer + 1) % variant.seats
        deal_index = (deal_index + 1) % len(variant.deal_sizes)
    raise AssertionError("the game did not end")


@pytest.mark.parametrize("variant", VARIANTS, ids=[str(v) for v in VARIANTS])
def test_tock_random_play_invariants(variant: dict[str, Any]) -> None:
    assert play_checked(variant, seed=7, candidates=False) > 0


@pytest.mark.parametrize("variant", [{"seats": 2}, {"seats": 4, "mode": "teams"}], ids=["ffa2", "teams4"])
def test_tock_unlisted_actions_refused(variant: dict[str, Any]) -> None:
    assert play_checked(variant, seed=3, candidates=True) > 0


@pytest.mark.parametrize("variant", VARIANTS, ids=[str(v) for v in VARIANTS])
def test_tock_random_records_validate(variant: dict[str, Any]) -> None:
    for seed in range(3):
        doc = ENGINE.random_record(variant, random.Random(seed))
        verdict = verify_document(doc, file="random")
        assert verdict.valid, verdict.error and verdict.error.to_json()
        assert verdict.complete
        assert verdict.result == {"winners": doc["result"]["winners"]}


def test_tock_deck_ranks() -> None:
    assert Counter(full_deck()) == {rank: 4 for rank in RANKS}


@pytest.mark.slow
@pytest.mark.parametrize("variant", VARIANTS, ids=[str(v) for v in VARIANTS])
def test_tock_many_random_games(variant: dict[str, Any]) -> None:
    for seed in range(100, 130):
        play_checked(variant, seed=seed, candidates=seed % 10 == 0)
        doc = ENGINE.random_record(variant, random.Random(seed))
        verdict = verify_document(doc, file="random")
        assert verdict.valid and verdict.complete, verdict.error and verdict.error.to_json()
