"""TAKI turn entries: reading them from a record and writing them back.

An entry is ``{"seat", "play": [cards], "close"?, "last_card"?, "draw"?, "reshuffle"?}`` (spec section 7).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rules.cards.deck import parse_cards
from rules.core.errors import ErrorCode, RecordError
from rules.core.reader import check_keys, expect_bool, expect_list, expect_object, expect_seat, expect_str
from rules.taki.game import Variant

ENTRY_KEYS = ("play", "draw", "close", "last_card", "reshuffle")

Played = tuple[str, str | None]


@dataclass(frozen=True)
class Entry:
    seat: int
    play: tuple[Played, ...]
    draw: bool
    close: bool
    last_card: bool
    reshuffle: tuple[str, ...] | None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"seat": self.seat}
        if self.play:
            out["play"] = [played_token(p) for p in self.play]
        if self.draw:
            out["draw"] = True
        if self.close:
            out["close"] = True
        if self.last_card:
            out["last_card"] = True
        if self.reshuffle is not None:
            out["reshuffle"] = list(self.reshuffle)
        return out


def played_token(played: Played) -> str:
    card, chosen = played
    return card if chosen is None else f"{card}:{chosen}"


def parse_entry(raw: Any, path: str, variant: Variant) -> Entry:
    obj = expect_object(raw, path)
    check_keys(obj, path, required=("seat",), optional=ENTRY_KEYS)
    seat = expect_seat(obj["seat"], f"{path}/seat", variant.seats)
    play: list[Played] = []
    if "play" in obj:
        items = expect_list(obj["play"], f"{path}/play")
        if not items:
            raise RecordError(ErrorCode.MALFORMED, f"{path}/play", "`play` must list at least one card.")
        for i, item in enumerate(items):
            p_path = f"{path}/play/{i}"
            play.append(variant.deck.parse_played(expect_str(item, p_path), p_path))
    draw = expect_bool(obj["draw"], f"{path}/draw") if "draw" in obj else False
    if not play and not draw:
        raise RecordError(ErrorCode.MALFORMED, path, "An entry either plays cards or draws (`draw`: true).")
    close = expect_bool(obj["close"], f"{path}/close") if "close" in obj else False
    last_card = expect_bool(obj["last_card"], f"{path}/last_card") if "last_card" in obj else False
    reshuffle: tuple[str, ...] | None = None
    if "reshuffle" in obj:
        reshuffle = tuple(parse_cards(obj["reshuffle"], f"{path}/reshuffle", variant.deck.counts))
    return Entry(
        seat=seat, play=tuple(play), draw=draw, close=close, last_card=last_card, reshuffle=reshuffle
    )
