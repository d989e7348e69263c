"""TAC variants (spec section 4, "Variant"): mode, master edition and deal sizes."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rules.core.errors import ErrorCode, RecordError
from rules.core.pointer import child
from rules.tac.cards import deck_for

MODES = ("teams", "ffa3", "2v1", "coop")
VARIANT_KEYS = frozenset({"master", "mode", "deal_sizes"})


@dataclass(frozen=True)
class TacConfig:
    """Everything the rules derive from the variant: seats, partners, sides, deck and deal schedule."""

    mode: str
    master: bool
    deal_sizes: tuple[int, ...]
    active: tuple[int, ...]
    partner: tuple[int | None, ...]
    sides: tuple[tuple[int, ...], ...]
    deck: dict[str, int]

    @property
    def coop(self) -> bool:
        return self.mode == "coop"

    def side_of(self, seat: int) -> tuple[int, ...]:
        for side in self.sides:
            if seat in side:
                return side
        raise ValueError(f"seat {seat} is not in play")

    def to_variant(self) -> dict[str, Any]:
        return {"mode": self.mode, "master": self.master}


def _bad(key: str, message: str) -> RecordError:
    return RecordError(ErrorCode.BAD_VARIANT, child("/variant", key) if key else "/variant", message)


def parse_variant(raw: dict[str, Any]) -> TacConfig:
    """Read the variant object (already known to be an object); bad_variant for unknown keys or values.

    >>> parse_variant({}).sides
    ((0, 2), (1, 3))
    >>> parse_variant({"mode": "2v1", "master": True}).deal_sizes
    (5, 5, 5, 5, 5, 5)
    """
    for key in raw:
        if key not in VARIANT_KEYS and key != "comment" and not key.startswith("x_"):
            raise _bad(key, f"Unknown TAC variant key {key!r}.")
    master = raw.get("master", False)
    if not isinstance(master, bool):
        raise _bad("master", "`master` must be true or false.")
    mode = raw.get("mode", "teams")
    if not isinstance(mode, str) or mode not in MODES:
        raise _bad("mode", f"`mode` must be one of {', '.join(MODES)}.")
    active: tuple[int, ...] = (0, 1, 2) if mode in ("ffa3", "2v1") else (0, 1, 2, 3)
    partner: tuple[int | None, ...]
    if mode in ("teams", "coop"):
        partner = (2, 3, 0, 1)
    elif mode == "2v1":
        partner = (None, 2, 1, None)
    else:
        partner = (None, None, None, None)
    sides: tuple[tuple[int, ...], ...]
    if mode == "teams":
        sides = ((0, 2), (1, 3))
    elif mode == "coop":
        sides = ((0, 1, 2, 3),)
    elif mode == "2v1":
        sides = ((0,), (1, 2))
    else:
        sides = ((0,), (1,), (2,))
    deck = deck_for(master)
    total = sum(deck.values())
    hands = len(active)
    default = ((5, 5, 5, 5, 6) if master else (5, 5, 5, 5, 5)) if hands == 4 else (5, 5, 5, 5, 5, 5)
    sizes = default
    if "deal_sizes" in raw:
        sizes_raw = raw["deal_sizes"]
        if (
            not isinstance(sizes_raw, list)
            or not sizes_raw
            or any(isinstance(x, bool) or not isinstance(x, int) or x < 1 for x in sizes_raw)
        ):
            raise _bad("deal_sizes", "`deal_sizes` must be a non-empty array of positive integers.")
        sizes = tuple(sizes_raw)
        dealt = sum(sizes) * hands
        if dealt > total or (hands == 4 and dealt != total):
            raise _bad(
                "deal_sizes",
                f"{hands} hands of {list(sizes)} need {dealt} cards, but a deck cycle has {total}"
                + (" and four hands must use the whole deck." if hands == 4 else "."),
            )
    return TacConfig(
        mode=mode, master=master, deal_sizes=sizes, active=active, partner=partner, sides=sides, deck=deck
    )
