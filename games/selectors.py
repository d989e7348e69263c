"""Reads of the games app, shared by the API and the pages: visibility rules, prefetching, no N+1."""

from __future__ import annotations

import functools
from typing import Any

from django.db import connection
from django.db.models import Count, Prefetch, QuerySet
from django.http import Http404
from django.utils.translation import gettext as _

from games import settle
from games.models import GameRecord, ImportBatch, RecordVerdict
from games.permissions import can_view_record
from tournaments import prepared_sql
from tournaments.errors import ErrorCode, TournamentError
from tournaments.models import Result, Round, Table, Tournament
from tournaments.permissions import (
    can_view_tournament,
    entrant_for_token_at_table,
    entrants_of_user_at_table,
    is_organiser,
    reporting_entrant,
)
from tournaments.raw_rows import Columns, build_joined


def _records() -> QuerySet[GameRecord]:
    return GameRecord.objects.select_related("tournament", "table__round", "submitted_for", "submitted_by", "result")


def record_visible_or_404(*, user: Any, record_id: int, token: str | None = None) -> GameRecord:
    """The record if `user` (or the report `token`) may see it; Http404 otherwise (private stays invisible)."""
    record = _records().filter(pk=record_id).first()
    if record is None or not can_view_record(user, record, token):
        raise Http404("No such game record.")
    return record


def records_for_tournament(*, user: Any, tournament: Tournament) -> QuerySet[GameRecord]:
    """Every record of a tournament the user may see, newest first."""
    if not can_view_tournament(user, tournament):
        return GameRecord.objects.none()
    return _records().defer("raw").filter(tournament=tournament).order_by("-created_at", "-id")


def records_for_table(*, user: Any, table: Table, token: str | None = None) -> QuerySet[GameRecord]:
    """The records of one table, newest first (players of the table see them in a private tournament)."""
    tournament = table.round.tournament
    if (not can_view_tournament(user, tournament) and not entrants_of_user_at_table(user, table)
            and entrant_for_token_at_table(token, table) is None):
        return GameRecord.objects.none()
    return _records().defer("raw").filter(table=table).order_by("-created_at", "-id")


def batch_progress(*, batch: ImportBatch, with_items: bool = True) -> dict[str, Any]:
    """{"total", "processed", "done", "status", "items": [{"index", "name", "record_id", "status",
    "error_code", "error_message"}]} for the progress bar and the per-record report (`with_items=False`:
    no report, "items" is empty)."""
    items = batch.items.select_related("record").defer("record__raw").order_by("index") if with_items else []
    return {
        "id": batch.pk,
        "filename": batch.filename,
        "status": batch.status,
        "total": batch.total,
        "processed": batch.processed,
        "done": batch.status in (ImportBatch.Status.DONE, ImportBatch.Status.FAILED),
        "error_message": batch.error_message,
        "items": [
            {
                "index": item.index, "name": item.name, "record_id": item.record_id,
                "status": item.record.status if item.record is not None else None,
                "error_code": item.error_code or (item.record.error_code if item.record is not None else ""),
                "error_message": item.error_message or (item.record.error_message if item.record is not None else ""),
            }
            for item in items
        ],
    }


def result_agrees(*, expected: dict[str, Any], result: Result) -> bool:
    """True when a table's result says what a record's derived table result (`expected`) says."""
    lines = [{"entrant": s.entrant_id, "score": s.score, "placing": s.placing, "is_winner": s.is_winner,
              "forfeited": s.forfeited} for s in result.scores.all()]
    return result.kind == expected.get("kind") and settle.result_matches(expected, lines)


def _current_result(table: Table) -> Result | None:
    """The table's final result, else its pending one (from prefetched `current_results`)."""
    results = list(getattr(table, "current_results", []))
    finals = [r for r in results if r.state in Result.FINAL_STATES]
    pending = [r for r in results if r.state == Result.State.REPORTED]
    return (finals or pending or [None])[0]


def record_conflicts(*, tournament: Tournament) -> list[dict[str, Any]]:
    """Tables whose current result (final, else pending) contradicts their latest valid complete record.

    Computed at read time, so a result reported by hand after the record was verified is flagged too.
    Also the tables whose current result was reported from a record that no longer verifies (`reverify`
    after an engine upgrade found it invalid or partial).
    Each item: {"table", "record", "result", "expected", "reason"} (model instances, the record's derived
    result or None, and "contradicts" or "record_no_longer_valid").
    """
    current = Result.objects.filter(state__in=[*Result.FINAL_STATES, Result.State.REPORTED]).prefetch_related("scores")
    records = (
        GameRecord.objects.filter(tournament=tournament, status=GameRecord.Status.VALID, complete=True,
                                  derived_table_result__isnull=False)
        .select_related("table__round").defer("raw")
        .prefetch_related(Prefetch("table__results", queryset=current, to_attr="current_results"))
        .order_by("table_id", "-created_at", "-id")
    )
    conflicts: list[dict[str, Any]] = []
    seen: set[int] = set()
    for record in records:
        if record.table_id in seen:
            continue
        seen.add(record.table_id)
        result = _current_result(record.table)
        if result is None:
            continue
        expected = record.derived_table_result or {}
        if not result_agrees(expected=expected, result=result):
            conflicts.append({"table": record.table, "record": record, "result": result, "expected": expected,
                              "reason": "contradicts"})
    # A result reported from a record that no longer verifies (a newer engine found it invalid or
    # partial) still stands until the organiser decides: flag it.
    stale = (
        GameRecord.objects.filter(tournament=tournament, result__state__in=[*Result.FINAL_STATES,
                                                                             Result.State.REPORTED])
        .exclude(status=GameRecord.Status.VALID, complete=True)
        .exclude(status=GameRecord.Status.PENDING)
        .select_related("table__round", "result").defer("raw")
        .order_by("table_id", "-created_at", "-id")
    )
    for record in stale:
        conflicts.append({"table": record.table, "record": record, "result": record.result, "expected": None,
                          "reason": "record_no_longer_valid"})
    return conflicts


@functools.cache
def _table_sql() -> tuple[str, list[Columns]]:
    quote = connection.ops.quote_name
    parts = [Columns(Table, "t"), Columns(Round, "r"), Columns(Tournament, "o")]
    return (f"SELECT {', '.join(part.sql() for part in parts)} FROM {quote(Table._meta.db_table)} t "
            f"INNER JOIN {quote(Round._meta.db_table)} r ON t.{quote('round_id')} = r.{quote('id')} "
            f"INNER JOIN {quote(Tournament._meta.db_table)} o ON r.{quote('tournament_id')} = o.{quote('id')} "
            f"WHERE t.{quote('id')} = %s", parts)


def table_with_round(table_id: int) -> Table | None:
    """The table with its round and tournament (as `select_related("round__tournament")` reads them), in
    one query written out once (`games.raw_rows`): every table endpoint, the record POST among them, starts
    here, and the ORM spent over a millisecond of CPU compiling the three-way join (issue 26)."""
    sql, parts = _table_sql()
    if isinstance(table_id, bool) or not isinstance(table_id, int):
        try:
            table_id = int(table_id)
        except (TypeError, ValueError):
            return None
    if not 0 < table_id < 2**63:  # an id in the URL beyond the column's range names no table
        return None
    with prepared_sql.cursor() as cursor:
        cursor.execute(sql, [table_id])
        row = cursor.fetchone()
    if row is None:
        return None
    (table, round_, tournament), _rest = build_joined(parts, row)
    round_.tournament = tournament
    table.round = round_
    return table  # type: ignore[return-value]


def table_visible_or_404(*, user: Any, table_id: int, token: str | None = None) -> Table:
    """A table whose round the user may see, or that the user / report token plays at (private tournaments)."""

    table = table_with_round(table_id)
    if table is not None:
        tournament = table.round.tournament
        draft = table.round.status == table.round.Status.DRAFT
        if is_organiser(user, tournament):
            return table
        if not draft and (tournament.is_public or reporting_entrant(user, token, table) is not None):
            return table
    raise TournamentError(ErrorCode.NOT_FOUND, _("No such table."))


def batch_visible_or_404(*, user: Any, batch_id: int) -> ImportBatch:
    """An import batch, for the organisers of its tournament only."""

    batch = ImportBatch.objects.select_related("tournament").defer("upload").filter(pk=batch_id).first()
    if batch is None or not is_organiser(user, batch.tournament):
        raise TournamentError(ErrorCode.NOT_FOUND, _("No such import."))
    return batch


def _verdict_summary(verdict: dict[str, Any]) -> str:
    if verdict.get("valid"):
        return "valid complete" if verdict.get("complete") else "valid partial"
    error = verdict.get("error") or {}
    return f"invalid {error.get('code', '')} {error.get('path', '')}".strip()


def verdict_changes(*, tournament: Tournament | None = None) -> list[dict[str, Any]]:
    """Records whose latest verdict (current engine) says something else than the one before it.

    Each item: {"record", "tournament", "old_version", "old", "new_version", "new"} (summaries such as
    "valid complete" or "invalid must_play /deals/0/turns/3").
    """
    records = GameRecord.objects.select_related("tournament").defer("raw").prefetch_related("verdicts")
    if tournament is not None:
        records = records.filter(tournament=tournament)
    changes = []
    for record in records.filter(pk__in=RecordVerdict.objects.values("record").annotate(n=Count("id"))
                                 .filter(n__gt=1).values("record")).order_by("pk"):
        verdicts = sorted(record.verdicts.all(), key=lambda v: (v.created_at, v.pk))
        current = next((v for v in verdicts if v.engine_version == record.engine_version), verdicts[-1])
        earlier = [v for v in verdicts if v.pk != current.pk and (v.created_at, v.pk) < (current.created_at, current.pk)]
        if not earlier:
            continue
        old, new = _verdict_summary(earlier[-1].verdict), _verdict_summary(current.verdict)
        if old != new or earlier[-1].verdict.get("result") != current.verdict.get("result"):
            changes.append({"record": record.pk, "tournament": record.tournament.slug,
                            "old_version": earlier[-1].engine_version, "old": old,
                            "new_version": current.engine_version, "new": new})
    return changes
