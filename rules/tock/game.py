"""Tock variants (spec section 6): seats, mode, quick start, the 7 option, board parameters, deal sizes."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rules.core.errors import ErrorCode, RecordError
from rules.tock.cards import DECK_SIZE

MODES = ("ffa", "teams")
SEVEN_OPTIONS = ("split", "single")
DEFAULT_SEATS = 4
MIN_FIELDS_PER_SEAT = 8
MAX_FIELDS_PER_SEAT = 64
_KEYS = frozenset(
    {"seats", "mode", "quick_start", "seven", "ring_fields_per_seat", "home_entry_offset", "deal_sizes"}
)


def default_deal_sizes(seats: int) -> tuple[int, ...]:
    """Each seat gets T = floor(52/n) cards per cycle in ceil(T/5) deals, larger deals first.

    >>> [default_deal_sizes(n) for n in range(2, 7)]
    [(5, 5, 4, 4, 4, 4), (5, 4, 4, 4), (5, 4, 4), (5, 5), (4, 4)]
    """
    total = DECK_SIZE // seats
    deals = -(-total // 5)
    base, extra = divmod(total, deals)
    return tuple(base + 1 if i < extra else base for i in range(deals))


@dataclass(frozen=True)
class TockVariant:
    seats: int = DEFAULT_SEATS
    mode: str = "ffa"
    quick_start: bool = False
    seven: str = "split"
    ring_fields_per_seat: int = 16
    home_entry_offset: int = 0
    deal_sizes: tuple[int, ...] = (5, 4, 4)

    @property
    def teams(self) -> bool:
        return self.mode == "teams"

    def partner(self, seat: int) -> int | None:
        """The opposite seat in teams mode (2v2: {0,2},{1,3}; 2v2v2: {0,3},{1,4},{2,5})."""
        if not self.teams:
            return None
        return (seat + self.seats // 2) % self.seats

    def team_of(self, seat: int) -> tuple[int, ...]:
        partner = self.partner(seat)
        return (seat,) if partner is None else tuple(sorted((seat, partner)))

    def to_json(self) -> dict[str, Any]:
        return {
            "seats": self.seats,
            "mode": self.mode,
            "quick_start": self.quick_start,
            "seven": self.seven,
            "ring_fields_per_seat": self.ring_fields_per_seat,
            "home_entry_offset": self.home_entry_offset,
            "deal_sizes": list(self.deal_sizes),
        }


def _bad(key: str, message: str) -> RecordError:
    return RecordError(ErrorCode.BAD_VARIANT, f"/variant/{key}", message)


def _int(raw: dict[str, Any], key: str, default: int, lo: int, hi: int) -> int:
    value = raw.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
        raise _bad(key, f"{key} must be an integer from {lo} to {hi}, not {value!r}")
    return value


def _choice(raw: dict[str, Any], key: str, default: str, allowed: tuple[str, ...]) -> str:
    value = raw.get(key, default)
    if not isinstance(value, str) or value not in allowed:
        raise _bad(key, f"{key} must be one of {', '.join(allowed)}, not {value!r}")
    return value


def parse_variant(raw: dict[str, Any]) -> TockVariant:
    """Read `variant` (already known to be an object); every problem is bad_variant at its key."""
    for key in raw:
        if key not in _KEYS and key != "comment" and not key.startswith("x_"):
            raise _bad(key, f"unknown Tock variant key {key!r}")
    seats = _int(raw, "seats", DEFAULT_SEATS, 2, 6)
    mode = _choice(raw, "mode", "ffa", MODES)
    if mode == "teams" and seats not in (4, 6):
        raise _bad("mode", f"teams mode needs 4 or 6 seats, not {seats}")
    quick_start = raw.get("quick_start", False)
    if not isinstance(quick_start, bool):
        raise _bad("quick_start", f"quick_start must be true or false, not {quick_start!r}")
    seven = _choice(raw, "seven", "split", SEVEN_OPTIONS)
    fields = _int(raw, "ring_fields_per_seat", 16, MIN_FIELDS_PER_SEAT, MAX_FIELDS_PER_SEAT)
    offset = _int(raw, "home_entry_offset", 0, 0, fields - 1)
    if "deal_sizes" in raw:
        sizes = raw["deal_sizes"]
        if (
            not isinstance(sizes, list)
            or not sizes
            or any(isinstance(s, bool) or not isinstance(s, int) or s < 1 for s in sizes)
        ):
            raise _bad(
                "deal_sizes", f"deal_sizes must be a non-empty list of positive integers, not {sizes!r}"
            )
        if seats * sum(sizes) > DECK_SIZE:
            raise _bad("deal_sizes", f"{seats} seats x {sum(sizes)} cards per cycle exceed the 52-card deck")
        deal_sizes = tuple(sizes)
    else:
        deal_sizes = default_deal_sizes(seats)
    return TockVariant(seats, mode, quick_start, seven, fields, offset, deal_sizes)
