"""Template tags that put game-record links into the tournament pages (tournaments never imports games).

`{% load games_links %}` then `{% record_conflicts tournament as conflicts %}` on the organiser's
manage page: the tables whose current result contradicts their latest valid complete record
(`games.selectors.record_conflicts`, items {"table", "record", "result", "expected"}).
"""

from __future__ import annotations

from typing import Any

from django import template
from django.urls import reverse

from games.models import GameRecord
from games.selectors import record_conflicts as conflicts_of
from tournaments import permissions

register = template.Library()

CONFLICTS_SHOWN = 50


@register.simple_tag(takes_context=True)
def record_conflicts(context: dict[str, Any], tournament: Any) -> list[dict[str, Any]]:
    """Up to 50 conflicts of the tournament, for its organisers (an empty list for anyone else)."""
    request = context.get("request")
    user = getattr(request, "user", None)
    if user is None or not permissions.is_organiser(user, tournament):
        return []
    return conflicts_of(tournament=tournament)[:CONFLICTS_SHOWN]


@register.simple_tag
def valid_records_by_table(items: Any) -> dict[int, GameRecord]:
    """{table id: its latest valid complete record} for the rated games in `items` (rankings rows with
    `event.game.table_id`), in one query; only records of public tournaments."""
    table_ids = {
        table_id for item in items
        if (table_id := getattr(getattr(item["event"], "game", None), "table_id", None)) is not None
    }
    if not table_ids:
        return {}
    found: dict[int, GameRecord] = {}
    for record in (
        GameRecord.objects.filter(table_id__in=table_ids, status=GameRecord.Status.VALID, complete=True,
                                  tournament__is_public=True)
        .select_related("tournament").defer("raw").order_by("table_id", "-created_at", "-pk")
    ):
        found.setdefault(record.table_id, record)
    return found


@register.filter
def record_of(records: dict[int, GameRecord], table_id: Any) -> GameRecord | None:
    return records.get(table_id) if isinstance(records, dict) else None


@register.simple_tag
def valid_records_for_tables(table_ids: Any) -> dict[int, GameRecord]:
    """{table id: its latest valid complete record} for the given tables, in one query (the bracket
    page: its viewer may already see the tournament)."""
    ids = {int(table_id) for table_id in table_ids or () if table_id is not None}
    if not ids:
        return {}
    found: dict[int, GameRecord] = {}
    for record in (
        GameRecord.objects.filter(table_id__in=ids, status=GameRecord.Status.VALID, complete=True)
        .select_related("tournament").defer("raw").order_by("table_id", "-created_at", "-pk")
    ):
        found.setdefault(record.table_id, record)
    return found
@register.filter
def verdict_label(code: str) -> str:
    """The translated meaning of an engine verdict code (games.verdict_labels); '' when unknown."""
    from games.verdict_labels import VERDICT_LABELS

    return str(VERDICT_LABELS.get(code, ""))


@register.simple_tag
def hall_boards_url(tournament: Any) -> str:
    """The URL of the hall display's live boards (games.scoresheet.hall), polled by static/js/hall.js."""
    return reverse("games:hall-boards", args=[tournament.slug])
