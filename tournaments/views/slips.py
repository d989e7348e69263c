"""Printable venue papers for organisers: a result slip per table of a round, and the sheet of every
entrant's private report link. Both carry private links (with QR codes), so only organisers see them.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.utils.safestring import SafeString

from tournaments.models import Entrant, Round
from tournaments.report_links import qr_svg, report_link
from tournaments.selectors import members_with_players
from tournaments.views.organiser import organised_tournament
from tournaments.views.page_data import TableView, round_table_views, tournament_profile


@dataclass
class SlipSeat:
    number: int
    entrant: Entrant
    is_starting: bool
    players: list[str]
    link: str
    qr: SafeString


@dataclass
class Slip:
    view: TableView
    seats: list[SlipSeat]


def _link_and_qr(request: HttpRequest, entrant: Entrant) -> tuple[str, SafeString]:
    link = report_link(entrant, request)
    return link, qr_svg(link)


@login_required
def result_slips(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    """One slip per table: tournament, round, table, board, start, seats (starting seat marked) with
    each team's report-link QR code, boxes for the score and signature lines."""
    tournament = organised_tournament(request, slug)
    round_ = get_object_or_404(Round, tournament=tournament, number=number)
    profile = tournament_profile(tournament)
    slips = []
    for view in round_table_views(round_):
        if view.table.is_bye:
            continue
        seats = []
        for line in view.seats:
            link, qr = _link_and_qr(request, line.entrant)
            seats.append(SlipSeat(
                number=line.seat.position + 1, entrant=line.entrant, is_starting=line.seat.is_starting,
                players=[m.player.name for m in line.entrant.members.all()], link=link, qr=qr,
            ))
        slips.append(Slip(view=view, seats=seats))
    byes = [line.entrant for view in round_table_views(round_) if view.table.is_bye for line in view.seats]
    return render(
        request,
        "tournaments/manage/result_slips.html",
        {"tournament": tournament, "profile": profile, "round": round_, "slips": slips, "byes": byes},
    )


@login_required
def report_link_sheet(request: HttpRequest, slug: str) -> HttpResponse:
    """Every entrant's private report link with its QR code, to cut out and hand over at check-in."""
    tournament = organised_tournament(request, slug)
    entrants = tournament.entrants.prefetch_related(members_with_players()).order_by("name")
    cards = []
    for entrant in entrants:
        link, qr = _link_and_qr(request, entrant)
        cards.append({"entrant": entrant, "players": [m.player.name for m in entrant.members.all()],
                      "link": link, "qr": qr})
    return render(
        request,
        "tournaments/manage/report_link_sheet.html",
        {"tournament": tournament, "profile": tournament_profile(tournament), "cards": cards},
    )
