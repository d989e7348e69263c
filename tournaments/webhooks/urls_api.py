"""Webhook API URLs, mounted under /api/."""

from django.urls import path

from tournaments.webhooks import apis

urlpatterns = [
    path("tournaments/<slug:slug>/webhooks/", apis.WebhookListCreateApi.as_view(), name="api-webhooks"),
    path("webhooks/<int:webhook_id>/", apis.WebhookDetailApi.as_view(), name="api-webhook"),
]
