"""Read-only admin views of the ratings (every write goes through tournaments.rankings.services)."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.http import HttpRequest

from tournaments.rankings.models import PlayerRating, RatingPolicy


class ReadOnlyAdmin(admin.ModelAdmin):
    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(PlayerRating)
class PlayerRatingAdmin(ReadOnlyAdmin):
    list_display = ["player", "pool", "conservative", "mu", "sigma", "games", "last_played"]
    list_filter = ["pool"]
    list_select_related = ["player"]
    search_fields = ["player__name"]


@admin.register(RatingPolicy)
class RatingPolicyAdmin(ReadOnlyAdmin):
    list_display = ["tournament", "time_limit_games", "updated_at"]
    list_select_related = ["tournament"]
