"""Reads of the webhooks, for organisers only (the secret is in the endpoint)."""

from __future__ import annotations

from typing import Any

from django.db.models import Prefetch, QuerySet
from django.utils.translation import gettext as _

from tournaments.errors import ErrorCode, TournamentError
from tournaments.models import Tournament
from tournaments.permissions import can_view_tournament, is_organiser
from tournaments.webhooks.models import WebhookAttempt, WebhookDelivery, WebhookEndpoint

DELIVERIES_SHOWN = 50


def _require_organiser(user: Any, tournament: Tournament) -> None:
    if not is_organiser(user, tournament):
        raise TournamentError(ErrorCode.PERMISSION_DENIED, _("Only organisers manage the webhooks."))


def endpoints_of(*, user: Any, tournament: Tournament) -> QuerySet[WebhookEndpoint]:
    _require_organiser(user, tournament)
    return WebhookEndpoint.objects.filter(tournament=tournament).order_by("id")


def endpoint_get(*, user: Any, endpoint_id: int) -> WebhookEndpoint:
    """The endpoint, for an organiser of its tournament; 404 for whoever may not see the tournament."""
    endpoint = WebhookEndpoint.objects.select_related("tournament").filter(pk=endpoint_id).first()
    if endpoint is None or not can_view_tournament(user, endpoint.tournament):
        raise TournamentError(ErrorCode.NOT_FOUND, _("No such webhook."))
    _require_organiser(user, endpoint.tournament)
    return endpoint


def deliveries_of(endpoint: WebhookEndpoint, *, limit: int = DELIVERIES_SHOWN) -> list[WebhookDelivery]:
    """The latest deliveries of the endpoint, newest first, each with its attempts."""
    return list(
        endpoint.deliveries.order_by("-id")
        .prefetch_related(Prefetch("attempt_log", queryset=WebhookAttempt.objects.order_by("number")))[:limit]
    )
