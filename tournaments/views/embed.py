"""Pages for other sites' frames: `/embed/t/<slug>/standings/` and `/embed/t/<slug>/rounds/<n>/`.

Compact (no site header), public tournaments and published rounds only (a frame on another site is
an anonymous visitor: the browser sends no session cookie), and keeping themselves current in place
(static/js/embed_refresh.js, never a `<meta http-equiv="refresh">`, which resets a screen reader's place;
without JavaScript an "Update now" link reloads). `?refresh=<seconds>` chooses the interval
(30 to 3600, default 60). Framing is allowed by `tournaments.framing.embeddable`.
"""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.views.decorators.http import require_GET

from tournaments.framing import embeddable
from tournaments.models import Round, Tournament
from tournaments.selectors import standings_after
from tournaments.views.page_data import (
    round_table_views,
    standings_columns,
    standings_lines,
    standings_rows,
    tournament_profile,
)

REFRESH_DEFAULT = 60
REFRESH_MIN = 30
REFRESH_MAX = 3600


def _refresh(request: HttpRequest) -> int:
    raw = request.GET.get("refresh", "")
    if not raw.isdigit():
        return REFRESH_DEFAULT
    return max(REFRESH_MIN, min(REFRESH_MAX, int(raw)))


def _public_tournament(slug: str) -> Tournament:
    tournament = get_object_or_404(Tournament, slug=slug)
    if not tournament.is_public:
        raise Http404("No such tournament.")
    return tournament


@require_GET
@embeddable
def embed_standings(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = _public_tournament(slug)
    rows = standings_rows(tournament)
    columns = standings_columns(tournament, rows)[:2]  # points and the first tiebreak: compact
    return render(
        request,
        "embed/standings.html",
        {
            "tournament": tournament,
            "columns": columns,
            "standings": standings_lines(rows, columns),
            "standings_after": standings_after(tournament),
            "refresh": _refresh(request),
        },
    )


@require_GET
@embeddable
def embed_round(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    tournament = _public_tournament(slug)
    round_ = get_object_or_404(Round, tournament=tournament, number=number)
    if round_.status == Round.Status.DRAFT:
        raise Http404("This round is not published yet.")
    return render(
        request,
        "embed/round.html",
        {
            "tournament": tournament,
            "profile": tournament_profile(tournament),
            "round": round_,
            "tables": round_table_views(round_),
            "refresh": _refresh(request),
        },
    )
