"""Who may do what. One module used by the services, the API and the web views.

- An organiser (a user in `Tournament.organisers`, or a superuser) manages their own tournaments.
- A player reports and confirms results only for a table one of their entrants sits at, through their
  account (Player.user) or through the entrant's private report link (`Entrant.report_token`).
- Everyone (anonymous included) reads public tournaments; private ones only their organisers.
- A draft round (and its tables) is seen by the tournament's organisers only.
"""

from __future__ import annotations

import hmac
from typing import Any

from tournaments.models import Entrant, Round, Table, Tournament
from tournaments.security_log import security_event


def is_organiser(user: Any, tournament: Tournament) -> bool:
    if user is None or not getattr(user, "is_authenticated", False) or not user.is_active:
        return False
    if user.is_superuser:
        return True
    return tournament.organisers.filter(pk=user.pk).exists()


def can_view_tournament(user: Any, tournament: Tournament) -> bool:
    return tournament.is_public or is_organiser(user, tournament)


def can_view_round(user: Any, round_: Round) -> bool:
    """A published or finished round, or a draft for the organisers (the tournament's visibility apart)."""
    return round_.status != Round.Status.DRAFT or is_organiser(user, round_.tournament)


def can_create_tournament(user: Any) -> bool:
    return bool(user is not None and getattr(user, "is_authenticated", False) and user.is_active)


def entrants_of_user_at_table(user: Any, table: Table) -> list[Entrant]:
    """The entrants seated at `table` of which `user` is a player (usually none or one)."""
    if user is None or not getattr(user, "is_authenticated", False) or not user.is_active:
        return []
    return list(
        Entrant.objects.filter(seats__table=table, members__player__user=user).distinct().order_by("pk")
    )


def entrant_for_token_at_table(token: str | None, table: Table) -> Entrant | None:
    """The entrant at `table` whose private report token is `token` (compared in constant time)."""
    if not token:
        return None
    for entrant in Entrant.objects.filter(seats__table=table).order_by("pk"):
        if hmac.compare_digest(entrant.report_token.encode(), str(token).encode()):
            return entrant
    security_event("report_token_refused", table=table.pk)
    return None


def entrant_for_token(token: str | None, tournament: Tournament | None = None) -> Entrant | None:
    if not token:
        return None
    entrants = Entrant.objects.filter(report_token=token)
    if tournament is not None:
        entrants = entrants.filter(tournament=tournament)
    entrant = entrants.first()
    if entrant is None:
        security_event("report_token_refused", tournament=tournament.slug if tournament is not None else None)
    return entrant


def reporting_entrant(user: Any, token: str | None, table: Table) -> Entrant | None:
    """The entrant on whose behalf a user or a token acts at `table`, or None if neither may."""
    entrant = entrant_for_token_at_table(token, table)
    if entrant is not None:
        return entrant
    entrants = entrants_of_user_at_table(user, table)
    return entrants[0] if entrants else None


def can_report_result(user: Any, token: str | None, table: Table) -> bool:
    return reporting_entrant(user, token, table) is not None


def can_override_result(user: Any, table: Table) -> bool:
    return is_organiser(user, table.round.tournament)
