"""The TAKI deck of a variant: card tokens, their colour and their symbol.

Default deck (spec section 7 and rule decision 1): per colour ``r g b y`` two each of the numbers
1 and 3-9, ``stop_<c>``, ``plus2_<c>``, ``dir_<c>``, ``plus_<c>`` and ``taki_<c>``; two each of the
colourless ``supertaki``, ``king``, ``plus3`` and ``breaker``; four ``color``. 116 cards.

>>> deck = build_deck(("r", "g", "b", "y"), (1, 3, 4, 5, 6, 7, 8, 9))
>>> deck.size
116
>>> deck.color_of["5r"], deck.symbol_of["5r"], deck.color_of["king"], deck.symbol_of["plus2_b"]
('r', '5', None, 'plus2')
"""

from __future__ import annotations

from dataclasses import dataclass

from rules.core.errors import ErrorCode, RecordError

COLOURED_ACTIONS: tuple[str, ...] = ("stop", "plus2", "dir", "plus", "taki")
COLOURLESS_PAIRS: tuple[str, ...] = ("supertaki", "king", "plus3", "breaker")
COLOR_CARD = "color"
SUPERTAKI = "supertaki"
KING = "king"
PLUS3 = "plus3"
BREAKER = "breaker"
#: Colourless cards that leave the lead as it was (rule decision 9).
TRANSPARENT: frozenset[str] = frozenset({KING, PLUS3, BREAKER})
#: Action cards whose action is executed when they end a TAKI run (rule decision 4).
RUN_ENDING_ACTIONS: frozenset[str] = frozenset({"stop", "plus2", "dir", "plus"})
#: Cards that carry a chosen colour in a `play` list (`color:g`, `supertaki:g`).
CHOOSING: frozenset[str] = frozenset({COLOR_CARD, SUPERTAKI})


@dataclass(frozen=True)
class Deck:
    colors: tuple[str, ...]
    numbers: tuple[int, ...]
    counts: dict[str, int]
    color_of: dict[str, str | None]
    symbol_of: dict[str, str]

    @property
    def size(self) -> int:
        return sum(self.counts.values())

    def parse_played(self, token: str, path: str) -> tuple[str, str | None]:
        """A token of a `play` list: (deck card, chosen colour or None).

        ``color`` must name its colour (``color:g``); ``supertaki`` may (``supertaki:g``).
        """
        base, sep, chosen = token.partition(":")
        if not sep:
            if token not in self.counts:
                raise RecordError(ErrorCode.UNKNOWN_CARD, path, f"{token!r} is not a card of this deck.")
            if token == COLOR_CARD:
                raise RecordError(
                    ErrorCode.MALFORMED,
                    path,
                    "A played Change Colour is written color:<colour>, e.g. color:g.",
                )
            return token, None
        if base not in CHOOSING or chosen not in self.colors:
            raise RecordError(ErrorCode.UNKNOWN_CARD, path, f"{token!r} is not a card of this deck.")
        return base, chosen


def build_deck(colors: tuple[str, ...], numbers: tuple[int, ...]) -> Deck:
    counts: dict[str, int] = {}
    color_of: dict[str, str | None] = {}
    symbol_of: dict[str, str] = {}
    for c in colors:
        for n in numbers:
            token = f"{n}{c}"
            counts[token] = 2
            color_of[token] = c
            symbol_of[token] = str(n)
        for action in COLOURED_ACTIONS:
            token = f"{action}_{c}"
            counts[token] = 2
            color_of[token] = c
            symbol_of[token] = action
    for token in COLOURLESS_PAIRS:
        counts[token] = 2
        color_of[token] = None
        symbol_of[token] = token
    counts[COLOR_CARD] = 4
    color_of[COLOR_CARD] = None
    symbol_of[COLOR_CARD] = COLOR_CARD
    return Deck(colors=colors, numbers=numbers, counts=counts, color_of=color_of, symbol_of=symbol_of)
