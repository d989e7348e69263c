"""The scoresheet's Tock adapter: the Tock engine (rules.tock) driven with partly hidden hands."""

from __future__ import annotations

from typing import Any

from rules.cards.hidden import HiddenHand, possible_cards
from rules.scoresheet.marbles import SimpleMarbleRules
from rules.tock.actions import DISCARD, TockAction, home_tokens, parse_action
from rules.tock.cards import COPIES, RANKS
from rules.tock.game import parse_variant
from rules.tock.snapshot import snapshot as tock_snapshot
from rules.tock.state import TockState
from rules.track.options import turn_options


class TockRules(SimpleMarbleRules):
    name = "tock"

    def __init__(self, variant: dict[str, Any]) -> None:
        self.variant = parse_variant(variant)
        n = self.variant.seats
        super().__init__(n, tuple(self.variant.partner(s) for s in range(n)))
        self.deck = {rank: COPIES for rank in RANKS}
        self.deal_sizes = self.variant.deal_sizes
        self._probe = TockState.initial(self.variant)
        self._homes = home_tokens(self._probe.board)

    def new_state(self) -> TockState:
        return TockState.initial(self.variant)

    def begin_deal(self, state: TockState, dealer: int, index: int, hands: list[HiddenHand]) -> None:
        state.begin_deal(dealer, index, [[] for _ in hands])
        state.hands = list(hands)
        state.to_move = state.next_seat(dealer)

    def parse(self, entry: dict[str, Any], path: str) -> TockAction:
        return parse_action(entry, path, self._probe.board, self._homes)

    def before_discard(self, state: TockState, seat: int) -> set[str] | None:
        if state.banned:
            return None
        colour = state.colour_of(seat)
        return {
            card for card in possible_cards(state.hands[seat]) if state.card_actions(seat, colour, card, True)
        }

    def apply(self, state: TockState, action: TockAction, path: str) -> None:
        state.apply(action, path)

    def to_move(self, state: TockState) -> int | None:
        return None if state.winners is not None or state.to_move < 0 else state.to_move

    def options(self, state: TockState, seat: int) -> list[dict[str, Any]]:
        hand = state.hands[seat]
        colour = state.colour_of(seat)
        board = state.board
        actions = turn_options(
            possible_cards(hand),
            sorted(set(hand)),
            lambda card: state.card_actions(seat, colour, card),
            lambda card: TockAction(seat, card, DISCARD),
            forced_discard=state.banned,
        )
        return [a.to_json(board) for a in actions]

    def snapshot(self, state: TockState) -> dict[str, Any]:
        return tock_snapshot(state)

    def marbles_home(self, state: TockState) -> list[int]:
        return [state.home_count(c) for c in range(self.seats)]

    def sides(self) -> list[list[int]]:
        return super().sides() or [[s] for s in range(self.seats)]


RULES = TockRules
