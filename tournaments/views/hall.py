"""The hall display (issue 30): one URL per tournament for a projector, `/t/<slug>/hall/`.

It cycles three panels in large type: the current round's pairings (table, board, names, result or
"reported"), the standings (top rows), and the bracket when there is one. Same visibility as the public
pages (draft rounds never shown); it refreshes itself with conditional GETs like the other live pages
(tournaments/live.py, static/js/live.js) and the panels rotate with static/js/hall.js. Without
JavaScript the three panels stand one under the other.
"""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

from tournaments.live import hall_seconds
from tournaments.models import Round
from tournaments.page_cache import PublicPage, tournament_key
from tournaments.views.final_places import bracket_columns
from tournaments.views.page_data import round_table_views, standings_columns, standings_lines
from tournaments.views.public import visible_tournament

HALL_STANDINGS_ROWS = 16


def hall(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = visible_tournament(request, slug)
    page = PublicPage(request, tournament_key(tournament, "hall"))
    if (not_modified := page.not_modified()) is not None:
        return not_modified
    round_ = (tournament.rounds.exclude(status=Round.Status.DRAFT).order_by("-number").first())
    tables = [view for view in round_table_views(round_)] if round_ is not None else []
    rows = list(tournament.standing_rows.select_related("entrant").order_by("rank", "entrant__name")
                [:HALL_STANDINGS_ROWS])
    columns = standings_columns(tournament, rows)
    bracket = bracket_columns(tournament, include_drafts=False) if tournament.knockout_seeding else []
    return page.finish(render(request, "tournaments/hall.html", {
        "tournament": tournament,
        "round": round_,
        "tables": tables,
        "columns": columns[:3],
        "standings": standings_lines(rows, columns[:3], slug=tournament.slug),
        "bracket": bracket,
        "panel_seconds": hall_seconds(),
    }))
