"""Round time slots and releasing a table's next game as soon as its entrants are free."""

from __future__ import annotations

from collections.abc import Collection, Sequence
from datetime import datetime, timedelta

from tournaments.scheduling.values import PlannedGame, SchedulingError, TimeSlot


def round_slots(
    first_start: datetime, rounds: int, *, duration: timedelta, pause: timedelta
) -> tuple[TimeSlot, ...]:
    """Back-to-back time slots: round i starts ``duration + pause`` after round i-1."""
    if first_start.tzinfo is None:
        raise SchedulingError("Give the start time with its time zone.")
    if rounds < 0 or duration <= timedelta(0) or pause < timedelta(0):
        raise SchedulingError(
            "Rounds, durations and pauses must not be negative (a round must take some time)."
        )
    return tuple(
        TimeSlot(
            start=first_start + index * (duration + pause),
            end=first_start + index * (duration + pause) + duration,
        )
        for index in range(rounds)
    )


def releasable_games(
    planned: Sequence[PlannedGame], *, reported: Collection[int], started: Collection[int]
) -> tuple[PlannedGame, ...]:
    """The games that may start now, in round then id order.

    A game may start when it has neither started nor been reported, every game of an earlier round
    that shares an entrant with it has been reported, no other unfinished game holds one of its
    entrants, and its board (if it has one) is not taken by a started game still unreported.
    """
    done = set(reported)
    running = set(started) - done
    ids = [game.id for game in planned]
    if len(set(ids)) != len(ids):
        raise SchedulingError("A planned game is listed twice.")
    busy_entrants = {entrant for game in planned if game.id in running for entrant in game.entrant_ids}
    busy_boards = {game.board_id for game in planned if game.id in running and game.board_id is not None}
    waiting_by_entrant: dict[int, list[PlannedGame]] = {}
    for game in planned:
        if game.id not in done:
            for entrant in game.entrant_ids:
                waiting_by_entrant.setdefault(entrant, []).append(game)
    free: list[PlannedGame] = []
    claimed_entrants: set[int] = set()
    claimed_boards: set[int] = set()
    for game in sorted(planned, key=lambda g: (g.round_number, g.id)):
        if game.id in done or game.id in running:
            continue
        entrants = set(game.entrant_ids)
        if entrants & busy_entrants or entrants & claimed_entrants:
            continue
        if game.board_id is not None and (game.board_id in busy_boards or game.board_id in claimed_boards):
            continue
        earlier_open = any(
            other.round_number < game.round_number and other.id != game.id
            for entrant in entrants
            for other in waiting_by_entrant.get(entrant, [])
        )
        if earlier_open:
            continue
        free.append(game)
        claimed_entrants |= entrants
        if game.board_id is not None:
            claimed_boards.add(game.board_id)
    return tuple(free)
