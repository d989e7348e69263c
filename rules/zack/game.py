"""The ZACK! variant: `seats`, `colors`, `stop_cards`, `again_back` and the optional `deck` (spec 8)."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cached_property
from typing import Any

from rules.core.errors import ErrorCode, RecordError
from rules.core.pointer import child
from rules.zack.cards import COLOURS, variant_tokens

VARIANT_KEYS = ("seats", "colors", "stop_cards", "again_back", "deck")
MIN_SEATS = 3
MAX_SEATS = 6


def bad_variant(path: str, message: str) -> RecordError:
    return RecordError(ErrorCode.BAD_VARIANT, path, message)


@dataclass(frozen=True)
class ZackVariant:
    """A checked variant. `colours[s]` is the colour seat `s` chose at the start of the Partie."""

    seats: int
    colours: tuple[str, ...]
    stop_cards: bool = False
    again_back: bool = True
    deck: Mapping[str, int] | None = None

    @cached_property
    def tokens(self) -> frozenset[str]:
        """Every card token this variant's stacks may hold."""
        return variant_tokens(self.colours, again_back=self.again_back, stop_cards=self.stop_cards)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"seats": self.seats, "colors": list(self.colours)}
        if self.stop_cards:
            out["stop_cards"] = True
        if not self.again_back:
            out["again_back"] = False
        if self.deck is not None:
            out["deck"] = dict(self.deck)
        return out


def _flag(raw: Mapping[str, Any], key: str, default: bool) -> bool:
    if key not in raw:
        return default
    value = raw[key]
    if not isinstance(value, bool):
        raise bad_variant(child("/variant", key), f"`{key}` must be true or false.")
    return value


def parse_variant(raw: Mapping[str, Any]) -> ZackVariant:
    """Check the variant object; every problem inside it is `bad_variant` at its key."""
    for key in raw:
        if key not in VARIANT_KEYS and key != "comment" and not key.startswith("x_"):
            raise bad_variant(child("/variant", key), f"Unknown ZACK! variant key {key!r}.")
    if "colors" not in raw:
        raise bad_variant("/variant", "ZACK! needs `colors`: the colour of every seat.")
    colours_raw = raw["colors"]
    if not isinstance(colours_raw, list):
        raise bad_variant("/variant/colors", "`colors` must be an array of colour names.")
    colours: list[str] = []
    for i, colour in enumerate(colours_raw):
        path = child("/variant/colors", i)
        if not isinstance(colour, str) or colour not in COLOURS:
            raise bad_variant(path, f"{colour!r} is not a ZACK! colour ({', '.join(COLOURS)}).")
        if colour in colours:
            raise bad_variant(path, f"Colour {colour!r} is chosen twice.")
        colours.append(colour)
    seats_raw = raw.get("seats", len(colours))
    if isinstance(seats_raw, bool) or not isinstance(seats_raw, int):
        raise bad_variant("/variant/seats", "`seats` must be an integer.")
    if not MIN_SEATS <= seats_raw <= MAX_SEATS:
        raise bad_variant(
            "/variant/seats", f"ZACK! is for {MIN_SEATS} to {MAX_SEATS} players, not {seats_raw}."
        )
    if len(colours) != seats_raw:
        raise bad_variant("/variant/colors", f"{len(colours)} colours for {seats_raw} seats.")
    stop_cards = _flag(raw, "stop_cards", False)
    again_back = _flag(raw, "again_back", True)
    variant = ZackVariant(
        seats=seats_raw, colours=tuple(colours), stop_cards=stop_cards, again_back=again_back
    )
    if "deck" not in raw:
        return variant
    deck_raw = raw["deck"]
    if not isinstance(deck_raw, dict):
        raise bad_variant("/variant/deck", "`deck` must map card tokens to counts.")
    tokens = variant.tokens
    deck: dict[str, int] = {}
    for token, count in deck_raw.items():
        path = child("/variant/deck", token)
        if token not in tokens:
            raise bad_variant(path, f"{token!r} is not a card of this variant.")
        if isinstance(count, bool) or not isinstance(count, int) or count < 0:
            raise bad_variant(path, f"The count of {token!r} must be an integer >= 0.")
        deck[token] = count
    return ZackVariant(
        seats=seats_raw, colours=tuple(colours), stop_cards=stop_cards, again_back=again_back, deck=deck
    )
