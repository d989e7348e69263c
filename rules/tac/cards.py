"""The TAC deck (spec section 4, "Cards (given)") and what each card token means."""

from __future__ import annotations

BASIC_DECK: dict[str, int] = {
    "1": 9,
    "2": 7,
    "3": 7,
    "4": 7,
    "5": 7,
    "6": 7,
    "7": 8,
    "8": 7,
    "9": 7,
    "10": 7,
    "12": 7,
    "13": 9,
    "trickser": 7,
    "tac": 4,
}
MASTER_CARDS: tuple[str, ...] = ("narr", "engel", "krieger", "teufel")
MASTER_DECK: dict[str, int] = {**BASIC_DECK, **{card: 1 for card in MASTER_CARDS}}

OPENING_CARDS = frozenset({"1", "13"})
"""Cards that bring a marble from the prefield to the start field ("Eröffnungskarten")."""

FORWARD_STEPS: dict[str, int] = {
    "1": 1,
    "2": 2,
    "3": 3,
    "5": 5,
    "6": 6,
    "8": 8,
    "9": 9,
    "10": 10,
    "12": 12,
    "13": 13,
}
"""Cards (functions) that move one marble forward by a fixed number of fields."""


def deck_for(master: bool) -> dict[str, int]:
    """The 100-card basic deck or the 104-card master deck.

    >>> sum(deck_for(False).values()), sum(deck_for(True).values())
    (100, 104)
    """
    return dict(MASTER_DECK if master else BASIC_DECK)
