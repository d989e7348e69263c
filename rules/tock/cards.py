"""The Tock deck: 52 cards, ranks only (suits do not matter), 4 of each rank (spec section 6)."""

from __future__ import annotations

from typing import Final

from rules.core.errors import ErrorCode, RecordError

RANKS: Final[tuple[str, ...]] = ("A", "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K")
COPIES: Final[int] = 4
DECK_SIZE: Final[int] = len(RANKS) * COPIES

#: Forward steps of a card used as a plain move (the 4 goes backward, the 7 is special, J swaps).
STEPS: Final[dict[str, int]] = {
    "A": 1,
    "2": 2,
    "3": 3,
    "4": 4,
    "5": 5,
    "6": 6,
    "7": 7,
    "8": 8,
    "9": 9,
    "10": 10,
    "Q": 12,
    "K": 13,
}
#: Cards that may bring a marble from the start area onto the start field.
ENTER_CARDS: Final[frozenset[str]] = frozenset({"A", "K"})
BAN_CARD: Final[str] = "10"
BACK_CARD: Final[str] = "4"
SEVEN: Final[str] = "7"
SWAP_CARD: Final[str] = "J"


def parse_card(token: object, path: str) -> str:
    """A card token as written in a record: a string naming a rank of the deck."""
    if not isinstance(token, str):
        raise RecordError(ErrorCode.MALFORMED, path, f"a card must be a string, not {token!r}")
    if token not in STEPS and token != SWAP_CARD:
        raise RecordError(ErrorCode.UNKNOWN_CARD, path, f"{token!r} is not a Tock card (A 2-10 J Q K)")
    return token


def full_deck() -> list[str]:
    """The 52 cards of one deck cycle, in rank order."""
    return [rank for rank in RANKS for _ in range(COPIES)]
