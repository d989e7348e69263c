"""Organiser pages: create a tournament, manage entrants, generate/edit/publish rounds.

Every page checks on the server that the user organises the tournament (`permissions.is_organiser`);
every write calls one service. A `TournamentError` is shown on the page, never a 500.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST

from tournaments import permissions
from tournaments.errors import TournamentError
from tournaments.forms import (
    EntrantForm,
    EntrantImportForm,
    OrganiserAddForm,
    RoundEditForm,
    TournamentCreateForm,
    add_service_error,
)
from tournaments.models import AuditLog, Entrant, Result, Round, Tournament
from tournaments.registration.forms import EntrantEditForm, GroupDrawForm
from tournaments.selectors import members_with_players, schedule_meetings
from tournaments.services.entrants import (
    entrant_check_in,
    entrant_delete,
    entrant_drop,
    entrant_drop_undo,
    entrant_readmit,
    entrant_register,
    entrant_update,
    entrants_drop_absent,
    entrants_import_csv,
)
from tournaments.services.groups import draw_summary, groups_draw, groups_fixed, has_groups
from tournaments.services.rounds import (
    meetings_message,
    next_round_possible,
    playing_entrants,
    rolling_release_allowed,
    round_edit,
    round_generate,
    round_publish,
    round_tables_as_lists,
    rounds_complete,
    rounds_planned_derived,
)
from tournaments.services.tournaments import (
    tournament_create,
    tournament_finish,
    tournament_organiser_add,
    tournament_update,
)
from tournaments.views.page_data import export_links, mark_release, round_table_views, tournament_profile


def organised_tournament(request: HttpRequest, slug: str) -> Tournament:
    """The tournament, if the logged-in user organises it; 404 if unknown, 403 otherwise."""
    tournament = get_object_or_404(Tournament, slug=slug)
    if not permissions.is_organiser(request.user, tournament):
        if not permissions.can_view_tournament(request.user, tournament):
            raise Http404("No such tournament.")
        raise PermissionDenied
    return tournament


def _manage_url(tournament: Tournament, anchor: str = "") -> str:
    return reverse("web:manage", args=[tournament.slug]) + (f"#{anchor}" if anchor else "")


def report_error(request: HttpRequest, error: TournamentError) -> None:
    messages.error(request, error.message)


def report_form_errors(request: HttpRequest, form: forms.Form) -> None:
    """Queue every error of an invalid form as a message (for views that redirect)."""
    for errors in form.errors.values():
        for error in errors:
            messages.error(request, error)


@login_required
def tournament_create_view(request: HttpRequest) -> HttpResponse:
    if not permissions.can_create_tournament(request.user):
        raise PermissionDenied
    form = TournamentCreateForm(request.POST if request.method == "POST" else None)
    if request.method == "POST" and form.is_valid():
        try:
            tournament = tournament_create(actor=request.user, **form.service_arguments())
        except TournamentError as error:
            add_service_error(form, error)
        else:
            messages.success(request, _("Tournament created. Now register the entrants."))
            return redirect("web:manage", slug=tournament.slug)
    return render(request, "tournaments/manage/tournament_create.html", {"form": form})


def _conflicts(tournament: Tournament) -> list[dict[str, Any]]:
    """Tables of published rounds where a report was rejected or still waits for a confirmation."""
    conflicts = []
    rounds = tournament.rounds.filter(status=Round.Status.PUBLISHED)
    for round_ in rounds:
        for view in round_table_views(round_):
            if view.table.is_bye or view.final is not None:
                continue
            rejected = [r for r in view.history if r.state == Result.State.REJECTED]
            if rejected or view.pending is not None:
                conflicts.append({"round": round_, "view": view, "rejected": rejected})
    return conflicts


@login_required
def manage(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = organised_tournament(request, slug)
    profile = tournament_profile(tournament)
    entrants = list(
        tournament.entrants.prefetch_related(members_with_players()).select_related("club").order_by("name")
    )
    rounds = list(tournament.rounds.order_by("number"))
    draft = next((r for r in rounds if r.status == Round.Status.DRAFT), None)
    published = [r for r in rounds if r.status == Round.Status.PUBLISHED]
    counts = {status: 0 for status in Entrant.Status.values}
    for entrant in entrants:
        counts[entrant.status] += 1
    counts["total"] = len(entrants)
    rolling = len(published) == 1 and rolling_release_allowed(tournament)
    # after the final (or the last planned round) no "Generate round N" is offered
    complete = bool(rounds) and draft is None and not published and rounds_complete(tournament)
    return render(
        request,
        "tournaments/manage/manage.html",
        {
            "tournament": tournament,
            "profile": profile,
            "entrants": entrants,
            "counts": counts,
            "rounds": rounds,
            "draft": draft,
            "published": published,
            "can_generate": draft is None
            and (not published or rolling)
            and not complete
            and tournament.status != Tournament.Status.FINISHED
            and next_round_possible(tournament),
            "rounds_complete": complete and tournament.status != Tournament.Status.FINISHED,
            "rounds_derived": rounds_planned_derived(tournament),
            "rolling": rolling,
            "meetings": schedule_meetings(tournament) if tournament.status != Tournament.Status.FINISHED else [],
            "can_finish": bool(rounds)
            and draft is None
            and not published
            and tournament.status != Tournament.Status.FINISHED,
            "conflicts": _conflicts(tournament),
            "entrant_form": EntrantForm(profile=profile, group_count=tournament.group_count)
            if profile
            else None,
            "import_form": EntrantImportForm(),
            "organiser_form": OrganiserAddForm(),
            "organisers": list(tournament.organisers.order_by("username")),
            "export_links": export_links(tournament),
            "has_groups": has_groups(tournament),
            **(_groups_context(tournament) if has_groups(tournament) else {}),
            "waiting_count": tournament.registrations.filter(state="waitlisted").count(),
            "pending_count": tournament.registrations.filter(state="pending").count(),
            "audit": [
                (row, AUDIT_LABELS.get(row.action, row.action))
                for row in AuditLog.objects.filter(tournament=tournament)
                .select_related("actor", "actor_entrant")
                .order_by("-created_at", "-id")[:15]
            ],
        },
    )


@login_required
def entrant_add(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = organised_tournament(request, slug)
    profile = tournament_profile(tournament)
    if profile is None:
        messages.error(request, _("This tournament's game settings are invalid."))
        return redirect(_manage_url(tournament))
    form = EntrantForm(
        request.POST if request.method == "POST" else None,
        profile=profile,
        group_count=tournament.group_count,
    )
    if request.method == "POST" and form.is_valid():
        try:
            entrant = entrant_register(actor=request.user, tournament=tournament, **form.service_arguments())
        except TournamentError as error:
            add_service_error(form, error, "name" if error.code == "entrant_name_taken" else None)
        else:
            messages.success(request, _("%(name)s registered.") % {"name": entrant.name})
            return redirect(_manage_url(tournament, "entrants"))
    return render(
        request,
        "tournaments/manage/entrant_add.html",
        {"tournament": tournament, "profile": profile, "form": form},
    )


@login_required
def entrants_import(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = organised_tournament(request, slug)
    form = EntrantImportForm(request.POST if request.method == "POST" else None, request.FILES or None)
    row_errors: list[dict[str, Any]] = []
    if request.method == "POST" and form.is_valid():
        try:
            entrants = entrants_import_csv(
                actor=request.user, tournament=tournament, csv_text=form.cleaned_data["text"]
            )
        except TournamentError as error:
            add_service_error(form, error)
            row_errors = [
                {"row": problem.get("row"), "message": str(problem.get("message", ""))}
                for problem in error.details.get("rows") or []
            ]
        else:
            messages.success(request, _("%(count)d entrants imported.") % {"count": len(entrants)})
            return redirect(_manage_url(tournament, "entrants"))
    return render(
        request,
        "tournaments/manage/entrants_import.html",
        {
            "tournament": tournament,
            "profile": tournament_profile(tournament),
            "form": form,
            "row_errors": row_errors,
        },
    )


ENTRANT_ACTIONS = {
    "check-in": (entrant_check_in, gettext_lazy("%(name)s checked in.")),
    "drop": (entrant_drop, gettext_lazy("%(name)s dropped.")),
    "readmit": (entrant_readmit, gettext_lazy("%(name)s re-admitted.")),
    "undo-drop": (entrant_drop_undo, gettext_lazy("The drop of %(name)s was taken back.")),
}


def _entrant_counts(tournament: Tournament) -> dict[str, int]:
    counts = {status: 0 for status in Entrant.Status.values}
    for status in tournament.entrants.values_list("status", flat=True):
        counts[status] += 1
    counts["total"] = sum(counts.values())
    return counts


@login_required
@require_POST
def entrant_action(request: HttpRequest, slug: str, entrant_id: int, action: str) -> HttpResponse:
    tournament = organised_tournament(request, slug)
    entrant = get_object_or_404(Entrant, tournament=tournament, pk=entrant_id)
    if action not in ENTRANT_ACTIONS:
        raise Http404("Unknown action.")
    service, done = ENTRANT_ACTIONS[action]
    error_message = ""
    try:
        entrant = service(actor=request.user, entrant=entrant)
    except TournamentError as error:
        error_message = error.message
    if request.htmx:  # type: ignore[attr-defined]
        # The row is swapped in place; its message is shown in the row, not queued for the next page.
        # The counters above the list come along as an out-of-band swap (no reload needed).
        entrant = Entrant.objects.prefetch_related(members_with_players()).get(pk=entrant.pk)
        return render(
            request,
            "tournaments/manage/entrant_row.html",
            {
                "tournament": tournament,
                "entrant": entrant,
                "profile": tournament_profile(tournament),
                "row_error": error_message,
                "counts": _entrant_counts(tournament),
                "counts_oob": True,
            },
        )
    if error_message:
        messages.error(request, error_message)
    else:
        messages.success(request, str(done) % {"name": entrant.name})
    return redirect(_manage_url(tournament, "entrants"))


@login_required
@require_POST
def entrants_check_in_all(request: HttpRequest, slug: str) -> HttpResponse:
    """Check in every registered entrant (one service call each, so each leaves its audit row)."""
    tournament = organised_tournament(request, slug)
    done = 0
    for entrant in tournament.entrants.filter(status=Entrant.Status.REGISTERED).order_by("name"):
        try:
            entrant_check_in(actor=request.user, entrant=entrant)
        except TournamentError as error:
            messages.error(request, f"{entrant.name}: {error.message}")
        else:
            done += 1
    messages.success(request, _("%(count)d entrants checked in.") % {"count": done})
    return redirect(_manage_url(tournament, "entrants"))


@login_required
@require_POST
def entrants_drop_absent_view(request: HttpRequest, slug: str) -> HttpResponse:
    """Drop every entrant who has not checked in, in one action."""
    tournament = organised_tournament(request, slug)
    try:
        dropped = entrants_drop_absent(actor=request.user, tournament=tournament)
    except TournamentError as error:
        report_error(request, error)
    else:
        messages.success(request, _("%(count)d entrants not checked in dropped.") % {"count": len(dropped)})
    return redirect(_manage_url(tournament, "entrants"))


@login_required
@require_POST
def checkin_required_view(request: HttpRequest, slug: str) -> HttpResponse:
    """Switch the tournament's `checkin_required` setting."""
    tournament = organised_tournament(request, slug)
    wanted = request.POST.get("checkin_required") == "on"
    try:
        tournament_update(actor=request.user, tournament=tournament, checkin_required=wanted)
    except TournamentError as error:
        report_error(request, error)
    else:
        messages.success(request, _("Check-in is now required: only checked-in entrants are paired.") if wanted
                         else _("Check-in is no longer required: every entrant not dropped is paired."))
    return redirect(_manage_url(tournament, "entrants"))


@login_required
@require_POST
def round_generate_view(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = organised_tournament(request, slug)
    try:
        round_ = round_generate(actor=request.user, tournament=tournament)
    except TournamentError as error:
        report_error(request, error)
        return redirect(_manage_url(tournament, "rounds"))
    messages.success(
        request,
        _("Round %(number)d generated as a draft. Check it, edit it if needed, then publish it.")
        % {"number": round_.number},
    )
    return redirect("web:manage-round", slug=tournament.slug, number=round_.number)


AUDIT_LABELS = {
    "tournament_created": gettext_lazy("Tournament created"),
    "organiser_added": gettext_lazy("Organiser added"),
    "tournament_finished": gettext_lazy("Tournament finished"),
    "entrant_registered": gettext_lazy("Entrant registered"),
    "entrants_imported": gettext_lazy("Entrants imported"),
    "entrant_checked_in": gettext_lazy("Entrant checked in"),
    "entrant_dropped": gettext_lazy("Entrant dropped"),
    "entrant_readmitted": gettext_lazy("Entrant re-admitted"),
    "entrant_drop_undone": gettext_lazy("Drop taken back"),
    "result_forfeit_by_drop": gettext_lazy("Table ended by a drop (forfeit)"),
    "round_generated": gettext_lazy("Round generated"),
    "round_edited": gettext_lazy("Round edited"),
    "round_published": gettext_lazy("Round published"),
    "result_reported": gettext_lazy("Result reported"),
    "result_confirmed": gettext_lazy("Result confirmed"),
    "result_rejected": gettext_lazy("Result rejected"),
    "result_overridden": gettext_lazy("Result set by an organiser"),
    "result_reported_from_record": gettext_lazy("Result reported from a game record"),
    "tournament_updated": gettext_lazy("Tournament settings changed"),
    "round_discarded": gettext_lazy("Round discarded"),
    "table_scheduled": gettext_lazy("Table scheduled"),
    "forbidden_pair_added": gettext_lazy("Entrants to be kept apart"),
    "forbidden_pair_removed": gettext_lazy("Entrants no longer kept apart"),
    "board_added": gettext_lazy("Board added"),
    "board_removed": gettext_lazy("Board removed"),
    "organiser_removed": gettext_lazy("Organiser removed"),
    "webhook_created": gettext_lazy("Webhook added"),
    "webhook_removed": gettext_lazy("Webhook removed"),
    "entrant_accessibility_set": gettext_lazy("Accessible table need changed"),
    "round_boards_assigned": gettext_lazy("Boards assigned to a round"),
    "rating_policy_update": gettext_lazy("Rating policy changed"),
    "entrants_seed_from_ratings": gettext_lazy("Entrants seeded from ratings"),
    "game_record_submitted": gettext_lazy("Game record submitted"),
    "game_record_verified": gettext_lazy("Game record verified"),
    "game_records_imported": gettext_lazy("Game records imported"),
    "tournament_imported": gettext_lazy("Tournament imported from an archive"),
    "scoresheet_started": gettext_lazy("Scoresheet started"),
    "scoresheet_entry_added": gettext_lazy("Scoresheet entry"),
    "scoresheet_entry_undone": gettext_lazy("Scoresheet entry taken back"),
    "scoresheet_entry_corrected": gettext_lazy("Scoresheet announcements or exchange corrected"),
    "scoresheet_finished": gettext_lazy("Scoresheet finished (game record)"),
    "scoresheet_abandoned": gettext_lazy("Scoresheet abandoned"),
    "groups_drawn": gettext_lazy("Groups drawn"),
    "entrant_updated": gettext_lazy("Entrant edited"),
    "entrant_deleted": gettext_lazy("Entrant deleted"),
    "registration_submitted": gettext_lazy("Sign-up received"),
    "registration_approved": gettext_lazy("Sign-up approved"),
    "registration_rejected": gettext_lazy("Sign-up rejected"),
    "registration_withdrawn": gettext_lazy("Sign-up withdrawn"),
    "registration_promoted": gettext_lazy("Moved up from the waiting list"),
    "registration_configured": gettext_lazy("Sign-up settings changed"),
}

WARNING_LABELS = {
    "rematch": gettext_lazy("Rematch: these entrants have met before"),
    "entrant_twice": gettext_lazy("Placed twice"),
    "entrant_missing": gettext_lazy("Neither at a table nor given a bye"),
    "over_capacity": gettext_lazy("Too many entrants at the table"),
    "under_capacity": gettext_lazy("Too few entrants at the table"),
    "unknown_entrant": gettext_lazy("Not an active entrant"),
    "forbidden_pair": gettext_lazy("To be kept apart (set by the organiser)"),
    "same_club": gettext_lazy("Same club"),
    "second_bye": gettext_lazy("Another bye for an entrant who has had one"),
    "left_out": gettext_lazy("Left out of this round"),
    "meetings": gettext_lazy("Meetings per pair"),
}
LEFT_OUT_REASONS = {
    "dropped": gettext_lazy("dropped"),
    "not_checked_in": gettext_lazy("not checked in"),
}


def _warnings_with_names(warnings: list[dict[str, Any]], names: dict[int, str]) -> list[dict[str, Any]]:
    shown = []
    for warning in warnings or []:
        ids = [i for i in warning.get("entrant_ids", []) if isinstance(i, int)]
        code = str(warning.get("code", ""))
        shown.append(
            {
                **warning,
                "label": WARNING_LABELS.get(code, code),
                "message": meetings_message(warning) if code == "meetings" else str(warning.get("message", "")),
                "names": [
                    f"{names.get(i, f'#{i}')} ({LEFT_OUT_REASONS[warning['reason']]})"
                    if code == "left_out" and warning.get("reason") in LEFT_OUT_REASONS else names.get(i, f"#{i}")
                    for i in ids
                ],
            }
        )
    return shown


def _round_edit_form(
    round_: Round,
    tournament: Tournament,
    data: Any = None,
    tables: list[list[int]] | None = None,
    byes: list[int] | None = None,
) -> RoundEditForm:
    profile = tournament_profile(tournament)
    active = list(playing_entrants(tournament).order_by("name"))
    if tables is None or byes is None:
        tables, byes = round_tables_as_lists(round_)
    seats = max([profile.entrants_per_table if profile else 2, *(len(t) for t in tables)])
    # Room for one extra table so that an organiser can split a table or seat a bye.
    return RoundEditForm(
        data,
        table_count=len(tables) + 1,
        seats_per_table=seats,
        entrants=active,
        initial_tables=tables,
        initial_byes=byes,
    )


@login_required
def manage_round(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    tournament = organised_tournament(request, slug)
    round_ = get_object_or_404(Round, tournament=tournament, number=number)
    names = dict(tournament.entrants.values_list("id", "name"))
    problems: list[dict[str, Any]] = []
    form = None
    if round_.status == Round.Status.DRAFT:
        form = _round_edit_form(round_, tournament, request.POST if request.method == "POST" else None)
        if request.method == "POST" and form.is_valid():
            try:
                round_, warnings = round_edit(
                    actor=request.user, round=round_, tables=form.tables(), byes=form.byes()
                )
            except TournamentError as error:
                problems = _warnings_with_names(list(error.details.get("problems") or []), names) or [
                    {"code": error.code, "message": error.message, "names": []}
                ]
                messages.error(
                    request,
                    _("The round was not changed: %(message)s")
                    % {"message": error.message},
                )
            else:
                if warnings:
                    messages.warning(request, _("Round saved with warnings; check them before publishing."))
                else:
                    messages.success(request, _("Round saved."))
                return redirect("web:manage-round", slug=tournament.slug, number=round_.number)
        elif request.method == "POST":
            messages.error(request, _("The round was not changed; correct the marked seats."))
    elif request.method == "POST":
        messages.error(request, _("Only a draft round can be edited."))
    tables = round_table_views(round_)
    mark_release(tournament, round_, tables)
    return render(
        request,
        "tournaments/manage/round.html",
        {
            "tournament": tournament,
            "profile": tournament_profile(tournament),
            "round": round_,
            "tables": tables,
            "form": form,
            "warnings": _warnings_with_names(list(round_.warnings or []), names),
            "problems": problems,
            "is_organiser": True,
            "my_entrant_ids": set(),
        },
    )


@login_required
@require_POST
def round_publish_view(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    tournament = organised_tournament(request, slug)
    round_ = get_object_or_404(Round, tournament=tournament, number=number)
    try:
        round_publish(actor=request.user, round=round_)
    except TournamentError as error:
        report_error(request, error)
        return redirect("web:manage-round", slug=tournament.slug, number=round_.number)
    messages.success(request, _("Round %(number)d published.") % {"number": round_.number})
    return HttpResponseRedirect(reverse("web:round-detail", args=[tournament.slug, round_.number]))


@login_required
@require_POST
def tournament_finish_view(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = organised_tournament(request, slug)
    try:
        tournament_finish(actor=request.user, tournament=tournament)
    except TournamentError as error:
        report_error(request, error)
        return redirect(_manage_url(tournament, "rounds"))
    messages.success(request, _("The tournament is finished. The final standings are on its page."))
    return redirect("web:tournament-detail", slug=tournament.slug)


@login_required
@require_POST
def organiser_add(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = organised_tournament(request, slug)
    form = OrganiserAddForm(request.POST)
    if not form.is_valid():
        report_form_errors(request, form)
        return redirect(_manage_url(tournament, "organisers"))
    user = form.cleaned_data["username"]
    try:
        tournament_organiser_add(actor=request.user, tournament=tournament, user=user)
    except TournamentError as error:
        report_error(request, error)
    else:
        messages.success(
            request, _("%(name)s now organises this tournament too.") % {"name": user.get_username()}
        )
    return redirect(_manage_url(tournament, "organisers"))


@login_required
def entrant_edit(request: HttpRequest, slug: str, entrant_id: int) -> HttpResponse:
    """Edit an entrant (name, players, club, seed, group, contact address) or delete it."""
    tournament = organised_tournament(request, slug)
    entrant = get_object_or_404(Entrant.objects.select_related("club"), tournament=tournament, pk=entrant_id)
    profile = tournament_profile(tournament)
    if profile is None:
        messages.error(request, _("This tournament's game settings are invalid."))
        return redirect(_manage_url(tournament))
    players = list(entrant.members.select_related("player").order_by("position"))
    initial = {"name": entrant.name, "club": entrant.club.name if entrant.club else "", "seed": entrant.seed,
               "email": entrant.email, "group": entrant.group,
               **{f"player_{i + 1}": m.player.name for i, m in enumerate(players)}}
    form = EntrantEditForm(request.POST if request.method == "POST" else None, initial=initial, profile=profile,
                           group_count=tournament.group_count)
    if request.method == "POST" and form.is_valid():
        try:
            entrant_update(actor=request.user, entrant=entrant, **form.service_arguments())
        except TournamentError as error:
            add_service_error(form, error, "name" if error.code == "entrant_name_taken" else
                              "group" if error.code == "groups_fixed" else None)
        else:
            messages.success(request, _("%(name)s saved.") % {"name": form.cleaned_data["name"]})
            return redirect(_manage_url(tournament, "entrants"))
    played = entrant.seats.exclude(round__status=Round.Status.DRAFT).exists()
    return render(request, "tournaments/manage/entrant_edit.html", {
        "tournament": tournament, "entrant": entrant, "form": form, "played": played,
        "groups_fixed": groups_fixed(tournament)})


@login_required
@require_POST
def entrant_delete_view(request: HttpRequest, slug: str, entrant_id: int) -> HttpResponse:
    tournament = organised_tournament(request, slug)
    entrant = get_object_or_404(Entrant, tournament=tournament, pk=entrant_id)
    try:
        done = entrant_delete(actor=request.user, entrant=entrant)
    except TournamentError as error:
        report_error(request, error)
        return redirect("web:entrant-edit", slug=tournament.slug, entrant_id=entrant.pk)
    messages.success(request, _("%(name)s deleted.") % {"name": done["name"]})
    return redirect(_manage_url(tournament, "entrants"))


def _groups_context(tournament: Tournament, form: GroupDrawForm | None = None, error: str = "") -> dict[str, Any]:
    method_labels = dict(GroupDrawForm.base_fields["method"].choices)  # type: ignore[attr-defined]
    by_labels = dict(GroupDrawForm.base_fields["by"].choices)  # type: ignore[attr-defined]
    draw = tournament.group_draw or {}
    left_out = list(tournament.entrants.filter(pk__in=draw.get("left_out") or []).order_by("name")
                    .values_list("name", flat=True))
    return {
        "tournament": tournament, "groups": draw_summary(tournament), "draw": draw,
        "draw_method": method_labels.get(draw.get("method"), ""), "draw_by": by_labels.get(draw.get("by"), ""),
        "left_out": left_out, "groups_fixed": groups_fixed(tournament), "error": error,
        "draw_form": form or GroupDrawForm(initial={"method": draw.get("method", "pots"),
                                                    "by": draw.get("by", "seed")}),
    }


@login_required
@require_POST
def groups_draw_view(request: HttpRequest, slug: str) -> HttpResponse:
    """Draw (or redraw) the groups; with htmx the groups section is swapped in place."""
    tournament = organised_tournament(request, slug)
    form = GroupDrawForm(request.POST)
    error = ""
    if form.is_valid():
        try:
            tournament = groups_draw(actor=request.user, tournament=tournament, **form.cleaned_data)
        except TournamentError as exc:
            error = exc.message
    else:
        error = " ".join(str(e) for errors in form.errors.values() for e in errors)
    if request.htmx:  # type: ignore[attr-defined]
        tournament.refresh_from_db()
        return render(request, "tournaments/manage/_groups.html", _groups_context(tournament, form, error))
    if error:
        messages.error(request, error)
    else:
        messages.success(request, _("Groups drawn (random seed %(seed)s).") % {"seed": tournament.group_draw["seed"]})
    return redirect(_manage_url(tournament, "groups"))
