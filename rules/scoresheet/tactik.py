"""The scoresheet's Tac-Tik adapter: the Tac-Tik engine (rules.tactik) driven with partly hidden hands."""

from __future__ import annotations

from typing import Any

from rules.cards.hidden import HiddenHand, possible_cards
from rules.scoresheet.marbles import SimpleMarbleRules
from rules.tactik.actions import Action, read_action
from rules.tactik.cards import DECK
from rules.tactik.game import parse_variant
from rules.tactik.snapshot import snapshot as tactik_snapshot
from rules.tactik.state import State
from rules.track.options import turn_options


class TacTikRules(SimpleMarbleRules):
    name = "tactik"

    def __init__(self, variant: dict[str, Any]) -> None:
        self.variant = parse_variant(variant)
        n = self.variant.seats
        super().__init__(n, tuple(self.variant.partner[s] for s in range(n)))
        self.deck = dict(DECK)
        self.deal_sizes = self.variant.deal_sizes

    def new_state(self) -> State:
        return State(self.variant)

    def begin_deal(self, state: State, dealer: int, index: int, hands: list[HiddenHand]) -> None:
        state.start_deal(dealer, index, list(hands))

    def parse(self, entry: dict[str, Any], path: str) -> Action:
        return read_action(entry, path, self.variant.board, seats=self.seats)

    def before_discard(self, state: State, seat: int) -> set[str] | None:
        colour = state.colour_for(seat)
        return {
            card
            for card in possible_cards(state.hands[seat])
            if state.card_actions(seat, colour, card, first_only=True)
        }

    def apply(self, state: State, action: Action, path: str) -> None:
        state.apply(action, path)

    def to_move(self, state: State) -> int | None:
        return None if state.winners is not None else state.to_move

    def options(self, state: State, seat: int) -> list[dict[str, Any]]:
        hand = state.hands[seat]
        colour = state.colour_for(seat)
        board = self.variant.board
        actions = turn_options(
            possible_cards(hand),
            sorted(set(hand)),
            lambda card: state.card_actions(seat, colour, card, first_only=False),
            lambda card: Action(seat, card, "discard"),
        )
        return [a.to_json(board) for a in actions]

    def snapshot(self, state: State) -> dict[str, Any]:
        return tactik_snapshot(state)

    def marbles_home(self, state: State) -> list[int]:
        return [state.home_count(c) for c in range(self.seats)]


RULES = TacTikRules
