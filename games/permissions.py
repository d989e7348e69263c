"""Who may see and submit game records (built on tournaments.permissions; the only place these rules live).

- A record is visible to whoever may view its tournament (public tournaments: everyone; private: the
  organisers) and, in a private tournament, also to the players of its table (account or report token).
- A record is submitted for a table by a player of that table (account or the entrant's report token)
  or by an organiser of the tournament. Bulk imports are for organisers only.
- A live scoresheet of a table is seen and written by the same people who may submit its record (a
  player of the table by account or report token, or an organiser); only an organiser calls time.
"""

from __future__ import annotations

from typing import Any

from games.models import GameRecord
from tournaments.models import Table, Tournament
from tournaments.permissions import can_view_tournament, is_organiser, reporting_entrant


def can_view_record(user: Any, record: GameRecord, token: str | None = None) -> bool:
    if can_view_tournament(user, record.tournament):
        return True
    return reporting_entrant(user, token, record.table) is not None


def can_submit_record(user: Any, token: str | None, table: Table) -> bool:
    if reporting_entrant(user, token, table) is not None:
        return True
    return is_organiser(user, table.round.tournament)


def can_import_records(user: Any, tournament: Tournament) -> bool:
    return is_organiser(user, tournament)


def can_keep_scoresheet(user: Any, token: str | None, table: Table) -> bool:
    """See, start, add to, undo, finish or abandon the live scoresheet of `table`."""
    return can_submit_record(user, token, table)


def can_call_time(user: Any, table: Table) -> bool:
    """Finish a scoresheet before the game is over because the time limit is reached."""
    return is_organiser(user, table.round.tournament)
