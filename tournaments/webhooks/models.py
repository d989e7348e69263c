"""Webhook endpoints, their deliveries and every attempt's answer."""

from __future__ import annotations

import uuid

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from tournaments.models import Tournament
from tournaments.webhooks.targets import URL_MAX_LENGTH


class WebhookEndpoint(models.Model):
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="webhook_endpoints")
    url = models.URLField(max_length=URL_MAX_LENGTH)
    events = models.JSONField(default=list)  # event names (events.EVENTS), never empty
    secret = models.CharField(max_length=100)
    description = models.CharField(max_length=200, blank=True)
    active = models.BooleanField(default=True)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["id"]
        verbose_name = _("webhook endpoint")

    def __str__(self) -> str:
        return f"{self.tournament_id}: {self.url}"


class WebhookDelivery(models.Model):
    class State(models.TextChoices):
        PENDING = "pending", _("pending")
        DELIVERED = "delivered", _("delivered")
        FAILED = "failed", _("failed")  # every attempt failed
        REFUSED = "refused", _("refused")  # the target resolved to a private address: never sent

    endpoint = models.ForeignKey(WebhookEndpoint, on_delete=models.CASCADE, related_name="deliveries")
    event = models.CharField(max_length=40)
    event_id = models.UUIDField(default=uuid.uuid4)
    payload = models.JSONField()
    state = models.CharField(max_length=10, choices=State.choices, default=State.PENDING)
    attempts = models.PositiveSmallIntegerField(default=0)
    next_attempt_at = models.DateTimeField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-id"]
        constraints = [
            # a fan-out that runs twice creates no second delivery of the same event to the same endpoint
            models.UniqueConstraint(fields=["endpoint", "event_id"], name="webhook_delivery_once_per_event"),
        ]

    def __str__(self) -> str:
        return f"{self.event} -> {self.endpoint_id} ({self.state})"


class WebhookAttempt(models.Model):
    delivery = models.ForeignKey(WebhookDelivery, on_delete=models.CASCADE, related_name="attempt_log")
    number = models.PositiveSmallIntegerField()
    started_at = models.DateTimeField()
    status_code = models.PositiveSmallIntegerField(null=True, blank=True)
    body_excerpt = models.TextField(blank=True)
    duration_ms = models.PositiveIntegerField(default=0)
    error = models.CharField(max_length=300, blank=True)
    retry_in_seconds = models.PositiveIntegerField(null=True, blank=True)

    class Meta:
        ordering = ["delivery_id", "number"]
        constraints = [models.UniqueConstraint(fields=["delivery", "number"], name="webhook_attempt_number_once")]

    def __str__(self) -> str:
        return f"{self.delivery_id}#{self.number}: {self.status_code or self.error}"
