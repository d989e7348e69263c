"""`{% rating_panel tournament %}`: the organiser's rating policy form and seeding button on the
manage page (tournaments/manage/manage.html), without the tournaments views knowing the rankings."""

from __future__ import annotations

from typing import Any

from django import template

from tournaments.models import Tournament
from tournaments.rankings.models import RatingPolicy
from tournaments.rankings.services import rating_policy_of, seeding_from_ratings_error

register = template.Library()


@register.inclusion_tag("rankings/manage_panel.html", takes_context=True)
def rating_panel(context: Any, tournament: Tournament) -> dict[str, Any]:
    return {
        "tournament": tournament,
        "policy": rating_policy_of(tournament),
        "choices": RatingPolicy.TimeLimitGames.choices,
        "can_seed": seeding_from_ratings_error(tournament) is None,
        "csrf_token": context.get("csrf_token"),
    }
