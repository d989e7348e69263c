"""Sign-up pages: the public form, a sign-up's private page (status, withdraw, self check-in, its QR
code), the desk check-in page (the QR code at the desk leads there), and the organisers' page
(settings, approvals, waiting list, the desk QR). Every write calls one service."""

from __future__ import annotations

import segno
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from tournaments import permissions
from tournaments.errors import TournamentError
from tournaments.forms import add_service_error
from tournaments.models import Registration, Tournament
from tournaments.registration import services
from tournaments.registration.forms import DeskCheckInForm, RegistrationSettingsForm, SignUpForm
from tournaments.registration.throttle import sign_up_allowed
from tournaments.registration.tokens import registration_from_token, registration_token
from tournaments.views.organiser import organised_tournament
from tournaments.views.page_data import tournament_profile


def qr_svg(url: str) -> SafeString:
    """A QR code of `url` as inline SVG that scales with its box (viewBox, no fixed size; CSS .qr-large)."""
    svg = segno.make(url, error="m", micro=False).svg_inline(scale=1, border=2, omitsize=True)
    return mark_safe(svg)  # noqa: S308 - segno writes the SVG; the URL is only encoded in its paths


def _public_tournament(request: HttpRequest, slug: str) -> Tournament:
    tournament = get_object_or_404(Tournament, slug=slug)
    if not permissions.can_view_tournament(request.user, tournament):
        raise Http404("No such tournament.")
    return tournament


def _status_url(registration: Registration) -> str:
    return reverse("web:registration-status", args=[registration.tournament.slug, registration_token(registration)])


def _too_many(request: HttpRequest) -> bool:
    allowed, _seconds = sign_up_allowed(request)
    return not allowed


def sign_up(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = _public_tournament(request, slug)
    profile = tournament_profile(tournament)
    if profile is None:
        raise Http404("No such tournament.")
    form = SignUpForm(request.POST if request.method == "POST" else None, profile=profile)
    status = 200
    if request.method == "POST":
        if _too_many(request):
            form.is_valid()
            form.add_error(None, _("Too many sign-ups from your address; please try again later."))
            status = 429
        elif form.is_valid():
            try:
                registration = services.registration_submit(tournament=tournament, **form.service_arguments())
            except TournamentError as error:
                add_service_error(form, error, "name" if error.code == "entrant_name_taken" else None)
                status = 400 if error.http_status == 400 else 409
            else:
                return redirect(_status_url(registration))
        else:
            status = 400
    counted = services.entrants_counted(tournament)
    return render(request, "tournaments/registration/sign_up.html", {
        "tournament": tournament, "profile": profile, "form": form,
        "is_open": tournament.registration_open and not tournament.rounds.exists()
        and tournament.status != Tournament.Status.FINISHED,
        "counted": counted, "full": tournament.entry_limit is not None and counted >= tournament.entry_limit,
        "waiting": len(services.waitlist(tournament)),
    }, status=status)


def _registration(slug: str, token: str) -> Registration:
    registration = registration_from_token(token)
    if registration is None or registration.tournament.slug != slug:
        raise Http404("No such sign-up.")
    return registration


def registration_status(request: HttpRequest, slug: str, token: str) -> HttpResponse:
    registration = _registration(slug, token)
    tournament = registration.tournament
    position = None
    if registration.state == Registration.State.WAITLISTED:
        queue = [r.pk for r in services.waitlist(tournament)]
        position = queue.index(registration.pk) + 1
    link = request.build_absolute_uri()
    return render(request, "tournaments/registration/status.html", {
        "tournament": tournament, "registration": registration, "entrant": registration.entrant,
        "position": position, "token": token, "qr": qr_svg(link),
        "can_check_in": tournament.self_checkin_open and registration.state == Registration.State.ACCEPTED
        and registration.entrant is not None and registration.entrant.status == "registered",
    })


@require_POST
def registration_withdraw_view(request: HttpRequest, slug: str, token: str) -> HttpResponse:
    registration = _registration(slug, token)
    try:
        services.registration_withdraw(registration=registration)
    except TournamentError as error:
        messages.error(request, error.message)
    else:
        messages.success(request, _("Your sign-up is withdrawn."))
    return redirect(_status_url(registration))


@require_POST
def registration_check_in_view(request: HttpRequest, slug: str, token: str) -> HttpResponse:
    registration = _registration(slug, token)
    try:
        services.registration_check_in(registration=registration)
    except TournamentError as error:
        if error.code == "entrant_already_checked_in":
            messages.success(request, _("You are checked in."))
        else:
            messages.error(request, error.message)
    else:
        messages.success(request, _("You are checked in."))
    return redirect(_status_url(registration))


def desk_check_in(request: HttpRequest, slug: str) -> HttpResponse:
    """The page the QR code at the desk opens: team name and sign-up address check the team in."""
    tournament = _public_tournament(request, slug)
    form = DeskCheckInForm(request.POST if request.method == "POST" else None)
    checked_in = None
    status = 200
    if request.method == "POST":
        if _too_many(request):
            form.is_valid()
            form.add_error(None, _("Too many attempts from your address; please try again later."))
            status = 429
        elif form.is_valid():
            try:
                registration = services.registration_find(tournament=tournament, **form.cleaned_data)
                checked_in = services.registration_check_in(registration=registration)
            except TournamentError as error:
                if error.code == "entrant_already_checked_in":
                    checked_in = registration.entrant
                else:
                    add_service_error(form, error)
                    status = 404 if error.code == "not_found" else 409
    return render(request, "tournaments/registration/desk.html", {
        "tournament": tournament, "form": form, "checked_in": checked_in}, status=status)


@login_required
def manage_registrations(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = organised_tournament(request, slug)
    form = RegistrationSettingsForm(request.POST if request.method == "POST" else None, initial={
        "registration_open": tournament.registration_open, "registration_approval": tournament.registration_approval,
        "entry_limit": tournament.entry_limit, "self_checkin_open": tournament.self_checkin_open})
    if request.method == "POST" and form.is_valid():
        try:
            services.registration_configure(actor=request.user, tournament=tournament, **form.cleaned_data)
        except TournamentError as error:
            add_service_error(form, error)
        else:
            messages.success(request, _("Sign-up settings saved."))
            return redirect("web:manage-registrations", slug=tournament.slug)
    registrations = list(tournament.registrations.select_related("entrant").order_by("created_at", "pk"))
    desk_url = request.build_absolute_uri(reverse("web:desk-check-in", args=[tournament.slug]))
    return render(request, "tournaments/registration/manage.html", {
        "tournament": tournament, "form": form,
        "pending": [r for r in registrations if r.state == Registration.State.PENDING],
        "waiting": services.waitlist(tournament),
        "others": [r for r in registrations if r.state not in ("pending", "waitlisted")],
        "counted": services.entrants_counted(tournament),
        "sign_up_url": request.build_absolute_uri(reverse("web:sign-up", args=[tournament.slug])),
        "desk_url": desk_url, "desk_qr": qr_svg(desk_url),
    })


@login_required
@require_POST
def registration_decide(request: HttpRequest, slug: str, registration_id: int, decision: str) -> HttpResponse:
    tournament = organised_tournament(request, slug)
    registration = get_object_or_404(Registration, tournament=tournament, pk=registration_id)
    service = {"approve": services.registration_approve, "reject": services.registration_reject}.get(decision)
    if service is None:
        raise Http404("Unknown decision.")
    try:
        registration = service(actor=request.user, registration=registration)
    except TournamentError as error:
        messages.error(request, error.message)
    else:
        messages.success(request, _("%(name)s: %(state)s.") % {"name": registration.name,
                                                             "state": registration.get_state_display()})
    return redirect("web:manage-registrations", slug=tournament.slug)
