"""Ranking pages (public) and the organiser's rating actions. Server-rendered, no JavaScript needed.

Public: /rankings/ (game choice), /rankings/<game>/ (leaderboard with filters), /rankings/<game>/players/<id>/,
/rankings/<game>/teams/<key>/. Organisers: POST /t/<slug>/manage/ratings/policy/ and .../seed/.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.db.models import Count
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.http import urlencode
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from tournaments.errors import TournamentError
from tournaments.models import Player, Tournament
from tournaments.page_cache import PublicPage, ranking_key
from tournaments.profiles import GAMES
from tournaments.rankings import selectors, services
from tournaments.rankings.boards import page_rows
from tournaments.rankings.charts import history_svg
from tournaments.rankings.compute import INITIAL, POOL_NAMES
from tournaments.rankings.models import PlayerRating, RatingPool
from tournaments.rankings.query_params import PAGE_SIZE, leaderboard_filter, page_number
from tournaments.views.organiser import organised_tournament


def pool_label(pool: str) -> str:
    return GAMES.get(pool, pool)


def _pool_or_404(pool: str) -> str:
    try:
        return services.require_pool(pool)
    except TournamentError as exc:
        raise Http404(exc.message) from exc


def rankings_home(request: HttpRequest) -> HttpResponse:
    counts = dict(PlayerRating.objects.values("pool").annotate(n=Count("pk")).values_list("pool", "n"))
    pools = [(pool, pool_label(pool), counts.get(pool, 0)) for pool in POOL_NAMES]
    return render(request, "rankings/home.html", {"pools": pools})


def leaderboard(request: HttpRequest, pool: str) -> HttpResponse:
    _pool_or_404(pool)
    # Cached per version of the pool's ratings (tournaments/page_cache.py): the key changes whenever
    # the ratings are recomputed; the filters and page are part of it.
    recomputed_at = RatingPool.objects.filter(pool=pool).values_list("recomputed_at", flat=True).first()
    page_cache = PublicPage(request, ranking_key(pool, recomputed_at, "leaderboard", *sorted(request.GET.lists())))
    if (not_modified := page_cache.not_modified()) is not None:
        return not_modified
    if page_cache.html is not None:
        return page_cache.finish(render(request, "rankings/leaderboard.html",
                                        {"pool": pool, "label": pool_label(pool), "page_cache": page_cache}))
    status = 200
    error = None
    try:
        filters = leaderboard_filter(request.GET)
        number = page_number(request.GET)
    except TournamentError as exc:
        filters, number, error, status = selectors.LeaderboardFilter(), 1, exc.message, 400
    board = selectors.leaderboard(pool, filters)
    paginator = Paginator(board, PAGE_SIZE)
    page = paginator.get_page(number)
    rows = page_rows(board, page)
    query = urlencode({k: v for k, v in request.GET.items() if k != "page" and v})
    suffix = f"?{query}" if query else ""
    if status != 200:
        page_cache.cacheable = False
    return page_cache.finish(render(request, "rankings/leaderboard.html", {
        "page_cache": page_cache if status == 200 else None,
        "pool": pool, "label": pool_label(pool), "rows": rows, "page": page, "filters": filters,
        "clubs": selectors.clubs_in_pool(pool), "error": error, "query": query,
        "trend_games": selectors.TREND_GAMES,
        "export_csv": reverse("api-rankings-export", args=[pool, "csv"]) + suffix,
        "export_json": reverse("api-rankings-export", args=[pool, "json"]) + suffix,
    }, status=status))


def player_profile(request: HttpRequest, pool: str, player_id: int) -> HttpResponse:
    _pool_or_404(pool)
    player = get_object_or_404(Player.objects.select_related("club"), pk=player_id)
    events = selectors.player_history(pool, player)
    if not events:
        raise Http404("This player has no rated game in this ranking.")
    selectors.with_game_players(events)
    tournaments: dict[int, Tournament] = {}
    for event in events:
        if event.game.tournament is not None:
            tournaments.setdefault(event.game.tournament.pk, event.game.tournament)
    results = []
    for event in reversed(events):
        others = [e for e in event.game.events.all() if e.player_id != player.pk]
        results.append({
            "event": event,
            "partners": [e.player for e in others if e.team_index == event.team_index],
            "opponents": [e.player for e in others if e.team_index != event.team_index],
            "change": event.conservative_after - event.conservative_before,
            "seats": len({e.team_index for e in event.game.events.all()}),
        })
    last = events[-1]
    return render(request, "rankings/player.html", {
        "pool": pool, "label": pool_label(pool), "player": player, "last": last,
        "records": selectors.player_records(events), "results": results,
        "tournaments": list(tournaments.values())[::-1], "teams": selectors.teams_of_player(events),
        "chart": history_svg(selectors.history_points(events), start=INITIAL.conservative,
                             title=_("Rating history of %(name)s") % {"name": player.name}),
    })


def team_profile(request: HttpRequest, pool: str, key: str) -> HttpResponse:
    _pool_or_404(pool)
    team = selectors.team_profile(pool, key)
    if team is None:
        raise Http404("This team has no rated game in this ranking.")
    selectors.with_game_players(team.events)
    names = " & ".join(p.name for p in team.players)
    results = []
    for event in reversed(team.events):
        results.append({
            "event": event,
            "opponents": [e.player for e in event.game.events.all() if e.team_index != event.team_index],
            "seats": len({e.team_index for e in event.game.events.all()}),
        })
    return render(request, "rankings/team.html", {
        "pool": pool, "label": pool_label(pool), "team": team, "names": names, "results": results,
        "chart": history_svg(team.history, start=team.start, title=_("Rating history of %(name)s") % {"name": names}),
    })


def _organiser_action_redirect(slug: str) -> HttpResponse:
    return redirect(reverse("web:manage", args=[slug]) + "#ratings")


@login_required
@require_POST
def rating_policy_view(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = organised_tournament(request, slug)
    try:
        services.rating_policy_update(actor=request.user, tournament=tournament,
                                      time_limit_games=request.POST.get("time_limit_games", ""))
    except TournamentError as exc:
        messages.error(request, exc.message)
        return _organiser_action_redirect(slug)
    messages.success(request, _("Rating policy saved."))
    return _organiser_action_redirect(slug)


@login_required
@require_POST
def seed_from_ratings_view(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = organised_tournament(request, slug)
    try:
        count = services.entrants_seed_from_ratings(actor=request.user, tournament=tournament)
    except TournamentError as exc:
        messages.error(request, exc.message)
        return _organiser_action_redirect(slug)
    messages.success(request, _("%(count)d entrants seeded from the rankings; round 1 pairs by rating.")
                     % {"count": count})
    return _organiser_action_redirect(slug)
