"""Board geometry of the marble games (spec section 3).

Positions are integers: ring fields ``0…R-1`` clockwise, and home slot ``s`` (1 next to the entry,
4 deepest) of seat ``k`` is ``R + 4k + s - 1``. Record tokens are ring integers and ``"H<k>:<s>"``.

>>> b = Board(seats=4)
>>> b.ring, b.start(1), b.entry(1)
(64, 16, 16)
>>> b.token(b.parse("H2:3", "/x"))
'H2:3'
>>> [b.token(p) for p in b.path(0, 62, b.home(0, 1))]
[63, 0, 'H0:1']
>>> [b.token(p) for p in b.path(1, 18, b.home(1, 2), backward=True)]
[17, 16, 'H1:1', 'H1:2']
>>> [b.token(p) for p in b.targets(0, 61, 5)]
[2, 'H0:2']
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from rules.core.errors import ErrorCode, RecordError

_HOME_TOKEN = re.compile(r"^H(\d+):(\d+)$")


@dataclass(frozen=True)
class Board:
    seats: int
    fields_per_seat: int = 16
    home_entry_offset: int = 0
    home_slots: int = 4
    ring: int = field(init=False)

    def __post_init__(self) -> None:
        if self.seats < 1 or self.fields_per_seat < 1 or self.home_slots < 1:
            raise ValueError("A board needs at least one seat, field and home slot.")
        if not 0 <= self.home_entry_offset < self.fields_per_seat:
            raise ValueError("The home entry offset must lie within a seat's section of the ring.")
        object.__setattr__(self, "ring", self.seats * self.fields_per_seat)

    # --- geometry -----------------------------------------------------------------------------
    def start(self, seat: int) -> int:
        return seat * self.fields_per_seat

    def entry(self, seat: int) -> int:
        return seat * self.fields_per_seat + self.home_entry_offset

    def home(self, seat: int, slot: int) -> int:
        return self.ring + self.home_slots * seat + slot - 1

    def is_home(self, pos: int) -> bool:
        return pos >= self.ring

    def home_owner(self, pos: int) -> int:
        return (pos - self.ring) // self.home_slots

    def home_slot(self, pos: int) -> int:
        return (pos - self.ring) % self.home_slots + 1

    def is_valid(self, pos: int) -> bool:
        return 0 <= pos < self.ring + self.home_slots * self.seats

    # --- tokens -------------------------------------------------------------------------------
    def parse(self, token: object, path: str) -> int:
        """Read a position token; RecordError(malformed) for bad syntax or a field off the board."""
        if isinstance(token, bool):
            raise RecordError(ErrorCode.MALFORMED, path, "A position is a ring field or \"H<seat>:<slot>\".")
        if isinstance(token, int):
            if 0 <= token < self.ring:
                return token
            raise RecordError(ErrorCode.MALFORMED, path, f"Field {token} is not on the ring 0..{self.ring - 1}.")
        if isinstance(token, str):
            m = _HOME_TOKEN.match(token)
            if m:
                seat, slot = int(m.group(1)), int(m.group(2))
                if seat < self.seats and 1 <= slot <= self.home_slots:
                    return self.home(seat, slot)
                raise RecordError(ErrorCode.MALFORMED, path, f"There is no home field {token}.")
        raise RecordError(ErrorCode.MALFORMED, path, f"{token!r} is not a position token.")

    def token(self, pos: int) -> int | str:
        if pos < self.ring:
            return pos
        return f"H{self.home_owner(pos)}:{self.home_slot(pos)}"

    # --- paths --------------------------------------------------------------------------------
    def path(
        self, colour: int, frm: int, to: int, *, backward: bool = False, branch: bool = True
    ) -> tuple[int, ...] | None:
        """Fields passed and landed on from `frm` to `to` (see the module doc), or None."""
        ring = self.ring
        if frm >= ring:  # from a home: only within the same home
            if to < ring or self.home_owner(to) != self.home_owner(frm) or self.home_owner(frm) != colour:
                return None
            s1, s2 = self.home_slot(frm), self.home_slot(to)
            base = self.home(colour, 1) - 1
            if not backward and s2 > s1:
                return tuple(base + s for s in range(s1 + 1, s2 + 1))
            if backward and s2 < s1:
                return tuple(base + s for s in range(s1 - 1, s2 - 1, -1))
            return None
        if to < ring:
            d = (frm - to) % ring if backward else (to - frm) % ring
            if d == 0:
                return None
            if backward:
                return tuple((frm - i) % ring for i in range(1, d + 1))
            return tuple((frm + i) % ring for i in range(1, d + 1))
        # ring -> home: only the marble's own home, through its entry field
        if not branch or self.home_owner(to) != colour:
            return None
        e = self.entry(colour)
        slot = self.home_slot(to)
        base = self.home(colour, 1) - 1
        if backward:
            d = (frm - e) % ring
            ring_part = tuple((frm - i) % ring for i in range(1, d + 1))
        else:
            d = (e - frm) % ring
            ring_part = tuple((frm + i) % ring for i in range(1, d + 1))
        return ring_part + tuple(base + s for s in range(1, slot + 1))

    def targets(
        self, colour: int, frm: int, steps: int, *, backward: bool = False, branch: bool = True
    ) -> tuple[int, ...]:
        """Every position reachable from `frm` with exactly `steps` steps in that direction."""
        ring = self.ring
        if steps <= 0:
            return ()
        if frm >= ring:
            if self.home_owner(frm) != colour:
                return ()
            slot = self.home_slot(frm) + (-steps if backward else steps)
            if 1 <= slot <= self.home_slots:
                return (self.home(colour, slot),)
            return ()
        out: list[int] = []
        out.append((frm - steps) % ring if backward else (frm + steps) % ring)
        if branch:
            e = self.entry(colour)
            d = (frm - e) % ring if backward else (e - frm) % ring
            if d < steps and steps - d <= self.home_slots:
                out.append(self.home(colour, steps - d))
        return tuple(out)
