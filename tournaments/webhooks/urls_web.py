"""The organiser's webhook page, included in the `web` namespace (tournaments/urls_web.py)."""

from django.urls import path

from tournaments.webhooks import views

urlpatterns = [
    path("t/<slug:slug>/manage/webhooks/", views.webhooks, name="webhooks"),
    path("t/<slug:slug>/manage/webhooks/add/", views.webhook_add, name="webhook-add"),
    path("t/<slug:slug>/manage/webhooks/<int:webhook_id>/remove/", views.webhook_remove, name="webhook-remove"),
]
