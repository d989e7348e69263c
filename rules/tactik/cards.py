"""The Tac-Tik deck (spec section 5): twelve card kinds, four copies each, 48 cards.

>>> sum(DECK.values())
48
>>> FORWARD_STEPS["12"], "-4" in FORWARD_STEPS
(12, False)
"""

from __future__ import annotations

from types import MappingProxyType
from typing import Final

CARDS: Final = ("1", "2", "3", "-4", "5", "6", "7x1", "8", "9", "10", "12", "permuter")
COPIES: Final = 4
DECK: Final = MappingProxyType({card: COPIES for card in CARDS})

ENTER_CARDS: Final = frozenset({"1", "10"})
"""Cards that may start a marble as a pieu ("AVANCER OU DÉMARRER 1 et 10")."""

FORWARD_STEPS: Final = MappingProxyType(
    {"1": 1, "2": 2, "3": 3, "5": 5, "6": 6, "8": 8, "9": 9, "10": 10, "12": 12}
)
"""Cards that move one marble forward by exactly their value."""

BACKWARD = "-4"
BACKWARD_STEPS: Final = 4
SPLIT = "7x1"
SPLIT_STEPS: Final = 7
PERMUTER = "permuter"
