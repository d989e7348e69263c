"""Public pages: tournament list, tournament page, round, entrant, standings, printable pairing sheet.

They load without JavaScript. Draft rounds and private tournaments are shown only to organisers.
"""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.urls import reverse

from tournaments import permissions
from tournaments.models import Entrant, Round, Tournament
from tournaments.selectors import standings_after, tournaments_visible_to
from tournaments.views.page_data import (
    entrant_ids_of_user,
    entrant_table_views,
    export_links,
    mark_mine,
    round_table_views,
    rounds_with_tables,
    standings_columns,
    standings_lines,
    standings_rows,
    tournament_profile,
)


def visible_tournament(request: HttpRequest, slug: str) -> Tournament:
    """The tournament by slug, or 404 when it does not exist or the user may not see it."""
    tournament = get_object_or_404(Tournament, slug=slug)
    if not permissions.can_view_tournament(request.user, tournament):
        raise Http404("No such tournament.")
    return tournament


def tournament_list(request: HttpRequest) -> HttpResponse:
    tournaments = list(tournaments_visible_to(request.user).prefetch_related("organisers")[:200])
    rows = [(t, tournament_profile(t)) for t in tournaments]
    return render(request, "tournaments/tournament_list.html", {"rows": rows})


def tournament_detail(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = visible_tournament(request, slug)
    is_organiser = permissions.is_organiser(request.user, tournament)
    rounds = rounds_with_tables(tournament, include_drafts=False)
    my_entrant_ids = entrant_ids_of_user(request.user, tournament)
    for _round, views in rounds:
        mark_mine(views, my_entrant_ids)
    # A logged-in player's tables still waiting for a final result, shown first.
    my_open_tables = [
        (round_, view)
        for round_, views in rounds
        for view in views
        if view.is_mine
        and view.final is None
        and not view.table.is_bye
        and round_.status == Round.Status.PUBLISHED
    ]
    rows = standings_rows(tournament)
    columns = standings_columns(tournament, rows)
    entrants = list(tournament.entrants.prefetch_related("members__player").order_by("name"))
    return render(
        request,
        "tournaments/tournament_detail.html",
        {
            "tournament": tournament,
            "profile": tournament_profile(tournament),
            "is_organiser": is_organiser,
            "rounds": rounds,
            "current_round": rounds[-1] if rounds else None,
            "columns": columns,
            "standings": standings_lines(rows, columns),
            "standings_stale": tournament.standings_version < tournament.results_version,
            "standings_after": standings_after(tournament),
            "entrants": entrants,
            "my_entrant_ids": my_entrant_ids,
            "my_open_tables": my_open_tables,
            "export_links": export_links(tournament),
        },
    )


def standings(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = visible_tournament(request, slug)
    rows = standings_rows(tournament)
    columns = standings_columns(tournament, rows)
    return render(
        request,
        "tournaments/standings.html",
        {
            "tournament": tournament,
            "columns": columns,
            "standings": standings_lines(rows, columns),
            "standings_stale": tournament.standings_version < tournament.results_version,
            "standings_after": standings_after(tournament),
        },
    )


def _visible_round(request: HttpRequest, tournament: Tournament, number: int) -> Round:
    round_ = get_object_or_404(Round, tournament=tournament, number=number)
    if round_.status == Round.Status.DRAFT and not permissions.is_organiser(request.user, tournament):
        raise Http404("This round is not published yet.")
    return round_


def round_detail(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    tournament = visible_tournament(request, slug)
    round_ = _visible_round(request, tournament, number)
    my_entrant_ids = entrant_ids_of_user(request.user, tournament)
    tables = round_table_views(round_)
    mark_mine(tables, my_entrant_ids)
    return render(
        request,
        "tournaments/round_detail.html",
        {
            "tournament": tournament,
            "profile": tournament_profile(tournament),
            "round": round_,
            "tables": tables,
            "is_organiser": permissions.is_organiser(request.user, tournament),
            "my_entrant_ids": my_entrant_ids,
        },
    )


def pairing_sheet(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """One printable page per round: table, physical table, start time, seats in order."""
    tournament = visible_tournament(request, slug)
    round_ = _visible_round(request, tournament, number)
    tables = round_table_views(round_)
    max_seats = max((len(view.seats) for view in tables), default=0)
    return render(
        request,
        "tournaments/pairing_sheet.html",
        {
            "tournament": tournament,
            "profile": tournament_profile(tournament),
            "round": round_,
            "tables": tables,
            "seat_numbers": range(1, max_seats + 1),
            "pairings_csv": reverse("api-export", args=[tournament.slug, "pairings"])
            + f"?round={round_.number}",
        },
    )


def entrant_detail(request: HttpRequest, slug: str, entrant_id: int) -> HttpResponse:
    tournament = visible_tournament(request, slug)
    entrant = get_object_or_404(
        Entrant.objects.prefetch_related("members__player").select_related("club"),
        tournament=tournament,
        pk=entrant_id,
    )
    is_organiser = permissions.is_organiser(request.user, tournament)
    games = entrant_table_views(entrant, include_drafts=is_organiser)
    standing = tournament.standing_rows.filter(entrant=entrant).first()
    rows = [standing] if standing else []
    columns = standings_columns(tournament, rows)
    standing_line = standings_lines(rows, columns)[0] if rows else None
    return render(
        request,
        "tournaments/entrant_detail.html",
        {
            "tournament": tournament,
            "entrant": entrant,
            "profile": tournament_profile(tournament),
            "games": games,
            "columns": columns,
            "standing": standing_line,
            "standing_pairs": list(zip(columns, standing_line.values, strict=True)) if standing_line else [],
            "is_organiser": is_organiser,
        },
    )
