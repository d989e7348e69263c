"""Rankings API (under /api/rankings/ and /api/tournaments/<slug>/...): one class per operation;
parse, check permission, call one selector or service, render. Errors: tournaments.api_errors."""

from __future__ import annotations

from typing import Any

from django.core.paginator import Paginator
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiParameter, extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from tournaments import selectors as tournament_selectors
from tournaments.apis import ERROR_SCHEMA, ERRORS, _valid
from tournaments.errors import ErrorCode, TournamentError
from tournaments.models import Player
from tournaments.rankings import selectors, services
from tournaments.rankings.boards import page_rows
from tournaments.rankings.models import RatingEvent, RatingPolicy
from tournaments.rankings.permissions import can_recompute_ratings
from tournaments.rankings.query_params import MAX_MIN_GAMES, leaderboard_filter, page_number, page_size

# The filters come from forms too: an empty value means "no filter" (documented as such).
EMPTY = {"type": "string", "maxLength": 0}
DATE_OR_EMPTY = {"anyOf": [{"type": "string", "format": "date"}, EMPTY]}


def _int_or_empty(low: int, high: int) -> dict[str, Any]:
    return {"anyOf": [{"type": "integer", "minimum": low, "maximum": high}, EMPTY]}


FILTER_PARAMETERS = [
    OpenApiParameter("club", _int_or_empty(1, 2**62), description="Only players of this club (id)."),
    OpenApiParameter("from", DATE_OR_EMPTY, description="Period start: only games from this day count."),
    OpenApiParameter("to", DATE_OR_EMPTY, description="Period end: ratings as of this day."),
    OpenApiParameter("min_games", _int_or_empty(0, MAX_MIN_GAMES), description="Minimum games (in the period); default 1."),
]

LEADERBOARD_ROW = inline_serializer(name="LeaderboardRow", fields={
    "rank": serializers.IntegerField(), "shared_rank": serializers.BooleanField(), "player_id": serializers.IntegerField(), "player": serializers.CharField(),
    "club": serializers.CharField(), "rating": serializers.FloatField(), "mu": serializers.FloatField(),
    "sigma": serializers.FloatField(), "games": serializers.IntegerField(),
    "last_played": serializers.DateField(), "trend": serializers.FloatField(allow_null=True),
})

HISTORY_ROW = inline_serializer(name="RatingHistoryRow", fields={
    "key": serializers.CharField(), "played_on": serializers.DateField(), "tournament": serializers.CharField(),
    "round": serializers.IntegerField(), "table": serializers.IntegerField(), "rank": serializers.IntegerField(),
    "team": serializers.CharField(), "mu_before": serializers.FloatField(), "sigma_before": serializers.FloatField(),
    "mu_after": serializers.FloatField(), "sigma_after": serializers.FloatField(),
    "rating_after": serializers.FloatField(),
})


def history_rows(events: list[RatingEvent]) -> list[dict[str, Any]]:
    rows = []
    for event in events:
        game = event.game
        table = game.table
        rows.append({
            "key": event.key, "played_on": event.played_on,
            "tournament": game.tournament.slug if game.tournament else "",
            "round": table.round.number if table else None, "table": table.number if table else None,
            "rank": event.rank, "team": event.team_key,
            "mu_before": event.mu_before, "sigma_before": event.sigma_before,
            "mu_after": event.mu_after, "sigma_after": event.sigma_after,
            "rating_after": event.conservative_after,
        })
    return rows


class LeaderboardApi(APIView):
    permission_classes = [AllowAny]

    @extend_schema(
        parameters=[*FILTER_PARAMETERS, OpenApiParameter("page", _int_or_empty(1, 100000)),
                    OpenApiParameter("page_size", _int_or_empty(1, 200), description="1-200, default 50.")],
        responses={200: inline_serializer(name="Leaderboard", fields={
            "pool": serializers.CharField(), "count": serializers.IntegerField(),
            "page": serializers.IntegerField(), "pages": serializers.IntegerField(),
            "rows": serializers.ListField(child=LEADERBOARD_ROW)}), 400: ERROR_SCHEMA, 404: ERROR_SCHEMA,
            422: ERROR_SCHEMA},
    )
    def get(self, request: Request, pool: str) -> Response:
        services.require_pool(pool)
        filters = leaderboard_filter(request.query_params)
        board = selectors.leaderboard(pool, filters)
        paginator = Paginator(board, page_size(request.query_params))
        page = paginator.get_page(page_number(request.query_params))
        return Response({
            "pool": pool, "count": paginator.count, "page": page.number, "pages": paginator.num_pages,
            "rows": page_rows(board, page),
        })


class PlayerHistoryApi(APIView):
    permission_classes = [AllowAny]

    @extend_schema(responses={200: inline_serializer(name="PlayerRanking", fields={
        "player_id": serializers.IntegerField(), "name": serializers.CharField(),
        "club": serializers.CharField(), "rating": serializers.FloatField(allow_null=True),
        "mu": serializers.FloatField(allow_null=True), "sigma": serializers.FloatField(allow_null=True),
        "games": serializers.IntegerField(), "history": serializers.ListField(child=HISTORY_ROW)}),
        404: ERROR_SCHEMA})
    def get(self, request: Request, pool: str, player_id: int) -> Response:
        services.require_pool(pool)
        player = get_object_or_404(Player.objects.select_related("club"), pk=player_id)
        events = selectors.player_history(pool, player)
        if not events:
            raise TournamentError(ErrorCode.NOT_FOUND, _("This player has no rated game in this ranking."))
        last = events[-1]
        return Response({
            "player_id": player.pk, "name": player.name, "club": player.club.name if player.club else "",
            "rating": last.conservative_after, "mu": last.mu_after, "sigma": last.sigma_after,
            "games": len(events), "history": history_rows(events),
        })


class TeamApi(APIView):
    permission_classes = [AllowAny]

    @extend_schema(responses={200: inline_serializer(name="TeamRanking", fields={
        "key": serializers.CharField(), "players": serializers.ListField(child=serializers.DictField()),
        "rating": serializers.FloatField(), "mu": serializers.FloatField(), "sigma": serializers.FloatField(),
        "games": serializers.IntegerField(), "history": serializers.ListField(child=serializers.DictField())}),
        404: ERROR_SCHEMA})
    def get(self, request: Request, pool: str, key: str) -> Response:
        services.require_pool(pool)
        team = selectors.team_profile(pool, key)
        if team is None:
            raise TournamentError(ErrorCode.NOT_FOUND, _("This team has no rated game in this ranking."))
        return Response({
            "key": team.key, "players": [{"id": p.pk, "name": p.name} for p in team.players],
            "rating": team.rating.conservative, "mu": team.rating.mu, "sigma": team.rating.sigma,
            "games": len(team.events),
            "history": [{"key": h.key, "played_on": h.played_on, "mu": h.mu, "sigma": h.sigma,
                         "rating": h.conservative} for h in team.history],
        })


class RecomputeApi(APIView):
    """Staff only: bring a pool's ratings in line with the final results (from scratch with
    `{"rebuild": true}`). Runs synchronously and reports what it did."""

    permission_classes = [IsAuthenticated]

    class RatingsRecomputeInput(serializers.Serializer):
        rebuild = serializers.BooleanField(required=False, default=False)

    @extend_schema(request=RatingsRecomputeInput, responses={200: inline_serializer(name="RecomputeOutcome", fields={
        "pool": serializers.CharField(), "from_key": serializers.CharField(allow_null=True),
        "games_replayed": serializers.IntegerField(), "games_deleted": serializers.IntegerField()}), **ERRORS})
    def post(self, request: Request, pool: str) -> Response:
        if not can_recompute_ratings(request.user):
            raise TournamentError(ErrorCode.PERMISSION_DENIED, _("Only staff may recompute the rankings."))
        services.require_pool(pool)
        data = _valid(self.RatingsRecomputeInput, request.data if request.data is not None else {})
        outcome = services.ratings_rebuild(pool=pool) if data["rebuild"] else services.ratings_recompute(pool=pool)
        return Response({"pool": outcome.pool, "from_key": outcome.from_key,
                         "games_replayed": outcome.games_replayed, "games_deleted": outcome.games_deleted})


POLICY_OUT = inline_serializer(name="RatingPolicy", fields={"time_limit_games": serializers.ChoiceField(
    choices=RatingPolicy.TimeLimitGames.values, help_text="How games stopped at the time limit count for ratings.")})


class RatingPolicyApi(APIView):
    """A tournament's rating policy: read by anyone who sees the tournament, changed by its organisers."""

    permission_classes = [AllowAny]

    class RatingPolicyInput(serializers.Serializer):
        time_limit_games = serializers.ChoiceField(choices=RatingPolicy.TimeLimitGames.values)

    def get_permissions(self) -> list[Any]:
        return [IsAuthenticated()] if self.request.method == "PATCH" else [AllowAny()]

    @extend_schema(responses={200: POLICY_OUT, 404: ERROR_SCHEMA})
    def get(self, request: Request, slug: str) -> Response:
        tournament = tournament_selectors.tournament_get_visible(user=request.user, slug=slug)
        return Response({"time_limit_games": services.rating_policy_of(tournament).time_limit_games})

    @extend_schema(request=RatingPolicyInput, responses={200: POLICY_OUT, **ERRORS})
    def patch(self, request: Request, slug: str) -> Response:
        tournament = tournament_selectors.tournament_get_visible(user=request.user, slug=slug)
        data = _valid(self.RatingPolicyInput, request.data)
        policy = services.rating_policy_update(actor=request.user, tournament=tournament,
                                               time_limit_games=data["time_limit_games"])
        return Response({"time_limit_games": policy.time_limit_games})


class SeedFromRatingsApi(APIView):
    """Organisers: set every entrant's rating from the rankings (and, by default, first_round=rating)."""

    permission_classes = [IsAuthenticated]

    class SeedFromRatingsInput(serializers.Serializer):
        use_for_first_round = serializers.BooleanField(required=False, default=True)

    @extend_schema(request=SeedFromRatingsInput, responses={200: inline_serializer(name="SeedOutcome", fields={
        "entrants_rated": serializers.IntegerField(), "first_round": serializers.CharField()}), **ERRORS})
    def post(self, request: Request, slug: str) -> Response:
        tournament = tournament_selectors.tournament_get_visible(user=request.user, slug=slug)
        data = _valid(self.SeedFromRatingsInput, request.data if request.data is not None else {})
        count = services.entrants_seed_from_ratings(actor=request.user, tournament=tournament,
                                                    use_for_first_round=data["use_for_first_round"])
        tournament.refresh_from_db(fields=["first_round"])
        return Response({"entrants_rated": count, "first_round": tournament.first_round})
