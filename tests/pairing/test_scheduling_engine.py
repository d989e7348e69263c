"""Scheduling: boards, accessibility, repeat boards, time slots, releasing games, iCal feeds."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import icalendar
import pytest

from tournaments.pairing import PairedTable
from tournaments.scheduling import (
    Board,
    CalendarTournament,
    PlannedGame,
    SchedulingError,
    assign_boards,
    entrant_calendar,
    releasable_games,
    round_events,
    round_slots,
    tournament_calendar,
)

START = datetime(2026, 11, 22, 10, 0, tzinfo=UTC)


def tables(*groups):
    return [PairedTable(number, tuple(group)) for number, group in enumerate(groups, start=1)]


def test_boards_in_order_without_constraints():
    assignment = assign_boards(tables((1, 2), (3, 4)), [Board(10), Board(11), Board(12)], start=START)
    assert [(a.table_number, a.board_id) for a in assignment] == [(1, 10), (2, 11)]
    assert all(a.start == START for a in assignment)


def test_accessible_board_for_who_needs_it():
    boards = [Board(10), Board(11), Board(12, accessible=True)]
    assignment = assign_boards(tables((1, 2), (3, 4), (5, 6)), boards, needs_accessible={4})
    assert {a.table_number: a.board_id for a in assignment}[2] == 12


def test_not_enough_accessible_boards_is_an_error():
    with pytest.raises(SchedulingError, match="accessible"):
        assign_boards(
            tables((1, 2), (3, 4)), [Board(10, accessible=True), Board(11)], needs_accessible={1, 3}
        )
    with pytest.raises(SchedulingError, match="boards"):
        assign_boards(tables((1, 2), (3, 4)), [Board(10)])


def test_repeat_boards_avoided_when_asked():
    history = {10: {1, 2}, 11: {3}}
    round_tables = tables((1, 2), (3, 4))
    plain = assign_boards(round_tables, [Board(10), Board(11)], played_at=history)
    assert sum(a.repeats for a in plain) == 3
    avoided = assign_boards(round_tables, [Board(10), Board(11)], played_at=history, avoid_repeat_boards=True)
    assert [a.board_id for a in avoided] == [11, 10]
    assert sum(a.repeats for a in avoided) == 0


def test_big_rounds_take_the_greedy_path_and_honour_accessibility():
    round_tables = tables(*[(2 * i + 1, 2 * i + 2) for i in range(100)])
    boards = [Board(1000 + i, accessible=i % 10 == 0) for i in range(110)]
    assignment = assign_boards(round_tables, boards, needs_accessible={1, 77, 150})
    by_table = {a.table_number: a.board_id for a in assignment}
    accessible = {b.id for b in boards if b.accessible}
    assert {by_table[1], by_table[39], by_table[75]} <= accessible
    assert len(set(by_table.values())) == 100


def test_round_slots():
    slots = round_slots(START, 3, duration=timedelta(minutes=90), pause=timedelta(minutes=30))
    assert [s.start.hour for s in slots] == [10, 12, 14]
    assert slots[2].end == datetime(2026, 11, 22, 15, 30, tzinfo=UTC)
    with pytest.raises(SchedulingError):
        round_slots(datetime(2026, 11, 22, 10), 3, duration=timedelta(minutes=90), pause=timedelta(0))


def test_next_game_released_when_all_its_entrants_reported():
    games = [
        PlannedGame(1, 1, (1, 2)),
        PlannedGame(2, 1, (3, 4)),
        PlannedGame(3, 2, (1, 3)),
        PlannedGame(4, 2, (2, 4)),
    ]
    assert [g.id for g in releasable_games(games, reported=(), started=())] == [1, 2]
    assert releasable_games(games, reported=(), started=(1, 2)) == ()
    # table 1 reported, table 2 still playing: 1 v 3 waits for 3, 2 v 4 waits for 4
    assert releasable_games(games, reported=(1,), started=(1, 2)) == ()
    assert [g.id for g in releasable_games(games, reported=(1, 2), started=(1, 2))] == [3, 4]


def test_release_respects_boards_and_shared_entrants():
    games = [
        PlannedGame(1, 1, (1, 2), board_id=7),
        PlannedGame(2, 2, (3, 4), board_id=7),
        PlannedGame(3, 2, (5, 6)),
    ]
    assert [g.id for g in releasable_games(games, reported=(), started=(1,))] == [3]
    assert [g.id for g in releasable_games(games, reported=(1,), started=(1,))] == [2, 3]
    with pytest.raises(SchedulingError):
        releasable_games([games[0], games[0]], reported=(), started=())


def test_ical_feeds_for_tournament_and_entrant():
    tournament = CalendarTournament(
        slug="spring-cup", name="Spring Cup", url="https://example.org/t/spring-cup"
    )
    slot = round_slots(START, 1, duration=timedelta(minutes=90), pause=timedelta(0))[0]
    round_tables = tables((1, 2), (3, 4))
    boards = assign_boards(round_tables, [Board(10), Board(11)], start=START)
    events = round_events(
        tournament,
        1,
        slot,
        round_tables,
        entrant_names={1: "Ana & Ben", 2: "Cleo & Dan", 3: "Eve & Fay"},
        boards=boards,
        board_names={10: "Table A"},
        venue="Town hall",
    )
    whole = icalendar.Calendar.from_ical(tournament_calendar(tournament, events, generated_at=START))
    entries = [c for c in whole.walk("VEVENT")]
    assert len(entries) == 2
    assert str(entries[0]["summary"]).endswith("Ana & Ben – Cleo & Dan")
    assert str(entries[0]["location"]) == "Town hall, Table A"
    assert str(entries[1]["summary"]).endswith("Eve & Fay – #4")
    assert entries[0]["dtend"].dt - entries[0]["dtstart"].dt == timedelta(minutes=90)
    assert str(entries[0]["uid"]) == "spring-cup-round-1-table-1@tournaments.invalid"
    mine = icalendar.Calendar.from_ical(entrant_calendar(tournament, events, 4, generated_at=START))
    assert [str(c["uid"]) for c in mine.walk("VEVENT")] == ["spring-cup-round-1-table-2@tournaments.invalid"]


def test_ical_rejects_naive_times():
    tournament = CalendarTournament(slug="x", name="X")
    with pytest.raises(SchedulingError):
        tournament_calendar(tournament, (), generated_at=datetime(2026, 1, 1))
