"""Rankings API URLs, included under /api/ (see config/urls.py)."""

from django.urls import path

from tournaments.api_errors import read_only_api_view
from tournaments.rankings import apis, exports, team_board

urlpatterns = [
    path("rankings/<str:pool>/", apis.LeaderboardApi.as_view(), name="api-rankings"),
    path("rankings/<str:pool>/export.<str:fmt>", read_only_api_view(exports.export_rankings), name="api-rankings-export"),
    path("rankings/<str:pool>/teams/", team_board.TeamLeaderboardApi.as_view(), name="api-rankings-teams"),
    path("rankings/<str:pool>/teams.csv", team_board.TeamLeaderboardCsvApi.as_view(), name="api-rankings-teams-csv"),
    path("rankings/<str:pool>/players/<int:player_id>/", apis.PlayerHistoryApi.as_view(),
         name="api-rankings-player"),
    path("rankings/<str:pool>/teams/<str:key>/", apis.TeamApi.as_view(), name="api-rankings-team"),
    path("rankings/<str:pool>/recompute/", apis.RecomputeApi.as_view(), name="api-rankings-recompute"),
    path("tournaments/<slug:slug>/rating-policy/", apis.RatingPolicyApi.as_view(), name="api-rating-policy"),
    path("tournaments/<slug:slug>/seed-from-ratings/", apis.SeedFromRatingsApi.as_view(),
         name="api-seed-from-ratings"),
]
