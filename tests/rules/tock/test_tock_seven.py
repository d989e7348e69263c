"""The split 7: the search over one segment per marble finds a legal split exactly when seven single
steps (the rule text's definition) can be made; listed splits apply; the single option lapses the rest."""

from __future__ import annotations

import random

from rules.tock.actions import MOVES, TockAction
from rules.tock.game import TockVariant, parse_variant
from rules.tock.state import SEVEN_STEPS, TockState


def seven_single_steps_exist(state: TockState, colour: int) -> bool:
    """Brute force over seven single steps, each by any marble of the colour (with goal branching)."""
    board = state.board
    ring = state.ring
    memo: dict[tuple[frozenset[tuple[int, int]], frozenset[int], int], bool] = {}

    def search(at: dict[int, int], prot: set[int], remaining: int) -> bool:
        if remaining == 0:
            return True
        key = (frozenset(at.items()), frozenset(prot), remaining)
        if key not in memo:
            memo[key] = False
            for frm in [p for p, c in at.items() if c == colour]:
                fresh = frm < ring and colour in prot and frm == state.starts[colour]
                for to in board.targets(colour, frm, 1, branch=not fresh):
                    path = state._segment(at, prot, colour, frm, to, False)
                    if isinstance(path, str):
                        continue
                    at2, prot2 = dict(at), set(prot)
                    state._move(at2, prot2, frm, path, True)
                    if search(at2, prot2, remaining - 1):
                        memo[key] = True
                        return True
        return memo[key]

    return search(dict(state.marbles.at), set(state.protected), SEVEN_STEPS)


def crowded_position(rng: random.Random) -> TockState:
    """Marbles of colour 0 around its goal entry and in its goal, others in the way, maybe protected."""
    state = TockState(parse_variant({"seats": 2}))
    ring = state.ring
    at = state.marbles.at
    around = [*range(ring - 9, ring), *range(6), *(state.board.home(0, s) for s in range(1, 5))]
    for pos in rng.sample(around, rng.randint(1, 4)):
        at[pos] = 0
    if at.get(0) == 0 and rng.random() < 0.5:
        state.protected.add(0)
    for pos in rng.sample(range(ring - 9, ring), rng.randint(0, 2)):
        at.setdefault(pos, 1)
    if rng.random() < 0.3 and 16 not in at:
        at[16] = 1
        state.protected.add(1)
    return state


def test_tock_seven_search_finds_a_split_exactly_when_seven_steps_exist() -> None:
    rng = random.Random(2)
    both = 0
    for _ in range(1500):
        state = crowded_position(rng)
        found: list[tuple[tuple[int, int], ...]] = []
        state._seven_split(state.marbles.at, state.protected, 0, SEVEN_STEPS, frozenset(), (), found, True)
        exists = seven_single_steps_exist(state, 0)
        assert bool(found) == exists, (state.marbles, state.protected)
        both += exists
    assert 50 < both < 1450, "the sample holds both blocked and playable positions"


def test_tock_listed_sevens_apply_and_use_seven_steps() -> None:
    rng = random.Random(3)
    for _ in range(200):
        state = crowded_position(rng)
        state.hands = [["7"], []]
        state.to_move = 0
        for action in state.card_actions(0, 0, "7"):
            probe = state.clone()
            probe.apply(action)
            assert probe.hands[0] == []


def test_tock_single_seven_lists_every_length() -> None:
    state = TockState(TockVariant(seats=2, seven="single", deal_sizes=(5, 5, 4, 4, 4, 4)))
    state.marbles.at[5] = 0
    state.hands = [["7"], []]
    state.to_move = 0
    actions = state.card_actions(0, 0, "7")
    assert sorted(a.moves[0][1] for a in actions) == [6, 7, 8, 9, 10, 11, 12]
    split = TockState(TockVariant(seats=2, deal_sizes=(5, 5, 4, 4, 4, 4)))
    split.marbles.at[5] = 0
    assert split.card_actions(0, 0, "7") == [TockAction(0, "7", MOVES, ((5, 12),))]
