"""What the scoresheet needs from one marble game: a small adapter over that game's engine.

Each adapter wraps the game's own state and checker (nothing is re-implemented): how a deal is dealt
(sizes, dealer, exchange, announcements), how an entry is read and applied, and the options of the seat
to move, from the engine's own move generator.
"""

from __future__ import annotations

from typing import Any, Protocol

from rules.cards.hidden import HiddenHand


class GameRules(Protocol):
    """The per-game part of a scoresheet (see rules/scoresheet/tac.py, tock.py, tactik.py)."""

    name: str
    seats: int
    active: tuple[int, ...]
    deck: dict[str, int]
    deal_sizes: tuple[int, ...]
    has_announce: bool

    def partner(self, seat: int) -> int | None:
        """The seat `seat` gives its exchanged card to, or None (no exchange for it)."""
        ...

    def exchange_required(self) -> bool: ...

    def new_state(self) -> Any: ...

    def copy_state(self, state: Any, hands: list[Any]) -> Any:
        """A copy of `state` that holds `hands` (the copies of its hands) instead of its own."""
        ...

    def next_dealer(self, state: Any, dealer: int) -> int: ...

    def begin_deal(self, state: Any, dealer: int, index: int, hands: list[HiddenHand]) -> None: ...

    def parse(self, entry: dict[str, Any], path: str) -> Any: ...

    def entry_seat(self, action: Any) -> int: ...

    def is_discard(self, action: Any) -> bool: ...

    def before_discard(self, state: Any, seat: int) -> set[str] | None:
        """The cards that would have a legal use for `seat` now (a hidden one of them makes the discard
        illegal), or None when a discard needs no reason (skipped, banned)."""
        ...

    def nested_discards(self, state: Any, action: Any) -> list[tuple[int, HiddenHand, str, set[str]]]:
        """The discards nested in `action` (TAC: a Narr's or Teufel's follow-up), found before it is
        applied: (seat, the sheet's hand object, card, the cards that would have had a legal use)."""
        ...

    def apply(self, state: Any, action: Any, path: str) -> None: ...

    def to_move(self, state: Any) -> int | None: ...

    def over(self, state: Any) -> bool: ...

    def pending_answer(self, state: Any) -> bool:
        """TAC: a winning move the next seat may still answer with a compulsory TAC it may not hold."""
        ...

    def winners(self, state: Any) -> list[int] | None: ...

    def outcome(self, state: Any) -> dict[str, Any] | None: ...

    def options(self, state: Any, seat: int) -> list[dict[str, Any]]: ...

    def snapshot(self, state: Any) -> dict[str, Any]: ...

    def marbles_home(self, state: Any) -> list[int]: ...

    def sides(self) -> list[list[int]]: ...

    def end_constraints(self, state: Any) -> dict[int, set[str]]:
        """Cards hidden slots cannot hold at the end of a record (TAC: the TAC that would have had to
        answer a winning move), by the seat holding that hand now."""
        ...
