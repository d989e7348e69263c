"""Plain values of the scheduling engine: venues' boards, time slots, games, calendar events."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime


class SchedulingError(ValueError):
    """Bad input to the scheduler (a human-readable message; the caller turns it into a 4xx)."""


@dataclass(frozen=True)
class Board:
    """A physical table at a venue."""

    id: int
    name: str = ""
    accessible: bool = False  # reachable and usable for entrants who need an accessible table
    venue: str = ""


@dataclass(frozen=True)
class TimeSlot:
    start: datetime  # timezone-aware
    end: datetime


@dataclass(frozen=True)
class BoardAssignment:
    table_number: int  # the PairedTable.number of the round
    board_id: int
    start: datetime | None = None
    repeats: int = 0  # entrants of this table who already played at this board (when avoided)


@dataclass(frozen=True)
class PlannedGame:
    """One game of a round, for releasing tables one by one."""

    id: int
    round_number: int
    entrant_ids: tuple[int, ...]
    board_id: int | None = None


@dataclass(frozen=True)
class CalendarTournament:
    slug: str  # stable, used in event UIDs
    name: str
    url: str = ""
    domain: str = "tournaments.invalid"  # right-hand side of event UIDs


@dataclass(frozen=True)
class CalendarEvent:
    uid: str  # stable across feeds so calendar apps update instead of duplicating
    title: str
    start: datetime  # timezone-aware
    end: datetime
    location: str = ""
    description: str = ""
    entrant_ids: tuple[int, ...] = ()  # who plays; empty = everyone (e.g. the opening)
    url: str = ""
