"""Team leaderboard of a rating pool: every team (a set of two or more players that played together)
with its rating aggregated from its players' current ratings (`compute.team_rating`), its games
together and when it last played; best conservative rating first. Beside the player leaderboard:
page `/rankings/<pool>/teams/`, API `/api/rankings/<pool>/teams/`, CSV `/api/rankings/<pool>/teams.csv`.

Three queries whatever the number of teams (events of team games, current ratings, players).
"""

from __future__ import annotations

import csv
import datetime as dt
import io
from dataclasses import dataclass

from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.urls import reverse
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from tournaments.apis import ERROR_SCHEMA
from tournaments.exports import csv_value
from tournaments.models import Player
from tournaments.rankings.apis import _int_or_empty
from tournaments.rankings.compute import INITIAL, Rating, team_rating
from tournaments.rankings.models import PlayerRating, RatingEvent
from tournaments.rankings.query_params import PAGE_SIZE, page_number, page_size
from tournaments.rankings.services import require_pool
from tournaments.rankings.views import pool_label

COLUMNS = ["rank", "team", "players", "rating", "mu", "sigma", "games", "last_played"]


@dataclass(frozen=True)
class TeamRow:
    rank: int
    key: str
    players: list[str]
    rating: float
    mu: float
    sigma: float
    games: int
    last_played: dt.date

    @property
    def name(self) -> str:
        return " & ".join(self.players)

    def as_dict(self) -> dict[str, object]:
        return {"rank": self.rank, "team": self.key, "players": self.name, "rating": round(self.rating, 4),
                "mu": round(self.mu, 4), "sigma": round(self.sigma, 4), "games": self.games,
                "last_played": self.last_played.isoformat()}


def team_leaderboard(pool: str) -> list[TeamRow]:
    games: dict[str, set[int]] = {}
    last: dict[str, dt.date] = {}
    for team_key, game_id, played_on in (
        RatingEvent.objects.filter(pool=pool, team_key__contains="-").values_list("team_key", "game_id", "played_on")
    ):
        games.setdefault(team_key, set()).add(game_id)
        if team_key not in last or played_on > last[team_key]:
            last[team_key] = played_on
    ids = {int(p) for key in games for p in key.split("-")}
    current = {r.player_id: Rating(r.mu, r.sigma) for r in PlayerRating.objects.filter(pool=pool, player_id__in=ids)}
    names = dict(Player.objects.filter(pk__in=ids).values_list("pk", "name"))
    unranked = []
    for key, played in games.items():
        members = [int(p) for p in key.split("-")]
        rating = team_rating([current.get(pid, INITIAL) for pid in members])
        unranked.append((key, sorted(names.get(pid, f"#{pid}") for pid in members), rating, len(played), last[key]))
    unranked.sort(key=lambda t: (-t[2].conservative, -t[3], t[1]))
    return [TeamRow(rank=i, key=key, players=players, rating=rating.conservative, mu=rating.mu, sigma=rating.sigma,
                    games=count, last_played=played)
            for i, (key, players, rating, count, played) in enumerate(unranked, start=1)]


def team_leaderboard_page(request: HttpRequest, pool: str) -> HttpResponse:
    from django.http import Http404

    try:
        require_pool(pool)
    except Exception as exc:
        raise Http404("No such ranking.") from exc
    rows = team_leaderboard(pool)
    page = Paginator(rows, PAGE_SIZE).get_page(request.GET.get("page") or 1)
    return render(request, "rankings/team_leaderboard.html", {
        "pool": pool, "label": pool_label(pool), "page": page, "rows": page.object_list,
        "export_csv": reverse("api-rankings-teams-csv", args=[pool]),
    })


def team_leaderboard_csv(request: HttpRequest, pool: str) -> HttpResponse:
    from django.http import JsonResponse

    from tournaments.errors import TournamentError

    try:
        require_pool(pool)
    except TournamentError as exc:
        return JsonResponse({"error": {"code": str(exc.code), "message": exc.message, "details": {}}},
                            status=exc.http_status)
    buffer = io.StringIO()
    writer = csv.writer(buffer)
    writer.writerow(COLUMNS)
    for row in team_leaderboard(pool):
        values = row.as_dict()
        writer.writerow([csv_value(values[c]) for c in COLUMNS])
    response = HttpResponse(buffer.getvalue(), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="rankings-{pool}-teams.csv"'
    return response


TEAM_ROW = inline_serializer(name="TeamLeaderboardRow", fields={
    "rank": serializers.IntegerField(), "team": serializers.CharField(), "players": serializers.CharField(),
    "rating": serializers.FloatField(), "mu": serializers.FloatField(), "sigma": serializers.FloatField(),
    "games": serializers.IntegerField(), "last_played": serializers.DateField()})


class TeamLeaderboardApi(APIView):
    """Teams of a pool, best first (paginated like the player leaderboard)."""

    permission_classes = [AllowAny]

    @extend_schema(
        operation_id="rankings_teams_list",
        parameters=[OpenApiParameter("page", _int_or_empty(1, 100000)),
                    OpenApiParameter("page_size", _int_or_empty(1, 200), description="1-200, default 50.")],
        responses={200: inline_serializer(name="TeamLeaderboard", fields={
            "pool": serializers.CharField(), "count": serializers.IntegerField(), "page": serializers.IntegerField(),
            "pages": serializers.IntegerField(), "rows": serializers.ListField(child=TEAM_ROW)}),
            400: ERROR_SCHEMA, 404: ERROR_SCHEMA},
    )
    def get(self, request: Request, pool: str) -> Response:
        require_pool(pool)
        paginator = Paginator(team_leaderboard(pool), page_size(request.query_params))
        page = paginator.get_page(page_number(request.query_params))
        return Response({"pool": pool, "count": paginator.count, "page": page.number, "pages": paginator.num_pages,
                         "rows": [row.as_dict() for row in page.object_list]})


class TeamLeaderboardCsvApi(APIView):
    """The team leaderboard as CSV (numbers as numbers, text guarded against formulas)."""

    permission_classes = [AllowAny]

    @extend_schema(operation_id="rankings_teams_csv",
                   responses={(200, "text/csv"): OpenApiResponse(OpenApiTypes.STR, description="CSV"),
                              404: OpenApiResponse(description="No such ranking")})
    def get(self, request: Request, pool: str) -> HttpResponse:
        return team_leaderboard_csv(request, pool)
