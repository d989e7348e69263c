"""Reads of the tournaments app (the API, the exports and the web views use them)."""

from __future__ import annotations

from typing import Any

from django.db.models import Prefetch, Q, QuerySet
from django.utils.translation import gettext as _

from tournaments.errors import ErrorCode, TournamentError
from tournaments.models import (
    Entrant,
    EntrantMember,
    Result,
    ResultScore,
    Round,
    Seat,
    StandingRow,
    Table,
    Tournament,
)
from tournaments.permissions import can_view_round, can_view_tournament, is_organiser


def members_with_players(*, clubs: bool = False) -> Prefetch:
    """Prefetch of an entrant's members with their players (and their clubs) joined in.

    Never prefetch a forward foreign key (``"members__player"``) over a large set: Django 5.2 turns it
    into ``id = 1 OR id = 2 OR ...`` on SQLite, which fails past about 1,000 rows ("Expression tree is
    too large"); a join has no such limit.
    """
    return Prefetch(
        "members", queryset=EntrantMember.objects.select_related("player__club" if clubs else "player")
    )


def tournaments_visible_to(user: Any) -> QuerySet[Tournament]:
    """Public tournaments, plus private ones the user organises."""
    queryset = Tournament.objects.all()
    if user is not None and getattr(user, "is_authenticated", False):
        if user.is_superuser:
            return queryset
        return queryset.filter(Q(is_public=True) | Q(organisers=user)).distinct()
    return queryset.filter(is_public=True)


def tournament_get_visible(*, user: Any, slug: str) -> Tournament:
    # the slug is unique: no ORDER BY to compile and run (every public API read starts here)
    tournament = next(iter(Tournament.objects.filter(slug=slug).order_by()[:1]), None)
    if tournament is None or not can_view_tournament(user, tournament):
        raise TournamentError(ErrorCode.NOT_FOUND, _("No such tournament."))
    return tournament


def rounds_visible_to(*, user: Any, tournament: Tournament) -> QuerySet[Round]:
    """Published and finished rounds; draft rounds only for organisers."""
    rounds = tournament.rounds.order_by("number")
    if not is_organiser(user, tournament):
        rounds = rounds.exclude(status=Round.Status.DRAFT)
    return rounds


def round_tables(round_: Round) -> QuerySet[Table]:
    """Tables of a round with seats, entrants and results prefetched (no N+1)."""
    return round_.tables.order_by("number").prefetch_related(
        Prefetch("seats", queryset=Seat.objects.select_related("entrant").order_by("position")),
        Prefetch(
            "results",
            queryset=Result.objects.order_by("created_at", "id").prefetch_related(
                Prefetch("scores", queryset=ResultScore.objects.order_by("entrant_id"))
            ),
        ),
    )


def table_final_result(table: Table) -> Result | None:
    """The final result among the (prefetched) results of the table."""
    for result in table.results.all():
        if result.state in Result.FINAL_STATES:
            return result
    return None


def table_pending_result(table: Table) -> Result | None:
    for result in table.results.all():
        if result.state == Result.State.REPORTED:
            return result
    return None


def round_get_visible(*, user: Any, round_id: int) -> Round:
    round_ = Round.objects.select_related("tournament").filter(pk=round_id).first()
    if round_ is None or not can_view_tournament(user, round_.tournament) or not can_view_round(user, round_):
        raise TournamentError(ErrorCode.NOT_FOUND, _("No such round."))
    return round_


def table_get_visible(*, user: Any, table_id: int) -> Table:
    table = Table.objects.select_related("round__tournament").filter(pk=table_id).first()
    if table is None:
        raise TournamentError(ErrorCode.NOT_FOUND, _("No such table."))
    round_get_visible(user=user, round_id=table.round_id)
    return table


def result_get(*, result_id: int) -> Result:
    result = Result.objects.select_related("table__round__tournament").filter(pk=result_id).first()
    if result is None:
        raise TournamentError(ErrorCode.NOT_FOUND, _("No such result."))
    return result


def entrant_get(*, entrant_id: int) -> Entrant:
    entrant = Entrant.objects.select_related("tournament").filter(pk=entrant_id).first()
    if entrant is None:
        raise TournamentError(ErrorCode.NOT_FOUND, _("No such entrant."))
    return entrant


def entrants_of(tournament: Tournament) -> QuerySet[Entrant]:
    return tournament.entrants.select_related("club").prefetch_related(members_with_players()).order_by("name")


def entrants_with_players(entrants: list[Entrant]) -> list[Entrant]:
    """The given entrants again, in the same order, with club and players loaded in two queries (what a
    bulk write returns, for its answer: no lazy load per entrant; issue 29)."""
    if not entrants:
        return []
    loaded = {e.pk: e for e in Entrant.objects.filter(pk__in=[e.pk for e in entrants])
              .select_related("club").prefetch_related(members_with_players())}
    return [loaded[e.pk] for e in entrants]


def standings_of(tournament: Tournament, *, group: int | None = None) -> QuerySet[StandingRow]:
    """The standings rows in final-ranking order; with ``group``, that group's rows in group order."""
    rows = tournament.standing_rows.select_related("entrant")
    if group is not None:
        return rows.filter(group=group).order_by("group_rank", "rank", "entrant__name")
    return rows.order_by("rank", "entrant__name")


STANDINGS_ROW_FIELDS = ("rank", "shared_rank", "decided_by", "group", "group_rank", "entrant_id", "entrant__name",
                        "games_played", "values")


def standings_page(
    tournament: Tournament, *, group: int | None = None, offset: int = 0, limit: int = 100
) -> tuple[int, list[dict[str, Any]]]:
    """(rows in all, one page of rows as the public API shows them): tuples from the database, no model
    object per row; in final-ranking order, with ``group`` that group's rows in group order."""
    rows = StandingRow.objects.filter(tournament=tournament)
    if group is not None:
        rows = rows.filter(group=group).order_by("group_rank", "rank", "entrant__name")
    else:
        rows = rows.order_by("rank", "entrant__name")
    page = list(rows.values_list(*STANDINGS_ROW_FIELDS)[offset:offset + limit])
    count = len(page) + offset if 0 < len(page) < limit else rows.count()
    return count, [
        {"rank": rank, "shared_rank": shared, "decided_by": decided_by, "group": group_, "group_rank": group_rank,
         "entrant": entrant, "name": name, "games_played": played, "values": values}
        for rank, shared, decided_by, group_, group_rank, entrant, name, played, values in page
    ]


def entrant_games(entrant: Entrant) -> QuerySet[Table]:
    """The tables (of published or finished rounds) an entrant sat at, oldest first."""
    return (
        Table.objects.filter(seats__entrant=entrant)
        .exclude(round__status=Round.Status.DRAFT)
        .select_related("round")
        .order_by("round__number", "number")
        .prefetch_related(
            Prefetch("seats", queryset=Seat.objects.select_related("entrant").order_by("position")),
            Prefetch("results", queryset=Result.objects.prefetch_related("scores")),
        )
    )


def schedule_meetings(tournament: Tournament) -> list[dict[str, Any]]:
    """Round robin (groups) at tables of 3 or N: per group how evenly the pairs meet over the schedule."""
    from tournaments.services.rounds import round_robin_meetings

    groups = tournament.format == Tournament.Format.ROUND_ROBIN or (
        tournament.format == Tournament.Format.STAGES and tournament.group_count > 1
    )
    if not groups:
        return []
    return round_robin_meetings(tournament)


def tables_release(tournament: Tournament) -> dict[int, str]:
    """Rolling rounds: table id -> `done`, `playing` (may start or has started) or `waiting`."""
    from tournaments.services.release import tables_released

    return tables_released(tournament)


def standings_after(tournament: Tournament) -> dict[str, Any] | None:
    """What the standings count: `{"round": N, "provisional": bool, "final": bool}` where N is the
    latest published round; provisional while that round still has tables without a final result
    (or new results are not yet counted); None before the first round is published."""
    latest = tournament.rounds.exclude(status=Round.Status.DRAFT).order_by("-number").first()
    if latest is None:
        return None
    open_round = latest.status == Round.Status.PUBLISHED
    stale = tournament.standings_version < tournament.results_version
    return {
        "round": latest.number,
        "provisional": open_round or stale,
        "final": tournament.status == Tournament.Status.FINISHED and not stale,
    }
