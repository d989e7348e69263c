"""Embeddable pages (framed by other sites), mounted at /embed/. Namespace "embed"."""

from django.urls import path

from tournaments.views import embed

app_name = "embed"

urlpatterns = [
    path("t/<slug:slug>/standings/", embed.embed_standings, name="standings"),
    path("t/<slug:slug>/rounds/<int:number>/", embed.embed_round, name="round"),
]
