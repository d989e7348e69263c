"""Read-side shapes for the web pages: a round's tables with seats and results, standings columns.

Queries only (no writes). Each function loads what one page shows in a fixed number of queries and
returns plain objects the templates can walk without triggering further queries.
"""

from __future__ import annotations

import html
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from django.db.models import Prefetch, QuerySet
from django.urls import reverse
from django.utils.safestring import mark_safe
from django.utils.translation import gettext_lazy as _

from tournaments.models import Entrant, Result, ResultScore, Round, Seat, StandingRow, Table, Tournament
from tournaments.profiles import GameProfile, ProfileError, profile_for
from tournaments.selectors import members_with_players

# Labels of the standings values; codes not listed are shown as their code with spaces.
TIEBREAK_LABELS: dict[str, Any] = {
    "match_points": _("Match points"),
    "marble_difference": _("Marble difference"),
    "buchholz": _("Buchholz"),
    "median_buchholz": _("Median Buchholz"),
    "sonneborn_berger": _("Sonneborn-Berger"),
    "head_to_head": _("Head-to-head"),
    "opponents_match_win_pct": _("Opponents' match-win %"),
    "games_won": _("Games won"),
}
TIEBREAK_SHORT: dict[str, Any] = {
    "match_points": _("Pts"),
    "marble_difference": _("Diff"),
    "buchholz": _("BH"),
    "median_buchholz": _("MBH"),
    "sonneborn_berger": _("SB"),
    "head_to_head": _("H2H"),
    "opponents_match_win_pct": _("OMW%"),
    "games_won": _("Won"),
}


def tournament_profile(tournament: Tournament) -> GameProfile | None:
    """The tournament's game profile, or None when its stored variant is no longer valid."""
    try:
        return profile_for(tournament.game, tournament.variant)
    except ProfileError:
        return None


def export_links(tournament: Tournament) -> list[tuple[Any, str]]:
    """The CSV downloads of a tournament (served by tournaments.exports under /api/)."""
    labels = {
        "entrants": _("Entrants"),
        "pairings": _("Pairings"),
        "results": _("Results"),
        "standings": _("Standings"),
    }
    return [(label, reverse("api-export", args=[tournament.slug, kind])) for kind, label in labels.items()]


@dataclass
class SeatLine:
    seat: Seat
    entrant: Entrant
    score: ResultScore | None = None
    pending_score: ResultScore | None = None


@dataclass
class TableView:
    table: Table
    seats: list[SeatLine]
    final: Result | None
    pending: Result | None
    history: list[Result] = field(default_factory=list)
    is_mine: bool = False  # one of the viewing user's entrants sits here
    release: str = ""  # rolling rounds: "playing" (may start), "waiting" (earlier tables open), "done"

    @property
    def entrant_ids(self) -> set[int]:
        return {line.entrant.id for line in self.seats}

    @property
    def status(self) -> str:
        if self.table.is_bye:
            return "bye"
        if self.final is not None:
            return "final"
        if self.pending is not None:
            return "reported"
        return "open"


def _scores_by_entrant(result: Result | None) -> dict[int, ResultScore]:
    if result is None:
        return {}
    return {score.entrant_id: score for score in result.scores.all()}


def _table_queryset() -> QuerySet[Table]:
    return Table.objects.select_related("round", "board").prefetch_related(
        Prefetch(
            "seats",
            queryset=Seat.objects.select_related("entrant")
            .prefetch_related(Prefetch("entrant__members", queryset=members_with_players().queryset))
            .order_by("position"),
        ),
        Prefetch("results", queryset=Result.objects.prefetch_related("scores").order_by("created_at", "id")),
    )


def table_views(tables: Iterable[Table]) -> list[TableView]:
    """Tables (loaded with `_table_queryset`) as TableView rows."""
    views = []
    for table in tables:
        results = list(table.results.all())
        final = next((r for r in results if r.state in Result.FINAL_STATES), None)
        pending = next((r for r in results if r.state == Result.State.REPORTED), None)
        final_scores = _scores_by_entrant(final)
        pending_scores = _scores_by_entrant(pending)
        seats = [
            SeatLine(
                seat=seat,
                entrant=seat.entrant,
                score=final_scores.get(seat.entrant_id),
                pending_score=pending_scores.get(seat.entrant_id),
            )
            for seat in table.seats.all()
        ]
        views.append(TableView(table=table, seats=seats, final=final, pending=pending, history=results))
    return views


def round_table_views(round_: Round) -> list[TableView]:
    return table_views(_table_queryset().filter(round=round_).order_by("number"))


def table_view(table: Table) -> TableView:
    return table_views(_table_queryset().filter(pk=table.pk))[0]


def rounds_with_tables(
    tournament: Tournament, *, include_drafts: bool
) -> list[tuple[Round, list[TableView]]]:
    rounds = tournament.rounds.order_by("number")
    if not include_drafts:
        rounds = rounds.exclude(status=Round.Status.DRAFT)
    rounds_list = list(rounds)
    tables = _table_queryset().filter(round__in=rounds_list).order_by("round__number", "number")
    by_round: dict[int, list[Table]] = {r.id: [] for r in rounds_list}
    for table in tables:
        by_round[table.round_id].append(table)
    return [(r, table_views(by_round[r.id])) for r in rounds_list]


def entrant_table_views(entrant: Entrant, *, include_drafts: bool) -> list[tuple[Round, TableView]]:
    """Every table the entrant sits at, by round."""
    tables = (
        _table_queryset().select_related("round").filter(seats__entrant=entrant).order_by("round__number")
    )
    if not include_drafts:
        tables = tables.exclude(round__status=Round.Status.DRAFT)
    return [(view.table.round, view) for view in table_views(tables)]


@dataclass
class StandingsColumn:
    code: str
    label: Any
    short: Any


def standings_columns(tournament: Tournament, rows: list[StandingRow]) -> list[StandingsColumn]:
    """Match points and the tournament's tiebreaks, in the order it applies them (every value the
    rows carry when the tournament has no tiebreak order)."""
    codes: list[str] = []
    for code in ["match_points", *list(tournament.tiebreak_order or [])]:
        if isinstance(code, str) and code not in codes:
            codes.append(code)
    if not tournament.tiebreak_order:
        for row in rows:
            for code in row.values or {}:
                if code not in codes:
                    codes.append(code)
    return [
        StandingsColumn(
            code=code,
            label=TIEBREAK_LABELS.get(code, code.replace("_", " ")),
            short=TIEBREAK_SHORT.get(code, code.replace("_", " ")),
        )
        for code in codes
    ]


@dataclass
class StandingsLine:
    row: StandingRow
    values: list[Any]
    group_shared: bool = False  # in a group table: the place in the group is shared
    url: str = ""  # the entrant's page (set when `standings_lines` is given the tournament's slug)

    @property
    def cells(self) -> str:
        """The value cells as HTML, built in one join (a template loop per cell is most of the cost of
        a long standings page)."""
        return mark_safe("".join(f'<td class="num">{html.escape(str(v))}</td>' for v in self.values))  # noqa: S308


def bye_notes(tournament: Tournament, columns: list[StandingsColumn]) -> list[tuple[Any, str]]:
    """How a bye entered each value of the standings (the page's legend; tournaments/standings/compute.py),
    for the columns shown; empty when no round had a bye."""
    if not Table.objects.filter(round__tournament=tournament, is_bye=True).exists():
        return []
    buchholz = (
        _("a game against itself: its own points (FIDE 2023); cut first in median Buchholz")
        if tournament.bye_tiebreak == Tournament.ByeTiebreak.OWN_SCORE
        else _("FIDE's virtual opponent: its points before the round, the round lost, a draw in every later "
               "round; cut first in median Buchholz")
    )
    texts: dict[str, str] = {
        "match_points": str(_("%(points)s points and a game played (GP)") % {"points": f"{tournament.bye_points:g}"}),
        "marble_difference": str(_("a game won %(for)s:%(against)s") % {
            "for": tournament.bye_score_for, "against": tournament.bye_score_against}),
        "buchholz": str(buchholz),
        "median_buchholz": str(buchholz),
        "sonneborn_berger": str(_("nothing (no opponent was beaten)")),
        "opponents_match_win_pct": str(_("no opponent; an opponent's own byes count as rounds won")),
        "games_won": str(_("not a game won")),
    }
    return [(column.short, texts[column.code]) for column in columns if column.code in texts]


def standings_lines(
    rows: list[StandingRow], columns: list[StandingsColumn], *, slug: str | None = None
) -> list[StandingsLine]:
    """One line per row with its values formatted; with `slug`, each line's entrant URL, built from one
    reversed URL (not one reverse per row)."""
    prefix = reverse("web:entrant-detail", args=[slug, 0]).removesuffix("0/") if slug else ""
    lines = []
    for row in rows:
        values = []
        for column in columns:
            value = (row.values or {}).get(column.code)
            if isinstance(value, float):
                value = f"{value:.2f}".rstrip("0").rstrip(".") if value != int(value) else f"{int(value)}"
            values.append("" if value is None else value)
        lines.append(StandingsLine(row=row, values=values, url=f"{prefix}{row.entrant_id}/" if prefix else ""))
    return lines


def standings_rows(tournament: Tournament, *, limit: int | None = None) -> list[StandingRow]:
    rows = tournament.standing_rows.select_related("entrant").order_by("rank", "entrant__name")
    return list(rows[:limit] if limit is not None else rows)


def group_standings(
    rows: list[StandingRow], columns: list[StandingsColumn], *, slug: str | None = None
) -> list[tuple[int, list[StandingsLine]]]:
    """One standings table per group (its rows in group order); empty without groups."""
    groups: dict[int, list[StandingRow]] = {}
    for row in rows:
        if row.group is not None:
            groups.setdefault(row.group, []).append(row)
    tables = []
    for group in sorted(groups):
        lines = standings_lines(
            sorted(groups[group], key=lambda r: (r.group_rank or 0, r.entrant.name)), columns, slug=slug
        )
        counts: dict[int | None, int] = {}
        for line in lines:
            counts[line.row.group_rank] = counts.get(line.row.group_rank, 0) + 1
        for line in lines:
            line.group_shared = counts[line.row.group_rank] > 1
        tables.append((group, lines))
    return tables


def entrant_ids_of_user(user: Any, tournament: Tournament) -> set[int]:
    """Ids of the tournament's entrants the logged-in user plays in (to highlight their tables)."""
    if user is None or not getattr(user, "is_authenticated", False):
        return set()
    return set(
        Entrant.objects.filter(tournament=tournament, members__player__user=user).values_list("id", flat=True)
    )


def mark_mine(views: Iterable[TableView], entrant_ids: set[int]) -> None:
    """Flag the tables where one of `entrant_ids` sits."""
    for view in views:
        view.is_mine = bool(entrant_ids & view.entrant_ids)


def mark_release(tournament: Tournament, round_: Round, views: list[TableView]) -> None:
    """Rolling rounds: mark which tables of a published round may start and which wait."""
    from tournaments.selectors import tables_release

    if not tournament.rolling_rounds or round_.status != Round.Status.PUBLISHED:
        return
    release = tables_release(tournament)
    for view in views:
        view.release = release.get(view.table.pk, "")


@dataclass
class PodiumPlace:
    rank: int
    entrant: Entrant
    players: list[str]


def podium(tournament: Tournament) -> list[PodiumPlace]:
    """Places 1-3 of a finished tournament (shared places all shown), from the final standings rows;
    empty before the tournament is finished or while its standings are stale."""
    if tournament.status != Tournament.Status.FINISHED or tournament.standings_version < tournament.results_version:
        return []
    rows = (tournament.standing_rows.filter(rank__lte=3).select_related("entrant")
            .prefetch_related("entrant__members__player").order_by("rank", "entrant__name"))
    return [PodiumPlace(rank=row.rank, entrant=row.entrant,
                        players=[m.player.name for m in row.entrant.members.all()]) for row in rows]


def final_table(rounds: list[tuple[Round, list[TableView]]], champion_id: int | None) -> tuple[Round, TableView] | None:
    """The knockout's final: the champion's table in the last knockout round (None without a knockout)."""
    knockout = [(r, views) for r, views in rounds if r.stage == Round.Stage.KNOCKOUT]
    if not knockout or champion_id is None:
        return None
    round_, views = knockout[-1]
    view = next((v for v in views if champion_id in v.entrant_ids and not v.table.is_bye), None)
    return (round_, view) if view is not None else None
