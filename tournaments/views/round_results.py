"""Whole-round result entry for organisers: one page with every open table of a round.

Each table is a fieldset of one form (field names prefixed `t<table id>-`). With htmx, "Save table"
posts that fieldset alone and swaps it for its saved state; without JavaScript the one submit button
saves every table with something entered. Every table is saved through `result_override` (the same
checks and audit row as the single-table page), one transaction per table: a bad table is shown with
its error and the good ones are saved.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_POST

from tournaments.errors import ErrorCode, TournamentError
from tournaments.forms import ResultForm, add_service_error
from tournaments.models import Round, Tournament
from tournaments.profiles import PLACING, GameProfile
from tournaments.services.results import result_override
from tournaments.views.organiser import organised_tournament
from tournaments.views.page_data import TableView, round_table_views, table_view, tournament_profile


@dataclass
class EntryTable:
    view: TableView
    form: ResultForm
    saved: bool = False
    error: str = ""


def _prefix(view: TableView) -> str:
    return f"t{view.table.pk}"


def _entry_form(view: TableView, profile: GameProfile, data: Any = None) -> ResultForm:
    # No initial values: a pending report is shown beside the fields, never pre-filled, so that
    # "save all" cannot turn an untouched report into a final result.
    seated = [line.entrant for line in view.seats]
    return ResultForm(data, profile=profile, entrants=seated, prefix=_prefix(view))


def _entered(view: TableView, profile: GameProfile, data: Any) -> bool:
    """True when the organiser typed something for this table (a score/placing or a forfeit tick)."""
    key = "placing" if profile.result_mode == PLACING else "score"
    prefix = _prefix(view)
    for line in view.seats:
        if str(data.get(f"{prefix}-{key}_{line.entrant.pk}", "")).strip():
            return True
        if data.get(f"{prefix}-forfeited_{line.entrant.pk}"):
            return True
    return False


def _save(request: HttpRequest, entry: EntryTable) -> None:
    """Validate and save one table through the override service; errors stay on its form."""
    if not entry.form.is_valid():
        entry.error = _("Not saved: correct the marked fields.")
        return
    try:
        result_override(actor=request.user, table=entry.view.table, **entry.form.service_arguments())
    except TournamentError as error:
        if error.code in (ErrorCode.INVALID_RESULT, ErrorCode.INVALID_INPUT):
            add_service_error(entry.form, error)
        entry.error = error.message
        return
    entry.saved = True


def _round_and_profile(request: HttpRequest, slug: str, number: int) -> tuple[Tournament, Round, GameProfile]:
    tournament = organised_tournament(request, slug)
    round_ = get_object_or_404(Round, tournament=tournament, number=number)
    profile = tournament_profile(tournament)
    if profile is None:
        raise Http404("This tournament's game settings are invalid.")
    return tournament, round_, profile


@login_required
def round_results(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """GET: every table of the round still without a final result, as one keyboard-friendly form.
    POST (no JavaScript): save every table with something entered; re-show the ones with errors."""
    tournament, round_, profile = _round_and_profile(request, slug, number)
    views = [v for v in round_table_views(round_) if not v.table.is_bye]
    playable = round_.status != Round.Status.DRAFT
    status = 200
    entries: list[EntryTable] = []
    done: list[TableView] = []
    if request.method == "POST" and playable:
        saved = 0
        failed = 0
        for view in views:
            if view.final is not None and not _entered(view, profile, request.POST):
                done.append(view)
                continue
            if not _entered(view, profile, request.POST):
                entries.append(EntryTable(view=view, form=_entry_form(view, profile)))
                continue
            entry = EntryTable(view=view, form=_entry_form(view, profile, request.POST))
            _save(request, entry)
            if entry.saved:
                saved += 1
            else:
                failed += 1
                entries.append(entry)
        if saved:
            messages.success(
                request,
                ngettext("%(count)d result saved.", "%(count)d results saved.", saved) % {"count": saved},
            )
        if not failed:
            return redirect("web:round-results", slug=tournament.slug, number=round_.number)
        messages.error(
            request,
            ngettext(
                "%(count)d table was not saved: see below.", "%(count)d tables were not saved: see below.", failed
            ) % {"count": failed},
        )
        status = 400
        # Re-read: the tables saved above are now final.
        views_by_id = {v.table.pk: v for v in round_table_views(round_)}
        done = [views_by_id[v.table.pk] for v in views if views_by_id[v.table.pk].final is not None
                and all(e.view.table.pk != v.table.pk for e in entries)]
    else:
        for view in views:
            if view.final is None:
                entries.append(EntryTable(view=view, form=_entry_form(view, profile)))
            else:
                done.append(view)
    return render(
        request,
        "tournaments/manage/round_results.html",
        {
            "tournament": tournament,
            "profile": profile,
            "round": round_,
            "entries": entries,
            "done": done,
            "playable": playable,
        },
        status=status,
    )


@login_required
@require_POST
def round_results_table(request: HttpRequest, slug: str, number: int, table_id: int) -> HttpResponse:
    """htmx: save one table of the whole-round page and return its fieldset (saved, or with errors)."""
    tournament, round_, profile = _round_and_profile(request, slug, number)
    table = get_object_or_404(round_.tables, pk=table_id, is_bye=False)
    view = table_view(table)
    entry = EntryTable(view=view, form=_entry_form(view, profile, request.POST))
    _save(request, entry)
    if not request.htmx:  # type: ignore[attr-defined]
        if entry.saved:
            messages.success(request, _("Result saved as final."))
        else:
            messages.error(request, entry.error)
        return redirect("web:round-results", slug=tournament.slug, number=round_.number)
    if entry.saved:
        entry.view = table_view(table)
    return render(
        request,
        "tournaments/manage/round_results_table.html",
        {"tournament": tournament, "profile": profile, "round": round_, "entry": entry},
    )  # 200 either way: htmx swaps only successful responses, and the errors are in the fieldset
