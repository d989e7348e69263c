"""ZACK! card tokens (spec section 8) and the deck used to generate random games.

>>> card_kind("red")
'colour'
>>> card_kind("right2")
'direction'
>>> sorted(variant_tokens(("red", "blue", "green"), again_back=False, stop_cards=False))
['blue', 'green', 'left', 'left2', 'red', 'right', 'right2']
"""

from __future__ import annotations

from collections.abc import Iterable

COLOURS: tuple[str, ...] = ("red", "blue", "yellow", "green", "orange", "violet")

RIGHT = "right"
RIGHT2 = "right2"
LEFT = "left"
LEFT2 = "left2"
AGAIN = "again"
BACK = "back"
STOP_CHOOSE = "stop_choose"
STOP_SWAP = "stop_swap"
STOP_MIRROR = "stop_mirror"

# Seat offset of the obliged seat from the thrower: the left neighbour of s is s+1, the right s-1.
DIRECTION_OFFSETS: dict[str, int] = {RIGHT: -1, RIGHT2: -2, LEFT: 1, LEFT2: 2}
AGAIN_BACK_CARDS: frozenset[str] = frozenset({AGAIN, BACK})
STOP_CARDS: frozenset[str] = frozenset({STOP_CHOOSE, STOP_SWAP, STOP_MIRROR})
ACTION_CARDS: tuple[str, ...] = (RIGHT, RIGHT2, LEFT, LEFT2, AGAIN, BACK, STOP_CHOOSE, STOP_SWAP, STOP_MIRROR)
ALL_TOKENS: frozenset[str] = frozenset(COLOURS) | frozenset(ACTION_CARDS)

# The real box holds 72 ZACK! cards whose split the rule text does not give (spec: `deck` is a param).
# Random games use this plausible split: 6 per colour, 6 of each direction, 3 Nochmal, 3 Zurück and
# 2 of each Stopp card (6 x 6 + 24 + 6 + 6 = 72).
REFERENCE_COUNTS: dict[str, int] = {
    RIGHT: 6,
    RIGHT2: 6,
    LEFT: 6,
    LEFT2: 6,
    AGAIN: 3,
    BACK: 3,
    STOP_CHOOSE: 2,
    STOP_SWAP: 2,
    STOP_MIRROR: 2,
}
REFERENCE_PER_COLOUR = 6


def card_kind(token: str) -> str:
    """`colour`, `direction`, `again`, `back` or `stop` (ValueError for an unknown token)."""
    if token in COLOURS:
        return "colour"
    if token in DIRECTION_OFFSETS:
        return "direction"
    if token == AGAIN:
        return "again"
    if token == BACK:
        return "back"
    if token in STOP_CARDS:
        return "stop"
    raise ValueError(f"unknown ZACK! card {token!r}")


def variant_tokens(colours: Iterable[str], *, again_back: bool, stop_cards: bool) -> frozenset[str]:
    """The card tokens a variant's deck may hold: colours in play, directions, optional extras."""
    tokens = set(colours) | set(DIRECTION_OFFSETS)
    if again_back:
        tokens |= AGAIN_BACK_CARDS
    if stop_cards:
        tokens |= STOP_CARDS
    return frozenset(tokens)


def reference_deck(colours: Iterable[str], *, again_back: bool, stop_cards: bool) -> dict[str, int]:
    """The deck random games are dealt from when the variant names no `deck`."""
    deck = {colour: REFERENCE_PER_COLOUR for colour in colours}
    allowed = variant_tokens((), again_back=again_back, stop_cards=stop_cards)
    deck.update({card: n for card, n in REFERENCE_COUNTS.items() if card in allowed})
    return deck
