"""Organiser edits that are not pairings: where and when a table plays; pairs to keep apart."""

from __future__ import annotations

import datetime
from typing import Any

from django.db import transaction

from tournaments.errors import ErrorCode, TournamentError
from tournaments.models import Entrant, ForbiddenPair, Table, Tournament
from tournaments.services.audit import audit_record
from tournaments.services.locking import lock_round, lock_table, lock_tournament
from tournaments.services.tournaments import require_organiser

_UNSET: Any = object()


@transaction.atomic
def table_schedule(
    *, actor: Any, table: Table, physical_table: str | None = None, starts_at: datetime.datetime | None = _UNSET
) -> Table:
    """Set a table's physical table (a board name or number) and/or its start time."""
    tournament = lock_tournament(table.round.tournament_id)
    lock_round(table.round_id)
    table = lock_table(table.pk)
    require_organiser(actor, tournament)
    fields = []
    if physical_table is not None:
        text = " ".join(str(physical_table).split())
        if len(text) > 40:
            raise TournamentError(ErrorCode.INVALID_INPUT, "The physical table may have at most 40 characters.")
        table.physical_table = text
        fields.append("physical_table")
    if starts_at is not _UNSET:
        if starts_at is not None and not isinstance(starts_at, datetime.datetime):
            raise TournamentError(ErrorCode.INVALID_INPUT, "The start time must be a date and time.")
        table.starts_at = starts_at
        fields.append("starts_at")
    if fields:
        table.save(update_fields=fields)
        audit_record(action="table_scheduled", tournament=tournament, obj=table, actor=actor,
                     data={"physical_table": table.physical_table,
                           "starts_at": table.starts_at.isoformat() if table.starts_at else None})
    return table


@transaction.atomic
def forbidden_pair_add(*, actor: Any, tournament: Tournament, first: Entrant, second: Entrant) -> ForbiddenPair:
    """Ask the pairing to keep two entrants apart when possible (e.g. members of one family)."""
    tournament = lock_tournament(tournament.pk)
    require_organiser(actor, tournament)
    if first.tournament_id != tournament.pk or second.tournament_id != tournament.pk:
        raise TournamentError(ErrorCode.INVALID_INPUT, "Both entrants must belong to this tournament.")
    if first.pk == second.pk:
        raise TournamentError(ErrorCode.INVALID_INPUT, "Choose two different entrants.")
    low, high = sorted((first, second), key=lambda e: e.pk)
    pair, created = ForbiddenPair.objects.get_or_create(tournament=tournament, first=low, second=high)
    if created:
        audit_record(action="forbidden_pair_added", tournament=tournament, obj=pair, actor=actor,
                     data={"entrants": [low.pk, high.pk]})
    return pair


@transaction.atomic
def forbidden_pair_remove(*, actor: Any, pair: ForbiddenPair) -> None:
    tournament = lock_tournament(pair.tournament_id)
    require_organiser(actor, tournament)
    audit_record(action="forbidden_pair_removed", tournament=tournament, obj=pair, actor=actor,
                 data={"entrants": [pair.first_id, pair.second_id]})
    pair.delete()
