"""ZACK! events: reading them from a record and writing them back (spec section 8, "Events").

An event is what landed in the bowl: a throw of a ZACK! card, a challenge card, or a player card.
Events nested in `after` (cards that landed on a Stopp card or a challenge before play stopped) are
plain: they carry no `after`, `choose` or `order` of their own, because they have no effect.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from rules.core.errors import ErrorCode, RecordError
from rules.core.pointer import child
from rules.core.reader import check_keys, expect_list, expect_object, expect_seat, expect_str, malformed
from rules.zack.cards import ALL_TOKENS, COLOURS

SLOW = "slow"
OUT_OF_TURN = "out_of_turn"
REASONS = (SLOW, OUT_OF_TURN)

THROW = "throw"
CHALLENGE = "challenge"
PLAYER_CARD = "player_card"
EVENT_KINDS = (THROW, CHALLENGE, PLAYER_CARD)


@dataclass(frozen=True)
class Throw:
    """The seat throws the top card of its stack. `card` is reader-only and checked when given."""

    seat: int
    card: str | None = None
    after: tuple[Event, ...] | None = None
    choose: str | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"seat": self.seat, "event": THROW}
        if self.card is not None:
            out["card"] = self.card
        if self.choose is not None:
            out["choose"] = self.choose
        if self.after is not None:
            out["after"] = [event.to_json() for event in self.after]
        return out


@dataclass(frozen=True)
class Challenge:
    """A challenge card of colour `color` thrown by `seat` for `reason`."""

    seat: int
    color: str
    reason: str
    accused: int | None = None
    after: tuple[Event, ...] | None = None
    order: tuple[str, ...] | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "seat": self.seat,
            "event": CHALLENGE,
            "color": self.color,
            "reason": self.reason,
        }
        if self.accused is not None:
            out["accused"] = self.accused
        if self.after is not None:
            out["after"] = [event.to_json() for event in self.after]
        if self.order is not None:
            out["order"] = list(self.order)
        return out


@dataclass(frozen=True)
class PlayerCard:
    """The seat throws its player card: the winning move, or a fault."""

    seat: int

    def to_json(self) -> dict[str, Any]:
        return {"seat": self.seat, "event": PLAYER_CARD}


Event = Throw | Challenge | PlayerCard


def _card_token(value: Any, path: str, tokens: frozenset[str]) -> str:
    token = expect_str(value, path)
    if token not in ALL_TOKENS:
        raise RecordError(ErrorCode.UNKNOWN_CARD, path, f"{token!r} is not a ZACK! card.")
    if token not in tokens:
        raise RecordError(ErrorCode.UNKNOWN_CARD, path, f"{token!r} is not in this variant's deck.")
    return token


def _check_time(obj: Mapping[str, Any], path: str) -> None:
    """`t` (milliseconds) is ignored, but it must be a number."""
    if "t" in obj:
        value = obj["t"]
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise malformed(child(path, "t"), "`t` must be a number of milliseconds.")


def _after(
    obj: Mapping[str, Any], path: str, n_seats: int, tokens: frozenset[str]
) -> tuple[Event, ...] | None:
    if "after" not in obj:
        return None
    items = expect_list(obj["after"], child(path, "after"))
    return tuple(
        parse_event(item, child(path, "after", j), n_seats, tokens, nested=True)
        for j, item in enumerate(items)
    )


def parse_event(
    raw: Any, path: str, n_seats: int, tokens: frozenset[str] = ALL_TOKENS, *, nested: bool = False
) -> Event:
    """Read one event; schema problems are `malformed`, card tokens outside `tokens` (the variant's
    cards) and unknown colours `unknown_card`."""
    obj = expect_object(raw, path)
    kind = obj.get("event")
    if kind not in EVENT_KINDS:
        if "event" not in obj:
            raise malformed(path, "Missing required key 'event'.")
        raise malformed(
            child(path, "event"), f"Unknown event {kind!r}; expected one of {', '.join(EVENT_KINDS)}."
        )
    if kind == THROW:
        extra = () if nested else ("after", "choose")
        check_keys(obj, path, required=("seat", "event"), optional=("card", "t", *extra))
    elif kind == CHALLENGE:
        extra = () if nested else ("after", "order")
        check_keys(
            obj, path, required=("seat", "event", "color", "reason"), optional=("accused", "t", *extra)
        )
    else:
        check_keys(obj, path, required=("seat", "event"), optional=("t",))
    seat = expect_seat(obj["seat"], child(path, "seat"), n_seats)
    _check_time(obj, path)
    if kind == THROW:
        card = _card_token(obj["card"], child(path, "card"), tokens) if "card" in obj else None
        choose = expect_str(obj["choose"], child(path, "choose")) if "choose" in obj else None
        return Throw(seat=seat, card=card, after=_after(obj, path, n_seats, tokens), choose=choose)
    if kind == CHALLENGE:
        color = expect_str(obj["color"], child(path, "color"))
        if color not in COLOURS:
            raise RecordError(
                ErrorCode.UNKNOWN_CARD, child(path, "color"), f"{color!r} is not a challenge colour."
            )
        reason = expect_str(obj["reason"], child(path, "reason"))
        if reason not in REASONS:
            raise malformed(
                child(path, "reason"), f"Unknown reason {reason!r}; expected slow or out_of_turn."
            )
        accused = expect_seat(obj["accused"], child(path, "accused"), n_seats) if "accused" in obj else None
        after = _after(obj, path, n_seats, tokens)
        order: tuple[str, ...] | None = None
        if "order" in obj:
            items = expect_list(obj["order"], child(path, "order"))
            order = tuple(_card_token(item, child(path, "order", k), tokens) for k, item in enumerate(items))
        return Challenge(seat=seat, color=color, reason=reason, accused=accused, after=after, order=order)
    return PlayerCard(seat=seat)
