"""Card multisets: a deck is a mapping card token -> number of copies.

>>> deck = {"1": 2, "tac": 1}
>>> expand_deck(deck)
['1', '1', 'tac']
>>> first_excess(["1", "tac", "1", "1"], deck)
'1'
>>> first_excess(["tac"], deck) is None
True
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable, Mapping
from typing import Any

from rules.core.errors import ErrorCode, RecordError
from rules.core.pointer import child
from rules.core.reader import expect_list, expect_str


def expand_deck(deck: Mapping[str, int]) -> list[str]:
    """Every copy of every card, in the deck's key order."""
    return [card for card, n in deck.items() for _ in range(n)]


def shuffled(deck: Mapping[str, int], rng: random.Random) -> list[str]:
    cards = expand_deck(deck)
    rng.shuffle(cards)
    return cards


def first_excess(cards: Iterable[str], deck: Mapping[str, int]) -> str | None:
    """The first card that occurs more often than the deck holds it (or is not in it), else None."""
    seen: Counter[str] = Counter()
    for card in cards:
        seen[card] += 1
        if seen[card] > deck.get(card, 0):
            return card
    return None


def parse_cards(raw: Any, path: str, deck: Mapping[str, int]) -> list[str]:
    """Read an array of card tokens; `malformed` for non-strings, `unknown_card` for tokens not in the deck."""
    cards: list[str] = []
    for i, item in enumerate(expect_list(raw, path)):
        token = expect_str(item, child(path, i))
        if token not in deck:
            raise RecordError(ErrorCode.UNKNOWN_CARD, child(path, i), f"{token!r} is not a card of this deck.")
        cards.append(token)
    return cards


def remove_card(hand: list[str], card: str) -> bool:
    """Take one copy of `card` out of `hand`; False if the hand does not hold it."""
    try:
        hand.remove(card)
    except ValueError:
        return False
    return True
