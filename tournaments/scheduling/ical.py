"""iCalendar (RFC 5545) feeds for a tournament and for one entrant, from plain events."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime

import icalendar

from tournaments.pairing.values import PairedTable
from tournaments.scheduling.values import (
    BoardAssignment,
    CalendarEvent,
    CalendarTournament,
    SchedulingError,
    TimeSlot,
)

PRODUCT_ID = "-//club-tournaments//pairing and scheduling//EN"


def round_events(
    tournament: CalendarTournament,
    round_number: int,
    slot: TimeSlot,
    tables: Sequence[PairedTable],
    *,
    entrant_names: Mapping[int, str],
    boards: Sequence[BoardAssignment] = (),
    board_names: Mapping[int, str] | None = None,
    venue: str = "",
) -> tuple[CalendarEvent, ...]:
    """One event per table of a round (title: the entrants; location: the venue and board)."""
    board_of = {assignment.table_number: assignment for assignment in boards}
    events: list[CalendarEvent] = []
    for table in tables:
        names = [entrant_names.get(entrant_id, f"#{entrant_id}") for entrant_id in table.entrant_ids]
        assignment = board_of.get(table.number)
        place = ""
        if assignment is not None:
            place = (board_names or {}).get(assignment.board_id, f"Board {assignment.board_id}")
        start = assignment.start if assignment is not None and assignment.start is not None else slot.start
        events.append(
            CalendarEvent(
                uid=f"{tournament.slug}-round-{round_number}-table-{table.number}@{tournament.domain}",
                title=f"{tournament.name}, round {round_number}, table {table.number}: {' – '.join(names)}",
                start=start,
                end=slot.end + (start - slot.start),
                location=", ".join(part for part in (venue, place) if part),
                description=f"Round {round_number}, table {table.number}" + (f", {place}" if place else ""),
                entrant_ids=table.entrant_ids,
                url=tournament.url,
            )
        )
    return tuple(events)


def tournament_calendar(
    tournament: CalendarTournament, events: Sequence[CalendarEvent], *, generated_at: datetime
) -> bytes:
    """The whole tournament as an .ics file."""
    return _calendar(tournament.name, events, generated_at)


def entrant_calendar(
    tournament: CalendarTournament,
    events: Sequence[CalendarEvent],
    entrant_id: int,
    *,
    generated_at: datetime,
    entrant_name: str = "",
) -> bytes:
    """The events of one entrant (its games and the events for everyone) as an .ics file."""
    mine = [event for event in events if not event.entrant_ids or entrant_id in event.entrant_ids]
    title = f"{tournament.name} – {entrant_name}" if entrant_name else tournament.name
    return _calendar(title, mine, generated_at)


def _calendar(title: str, events: Sequence[CalendarEvent], generated_at: datetime) -> bytes:
    if generated_at.tzinfo is None:
        raise SchedulingError("The calendar time stamp needs a time zone.")
    calendar = icalendar.Calendar()
    calendar.add("prodid", PRODUCT_ID)
    calendar.add("version", "2.0")
    calendar.add("calscale", "GREGORIAN")
    calendar.add("x-wr-calname", title)
    uids: set[str] = set()
    for event in sorted(events, key=lambda e: (e.start, e.uid)):
        if event.start.tzinfo is None or event.end.tzinfo is None:
            raise SchedulingError(f"Event {event.uid}: times need a time zone.")
        if event.end <= event.start:
            raise SchedulingError(f"Event {event.uid} ends before it starts.")
        if event.uid in uids:
            raise SchedulingError(f"Two events share the UID {event.uid}.")
        uids.add(event.uid)
        entry = icalendar.Event()
        entry.add("uid", event.uid)
        entry.add("dtstamp", generated_at)
        entry.add("dtstart", event.start)
        entry.add("dtend", event.end)
        entry.add("summary", event.title)
        if event.location:
            entry.add("location", event.location)
        if event.description:
            entry.add("description", event.description)
        if event.url:
            entry.add("url", event.url)
        calendar.add_component(entry)
    return bytes(calendar.to_ical())
