"""Ranking pages, included at the site root under the "rankings" namespace (see config/urls.py)."""

from django.urls import path

from tournaments.rankings import team_board, views

app_name = "rankings"

urlpatterns = [
    path("rankings/", views.rankings_home, name="home"),
    path("rankings/<str:pool>/", views.leaderboard, name="leaderboard"),
    path("rankings/<str:pool>/players/<int:player_id>/", views.player_profile, name="player"),
    path("rankings/<str:pool>/teams/", team_board.team_leaderboard_page, name="teams"),
    path("rankings/<str:pool>/teams/<str:key>/", views.team_profile, name="team"),
    path("t/<slug:slug>/manage/ratings/policy/", views.rating_policy_view, name="policy"),
    path("t/<slug:slug>/manage/ratings/seed/", views.seed_from_ratings_view, name="seed"),
]
