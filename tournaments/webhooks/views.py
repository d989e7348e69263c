"""The organiser's webhook page: register, list with the latest deliveries and their answers, remove."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from tournaments.errors import TournamentError
from tournaments.views.organiser import organised_tournament, report_error, report_form_errors
from tournaments.webhooks import selectors, services
from tournaments.webhooks.events import EVENTS
from tournaments.webhooks.forms import WebhookForm
from tournaments.webhooks.models import WebhookEndpoint

DELIVERIES_ON_PAGE = 10


@login_required
def webhooks(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = organised_tournament(request, slug)
    endpoints = list(selectors.endpoints_of(user=request.user, tournament=tournament))
    rows = [(endpoint, selectors.deliveries_of(endpoint, limit=DELIVERIES_ON_PAGE)) for endpoint in endpoints]
    return render(request, "webhooks/webhooks.html", {
        "tournament": tournament, "rows": rows, "form": WebhookForm(), "event_labels": EVENTS,
    })


@login_required
@require_POST
def webhook_add(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = organised_tournament(request, slug)
    form = WebhookForm(request.POST)
    if not form.is_valid():
        report_form_errors(request, form)
        return redirect("web:webhooks", slug=tournament.slug)
    try:
        services.webhook_endpoint_create(actor=request.user, tournament=tournament, url=form.cleaned_data["url"],
                                         events=form.cleaned_data["events"],
                                         description=form.cleaned_data["description"])
    except TournamentError as error:
        report_error(request, error)
    else:
        messages.success(request, _("Webhook added. Verify every delivery with its secret."))
    return redirect("web:webhooks", slug=tournament.slug)


@login_required
@require_POST
def webhook_remove(request: HttpRequest, slug: str, webhook_id: int) -> HttpResponse:
    tournament = organised_tournament(request, slug)
    endpoint = get_object_or_404(WebhookEndpoint, pk=webhook_id, tournament=tournament)
    try:
        services.webhook_endpoint_remove(actor=request.user, endpoint=endpoint)
    except TournamentError as error:
        report_error(request, error)
    else:
        messages.success(request, _("Webhook removed."))
    return redirect(reverse("web:webhooks", args=[tournament.slug]))
