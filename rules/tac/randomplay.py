"""Random games played to the end, written as records (every hidden fact included)."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from rules.tac.actions import DISCARD, ENTER, MOVES, Play, play_to_json
from rules.tac.cards import OPENING_CARDS
from rules.tac.game import TacConfig, parse_variant
from rules.tac.state import TacState

MAX_DEALS = 5000


def choose_play(state: TacState, rng: random.Random) -> Play:
    """A random legal play for the seat to move.

    Cards are tried in random order; a play that enters a marble or brings one home is taken at once,
    otherwise a random play of the first usable card. (Uniform choices make games three times longer.)
    """
    seat = state.to_move
    assert seat is not None
    hand = state.hands[seat]
    if state.must_tac:
        return rng.choice(state.tac_plays(seat, False, rng))
    if state.skipped == seat:
        options = [Play(card, DISCARD) for card in sorted(set(hand))]
        if "tac" in hand:
            options.extend(state.tac_plays(seat, False, rng))
        return rng.choice(options)
    cards = sorted(set(hand))
    rng.shuffle(cards)
    fallback: list[Play] | None = None
    for card in cards:
        plays = state.card_plays(seat, card, False, rng)
        if not plays:
            continue
        if fallback is None:
            fallback = plays
        homeward = [p for p in plays if _homeward(p)]
        if homeward:
            return rng.choice(homeward)
    if fallback is not None:
        return rng.choice(fallback)
    return Play(rng.choice(hand), DISCARD)


def _homeward(play: Play) -> bool:
    """Plays that bring a marble into play or into a home: random play prefers them to end sooner."""
    if play.kind == ENTER:
        return True
    return play.kind == MOVES and any(frm < to and to >= 64 for frm, to in play.moves)


def _players(cfg: TacConfig) -> list[dict[str, Any]]:
    return [{"name": f"Player {s}", "seats": [s]} for s in cfg.active]


def random_game(
    variant: dict[str, Any], rng: random.Random, observer: Callable[[TacState], None] | None = None
) -> dict[str, Any]:
    """One complete random game as a record; `observer` sees the state before every turn (tests)."""
    cfg = parse_variant(variant)
    state = TacState(cfg)
    dealer = rng.choice(cfg.active)
    deals: list[dict[str, Any]] = []
    index = 0
    deck_cards: list[str] = []
    first = True
    while not state.over:
        if len(deals) >= MAX_DEALS:
            raise RuntimeError("a random TAC game did not end")
        if index == 0:
            deck_cards = [card for card, n in cfg.deck.items() for _ in range(n)]
            rng.shuffle(deck_cards)
        size = cfg.deal_sizes[index]
        dealt: list[list[str]] = [[] for _ in range(4)]
        for s in cfg.active:
            dealt[s] = [deck_cards.pop() for _ in range(size)]
        deal: dict[str, Any] = {}
        if first:
            deal["dealer"] = dealer
        deal["hands"] = [h[:] for h in dealt]
        deal["announce"] = [any(c in OPENING_CARDS for c in h) for h in dealt]
        gives: list[str | None] = [None] * 4
        for s in cfg.active:
            if cfg.partner[s] is not None:
                gives[s] = rng.choice(dealt[s])
        if any(g is not None for g in gives):
            deal["exchange"] = gives
        hands = [h[:] for h in dealt]
        for s in cfg.active:
            give = gives[s]
            partner = cfg.partner[s]
            if give is not None and partner is not None:
                hands[s].remove(give)
                hands[partner].append(give)
        state.deal_index = index
        state.start_deal(hands, dealer)
        turns: list[dict[str, Any]] = []
        while state.to_move is not None and not state.over:
            seat = state.to_move
            if observer is not None:
                observer(state)
            play = choose_play(state, rng)
            turns.append(play_to_json(play, seat))
            state.play_turn(seat, play, "")
        deal["turns"] = turns
        deals.append(deal)
        first = False
        dealer = state.left_occupied(dealer)
        index = (index + 1) % len(cfg.deal_sizes)
    return {
        "format": "game-record/1",
        "game": "tac",
        "variant": dict(variant),
        "players": _players(cfg),
        "deals": deals,
        "result": state.outcome(),
    }
