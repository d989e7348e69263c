"""Template tags that put game-record links into the tournament pages (tournaments never imports games).

`{% load games_links %}` then `{% record_conflicts tournament as conflicts %}` on the organiser's
manage page: the records whose verified result contradicts the table's reported result.
"""

from __future__ import annotations

from typing import Any

from django import template

from games.selectors import records_for_tournament
from tournaments import permissions

register = template.Library()

CONFLICTS_SHOWN = 50


@register.simple_tag(takes_context=True)
def record_conflicts(context: dict[str, Any], tournament: Any) -> list[Any]:
    """Up to 50 conflicting records of the tournament, for its organisers (an empty list for anyone else)."""
    request = context.get("request")
    user = getattr(request, "user", None)
    if user is None or not permissions.is_organiser(user, tournament):
        return []
    records = records_for_tournament(user=user, tournament=tournament).filter(settlement="conflict")
    return list(records.select_related("table__round").order_by("table__round__number", "table__number")[:CONFLICTS_SHOWN])
