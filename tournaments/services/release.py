"""When a table may be played and reported: rolling release of the next round, and the game length.

* Rolling rounds (round robin and group rounds with `Tournament.rolling_rounds`): the next round may be
  published while the current one is played; a table of round n+1 may start as soon as every one of
  its entrants has a final result at all its earlier tables. `tables_released` decides it for a round
  with `tournaments.scheduling.releasable_games` (the library's table-by-table release); reports at a
  table that may not start yet are refused (`table_not_released`).
* Game length (`Tournament.game_minutes`): a game stopped at the time limit cannot be reported before the
  table's start time plus the game length (`time_limit_not_reached`); iCal events last that long and
  rolling tables are expected to start when the last of their entrants' earlier games ends.
"""

from __future__ import annotations

import datetime
from collections import defaultdict
from collections.abc import Sequence
from typing import Any

from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _

from tournaments import scheduling
from tournaments.errors import ErrorCode, TournamentError
from tournaments.models import Result, Round, Table, Tournament


def waiting_on(
    table: Table, *, round_: Round | None = None, entrant_ids: Sequence[int] | None = None
) -> list[Table]:
    """The earlier tables (not byes, in published rounds) of the table's entrants without a final result.

    ``round_`` (the table's round) and ``entrant_ids`` (who sits at it): pass them when already read,
    and this is one query.
    """
    round_ = round_ if round_ is not None else table.round
    if entrant_ids is None:
        entrant_ids = list(table.seats.values_list("entrant_id", flat=True))
    return list(
        Table.objects.filter(
            round__tournament_id=round_.tournament_id, round__number__lt=round_.number,
            round__status=Round.Status.PUBLISHED, is_bye=False, seats__entrant_id__in=list(entrant_ids),
        ).exclude(results__state__in=Result.FINAL_STATES).select_related("round").distinct().order_by(
            "round__number", "number")
    )


def require_released(
    table: Table, *, round_: Round | None = None, entrant_ids: Sequence[int] | None = None
) -> None:
    """Refuse a report at a table whose entrants still play an earlier table (rolling rounds).
    ``round_`` and ``entrant_ids``: as for `waiting_on`."""
    blocking = waiting_on(table, round_=round_, entrant_ids=entrant_ids)
    if blocking:
        first = blocking[0]
        raise TournamentError(
            ErrorCode.TABLE_NOT_RELEASED,
            _("This table may not start yet: table %(table)s of round %(round)s has no final result.")
            % {"table": first.number, "round": first.round.number},
            waiting_on=[t.pk for t in blocking],
        )


def game_length(tournament: Tournament) -> datetime.timedelta:
    return datetime.timedelta(minutes=tournament.game_minutes)


def require_time_limit_reached(tournament: Tournament, round_: Round, table: Table) -> None:
    """A game stopped at the time limit: only once the table's start time plus the game length has passed
    (tables without a start time are not checked)."""
    start = table.starts_at or round_.starts_at
    if start is None:
        return
    limit = start + game_length(tournament)
    if timezone.now() < limit:
        raise TournamentError(
            ErrorCode.TIME_LIMIT_NOT_REACHED,
            _("The time limit (%(minutes)s minutes) is reached at %(time)s; report the game as finished or "
              "wait.") % {"minutes": tournament.game_minutes,
                          "time": timezone.localtime(limit).strftime("%H:%M")},
        )


def tables_released(tournament: Tournament) -> dict[int, str]:
    """Every non-bye table of the published rounds: `done` (final result), `playing` (a result is
    reported, or it may start now) or `waiting` (an entrant still plays an earlier table).

    Uses `scheduling.releasable_games`: a game may start when every earlier game of its entrants is
    reported; reported = final here."""
    tables = list(
        Table.objects.filter(round__tournament=tournament, round__status=Round.Status.PUBLISHED, is_bye=False)
        .select_related("round").prefetch_related("seats")
    )
    final = set(
        Result.objects.filter(table__in=tables, state__in=Result.FINAL_STATES).values_list("table_id", flat=True)
    )
    pending = set(
        Result.objects.filter(table__in=tables, state=Result.State.REPORTED).values_list("table_id", flat=True)
    )
    planned = [
        scheduling.PlannedGame(id=t.pk, round_number=t.round.number,
                               entrant_ids=tuple(s.entrant_id for s in t.seats.all()))
        for t in tables
    ]
    free = {game.id for game in scheduling.releasable_games(planned, reported=final, started=())}
    status: dict[int, str] = {}
    for table in tables:
        if table.pk in final:
            status[table.pk] = "done"
        elif table.pk in free or table.pk in pending:
            status[table.pk] = "playing"
        else:
            status[table.pk] = "waiting"
    return status


def expected_starts(tournament: Tournament, tables: list[Any]) -> dict[int, datetime.datetime]:
    """Start times for the iCal feed. A table with its own (or its round's) start time keeps it, unless
    the tournament releases rounds table by table: then a table starts at that time or when the last
    earlier game of its entrants ends, whichever is later; an earlier game ends when its final result was
    decided, or is expected to end at its start plus the game length.

    `tables`: the tables of the visible published rounds with `round` and `seats` loaded."""
    length = game_length(tournament)
    ordered = sorted(tables, key=lambda t: (t.round.number, t.number))
    finished_at: dict[int, datetime.datetime] = {}
    if tournament.rolling_rounds:
        for result in Result.objects.filter(
            Q(table__in=[t.pk for t in ordered]), state__in=Result.FINAL_STATES
        ).only("table_id", "decided_at", "created_at"):
            finished_at[result.table_id] = result.decided_at or result.created_at
    free_at: dict[int, datetime.datetime] = defaultdict(lambda: datetime.datetime.min.replace(tzinfo=datetime.UTC))
    starts: dict[int, datetime.datetime] = {}
    for table in ordered:
        own = table.starts_at or table.round.starts_at
        entrants = [seat.entrant_id for seat in table.seats.all()]
        if tournament.rolling_rounds and entrants:
            ready = max(free_at[e] for e in entrants)
            start = max(own, ready) if own is not None else (ready if ready.year > 1 else None)
        else:
            start = own
        if start is None:
            continue
        starts[table.pk] = start
        end = finished_at.get(table.pk, start + length)
        for entrant in entrants:
            free_at[entrant] = max(free_at[entrant], end)
    return starts
