"""Scheduling engine: physical tables (boards), time slots, releasing games, iCal feeds.

Pure Python on plain dataclasses; the tournament services feed it rows and save the outcome.

* :func:`assign_boards` -- a round's tables onto a venue's boards (accessibility, no repeat boards).
* :func:`round_slots` -- back-to-back time slots for the rounds.
* :func:`releasable_games` -- which next games may start now (table by table release).
* :func:`round_events`, :func:`tournament_calendar`, :func:`entrant_calendar` -- iCal feeds.
"""

from tournaments.scheduling.boards import assign_boards
from tournaments.scheduling.ical import entrant_calendar, round_events, tournament_calendar
from tournaments.scheduling.slots import releasable_games, round_slots
from tournaments.scheduling.values import (
    Board,
    BoardAssignment,
    CalendarEvent,
    CalendarTournament,
    PlannedGame,
    SchedulingError,
    TimeSlot,
)

__all__ = [
    "Board",
    "BoardAssignment",
    "CalendarEvent",
    "CalendarTournament",
    "PlannedGame",
    "SchedulingError",
    "TimeSlot",
    "assign_boards",
    "entrant_calendar",
    "releasable_games",
    "round_events",
    "round_slots",
    "tournament_calendar",
]
