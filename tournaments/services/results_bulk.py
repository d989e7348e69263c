"""Many results derived from verified game records, reported at once (the games app's bulk import).

`results_report_from_records` is `result_report_from_record` for many tables in one transaction that
already holds the tournament lock and each table's and round's lock (`TableLocks`). It handles the plain
case, the bulk of an import: a table with no pending or final result, reported once in the call, kind
`normal`, in a tournament without rolling rounds. Same checks in the same order (entrant at the table,
round published, not a bye, `result_lines`, knockout rule), same rows, same audit row
(`result_reported_from_record`) and notification as one by one, written in a few statements for all of
them (one COPY per model on PostgreSQL).
Every other report is answered None: the caller reports it with `result_report_from_record`, after this
call, so that it sees the results created here (a second record of a table then finds the first's result).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext as _

from tournaments.bulk_copy import copy_insert
from tournaments.errors import ErrorCode, TournamentError
from tournaments.models import AuditLog, Entrant, Result, ResultScore, Seat, Tournament
from tournaments.notifications import notify_on_commit
from tournaments.services.audit import audit_entry
from tournaments.services.locking import TableLocks
from tournaments.services.results import (
    VerifiedReport,
    _audit_data,
    _require_knockout_decided,
    _require_playable,
    result_lines,
)
from tournaments.services.tournaments import tournament_profile
from tournaments.webhooks.events import result_event


@dataclass(frozen=True)
class RecordReport:
    """One table's result from a record, as `result_report_from_record` takes it; `locked`: its table,
    round and tournament, locked by the caller."""

    locked: TableLocks
    entrant: Entrant | None
    actor: Any = None
    note: str = ""
    kind: str = "normal"
    scores: Mapping[Any, Any] | None = None
    placings: Mapping[Any, Any] | None = None
    winner: int | None = None


def results_report_from_records(
    *, tournament: Tournament, reports: Sequence[RecordReport], audit: list[AuditLog]
) -> list[VerifiedReport | TournamentError | None]:
    """Per report, in order: the pending result created (`changed` True), the error one by one would have
    raised, or None when the report is not the plain case (the caller reports it one by one).

    `tournament` is locked by the caller; the audit rows are appended to `audit` for the caller to write
    (`audit_write`) before its transaction ends; notifications are sent on commit."""
    outcomes: list[VerifiedReport | TournamentError | None] = [None] * len(reports)
    if tournament.rolling_rounds or not reports:
        return outcomes  # a result may release another table: one by one, in order
    table_ids = {report.locked.table.pk for report in reports}
    seated: dict[int, list[int]] = defaultdict(list)
    for table_id, entrant_id in (Seat.objects.filter(table_id__in=table_ids).order_by("table_id", "position")
                                 .values_list("table_id", "entrant_id")):
        seated[table_id].append(entrant_id)
    # The tables with a pending or final result: as the lock query read them (`TableLocks.has_open_result`),
    # else read here.
    known = {report.locked.table.pk: report.locked.has_open_result for report in reports
             if report.locked.has_open_result is not None}
    taken = {table_id for table_id, has_open_result in known.items() if has_open_result}
    if len(known) < len(table_ids):
        taken |= set(Result.objects.filter(table_id__in=table_ids - known.keys(),
                                           state__in=[*Result.FINAL_STATES, Result.State.REPORTED])
                     .values_list("table_id", flat=True))
    profile = tournament_profile(tournament)
    created: list[tuple[int, Result, list[dict[str, Any]], RecordReport]] = []
    for index, report in enumerate(reports):
        table, round_ = report.locked.table, report.locked.round
        if report.locked.tournament.pk != tournament.pk or table.round_id != round_.pk:
            raise ValueError("The locked table is not one of this tournament's.")
        if table.pk in taken or report.kind != "normal":
            continue
        taken.add(table.pk)  # a second report of this table goes one by one, after this one
        try:
            if report.entrant is not None and report.entrant.pk not in seated[table.pk]:
                raise TournamentError(ErrorCode.PERMISSION_DENIED, _("The entrant does not sit at this table."))
            _require_playable(round_, table)
            lines = result_lines(
                tournament=tournament, profile=profile, seated=seated[table.pk], kind=report.kind,
                scores=report.scores, placings=report.placings, winner=report.winner,
            )
            _require_knockout_decided(tournament, round_, lines)
        except TournamentError as err:
            outcomes[index] = err
            taken.discard(table.pk)  # nothing was reported: a later report of the table starts afresh
            continue
        result = Result(
            table=table, kind=report.kind, state=Result.State.REPORTED,
            reported_by=report.actor if getattr(report.actor, "is_authenticated", False) else None,
            reported_for=report.entrant, note=(report.note or "")[:500],
        )
        created.append((index, result, lines, report))
    # One COPY each on PostgreSQL (`tournaments.bulk_copy`): the results take their ids from the sequence
    # first, for their lines, audit rows and notifications.
    copy_insert(Result, [result for _index, result, _lines, _report in created], ids=True)
    copy_insert(ResultScore, [
        ResultScore(result=result, **line) for _index, result, lines, _report in created for line in lines
    ])
    for index, result, lines, report in created:
        audit.append(audit_entry(action="result_reported_from_record", tournament=tournament, obj=result,
                                 actor=report.actor, actor_entrant=report.entrant, data=_audit_data(result, lines)))
        notify_on_commit("result_reported", result.pk, anyone=report.locked.has_addresses)
        result_event("result.reported", tournament=tournament, round_=report.locked.round, result=result,
                     lines=lines)
        outcomes[index] = VerifiedReport(result=result, changed=True)
    return outcomes
