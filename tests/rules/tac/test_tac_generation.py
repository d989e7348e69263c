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


def oracle_seven(state: TacState, seat: int) -> set[tuple[int, ...]]:
    """Every board a 7 can leave, found step by step straight from the rule text (independent code).

    One step moves one marble one field: forward on the ring (capturing what it lands on, which is what
    passing with the 7 does), from the own start field into slot 1 unless the marble is fresh, or one slot
    up or down inside the home for marbles not locked at the start of the turn.
    """
    locked = state.locked_set()
    out: set[tuple[int, ...]] = set()
    seen: set[tuple[tuple[int, ...], tuple[bool, ...], int]] = set()

    def colours(board: list[int]) -> list[int]:
        def home(c: int) -> bool:
            return all(board[HOME_BASE[c] + i] == c for i in range(4))

        if not home(seat):
            return [seat]
        partner = (seat + 2) % 4
        return [partner] if not home(partner) else []

    def step(board: list[int], fresh: list[bool], remaining: int) -> None:
        key = (tuple(board), tuple(fresh), remaining)
        if key in seen:
            return
        seen.add(key)
        if remaining == 0:
            out.add(tuple(board))
            return
        for c in colours(board):
            for p in [q for q in range(80) if board[q] == c]:
                targets: list[int] = []
                if p < 64:
                    targets.append((p + 1) % 64)
                    if p == START[c] and not fresh[c] and board[HOME_BASE[c]] == -1:
                        targets.append(HOME_BASE[c])
                elif p not in locked:
                    slot = p - HOME_BASE[c]
                    for t in (slot - 1, slot + 1):
                        if 0 <= t <= 3 and board[HOME_BASE[c] + t] == -1:
                            targets.append(HOME_BASE[c] + t)
                for t in targets:
                    b2, f2 = board[:], fresh[:]
                    b2[p] = -1
                    if p in START:
                        f2[START.index(p)] = False
                    if b2[t] != -1:
                        if t in START:
                            f2[START.index(t)] = False
                        b2[t] = -1
                    b2[t] = c
                    step(b2, f2, remaining - 1)

    step(state.board[:], state.fresh[:], 7)
    return out


@pytest.mark.parametrize("seed", range(40))
def test_tac_seven_matches_step_oracle(seed: int) -> None:
    rng = random.Random(1000 + seed)
    state = random_position(rng)
    if state.winning_side() is not None:
        return
    if seed % 4 == 0:  # partner continuation: seat 0 has three marbles home and one close to it
        state.board = [-1 if v == 0 else v for v in state.board]
        for slot in (1, 2, 3):
            state.board[HOME_BASE[0] + slot] = 0
        spot = rng.choice([q for q in range(58, 64) if state.board[q] == -1])
        state.board[spot] = 0
        state.pre[0] = 0
        state.fresh[0] = False
    state.hands[0] = ["7"]
    listed = state.card_plays(0, "7", False)
    boards = set()
    for play in listed:
        trial = state.clone()
        trial.play_turn(0, play, "")
        boards.add(tuple(trial.board))
    assert boards == oracle_seven(state, 0)
    assert bool(listed) == bool(state.card_plays(0, "7", True))


@pytest.mark.parametrize("seed", range(30))
def test_tac_card_generation_matches_checking(seed: int) -> None:
    """After a random previous action, the TAC's listed plays are exactly the accepted ones."""
    rng = random.Random(5000 + seed)
    state = random_position(rng)
    if state.winning_side() is not None:
        return
    state.history = []
    state.to_move = 3
    state.hands[3] = [rng.choice(["1", "2", "4", "5", "8", "13", "trickser", "engel", "krieger"])]
    state.hands[0] = ["tac", "9"]
    previous = rng.choice(state.legal_actions())
    state.play_turn(3, previous, "")
    if state.over or state.to_move != 0 or state.must_tac:
        return
    listed = {Play(p.card, p.kind, moves=p.moves, fields=p.fields) for p in state.tac_plays(0, False)}
    fn = state.history[-1].fn
    if fn == "7":
        return
    brute = {p for p in candidates("tac") if accepted(state, p)}
    assert brute == listed, (previous, fn)
