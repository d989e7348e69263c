"""Random games: shuffle, deal, exchange, and play random legal actions (biased homeward) until a team wins."""

from __future__ import annotations

import random
from typing import Any

from rules.cards.deck import shuffled
from rules.tactik.actions import Action
from rules.tactik.cards import DECK, SPLIT
from rules.tactik.game import HAND_SIZE, parse_variant
from rules.tactik.state import State

MAX_DEALS = 20_000
"""A safety net only: random games end after a few hundred deals at most."""


def choose_action(state: State, rng: random.Random) -> Action:
    """A random legal action of the seat to move, biased toward ending the game.

    Cards are tried in random order; an action that starts a marble or brings one into its base is
    taken at once, otherwise a random action of the first playable card (uniform choices over every
    action make games about three times longer). Without a playable card, a random card is discarded.
    """
    seat = state.to_move
    assert seat is not None
    colour = state.colour_for(seat)
    ring = state.board.ring
    cards = sorted(set(state.hands[seat]))
    rng.shuffle(cards)
    own = state.own_positions(colour)
    fallback: list[Action] | None = None
    for card in cards:
        if card == SPLIT:  # one random 7x1 rather than all of them: listing every split is costly
            split = state.random_split(seat, colour, rng)
            actions = [split] if split is not None else []
        else:
            actions = state.card_actions(seat, colour, card, first_only=False, own=own)
        if not actions:
            continue
        if fallback is None:
            fallback = actions
        homeward = [
            a
            for a in actions
            if a.kind == "enter" or (a.kind == "moves" and a.segments[-1][1] >= ring > a.segments[-1][0])
        ]
        if homeward:
            return rng.choice(homeward)
    if fallback is not None:
        return rng.choice(fallback)
    return Action(seat, rng.choice(cards), "discard")


def random_record(variant_raw: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    variant = parse_variant(variant_raw)
    n = variant.seats
    board = variant.board
    state = State(variant)
    dealer = rng.randrange(n)
    deal_index = len(variant.deal_sizes) - 1  # the first deal opens a cycle
    stock: list[str] = []
    deals: list[dict[str, Any]] = []
    for _ in range(MAX_DEALS):
        deal_index = (deal_index + 1) % len(variant.deal_sizes)
        if deal_index == 0:
            stock = shuffled(DECK, rng)
        dealt = [[stock.pop() for _ in range(HAND_SIZE)] for _ in range(n)]
        gives = [rng.choice(hand) for hand in dealt]
        hands = []
        for s in range(n):
            hand = list(dealt[s])
            hand.remove(gives[s])
            hand.append(gives[variant.partner[s]])
            hands.append(hand)
        state.start_deal(dealer, deal_index, hands)
        turns: list[dict[str, Any]] = []
        while state.to_move is not None and state.winners is None:
            action = choose_action(state, rng)
            turns.append(action.to_json(board))
            state.play(action)
        deals.append({"dealer": dealer, "hands": dealt, "exchange": gives, "turns": turns})
        if state.winners is not None:
            return {
                "format": "game-record/1",
                "game": "tactik",
                "variant": variant.to_json(),
                "players": [{"name": f"Player {s}", "seats": [s]} for s in range(n)],
                "deals": deals,
                "result": {"winners": list(state.winners)},
            }
        dealer = (dealer + 1) % n
    raise RuntimeError(f"No team won within {MAX_DEALS} random deals.")
