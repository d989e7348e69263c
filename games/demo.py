"""Game records for the demo tournament: random legal games from the rules engines, given to the
players of real tables. Used by `manage.py demo_records` (and by the tests' record factories)."""

from __future__ import annotations

import copy
import random
from typing import Any

from rules.core.registry import get_engine
from rules.core.replay import verify_document
from tournaments.models import Table


def table_players(table: Table) -> list[dict[str, Any]]:
    """The record's `players` for a table: the entrant at table position t holds seat t (single
    players) or the team {t, t + E} (its first player seat t, its second seat t + E), E entrants."""
    seats = list(table.seats.select_related("entrant").order_by("position"))
    n = len(seats)
    players = []
    for t, seat in enumerate(seats):
        members = list(seat.entrant.members.select_related("player").order_by("position"))
        for k, member in enumerate(members):
            players.append({"name": member.player.name, "id": member.player_id, "seats": [t + k * n]})
    return players


def record_for_table(table: Table, *, game: str, variant: dict[str, Any], seed: int) -> dict[str, Any]:
    """A complete random legal game of `game`, played by the table's players."""
    record = get_engine(game).random_record(dict(variant), random.Random(seed))
    record["players"] = table_players(table)
    round_ = table.round
    record["meta"] = {"event": round_.tournament.name, "round": round_.number, "table": table.number}
    return record


def record_with_illegal_move(record: dict[str, Any]) -> dict[str, Any] | None:
    """A copy of a marble-game record in which one plain move of the second deal goes one field too far
    (an illegal action in the middle of the game), or None when no such move makes it invalid."""
    for deal_index, deal in enumerate(record["deals"][1:], start=1):
        for turn_index, turn in enumerate(deal.get("turns", [])):
            moves = turn.get("moves")
            if not (isinstance(moves, list) and len(moves) == 1 and all(isinstance(f, int) for f in moves[0])):
                continue
            forged = copy.deepcopy(record)
            segment = forged["deals"][deal_index]["turns"][turn_index]["moves"][0]
            segment[1] = (segment[1] + 1) % 64
            verdict = verify_document(forged)
            if not verdict.valid and verdict.error is not None and verdict.error.path.startswith(
                f"/deals/{deal_index}/turns/{turn_index}"
            ):
                return forged
    return None
