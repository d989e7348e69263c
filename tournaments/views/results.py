"""Result pages: a player reports or confirms (account or private link), an organiser enters/overrides.

Who may act is decided by `tournaments.permissions` (checked here to choose the page, and again by
the services under row locks). A refused or conflicting write re-renders the page with the service's
sentence and its HTTP status (400/403/409), never a 500.
"""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _

from tournaments import permissions
from tournaments.errors import ErrorCode, TournamentError
from tournaments.forms import ResultForm, add_service_error
from tournaments.models import Entrant, Result, Round, Table, Tournament
from tournaments.page_throttles import token_page_throttle
from tournaments.services.results import result_confirm, result_override, result_reject, result_report
from tournaments.views.page_data import entrant_table_views, table_view, tournament_profile


def _conflict_sentence(error: TournamentError) -> str:
    """A sentence for the player, in their language, for the service errors they can run into (the
    service's own sentence, already translated, where it fits the player as it is)."""
    sentences: dict[str, str] = {
        ErrorCode.RESULT_ALREADY_REPORTED: _(
            "Someone at your table reported a different result first. Check it below: confirm it if it is "
            "right, or reject it and report the correct one."
        ),
        ErrorCode.RESULT_ALREADY_FINAL: _(
            "This table already has a final result. Ask the organiser to correct it."
        ),
        ErrorCode.RESULT_CONFLICT: _(
            "Someone else recorded a result at the same moment. Check the table below."
        ),
        ErrorCode.RESULT_NOT_PENDING: _(
            "That result was already confirmed or rejected. Check the table below."
        ),
        ErrorCode.CONFIRM_OWN_REPORT: _("An opponent must confirm the result you reported."),
        ErrorCode.PERMISSION_DENIED: _("You may not report for this table."),
    }
    return sentences.get(error.code, error.message)


def _table_in(tournament: Tournament, table_id: int) -> Table:
    return get_object_or_404(Table.objects.select_related("round"), pk=table_id, round__tournament=tournament)


def _result_page(
    request: HttpRequest,
    *,
    tournament: Tournament,
    table: Table,
    entrant: Entrant | None,
    token: str | None,
    as_organiser: bool,
    self_url: str,
) -> HttpResponse:
    """The report/confirm page of one table, for a player (entrant set) or an organiser."""
    profile = tournament_profile(tournament)
    if profile is None:
        raise Http404("This tournament's game settings are invalid.")
    if table.is_bye:
        messages.info(request, _("A bye needs no result."))
        return redirect("web:round-detail", slug=tournament.slug, number=table.round.number)
    view = table_view(table)
    seated = [line.entrant for line in view.seats]
    actor = request.user if request.user.is_authenticated else None
    form = ResultForm(profile=profile, entrants=seated, initial=_initial_from(view.pending or view.final))
    status = 200
    if request.method == "POST":
        action = request.POST.get("action", "report")
        try:
            if action in ("confirm", "reject"):
                result = get_object_or_404(Result, pk=_int_or_404(request.POST.get("result")), table=table)
                if action == "confirm":
                    result_confirm(result=result, actor=actor, token=token)
                    messages.success(request, _("Result confirmed. Thank you!"))
                else:
                    result_reject(
                        result=result, actor=actor, token=token, reason=request.POST.get("note", "")[:500]
                    )
                    messages.warning(
                        request, _("Result rejected. Report the correct result, or ask the organiser.")
                    )
                return redirect(self_url)
            form = ResultForm(request.POST, profile=profile, entrants=seated)
            if form.is_valid():
                if as_organiser:
                    result_override(actor=actor, table=table, **form.service_arguments())
                    messages.success(request, _("Result saved as final."))
                else:
                    result = result_report(table=table, actor=actor, token=token, **form.service_arguments())
                    if result.state == Result.State.CONFIRMED:
                        messages.success(
                            request, _("Your report matches your opponent's: the result is final.")
                        )
                    else:
                        messages.success(request, _("Result reported. An opponent now confirms it."))
                return redirect(self_url)
            status = 400
        except TournamentError as error:
            status = error.http_status
            if error.code in (ErrorCode.INVALID_RESULT, ErrorCode.INVALID_INPUT):
                add_service_error(form, error)
            else:
                messages.error(request, _conflict_sentence(error))
            view = table_view(table)
    pending = view.pending
    can_decide = pending is not None and (
        as_organiser or (entrant is not None and pending.reported_for_id != entrant.pk)
    )
    return render(
        request,
        "tournaments/result_form.html",
        {
            "tournament": tournament,
            "profile": profile,
            "round": table.round,
            "view": view,
            "form": form,
            "entrant": entrant,
            "as_organiser": as_organiser,
            "pending": pending,
            "can_decide": can_decide,
            "self_url": self_url,
            "my_entrant_ids": {entrant.id} if entrant else set(),
        },
        status=status,
    )


def _initial_from(result: Result | None) -> dict[str, Any]:
    """Form values of an existing result (an organiser corrects or completes it instead of retyping)."""
    if result is None or result.kind == Result.Kind.BYE:
        return {}
    initial: dict[str, Any] = {"kind": result.kind}
    for line in result.scores.all():
        initial[f"score_{line.entrant_id}"] = line.score
        initial[f"placing_{line.entrant_id}"] = line.placing
        initial[f"forfeited_{line.entrant_id}"] = line.forfeited
    return initial


def _int_or_404(value: Any) -> int:
    try:
        return int(value)
    except (TypeError, ValueError) as exc:
        raise Http404("No such result.") from exc


@login_required
def result_report_view(request: HttpRequest, slug: str, table_id: int) -> HttpResponse:
    """A logged-in player reports or confirms the result of a table they sit at."""
    tournament = get_object_or_404(Tournament, slug=slug)
    if not permissions.can_view_tournament(request.user, tournament):
        raise Http404("No such tournament.")
    table = _table_in(tournament, table_id)
    if table.round.status == Round.Status.DRAFT:
        raise Http404("This round is not published yet.")
    entrants = permissions.entrants_of_user_at_table(request.user, table)
    if not entrants:
        raise PermissionDenied(_("Only a player of this table may report its result."))
    return _result_page(
        request,
        tournament=tournament,
        table=table,
        entrant=entrants[0],
        token=None,
        as_organiser=False,
        self_url=reverse("web:result-report", args=[tournament.slug, table.pk]),
    )


@login_required
def result_override_view(request: HttpRequest, slug: str, table_id: int) -> HttpResponse:
    """An organiser enters a result, corrects a final one, or decides on a pending report."""
    tournament = get_object_or_404(Tournament, slug=slug)
    if not permissions.is_organiser(request.user, tournament):
        if not permissions.can_view_tournament(request.user, tournament):
            raise Http404("No such tournament.")
        raise PermissionDenied
    table = _table_in(tournament, table_id)
    return _result_page(
        request,
        tournament=tournament,
        table=table,
        entrant=None,
        token=None,
        as_organiser=True,
        self_url=reverse("web:result-override", args=[tournament.slug, table.pk]),
    )


def _token_entrant(token: str) -> Entrant:
    entrant = permissions.entrant_for_token(token)
    if entrant is None:
        raise Http404("This report link is not valid.")
    return entrant


@token_page_throttle
def token_home(request: HttpRequest, token: str) -> HttpResponse:
    """The private page of an entrant's report link: its tables, each with a report button."""
    entrant = _token_entrant(token)
    tournament = entrant.tournament
    games = entrant_table_views(entrant, include_drafts=False)[::-1]  # the current round first
    return render(
        request,
        "tournaments/token_home.html",
        {"tournament": tournament, "entrant": entrant, "games": games, "token": token},
    )


@token_page_throttle
def token_report(request: HttpRequest, token: str, table_id: int) -> HttpResponse:
    entrant = _token_entrant(token)
    tournament = entrant.tournament
    table = _table_in(tournament, table_id)
    if (
        table.round.status == Round.Status.DRAFT
        or permissions.entrant_for_token_at_table(token, table) is None
    ):
        raise Http404("This table is not one of yours.")
    # The site-wide Referrer-Policy (same-origin) keeps the private link out of other sites' logs;
    # "no-referrer" would make browsers send "Origin: null" and fail Django's CSRF origin check.
    return _result_page(
        request,
        tournament=tournament,
        table=table,
        entrant=entrant,
        token=token,
        as_organiser=False,
        self_url=reverse("web:token-report", args=[token, table.pk]),
    )
