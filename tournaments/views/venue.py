"""Organiser page for the venue: boards (physical tables), accessibility needs, pairs to keep apart,
and putting a round's tables at the boards with a start time. Every write calls one service."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.db.models import Prefetch
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from tournaments.errors import TournamentError
from tournaments.forms import BoardForm, ForbiddenPairForm, RoundBoardsForm
from tournaments.models import Entrant, ForbiddenPair, Round, Table, Tournament
from tournaments.services.tables import (
    board_add,
    entrant_accessibility_set,
    forbidden_pair_add,
    forbidden_pair_remove,
    round_assign_boards,
)
from tournaments.views.organiser import organised_tournament, report_error, report_form_errors


def _venue_url(tournament: Tournament, anchor: str = "") -> str:
    return reverse("web:venue", args=[tournament.slug]) + (f"#{anchor}" if anchor else "")


def _entrants(tournament: Tournament) -> list[Entrant]:
    return list(tournament.entrants.order_by("name"))


def _open_round_numbers(tournament: Tournament) -> list[int]:
    return list(
        tournament.rounds.exclude(status=Round.Status.FINISHED).order_by("number").values_list("number", flat=True)
    )


@login_required
def venue(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = organised_tournament(request, slug)
    entrants = _entrants(tournament)
    rounds = list(
        tournament.rounds.order_by("number").prefetch_related(
            Prefetch("tables", queryset=Table.objects.select_related("board"))
        )
    )
    return render(
        request,
        "tournaments/manage/venue.html",
        {
            "tournament": tournament,
            "boards": list(tournament.boards.order_by("position", "id")),
            "board_form": BoardForm(),
            "entrants": entrants,
            "pairs": list(ForbiddenPair.objects.filter(tournament=tournament).select_related("first", "second")),
            "pair_form": ForbiddenPairForm(entrants=entrants),
            "rounds": rounds,
            "round_form": RoundBoardsForm(round_numbers=_open_round_numbers(tournament)),
        },
    )


@login_required
@require_POST
def venue_board_add(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = organised_tournament(request, slug)
    form = BoardForm(request.POST)
    if not form.is_valid():
        report_form_errors(request, form)
        return redirect(_venue_url(tournament, "boards"))
    try:
        board = board_add(actor=request.user, tournament=tournament, name=form.cleaned_data["name"],
                          accessible=form.cleaned_data["accessible"])
    except TournamentError as error:
        report_error(request, error)
    else:
        messages.success(request, _("Board %(name)s added.") % {"name": board.name})
    return redirect(_venue_url(tournament, "boards"))


@login_required
@require_POST
def venue_accessibility(request: HttpRequest, slug: str, entrant_id: int) -> HttpResponse:
    tournament = organised_tournament(request, slug)
    entrant = get_object_or_404(Entrant, pk=entrant_id, tournament=tournament)
    needs = request.POST.get("needs_accessible_table") == "1"
    try:
        entrant_accessibility_set(actor=request.user, entrant=entrant, needs_accessible_table=needs)
    except TournamentError as error:
        report_error(request, error)
    return redirect(_venue_url(tournament, "accessibility"))


@login_required
@require_POST
def venue_pair_add(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = organised_tournament(request, slug)
    entrants = _entrants(tournament)
    form = ForbiddenPairForm(request.POST, entrants=entrants)
    if not form.is_valid():
        report_form_errors(request, form)
        return redirect(_venue_url(tournament, "pairs"))
    by_id = {e.pk: e for e in entrants}
    try:
        forbidden_pair_add(actor=request.user, tournament=tournament, first=by_id[form.cleaned_data["first"]],
                           second=by_id[form.cleaned_data["second"]])
    except TournamentError as error:
        report_error(request, error)
    else:
        messages.success(request, _("The pairing keeps these two entrants apart when it can."))
    return redirect(_venue_url(tournament, "pairs"))


@login_required
@require_POST
def venue_pair_remove(request: HttpRequest, slug: str, pair_id: int) -> HttpResponse:
    tournament = organised_tournament(request, slug)
    pair = get_object_or_404(ForbiddenPair, pk=pair_id, tournament=tournament)
    try:
        forbidden_pair_remove(actor=request.user, pair=pair)
    except TournamentError as error:
        report_error(request, error)
    return redirect(_venue_url(tournament, "pairs"))


@login_required
@require_POST
def venue_round_boards(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = organised_tournament(request, slug)
    form = RoundBoardsForm(request.POST, round_numbers=_open_round_numbers(tournament))
    if not form.is_valid():
        report_form_errors(request, form)
        return redirect(_venue_url(tournament, "rounds"))
    round_ = get_object_or_404(Round, tournament=tournament, number=form.cleaned_data["round_number"])
    try:
        round_assign_boards(actor=request.user, round=round_, start=form.cleaned_data["start"],
                            avoid_repeat_boards=form.cleaned_data["avoid_repeat_boards"])
    except TournamentError as error:
        report_error(request, error)
    else:
        messages.success(request, _("The tables of round %(number)d are at their boards.") % {"number": round_.number})
    return redirect(_venue_url(tournament, "rounds"))
