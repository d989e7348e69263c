"""The scoresheet's TAC adapter: the TAC engine (rules.tac) driven with partly hidden hands."""

from __future__ import annotations

from typing import Any

from rules.cards.hidden import HiddenHand, fork_hands, possible_cards
from rules.tac.actions import DISCARD, THEN, Play, parse_play, play_to_json
from rules.tac.game import parse_variant
from rules.tac.options import turn_plays, usable
from rules.tac.snapshot import snapshot as tac_snapshot
from rules.tac.state import HOME_BASE, TacState

possible = possible_cards


class TacRules:
    name = "tac"
    seats = 4
    has_announce = True

    def __init__(self, variant: dict[str, Any]) -> None:
        self.cfg = parse_variant(variant)
        self.active = self.cfg.active
        self.deck = dict(self.cfg.deck)
        self.deal_sizes = self.cfg.deal_sizes

    def partner(self, seat: int) -> int | None:
        return self.cfg.partner[seat] if seat in self.cfg.active else None

    def exchange_required(self) -> bool:
        return any(self.cfg.partner[s] is not None for s in self.cfg.active)

    def new_state(self) -> TacState:
        return TacState(self.cfg)

    def copy_state(self, state: TacState, hands: list[Any]) -> TacState:
        other = state.clone()
        other.hands = hands
        return other

    def next_dealer(self, state: TacState, dealer: int) -> int:
        return state.left_occupied(dealer)

    def begin_deal(self, state: TacState, dealer: int, index: int, hands: list[HiddenHand]) -> None:
        state.deal_index = index
        state.start_deal(list(hands), dealer)
        state.hands = list(hands)  # the HiddenHand objects themselves

    def parse(self, entry: dict[str, Any], path: str) -> Play:
        return parse_play(entry, path, self.cfg.deck, top=True)

    def entry_seat(self, action: Play) -> int:
        assert action.seat is not None
        return action.seat

    def is_discard(self, action: Play) -> bool:
        return action.kind == DISCARD

    def before_discard(self, state: TacState, seat: int) -> set[str] | None:
        if state.skipped == seat or state.must_tac or state.to_move != seat:
            return None
        return {card for card in possible(state.hands[seat]) if usable(state, seat, card)}

    def nested_discards(self, state: TacState, action: Play) -> list[tuple[int, HiddenHand, str, set[str]]]:
        """The discards nested in a Narr's or Teufel's follow-up, before `action` is applied: per discard
        the seat, the hand it comes from (the sheet's object), the card and the cards that would have had
        a legal use then (found on a copy, as the engine's must-play test sees it)."""
        out: list[tuple[int, HiddenHand, str, set[str]]] = []
        forks = fork_hands(state.hands)
        real = {id(f): h for f, h in zip(forks, state.hands, strict=True)}
        pos, seat, play, hands = state, action.seat, action, forks
        while seat is not None and play.kind == THEN and play.then is not None:
            fn: str | None = play.card
            if fn == "tac":
                fn = pos.history[-1].fn if pos.history else None
            if fn not in ("narr", "teufel") or play.card not in pos.hands[seat]:
                break
            try:
                sim, actor = pos.then_position(seat, fn, play.card, list(hands))
            except (ValueError, IndexError):
                break
            if actor is None:
                break
            sub = play.then
            if sub.kind == DISCARD:
                origin = real.get(id(sim.hands[actor]))
                if isinstance(origin, HiddenHand) and origin.hidden > 0:
                    found = {c for c in possible(sim.hands[actor]) if usable(sim, actor, c)}
                    out.append((actor, origin, sub.card, found))
                break
            pos, seat, play, hands = sim, actor, sub, sim.hands
        return out

    def apply(self, state: TacState, action: Play, path: str) -> None:
        assert action.seat is not None
        state.play_turn(action.seat, action, path)

    def to_move(self, state: TacState) -> int | None:
        return None if state.over else state.to_move

    def pending_answer(self, state: TacState) -> bool:
        """A winning move that the next seat must answer with a TAC only if it holds one (hidden)."""
        if not state.must_tac or state.to_move is None:
            return False
        return list.__contains__(state.hands[state.to_move], "tac") is False

    def over(self, state: TacState) -> bool:
        return state.over

    def winners(self, state: TacState) -> list[int] | None:
        if state.over:
            return sorted(state.winners)
        if self.pending_answer(state):
            side = state.winning_side()
            return sorted(side) if side is not None else None
        return None

    def outcome(self, state: TacState) -> dict[str, Any] | None:
        if state.over:
            return state.outcome()
        if self.pending_answer(state):
            side = state.winning_side()
            assert side is not None
            result: dict[str, Any] = {"winners": sorted(side)}
            if self.cfg.coop:
                result["cards_used"] = state.cards_used
            return result
        return None

    def options(self, state: TacState, seat: int) -> list[dict[str, Any]]:
        written: dict[int, dict[str, Any]] = {}

        def write(play: Play, seat: int | None) -> dict[str, Any]:
            if play.then is None:
                return play_to_json(play, seat)
            sub = written.get(id(play.then))
            if sub is None:
                sub = written[id(play.then)] = write(play.then, play.then.seat)
            out: dict[str, Any] = {} if seat is None else {"seat": seat}
            out["card"] = play.card
            if play.as_ is not None:
                out["as"] = play.as_
            out["then"] = sub
            return out

        return [write(p, seat) for p in turn_plays(state, seat)]

    def snapshot(self, state: TacState) -> dict[str, Any]:
        return tac_snapshot(state)

    def marbles_home(self, state: TacState) -> list[int]:
        return [sum(1 for q in range(HOME_BASE[c], HOME_BASE[c] + 4) if state.board[q] == c) for c in range(4)]

    def sides(self) -> list[list[int]]:
        return [list(side) for side in self.cfg.sides]

    def end_constraints(self, state: TacState) -> dict[int, set[str]]:
        if self.pending_answer(state) and state.to_move is not None:
            return {state.to_move: {"tac"}}
        return {}


RULES = TacRules
