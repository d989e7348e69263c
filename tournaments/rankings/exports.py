"""Ranking exports: /api/rankings/<pool>/export.csv and .json (public, the same filters as the page).
Cells that look like formulas are quoted (tournaments.exports.csv_cell)."""

from __future__ import annotations

import csv
import io
import json

from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.views.decorators.http import require_GET

from tournaments.errors import TournamentError
from tournaments.exports import csv_cell
from tournaments.rankings.boards import COLUMNS, EXPORT_LIMIT, leaderboard_rows
from tournaments.rankings.query_params import leaderboard_filter
from tournaments.rankings.selectors import leaderboard
from tournaments.rankings.services import require_pool


def _error(exc: TournamentError) -> JsonResponse:
    return JsonResponse({"error": {"code": str(exc.code), "message": exc.message, "details": exc.details}},
                        status=exc.http_status)


def _cell(value: object) -> object:
    # Numbers (ratings are often negative) are written as numbers; text is guarded against formulas.
    if isinstance(value, int | float) and not isinstance(value, bool):
        return value
    return csv_cell(value)


@require_GET
def export_rankings(request: HttpRequest, pool: str, fmt: str) -> HttpResponse:
    if fmt not in ("csv", "json"):
        raise Http404("Exports are .csv or .json.")
    try:
        require_pool(pool)
        filters = leaderboard_filter(request.GET)
    except TournamentError as exc:
        return _error(exc)
    rows = leaderboard_rows(list(leaderboard(pool, filters)[:EXPORT_LIMIT]))
    if fmt == "json":
        body = json.dumps({"pool": pool, "rows": rows}, default=str, ensure_ascii=False)
        response = HttpResponse(body, content_type="application/json; charset=utf-8")
    else:
        buffer = io.StringIO()
        writer = csv.writer(buffer)
        writer.writerow(COLUMNS)
        for row in rows:
            writer.writerow([_cell(row[column]) for column in COLUMNS])
        response = HttpResponse(buffer.getvalue(), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="rankings-{pool}.{fmt}"'
    return response
