"""Template tags that put game-record links into the tournament pages (tournaments never imports games).

`{% load games_links %}` then `{% record_conflicts tournament as conflicts %}` on the organiser's
manage page: the tables whose current result contradicts their latest valid complete record
(`games.selectors.record_conflicts`, items {"table", "record", "result", "expected"}).
"""

from __future__ import annotations

from typing import Any

from django import template

from games.selectors import record_conflicts as conflicts_of
from tournaments import permissions

register = template.Library()

CONFLICTS_SHOWN = 50


@register.simple_tag(takes_context=True)
def record_conflicts(context: dict[str, Any], tournament: Any) -> list[dict[str, Any]]:
    """Up to 50 conflicts of the tournament, for its organisers (an empty list for anyone else)."""
    request = context.get("request")
    user = getattr(request, "user", None)
    if user is None or not permissions.is_organiser(user, tournament):
        return []
    return conflicts_of(tournament=tournament)[:CONFLICTS_SHOWN]
