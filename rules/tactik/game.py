"""Tac-Tik variants (spec section 5): 4 or 6 seats in teams of two, ring size as a parameter.

>>> v = parse_variant({})
>>> v.seats, v.board.ring, v.deal_sizes, v.partner
(4, 64, (4, 4, 4), (2, 3, 0, 1))
>>> parse_variant({"seats": 6}).teams
((0, 3), (1, 4), (2, 5))
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from rules.core.errors import ErrorCode, RecordError
from rules.core.pointer import child
from rules.tactik.cards import DECK
from rules.track.board import Board

DEFAULT_FIELDS_PER_SEAT = 16
MIN_FIELDS_PER_SEAT = 5
"""Below five fields a seat's section cannot hold its start field plus the -4's way back."""
MAX_FIELDS_PER_SEAT = 64
HAND_SIZE = 4
VARIANT_KEYS = frozenset({"seats", "ring_fields_per_seat", "teams", "deal_sizes"})


def bad_variant(path: str, message: str) -> RecordError:
    return RecordError(ErrorCode.BAD_VARIANT, path, message)


@dataclass(frozen=True)
class Variant:
    seats: int = 4
    fields_per_seat: int = DEFAULT_FIELDS_PER_SEAT
    teams: tuple[tuple[int, int], ...] = ((0, 2), (1, 3))
    board: Board = field(init=False, compare=False)
    partner: tuple[int, ...] = field(init=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "board", Board(seats=self.seats, fields_per_seat=self.fields_per_seat))
        partner = [0] * self.seats
        for a, b in self.teams:
            partner[a], partner[b] = b, a
        object.__setattr__(self, "partner", tuple(partner))

    @property
    def deal_sizes(self) -> tuple[int, ...]:
        """48 cards, 4 per seat: three deals with 4 seats, two with 6."""
        per_deal = HAND_SIZE * self.seats
        return (HAND_SIZE,) * (sum(DECK.values()) // per_deal)

    def team_of(self, seat: int) -> tuple[int, int]:
        return (min(seat, self.partner[seat]), max(seat, self.partner[seat]))

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"seats": self.seats}
        if self.fields_per_seat != DEFAULT_FIELDS_PER_SEAT:
            out["ring_fields_per_seat"] = self.fields_per_seat
        if self.teams != opposite_teams(self.seats):
            out["teams"] = [list(t) for t in self.teams]
        return out


def opposite_teams(seats: int) -> tuple[tuple[int, int], ...]:
    half = seats // 2
    return tuple((s, s + half) for s in range(half))


def _int_value(raw: Mapping[str, Any], key: str) -> int | None:
    if key not in raw:
        return None
    value = raw[key]
    if isinstance(value, bool) or not isinstance(value, int):
        raise bad_variant(child("/variant", key), f"`{key}` must be an integer.")
    return value


def parse_variant(raw: Mapping[str, Any]) -> Variant:
    """Read `variant`; every unknown key or impossible value is `bad_variant` at its pointer."""
    for key in raw:
        if key not in VARIANT_KEYS and key != "comment" and not key.startswith("x_"):
            raise bad_variant(child("/variant", key), f"Unknown Tac-Tik variant key {key!r}.")
    seats = _int_value(raw, "seats")
    if seats is None:
        seats = 4
    if seats not in (4, 6):
        raise bad_variant("/variant/seats", f"Tac-Tik is played by 4 or 6 seats, not {seats}.")
    fields = _int_value(raw, "ring_fields_per_seat")
    if fields is None:
        fields = DEFAULT_FIELDS_PER_SEAT
    if not MIN_FIELDS_PER_SEAT <= fields <= MAX_FIELDS_PER_SEAT:
        raise bad_variant(
            "/variant/ring_fields_per_seat",
            f"`ring_fields_per_seat` must lie in {MIN_FIELDS_PER_SEAT}..{MAX_FIELDS_PER_SEAT}, not {fields}.",
        )
    teams = opposite_teams(seats)
    if "teams" in raw:
        teams = _parse_teams(raw["teams"], seats)
    variant = Variant(seats=seats, fields_per_seat=fields, teams=teams)
    if "deal_sizes" in raw:
        sizes = raw["deal_sizes"]
        if not isinstance(sizes, list) or sizes != list(variant.deal_sizes):
            raise bad_variant(
                "/variant/deal_sizes",
                f"Tac-Tik deals are fixed at {list(variant.deal_sizes)} with {seats} seats.",
            )
    return variant


def _parse_teams(raw: Any, seats: int) -> tuple[tuple[int, int], ...]:
    path = "/variant/teams"
    if not isinstance(raw, list) or len(raw) != seats // 2:
        raise bad_variant(path, f"`teams` must list {seats // 2} pairs of seats.")
    seen: set[int] = set()
    teams: list[tuple[int, int]] = []
    for i, team in enumerate(raw):
        t_path = child(path, i)
        if not isinstance(team, list) or len(team) != 2:
            raise bad_variant(t_path, "Every Tac-Tik team is a pair of seats.")
        for j, seat in enumerate(team):
            if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < seats:
                raise bad_variant(child(t_path, j), f"{seat!r} is not a seat 0..{seats - 1}.")
            if seat in seen:
                raise bad_variant(child(t_path, j), f"Seat {seat} is in two teams.")
            seen.add(seat)
        teams.append((min(team), max(team)))
    return tuple(sorted(teams))
