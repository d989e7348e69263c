"""CSV exports of entrants, pairings, results and standings (plain Django views, public like the pages).

Numbers are written as numbers (a spreadsheet sorts -1.5 below 0). Text cells that a spreadsheet
would run as a formula (starting with = + - @ or a tab) are prefixed with a quote (CSV injection).
"""

from __future__ import annotations

import csv
import datetime
from collections.abc import Iterable, Sequence
from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.utils import timezone
from django.utils.translation import gettext as _

from tournaments import scheduling, selectors
from tournaments.errors import TournamentError
from tournaments.models import Result, Tournament
from tournaments.services import release
from tournaments.standings import TIEBREAKS

EXPORTS = ("entrants", "pairings", "results", "standings")


def csv_cell(value: Any) -> str:
    text = "" if value is None else str(value)
    if text and text[0] in "=+-@\t\r":
        return "'" + text
    return text


def csv_value(value: Any) -> Any:
    """A number (int/float, not bool) as itself; anything else as guarded text (`csv_cell`)."""
    if isinstance(value, int | float) and not isinstance(value, bool):
        return value
    return csv_cell(value)


def _csv_response(filename: str, header: Sequence[str], rows: Iterable[Sequence[Any]]) -> HttpResponse:
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    writer = csv.writer(response)
    writer.writerow(header)
    for row in rows:
        writer.writerow([csv_value(v) for v in row])
    return response


def entrants_rows(tournament: Tournament) -> tuple[list[str], list[list[Any]]]:
    header = ["name", "players", "club", "seed", "rating", "group", "status"]
    rows = [
        [e.name, ";".join(m.player.name for m in e.members.all()), e.club.name if e.club else "", e.seed,
         e.rating, e.group, e.status]
        for e in selectors.entrants_of(tournament)
    ]
    return header, rows


def pairings_rows(tournament: Tournament, user: Any, round_number: int | None) -> tuple[list[str], list[list[Any]]]:
    header = ["round", "table", "physical_table", "starts_at", "seat", "entrant", "starts"]
    rows: list[list[Any]] = []
    rounds = selectors.rounds_visible_to(user=user, tournament=tournament)
    if round_number is not None:
        rounds = rounds.filter(number=round_number)
    for round_ in rounds:
        for table in selectors.round_tables(round_):
            for seat in table.seats.all():
                rows.append([round_.number, "bye" if table.is_bye else table.number, table.physical_table,
                             table.starts_at.isoformat() if table.starts_at else "", seat.position + 1,
                             seat.entrant.name, "yes" if seat.is_starting else ""])
    return header, rows


def results_rows(tournament: Tournament, user: Any) -> tuple[list[str], list[list[Any]]]:
    header = ["round", "table", "kind", "state", "entrant", "score", "placing", "winner", "forfeited"]
    rows: list[list[Any]] = []
    for round_ in selectors.rounds_visible_to(user=user, tournament=tournament):
        for table in selectors.round_tables(round_):
            result: Result | None = selectors.table_final_result(table)
            if result is None:
                continue
            names = {s.entrant_id: s.entrant.name for s in table.seats.all()}
            for line in result.scores.all():
                rows.append([round_.number, "bye" if table.is_bye else table.number, result.kind, result.state,
                             names.get(line.entrant_id, line.entrant_id), line.score, line.placing,
                             "yes" if line.is_winner else "", "yes" if line.forfeited else ""])
    return header, rows


def standings_rows(tournament: Tournament, group: int | None = None) -> tuple[list[str], list[list[Any]]]:
    """Final-ranking order (with ``group``: that group in group order); the place's source and the
    group columns come last."""
    codes = list(tournament.tiebreak_order) + [c for c in TIEBREAKS if c not in tournament.tiebreak_order]
    header = ["rank", "entrant", "games", *codes, "shared_rank", "dropped", "decided_by", "group", "group_rank"]
    rows = [
        [r.rank, r.entrant.name, r.games_played, *[r.values.get(code, "") for code in codes],
         "yes" if r.shared_rank else "", "yes" if r.entrant.status == "dropped" else "",
         r.decided_by, "" if r.group is None else r.group, "" if r.group_rank is None else r.group_rank]
        for r in selectors.standings_of(tournament, group=group)
    ]
    return header, rows


MAX_ROUND_NUMBER = 1000
MAX_GROUP_NUMBER = 64


def export_csv(request: HttpRequest, slug: str, kind: str) -> HttpResponse:
    try:
        tournament = selectors.tournament_get_visible(user=request.user, slug=slug)
    except TournamentError as exc:
        return JsonResponse({"error": {"code": str(exc.code), "message": exc.message, "details": {}}}, status=404)
    # The query parameters are checked whatever the export (the schema states their bounds): 400 outside
    # them, 422 for a group the tournament does not have.
    round_raw, group_raw = request.GET.get("round"), request.GET.get("group")
    if round_raw is not None and not (round_raw.isdigit() and 1 <= int(round_raw) <= MAX_ROUND_NUMBER):
        return JsonResponse({"error": {"code": "invalid_input", "message": _("The round must be a whole number."),
                                       "details": {"round": round_raw}}}, status=400)
    if group_raw is not None and not (group_raw.isdigit() and 1 <= int(group_raw) <= MAX_GROUP_NUMBER):
        return JsonResponse({"error": {"code": "invalid_input", "message": _("group must be a group number."),
                                       "details": {"group": group_raw}}}, status=400)
    if group_raw is not None and (int(group_raw) > tournament.group_count or tournament.group_count < 2):
        return JsonResponse({"error": {"code": "invalid_input", "message": _("group must be a group number."),
                                       "details": {"group": group_raw}}}, status=422)
    if kind == "entrants":
        header, rows = entrants_rows(tournament)
    elif kind == "pairings":
        header, rows = pairings_rows(tournament, request.user, int(round_raw) if round_raw else None)
    elif kind == "results":
        header, rows = results_rows(tournament, request.user)
    elif kind == "standings":
        header, rows = standings_rows(tournament, int(group_raw) if group_raw else None)
    else:
        return JsonResponse({"error": {"code": "not_found", "message": _("Unknown export."), "details": {}}},
                            status=404)
    return _csv_response(f"{tournament.slug}-{kind}.csv", header, rows)


def calendar_events(tournament: Tournament, user: Any) -> list[scheduling.CalendarEvent]:
    """One event per table with a start time (its own, else its round's), in published rounds."""
    duration = datetime.timedelta(minutes=tournament.game_minutes)
    events: list[scheduling.CalendarEvent] = []
    rounds = [(round_, [t for t in selectors.round_tables(round_) if not t.is_bye])
              for round_ in selectors.rounds_visible_to(user=user, tournament=tournament).exclude(status="draft")]
    # the game length and (rolling rounds) the entrants' earlier games decide when a table starts
    starts = release.expected_starts(tournament, [t for _, tables in rounds for t in tables])
    for round_, tables in rounds:
        for table in tables:
            start = starts.get(table.pk)
            if start is None:
                continue
            names = [seat.entrant.name for seat in table.seats.all()]
            location = ", ".join(part for part in (tournament.venue, table.physical_table) if part)
            events.append(scheduling.CalendarEvent(
                uid=f"{tournament.slug}-r{round_.number}-t{table.number}@{settings.CALENDAR_UID_DOMAIN}",
                title=f"{tournament.name} – round {round_.number}: {' – '.join(names)}",
                start=start, end=start + duration, location=location,
                entrant_ids=tuple(seat.entrant_id for seat in table.seats.all()),
            ))
    return events


def export_calendar(request: HttpRequest, slug: str, entrant_id: int | None = None) -> HttpResponse:
    """iCal feed of a tournament (or of one entrant's games)."""
    try:
        tournament = selectors.tournament_get_visible(user=request.user, slug=slug)
    except TournamentError as exc:
        return JsonResponse({"error": {"code": str(exc.code), "message": exc.message, "details": {}}}, status=404)
    about = scheduling.CalendarTournament(slug=tournament.slug, name=tournament.name,
                                          domain=settings.CALENDAR_UID_DOMAIN)
    events = calendar_events(tournament, request.user)
    if entrant_id is None:
        body = scheduling.tournament_calendar(about, events, generated_at=timezone.now())
        filename = f"{tournament.slug}.ics"
    else:
        entrant = tournament.entrants.filter(pk=entrant_id).first()
        if entrant is None:
            return JsonResponse({"error": {"code": "not_found", "message": _("No such entrant."), "details": {}}},
                                status=404)
        body = scheduling.entrant_calendar(about, events, entrant.pk, generated_at=timezone.now(),
                                           entrant_name=entrant.name)
        filename = f"{tournament.slug}-{entrant.pk}.ics"
    response = HttpResponse(body, content_type="text/calendar; charset=utf-8")
    response["Content-Disposition"] = f'inline; filename="{filename}"'
    return response
