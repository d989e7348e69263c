"""The bracket page (public) and the final-places settings (organisers).

The bracket page shows every knockout round as a column of match cards (stacked on a phone, side by
side on a wide screen, one sheet when printed): who met whom, seeds, scores or placings, the winner
in bold, links to the table on its round page, to the entrants, and to the verified game record.
It works without JavaScript and for N-player knockout tables.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import pgettext
from django.views.decorators.http import require_POST

from tournaments import permissions
from tournaments.errors import TournamentError
from tournaments.forms import FinalPlacesForm
from tournaments.models import Entrant, Result, ResultScore, Round, Table, Tournament
from tournaments.page_cache import PublicPage, tournament_key
from tournaments.pairing import PairingError, double_elimination
from tournaments.services import tournament_update
from tournaments.services.brackets import (
    double_bracket,
    double_results,
    is_double_elimination,
    knockout_results,
    single_key,
    tournament_bracket,
)
from tournaments.standings.final_ranking import (
    KNOCKOUT,
    ResolvedRound,
    ResolvedTable,
    bracket_resolve,
    class_range,
    table_decides,
)
from tournaments.views.organiser import organised_tournament, report_error, report_form_errors
from tournaments.views.public import visible_tournament


@dataclass
class BracketSlot:
    entrant: Entrant | None
    seed: int | None
    source: str  # where an unknown entrant comes from ("Winner of table 3"); empty when known
    score: ResultScore | None = None
    place: int | None = None  # finishing place at this table once final
    advances: bool = False


@dataclass
class BracketCard:
    label: str  # "Table 3", "Bye"
    kind_label: str  # "", "Third-place match", "Places 5–8"
    decided_by: str  # knockout | placement
    slots: list[BracketSlot]
    table: Table | None = None  # the played table (link to its round page)
    final: bool = False  # the result is final
    record_table_id: int | None = None


@dataclass
class BracketColumn:
    name: str
    round: Round | None
    cards: list[BracketCard] = field(default_factory=list)


def _round_name(name: str) -> str:
    names = {
        "Final": pgettext("knockout round", "Final"),
        "Semi-finals": _("Semi-finals"),
        "Quarter-finals": _("Quarter-finals"),
    }
    if name in names:
        return names[name]
    if name.startswith("Round of "):
        return _("Round of %(count)s") % {"count": name.removeprefix("Round of ")}
    return name


def _source_label(resolved: tuple[ResolvedRound, ...], table: ResolvedTable, index: int) -> str:
    source = table.sources[index]
    feeder = next(t for t in resolved[table.round_number - 2].tables if t.position == source.position)
    number = feeder.number if feeder.number is not None else source.position
    if source.place == 1:
        return _("Winner of table %(number)s") % {"number": number}
    if source.place == 2 and feeder.size == 2:
        return _("Loser of table %(number)s") % {"number": number}
    return _("Place %(place)s at table %(number)s") % {"place": source.place, "number": number}


def _kind_label(bracket_size: int, resolved_round: ResolvedRound, table: ResolvedTable) -> str:
    best, worst = class_range(resolved_round, table)
    if table.kind == "third_place" and bracket_size == 2:
        return _("Third-place match")
    if table.kind == "main":
        if len([t for t in resolved_round.tables if t.kind == "main"]) == 1:
            return pgettext("knockout round", "Final")
        return ""
    return _("Places %(best)s–%(worst)s") % {"best": best, "worst": worst}


def double_bracket_columns(tournament: Tournament, *, include_drafts: bool) -> list[BracketColumn]:
    """Double elimination: the winners' bracket rounds, the losers' bracket rounds, the grand final
    (and its reset) as columns of cards; byes and empty tables are left out."""
    drawn = double_bracket(tournament)
    if drawn is None:
        return []
    bracket, seeding = drawn
    results, keys = double_results(tournament, drawn)
    states = double_elimination.double_elimination_resolve(bracket, seeding, results)
    rounds = list(tournament.rounds.filter(stage=Round.Stage.KNOCKOUT))
    if not include_drafts:
        rounds = [r for r in rounds if r.status != Round.Status.DRAFT]
    numbers = {r.number for r in rounds}
    tables = {
        (t.round.number, t.number): t
        for t in Table.objects.filter(round__in=rounds, is_bye=False).select_related("round")
        .prefetch_related("results__scores")
    }
    table_of = {key: tables.get(place) for place, key in keys.items() if place[0] in numbers}
    seed_of = {entrant_id: seed for seed, entrant_id in enumerate(seeding, start=1)}
    entrants = {e.pk: e for e in tournament.entrants.all()}
    columns: dict[tuple[str, int], BracketColumn] = {}
    for match in bracket.matches:
        state = states[match.key]
        if state.state in ("empty", "skipped"):
            continue
        if match.bracket == double_elimination.WINNERS:
            name = _("Winners' bracket, round %(number)s") % {"number": match.round}
        elif match.bracket == double_elimination.LOSERS:
            name = _("Losers' bracket, round %(number)s") % {"number": match.round}
        else:
            name = _("Grand final") if match.key == "GF" else _("Grand final, reset")
        column = columns.setdefault((match.bracket, match.round), BracketColumn(name=name, round=None))
        db_table = table_of.get(match.key)
        final = next((r for r in db_table.results.all() if r.state in Result.FINAL_STATES), None) if db_table else None
        scores = {line.entrant_id: line for line in final.scores.all()} if final else {}
        slots = []
        for entrant_id, source in zip(state.entrants, match.sources, strict=True):
            known = entrant_id not in (None, double_elimination.NOBODY)
            label = ""
            if entrant_id is None:
                label = (_("Winner of %(table)s") if source.kind == "winner" else _("Loser of %(table)s")) % {
                    "table": source.key}
            elif not known:
                continue  # the empty side of a bye
            slots.append(BracketSlot(
                entrant=entrants.get(entrant_id) if known else None,  # type: ignore[arg-type]
                seed=seed_of.get(entrant_id) if known else None,  # type: ignore[arg-type]
                source=label,
                score=scores.get(entrant_id) if known else None,  # type: ignore[arg-type]
                place=(1 if state.winner == entrant_id else 2) if state.state == "done" else None,
            ))
        column.cards.append(BracketCard(
            label=match.key if db_table is None else _("%(key)s · table %(number)s") % {
                "key": match.key, "number": db_table.number},
            kind_label=_("Bye") if state.state == "bye" else "",
            decided_by=KNOCKOUT,
            slots=slots,
            table=db_table,
            final=final is not None or state.state == "bye",
            record_table_id=db_table.pk if db_table is not None and final is not None else None,
        ))
    return list(columns.values())


def bracket_columns(tournament: Tournament, *, include_drafts: bool) -> list[BracketColumn]:
    """The bracket as columns of cards (empty before the knockout is drawn)."""
    if is_double_elimination(tournament):
        try:
            return double_bracket_columns(tournament, include_drafts=include_drafts)
        except PairingError:
            return []
    try:
        bracket = tournament_bracket(tournament)
    except PairingError:
        bracket = None
    if bracket is None:
        return []
    resolved = bracket_resolve(bracket, knockout_results(tournament))
    rounds = list(tournament.rounds.filter(stage=Round.Stage.KNOCKOUT).order_by("number"))
    if not include_drafts:
        rounds = [r for r in rounds if r.status != Round.Status.DRAFT]
    round_by_index = dict(enumerate(rounds, start=1))
    tables = {
        (t.round_id, t.number): t
        for t in Table.objects.filter(round__in=rounds, is_bye=False).select_related("round")
        .prefetch_related("results__scores")
    }
    # a rolling knockout: each table says which bracket table it plays
    keyed = {single_key(t.bracket_key): t for t in tables.values() if single_key(t.bracket_key) is not None}
    seed_of = {entrant_id: seed for seed, entrant_id in enumerate(bracket.seeding, start=1)}
    entrants = {e.pk: e for e in tournament.entrants.all()}
    columns: list[BracketColumn] = []
    for resolved_round in resolved:
        db_round = round_by_index.get(resolved_round.number)
        name = _round_name(resolved_round.name)
        if bracket.table_size > 2 and resolved_round.number < len(resolved):
            name = _("Knockout round %(number)s") % {"number": resolved_round.number}
        column = BracketColumn(name=name, round=db_round)
        for table in resolved_round.tables:
            if table.number is None and resolved_round.number > 1:
                continue
            if table.number is None and not [i for i in table.entrant_ids if i is not None]:
                continue
            db_table = keyed.get((resolved_round.number, table.number)) if keyed else (
                tables.get((db_round.pk, table.number)) if db_round and table.number else None
            )
            final: Result | None = None
            if db_table is not None:
                final = next((r for r in db_table.results.all() if r.state in Result.FINAL_STATES), None)
            scores = {line.entrant_id: line for line in final.scores.all()} if final else {}
            order = table.order or ()
            slots = []
            for index, entrant_id in enumerate(table.entrant_ids):
                place = order.index(entrant_id) + 1 if entrant_id is not None and entrant_id in order else None
                slots.append(BracketSlot(
                    entrant=entrants.get(entrant_id) if entrant_id is not None else None,
                    seed=seed_of.get(entrant_id) if entrant_id is not None else None,
                    source="" if entrant_id is not None or resolved_round.number == 1
                    else _source_label(resolved, table, index),
                    score=scores.get(entrant_id) if entrant_id is not None else None,
                    place=place if table.number is not None else None,
                    advances=place is not None and place <= bracket.advance and table.kind == "main"
                    and resolved_round.number < len(resolved),
                ))
            if table.order is not None and table.number is not None:
                slots.sort(key=lambda slot: slot.place or 99)
            column.cards.append(BracketCard(
                label=_("Table %(number)s") % {"number": table.number} if table.number else _("Bye"),
                kind_label=_kind_label(bracket.table_size, resolved_round, table),
                decided_by=table_decides(bracket, table) if table.number else KNOCKOUT,
                slots=slots,
                table=db_table,
                final=final is not None or table.number is None,
                record_table_id=db_table.pk if db_table is not None and final is not None else None,
            ))
        columns.append(column)
    return columns


def bracket(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = visible_tournament(request, slug)
    is_organiser = permissions.is_organiser(request.user, tournament)
    # Validators only (issue 30: the page refreshes itself with conditional GETs, tournaments/live.py):
    # keyed on the tournament's versions like the other public pages; organisers see drafts, no validators.
    page = PublicPage(request, tournament_key(tournament, "bracket"), cacheable=not is_organiser)
    if (not_modified := page.not_modified()) is not None:
        return not_modified
    columns = bracket_columns(tournament, include_drafts=is_organiser)
    top = list(
        tournament.standing_rows.select_related("entrant").filter(rank__lte=4).order_by("rank", "entrant__name")
    ) if columns else []
    return page.finish(render(
        request,
        "tournaments/bracket.html",
        {
            "tournament": tournament,
            "columns": columns,
            "top": top,
            "is_organiser": is_organiser,
            "record_table_ids": [card.record_table_id for c in columns for card in c.cards if card.record_table_id],
        },
    ))


@login_required
@require_POST
def final_places_settings(request: HttpRequest, slug: str) -> HttpResponse:
    tournament = organised_tournament(request, slug)
    form = FinalPlacesForm(request.POST)
    target = reverse("web:manage", args=[tournament.slug]) + "#final-places"
    if not form.is_valid():
        report_form_errors(request, form)
        return redirect(target)
    changes = {name: value for name, value in form.cleaned_data.items() if getattr(tournament, name) != value}
    try:
        tournament_update(actor=request.user, tournament=tournament, **changes)
    except TournamentError as error:
        report_error(request, error)
    else:
        messages.success(request, _("Final-places settings saved."))
    return redirect(target)
