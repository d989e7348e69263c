"""Webhook API (organisers): list and register endpoints of a tournament, read one with its latest
deliveries, remove one. Errors as everywhere (`tournaments.api_errors`)."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema
from rest_framework import serializers
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from tournaments import selectors as tournament_selectors
from tournaments.apis import ERRORS, _valid
from tournaments.webhooks import selectors, services
from tournaments.webhooks.events import EVENT_NAMES, EVENTS
from tournaments.webhooks.models import WebhookDelivery, WebhookEndpoint
from tournaments.webhooks.targets import URL_MAX_LENGTH


class WebhookAttemptOut(serializers.Serializer):
    number = serializers.IntegerField(min_value=1)
    started_at = serializers.DateTimeField()
    status_code = serializers.IntegerField(allow_null=True, help_text="HTTP status of the answer; null: none.")
    body_excerpt = serializers.CharField(help_text="The first 1024 bytes of the answer's body.")
    duration_ms = serializers.IntegerField(min_value=0)
    error = serializers.CharField(help_text="Why there was no answer (connection, timeout, refused target).")
    retry_in_seconds = serializers.IntegerField(allow_null=True, help_text="Backoff before the next attempt.")


class WebhookDeliveryOut(serializers.Serializer):
    id = serializers.IntegerField()
    event = serializers.ChoiceField(choices=EVENT_NAMES)
    event_id = serializers.UUIDField(help_text="Also sent as the Webhook-Id header: deduplicate on it.")
    state = serializers.ChoiceField(choices=WebhookDelivery.State.values)
    attempts = serializers.IntegerField(min_value=0)
    next_attempt_at = serializers.DateTimeField(allow_null=True)
    created_at = serializers.DateTimeField()
    finished_at = serializers.DateTimeField(allow_null=True)
    payload = serializers.DictField(help_text="The body that was sent (docs/webhooks.md).")
    attempt_log = WebhookAttemptOut(many=True)


class WebhookEndpointOut(serializers.Serializer):
    id = serializers.IntegerField()
    url = serializers.URLField()
    events = serializers.ListField(child=serializers.ChoiceField(choices=EVENT_NAMES))
    description = serializers.CharField()
    active = serializers.BooleanField()
    secret = serializers.CharField(help_text="HMAC-SHA256 key of the Webhook-Signature header.")
    created_at = serializers.DateTimeField()


class WebhookEndpointDetailOut(WebhookEndpointOut):
    deliveries = WebhookDeliveryOut(many=True, help_text="The latest 50 deliveries, newest first.")


def endpoint_data(endpoint: WebhookEndpoint) -> dict[str, Any]:
    return dict(WebhookEndpointOut(endpoint).data)


class WebhookListCreateApi(APIView):
    """The tournament's webhooks (organisers); POST registers one (its target is checked: public addresses only)."""

    permission_classes = [IsAuthenticated]

    class WebhookInput(serializers.Serializer):
        url = serializers.CharField(max_length=URL_MAX_LENGTH)
        events = serializers.ListField(child=serializers.ChoiceField(choices=EVENT_NAMES), min_length=1,
                                       max_length=len(EVENTS))
        description = serializers.CharField(max_length=200, required=False, allow_blank=True, default="")

    @extend_schema(responses={200: WebhookEndpointOut(many=True), **ERRORS})
    def get(self, request: Request, slug: str) -> Response:
        tournament = tournament_selectors.tournament_get_visible(user=request.user, slug=slug)
        return Response([endpoint_data(e) for e in selectors.endpoints_of(user=request.user, tournament=tournament)])

    @extend_schema(request=WebhookInput, responses={201: WebhookEndpointOut, **ERRORS})
    def post(self, request: Request, slug: str) -> Response:
        tournament = tournament_selectors.tournament_get_visible(user=request.user, slug=slug)
        data = _valid(self.WebhookInput, request.data)
        endpoint = services.webhook_endpoint_create(actor=request.user, tournament=tournament, url=data["url"],
                                                    events=data["events"], description=data["description"])
        return Response(endpoint_data(endpoint), status=201)


class WebhookDetailApi(APIView):
    """One webhook with its latest deliveries and their answers; DELETE removes it."""

    permission_classes = [IsAuthenticated]

    @extend_schema(responses={200: WebhookEndpointDetailOut, **ERRORS})
    def get(self, request: Request, webhook_id: int) -> Response:
        endpoint = selectors.endpoint_get(user=request.user, endpoint_id=webhook_id)
        data = endpoint_data(endpoint)
        data["deliveries"] = WebhookDeliveryOut(selectors.deliveries_of(endpoint), many=True).data
        return Response(data)

    @extend_schema(responses={204: None, **ERRORS})
    def delete(self, request: Request, webhook_id: int) -> Response:
        endpoint = selectors.endpoint_get(user=request.user, endpoint_id=webhook_id)
        services.webhook_endpoint_remove(actor=request.user, endpoint=endpoint)
        return Response(status=204)
