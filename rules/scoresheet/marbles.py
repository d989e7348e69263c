"""What the Tock and Tac-Tik adapters share: seats, exchange with the partner, hands, snapshots."""

from __future__ import annotations

from typing import Any

from rules.cards.hidden import HiddenHand


class SimpleMarbleRules:
    """Base of the Tock and Tac-Tik adapters (no announcements, no nested actions)."""

    name = ""
    seats = 4
    active: tuple[int, ...] = ()
    deck: dict[str, int] = {}
    deal_sizes: tuple[int, ...] = ()
    has_announce = False

    def __init__(self, seats: int, partners: tuple[int | None, ...]) -> None:
        self.seats = seats
        self.active = tuple(range(seats))
        self.partners = partners

    def partner(self, seat: int) -> int | None:
        return self.partners[seat] if 0 <= seat < self.seats else None

    def exchange_required(self) -> bool:
        return any(p is not None for p in self.partners)

    def next_dealer(self, state: Any, dealer: int) -> int:
        return (dealer + 1) % self.seats

    def copy_state(self, state: Any, hands: list[Any]) -> Any:
        other = state.clone()
        other.hands = hands
        return other

    def entry_seat(self, action: Any) -> int:
        return int(action.seat)

    def is_discard(self, action: Any) -> bool:
        return bool(action.kind == "discard")

    def over(self, state: Any) -> bool:
        return state.winners is not None

    def pending_answer(self, state: Any) -> bool:
        return False

    def winners(self, state: Any) -> list[int] | None:
        return None if state.winners is None else sorted(state.winners)

    def outcome(self, state: Any) -> dict[str, Any] | None:
        result: dict[str, Any] | None = state.outcome()
        return result

    def end_constraints(self, state: Any) -> dict[int, set[str]]:
        return {}

    def nested_discards(self, state: Any, action: Any) -> list[tuple[int, HiddenHand, str, set[str]]]:
        return []  # no nested actions in Tock and Tac-Tik

    def sides(self) -> list[list[int]]:
        return [sorted({s, p}) for s, p in enumerate(self.partners) if p is not None and s < p]

    @staticmethod
    def hidden(hand: Any) -> bool:
        return isinstance(hand, HiddenHand) and hand.hidden > 0
