"""Public pages: tournament list, tournament page, round, entrant, standings, printable pairing sheet.

They load without JavaScript. Draft rounds and private tournaments are shown only to organisers.
"""

from __future__ import annotations

from typing import Any

from django.core.paginator import Paginator
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils.functional import SimpleLazyObject

from tournaments import permissions, public_fast_path
from tournaments.models import Entrant, Round, Table, Tournament
from tournaments.page_cache import PublicPage, tournament_key
from tournaments.selectors import members_with_players, standings_after, tournaments_visible_to
from tournaments.services.groups import draw_summary, has_groups
from tournaments.views.page_data import (
    bye_notes,
    entrant_ids_of_user,
    entrant_table_views,
    export_links,
    final_table,
    group_standings,
    mark_mine,
    mark_release,
    podium,
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


# Rows of the standings page before "next page" / "show all" (what a phone first sees: a few screens).
STANDINGS_PAGE_SIZE = 50
# Rows of the standings on the tournament page, above a link to the whole list.
STANDINGS_ON_TOURNAMENT_PAGE = 10


def _personal(request: HttpRequest, tournament: Tournament) -> tuple[bool, set[int]]:
    """(is organiser, the viewer's entrant ids): a page showing either is the viewer's own, not cached."""
    return permissions.is_organiser(request.user, tournament), entrant_ids_of_user(request.user, tournament)


def tournament_detail(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = visible_tournament(request, slug)
    is_organiser, my_entrant_ids = _personal(request, tournament)
    page = PublicPage(request, tournament_key(tournament, "tournament"),
                      cacheable=not is_organiser and not my_entrant_ids, shared=tournament.is_public)
    if (answer := page.not_modified() or page.cached_response()) is not None:
        return answer
    if page.html is not None:  # the content is cached: the shell needs nothing else
        return page.finish(render(request, "tournaments/tournament_detail.html",
                                  {"tournament": tournament, "page_cache": page}))
    rounds = rounds_with_tables(tournament, include_drafts=False)
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
    places = podium(tournament)
    final = final_table(rounds, next((p.entrant.pk for p in places if p.rank == 1), None)) if places else None
    rows = standings_rows(tournament, limit=STANDINGS_ON_TOURNAMENT_PAGE + 1)
    columns = standings_columns(tournament, rows)
    entrants = list(tournament.entrants.prefetch_related(members_with_players()).order_by("name"))
    return page.finish(render(
        request,
        "tournaments/tournament_detail.html",
        {
            "tournament": tournament,
            "page_cache": page,
            "profile": tournament_profile(tournament),
            "is_organiser": is_organiser,
            "rounds": rounds,
            "current_round": rounds[-1] if rounds else None,
            "columns": columns,
            "standings": standings_lines(rows[:STANDINGS_ON_TOURNAMENT_PAGE], columns, slug=tournament.slug),
            "standings_more": len(rows) > STANDINGS_ON_TOURNAMENT_PAGE,
            "standings_stale": tournament.standings_version < tournament.results_version,
            "standings_after": standings_after(tournament),
            "entrants": entrants,
            "my_entrant_ids": my_entrant_ids,
            "my_open_tables": my_open_tables,
            "podium": places,
            "sign_up_open": tournament.registration_open and not rounds
            and tournament.status != Tournament.Status.FINISHED,
            "drawn_groups": draw_summary(tournament) if tournament.group_draw and has_groups(tournament) else [],
            "final_table": final,
            "export_links": export_links(tournament),
        },
    ))


def _standings_page_number(request: HttpRequest) -> int | str:
    """`?page=all`, else the page number (1 when absent or not a number)."""
    value = request.GET.get("page", "1")
    if value == "all":
        return "all"
    return int(value) if value.isdigit() and 0 < int(value) < 100_000 else 1


class _StandingsPage:
    """The rows of one standings page, read only when the content is rendered (not when cached)."""

    def __init__(self, tournament: Tournament, number: int | str) -> None:
        self.tournament = tournament
        self.number = number
        self._done: dict[str, Any] | None = None

    def load(self) -> dict[str, Any]:
        if self._done is None:
            rows_qs = self.tournament.standing_rows.select_related("entrant").order_by("rank", "entrant__name")
            paging = None
            if self.number == "all":
                rows = list(rows_qs)
            else:
                paging = Paginator(rows_qs, STANDINGS_PAGE_SIZE).get_page(self.number)
                rows = list(paging.object_list)
                if paging.paginator.num_pages <= 1:
                    paging = None
            columns = standings_columns(self.tournament, rows)
            # group tables (docs/formats.md): every row of the tournament, whatever the page
            groups = group_standings(rows if paging is None else list(rows_qs), columns, slug=self.tournament.slug) \
                if self.tournament.group_count > 1 else []
            self._done = {"columns": columns, "paging": paging, "groups": groups,
                          "lines": standings_lines(rows, columns, slug=self.tournament.slug),
                          "bye_notes": bye_notes(self.tournament, columns)}
        return self._done


def standings(request: HttpRequest, slug: str) -> HttpResponse:
    """The standings, 50 rows a page (the whole list one click away, `?page=all`); the same for every
    viewer, so always served from the versioned cache."""
    tournament = visible_tournament(request, slug)
    public_fast_path.offer(request, tournament)
    number = _standings_page_number(request)
    page = PublicPage(request, tournament_key(tournament, "standings", number), shared=tournament.is_public)
    if (answer := page.not_modified() or page.cached_response()) is not None:
        return answer
    data = _StandingsPage(tournament, number)
    return page.finish(render(
        request,
        "tournaments/standings.html",
        {
            "tournament": tournament,
            "page_cache": page,
            "columns": SimpleLazyObject(lambda: data.load()["columns"]),
            "standings": SimpleLazyObject(lambda: data.load()["lines"]),
            "paging": SimpleLazyObject(lambda: data.load()["paging"] or False),
            "showing_all": number == "all",
            "standings_stale": tournament.standings_version < tournament.results_version,
            "groups": SimpleLazyObject(lambda: data.load()["groups"]),
            "bye_notes": SimpleLazyObject(lambda: data.load()["bye_notes"]),
            "has_bracket": bool(tournament.knockout_seeding),
            # read only when the content is rendered: a cached page runs the tournament query alone
            "standings_after": SimpleLazyObject(lambda: standings_after(tournament)),
        },
    ))


def visible_round(request: HttpRequest, tournament: Tournament, number: int) -> Round:
    """Round `number` of `tournament`, or 404 when there is none or it is a draft the user may not see."""
    round_ = get_object_or_404(tournament.rounds, number=number)
    if not permissions.can_view_round(request.user, round_):
        raise Http404("This round is not published yet.")
    return round_


def visible_table(request: HttpRequest, tournament: Tournament, table_id: int) -> Table:
    """A table of `tournament` (its round and tournament joined), or 404 when there is none or its round
    is a draft the user may not see."""
    table = get_object_or_404(
        Table.objects.select_related("round__tournament"), pk=table_id, round__tournament=tournament
    )
    if not permissions.can_view_round(request.user, table.round):
        raise Http404("This round is not published yet.")
    return table


def round_detail(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    tournament = visible_tournament(request, slug)
    round_ = visible_round(request, tournament, number)
    is_organiser, my_entrant_ids = _personal(request, tournament)
    page = PublicPage(request, tournament_key(tournament, "round", number),
                      cacheable=not is_organiser and not my_entrant_ids, shared=tournament.is_public)
    if (answer := page.not_modified() or page.cached_response()) is not None:
        return answer

    def tables() -> list[Any]:
        views = round_table_views(round_)
        mark_mine(views, my_entrant_ids)
        mark_release(tournament, round_, views)
        return views

    return page.finish(render(
        request,
        "tournaments/round_detail.html",
        {
            "tournament": tournament,
            "page_cache": page,
            "profile": tournament_profile(tournament),
            "round": round_,
            "tables": SimpleLazyObject(tables),
            "is_organiser": is_organiser,
            "my_entrant_ids": my_entrant_ids,
        },
    ))


def pairing_sheet(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """One printable page per round: table, physical table, start time, seats in order."""
    tournament = visible_tournament(request, slug)
    round_ = visible_round(request, tournament, number)
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
        Entrant.objects.prefetch_related(members_with_players()).select_related("club"),
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
