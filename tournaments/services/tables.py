"""Organiser edits that are not pairings: where and when a table plays; pairs to keep apart."""

from __future__ import annotations

import datetime
from typing import Any

from django.db import transaction
from django.utils.translation import gettext as _

from tournaments import scheduling
from tournaments.errors import ErrorCode, TournamentError, refused
from tournaments.models import Board, Entrant, ForbiddenPair, Round, Table, Tournament
from tournaments.pairing import PairedTable
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
            raise TournamentError(ErrorCode.INVALID_INPUT, _("The physical table may have at most 40 characters."))
        table.physical_table = text
        fields.append("physical_table")
    if starts_at is not _UNSET:
        if starts_at is not None and not isinstance(starts_at, datetime.datetime):
            raise TournamentError(ErrorCode.INVALID_INPUT, _("The start time must be a date and time."))
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
        raise refused(_("Both entrants must belong to this tournament."))
    if first.pk == second.pk:
        raise refused(_("Choose two different entrants."))
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


@transaction.atomic
def board_add(*, actor: Any, tournament: Tournament, name: str, accessible: bool = False) -> Board:
    """Add a physical table (board) of the venue; boards are used in the order they were added."""
    tournament = lock_tournament(tournament.pk)
    require_organiser(actor, tournament)
    text = " ".join(str(name or "").split())
    if not text or len(text) > 40:  # blank once spaces are squeezed: the schema cannot say it (422)
        raise refused(_("A board name has 1 to 40 characters."))
    if Board.objects.filter(tournament=tournament, name=text).exists():  # the state refuses it: 409
        raise TournamentError(ErrorCode.INVALID_INPUT, _("There is already a board named “%(name)s”.") % {"name": text},
                              http_status=409)
    board = Board.objects.create(tournament=tournament, name=text, accessible=bool(accessible),
                                 position=Board.objects.filter(tournament=tournament).count())
    audit_record(action="board_added", tournament=tournament, obj=board, actor=actor,
                 data={"name": text, "accessible": board.accessible})
    return board


@transaction.atomic
def board_remove(*, actor: Any, board: Board) -> None:
    """Remove a board; refused while a table of an unfinished round sits at it (reassign the round first)."""
    tournament = lock_tournament(board.tournament_id)
    require_organiser(actor, tournament)
    if board.tables.exclude(round__status=Round.Status.FINISHED).exists():
        raise TournamentError(ErrorCode.ROUND_IN_PROGRESS,
                              _("A table of an open round sits at this board; assign the round's boards again first."))
    audit_record(action="board_removed", tournament=tournament, obj=board, actor=actor, data={"name": board.name})
    board.delete()


@transaction.atomic
def entrant_accessibility_set(*, actor: Any, entrant: Entrant, needs_accessible_table: bool) -> Entrant:
    tournament = lock_tournament(entrant.tournament_id)
    require_organiser(actor, tournament)
    entrant = Entrant.objects.select_for_update(no_key=True).get(pk=entrant.pk)
    entrant.needs_accessible_table = bool(needs_accessible_table)
    entrant.save(update_fields=["needs_accessible_table"])
    audit_record(action="entrant_accessibility_set", tournament=tournament, obj=entrant, actor=actor,
                 data={"needs_accessible_table": entrant.needs_accessible_table})
    return entrant


@transaction.atomic
def round_assign_boards(
    *, actor: Any, round: Round, start: datetime.datetime | None = None, avoid_repeat_boards: bool = False
) -> list[Table]:
    """Put each table of a round at a board of the venue (accessible boards for entrants who need one;
    optionally avoiding boards an entrant already played at), and set the start time if given."""
    tournament = lock_tournament(round.tournament_id)
    round_ = lock_round(round.pk)
    require_organiser(actor, tournament)
    if round_.status == Round.Status.FINISHED:
        raise TournamentError(ErrorCode.ROUND_IN_PROGRESS, _("The round is finished."))
    if start is not None and (not isinstance(start, datetime.datetime) or start.tzinfo is None):
        raise TournamentError(ErrorCode.INVALID_INPUT, _("The start time needs a date, a time and a time zone."))
    boards = list(Board.objects.filter(tournament=tournament).order_by("position", "id"))
    tables = list(round_.tables.filter(is_bye=False).prefetch_related("seats").order_by("number"))
    paired = [
        PairedTable(number=t.number, entrant_ids=tuple(s.entrant_id for s in sorted(t.seats.all(),
                                                                                      key=lambda s: s.position)))
        for t in tables
    ]
    played_at: dict[int, set[int]] = {}
    for board_id, entrant_id in Table.objects.filter(
        round__tournament=tournament, board__isnull=False
    ).exclude(round=round_).values_list("board_id", "seats__entrant_id"):
        played_at.setdefault(board_id, set()).add(entrant_id)
    needy = set(tournament.entrants.filter(needs_accessible_table=True).values_list("pk", flat=True))
    try:
        assignments = scheduling.assign_boards(
            paired,
            [scheduling.Board(id=b.pk, name=b.name, accessible=b.accessible) for b in boards],
            needs_accessible=needy, played_at=played_at, avoid_repeat_boards=avoid_repeat_boards, start=start,
        )
    except scheduling.SchedulingError as exc:
        raise TournamentError(ErrorCode.INVALID_INPUT, str(exc), http_status=409) from exc  # the venue's boards
    by_number = {t.number: t for t in tables}
    board_by_id = {b.pk: b for b in boards}
    for assignment in assignments:
        table = by_number[assignment.table_number]
        board = board_by_id[assignment.board_id]
        table.board = board
        table.physical_table = board.name
        fields = ["board", "physical_table"]
        if start is not None:
            table.starts_at = assignment.start or start
            fields.append("starts_at")
        table.save(update_fields=fields)
    audit_record(action="round_boards_assigned", tournament=tournament, obj=round_, actor=actor,
                 data={"boards": {a.table_number: a.board_id for a in assignments},
                       "start": start.isoformat() if start else None, "avoid_repeat_boards": avoid_repeat_boards})
    return tables
