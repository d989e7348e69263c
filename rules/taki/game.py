"""TAKI variant parameters (spec section 7): seats, tournament, colors, numbers, hand_size."""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from rules.core.errors import ErrorCode, RecordError
from rules.taki.cards import Deck, build_deck

DEFAULT_COLORS: tuple[str, ...] = ("r", "g", "b", "y")
DEFAULT_NUMBERS: tuple[int, ...] = (1, 3, 4, 5, 6, 7, 8, 9)
TOURNAMENT_START_PHASE = 8
VARIANT_KEYS = frozenset({"seats", "tournament", "colors", "numbers", "hand_size"})
_COLOUR_NAME = re.compile(r"^[a-z]+$")


@dataclass(frozen=True)
class Variant:
    seats: int
    tournament: bool
    hand_size: int
    deck: Deck

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"seats": self.seats}
        if self.tournament:
            out["tournament"] = True
        if self.deck.colors != DEFAULT_COLORS:
            out["colors"] = list(self.deck.colors)
        if self.deck.numbers != DEFAULT_NUMBERS:
            out["numbers"] = list(self.deck.numbers)
        if self.hand_size != 8:
            out["hand_size"] = self.hand_size
        return out


def _bad(key: str, message: str) -> RecordError:
    return RecordError(ErrorCode.BAD_VARIANT, f"/variant/{key}" if key else "/variant", message)


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def seats_from_players(players: Any) -> int:
    """The default for `seats`: how many distinct seats the players hold, clamped to 2..10.

    A clamped or inconsistent count is then reported by the players check.
    """
    seats: set[int] = set()
    if isinstance(players, list):
        for p in players:
            if isinstance(p, dict) and isinstance(p.get("seats"), list):
                seats.update(s for s in p["seats"] if _is_int(s))
    return max(2, min(10, len(seats)))


def parse_variant(raw: Mapping[str, Any], players: Any) -> Variant:
    for key in raw:
        if key not in VARIANT_KEYS:
            raise _bad(key, f"Unknown TAKI variant key {key!r}.")
    seats = raw.get("seats", seats_from_players(players))
    if not _is_int(seats) or not 2 <= seats <= 10:
        raise _bad("seats", "`seats` must be an integer from 2 to 10.")
    tournament = raw.get("tournament", False)
    if not isinstance(tournament, bool):
        raise _bad("tournament", "`tournament` must be true or false.")
    colors_raw = raw.get("colors", list(DEFAULT_COLORS))
    if not isinstance(colors_raw, list) or not colors_raw:
        raise _bad("colors", "`colors` must be a non-empty array of colour names.")
    for c in colors_raw:
        if not isinstance(c, str) or not _COLOUR_NAME.match(c):
            raise _bad("colors", f"Colour {c!r} must be lowercase letters a-z.")
    if len(set(colors_raw)) != len(colors_raw):
        raise _bad("colors", "`colors` lists a colour twice.")
    numbers_raw = raw.get("numbers", list(DEFAULT_NUMBERS))
    if not isinstance(numbers_raw, list):
        raise _bad("numbers", "`numbers` must be an array of integers.")
    for n in numbers_raw:
        if not _is_int(n) or not 0 <= n <= 99:
            raise _bad("numbers", f"Number {n!r} must be an integer from 0 to 99.")
    if len(set(numbers_raw)) != len(numbers_raw):
        raise _bad("numbers", "`numbers` lists a number twice.")
    hand_size = raw.get("hand_size", 8)
    if not _is_int(hand_size) or hand_size < 1:
        raise _bad("hand_size", "`hand_size` must be a positive integer.")
    if tournament and hand_size != TOURNAMENT_START_PHASE:
        raise _bad(
            "hand_size", "The tournament starts everyone in phase 8 with 8 cards: hand_size must be 8."
        )
    deck = build_deck(tuple(colors_raw), tuple(numbers_raw))
    if seats * hand_size + 1 > deck.size:
        raise _bad(
            "hand_size", f"{seats} hands of {hand_size} and a lead need more than the {deck.size} cards."
        )
    return Variant(seats=seats, tournament=tournament, hand_size=hand_size, deck=deck)
