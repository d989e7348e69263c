"""Random complete Tock games, written as records (for conformance tests and benchmarks)."""

from __future__ import annotations

import random
from typing import Any

from rules.tock.cards import full_deck
from rules.tock.game import parse_variant
from rules.tock.state import TockState

#: A random game that has not ended after this many deals is abandoned as a bug, not looped forever.
MAX_DEALS = 5000


def random_record(variant_raw: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """Play one game to its end with random legal choices and return it as a record."""
    variant = parse_variant(variant_raw)
    n = variant.seats
    state = TockState.initial(variant)
    board = state.board
    dealer = rng.randrange(n)
    deck: list[str] = []
    deals: list[dict[str, Any]] = []
    deal_index = 0
    for number in range(MAX_DEALS):
        if deal_index == 0:
            deck = full_deck()
            rng.shuffle(deck)
        size = variant.deal_sizes[deal_index]
        dealt: list[list[str]] = []
        for _ in range(n):
            dealt.append(deck[:size])
            del deck[:size]
        deal: dict[str, Any] = {"dealer": dealer, "hands": [list(h) for h in dealt]}
        hands = dealt
        if variant.teams:
            given = [rng.choice(h) for h in dealt]
            deal["exchange"] = given
            hands = [list(h) for h in dealt]
            for s in range(n):
                partner = variant.partner(s)
                assert partner is not None
                hands[s].remove(given[s])
                hands[s].append(given[partner])
        state.begin_deal(dealer, deal_index, hands)
        turns: list[dict[str, Any]] = []
        while state.to_move >= 0 and state.winners is None:
            action = state.random_action(rng)
            state.apply(action)
            turns.append(action.to_json(board))
        deal["turns"] = turns
        if number > 0:
            del deal["dealer"]
        deals.append(deal)
        if state.winners is not None:
            return {
                "format": "game-record/1",
                "game": "tock",
                "variant": variant.to_json(),
                "players": [{"name": f"Player {s + 1}", "seats": [s]} for s in range(n)],
                "deals": deals,
                "result": {"winners": list(state.winners), "termination": "rules"},
            }
        dealer = (dealer + 1) % n
        deal_index = (deal_index + 1) % len(variant.deal_sizes)
    raise RuntimeError(f"A random Tock game did not end within {MAX_DEALS} deals.")
