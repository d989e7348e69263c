"""Reading a tournament's knockout: its bracket (recomputed from the stored seeding) and the results
played in it, as the pure `tournaments.pairing` / `tournaments.standings.final_ranking` take them.

Reads only; used by round generation, the standings recomputation and the bracket page.
"""

from __future__ import annotations

from collections.abc import Iterable

from tournaments import pairing
from tournaments.models import Result, ResultScore, Round, Table, Tournament
from tournaments.pairing import double_elimination
from tournaments.services.tournaments import tournament_profile
from tournaments.standings.final_ranking import bracket_resolve

KnockoutResults = dict[int, dict[int, tuple[int, ...]]]


def tournament_bracket(tournament: Tournament) -> pairing.Bracket | None:
    """The knockout bracket, or None before it is drawn (or for formats without one)."""
    if tournament.format not in (Tournament.Format.KNOCKOUT, Tournament.Format.STAGES):
        return None
    if not tournament.knockout_seeding or not any(tournament.knockout_seeding):
        return None
    profile = tournament_profile(tournament)
    if tournament.format == Tournament.Format.STAGES:
        return pairing.stage_knockout(
            tournament.knockout_seeding,
            qualifiers=(tournament.knockout_size or 2) // max(1, len(tournament.knockout_seeding)),
            table_size=profile.entrants_per_table,
            advance=tournament.knockout_advance,
            third_place=tournament.third_place_match,
            placements=tournament.placement_matches,
            # one list per group was stored by earlier versions: keep the bracket already played
            separate=False,
        )
    seeded = tuple(
        pairing.PairingEntrant(id=entrant_id, seed=position)
        for position, entrant_id in enumerate(tournament.knockout_seeding[0], start=1)
    )
    return pairing.knockout_bracket(
        pairing.PairingRequest(entrants=seeded, table_size=profile.entrants_per_table, first_round="seed"),
        advance=tournament.knockout_advance,
        third_place=tournament.third_place_match,
        placements=tournament.placement_matches,
    )


def lines_in_finishing_order(lines: Iterable[ResultScore]) -> list[ResultScore]:
    """A final result's lines, winner first: by placing, then score (higher first), then entrant id."""
    return sorted(lines, key=lambda s: (s.placing or 99, -(s.score or 0), s.entrant_id))


def knockout_results(tournament: Tournament) -> KnockoutResults:
    """Bracket round number (1 = the first knockout round) -> table number -> finishing order, for
    every played knockout table with a final result."""
    numbers = list(
        tournament.rounds.filter(stage=Round.Stage.KNOCKOUT).order_by("number").values_list("number", flat=True)
    )
    bracket_round = {number: index for index, number in enumerate(numbers, start=1)}
    results: KnockoutResults = {index: {} for index in bracket_round.values()}
    finals = (
        Result.objects.filter(
            table__round__tournament=tournament, table__round__stage=Round.Stage.KNOCKOUT,
            table__is_bye=False, state__in=Result.FINAL_STATES,
        )
        .select_related("table__round")
        .prefetch_related("scores")
    )  # the table's bracket_key is read with it
    for result in finals:
        order = tuple(line.entrant_id for line in lines_in_finishing_order(result.scores.all()))
        keyed = single_key(result.table.bracket_key)
        if keyed is not None:  # a rolling knockout: the table says which bracket table it plays
            results.setdefault(keyed[0], {})[keyed[1]] = order
        else:
            results[bracket_round[result.table.round.number]][result.table.number] = order
    return results


def single_key(key: str) -> tuple[int, int] | None:
    """(bracket round, table number) of a rolling single-elimination table's key "K2-1"."""
    if not key.startswith("K") or "-" not in key:
        return None
    round_number, number = key[1:].split("-", 1)
    return int(round_number), int(number)


def rolling_knockout_ready(tournament: Tournament, bracket: pairing.Bracket) -> tuple[list[tuple[str, tuple[int, ...]]], bool]:
    """Rolling single elimination: the bracket tables whose entrants are all known (their feeders
    are done), not played and not at a table yet, in bracket order, as (key, entrant ids); and whether
    any table is still to be played at all."""
    drawn = set(
        Table.objects.filter(round__tournament=tournament, round__stage=Round.Stage.KNOCKOUT)
        .exclude(bracket_key="").values_list("bracket_key", flat=True)
    )
    ready: list[tuple[str, tuple[int, ...]]] = []
    pending = False
    for resolved_round in bracket_resolve(bracket, knockout_results(tournament)):
        for table in resolved_round.tables:
            if table.number is None or table.order is not None:
                continue
            pending = True
            key = f"K{resolved_round.number}-{table.number}"
            if None not in table.entrant_ids and key not in drawn:
                ready.append((key, tuple(e for e in table.entrant_ids if e is not None)))
    return ready, pending


def key_single_tables(tournament: Tournament, round_: Round, ready: list[tuple[str, tuple[int, ...]]]) -> None:
    """Mark each table of a new rolling knockout round with the bracket table it plays."""
    by_set = {frozenset(ids): key for key, ids in ready}
    for table in round_.tables.filter(is_bye=False).prefetch_related("seats"):
        key = by_set.get(frozenset(seat.entrant_id for seat in table.seats.all()), "")
        if key:
            table.bracket_key = key
            table.save(update_fields=["bracket_key"])


# --- double elimination (docs/formats.md, Double elimination) ----------------------------------------


def is_double_elimination(tournament: Tournament) -> bool:
    return tournament.knockout_style == Tournament.KnockoutStyle.DOUBLE and tournament.format in (
        Tournament.Format.KNOCKOUT, Tournament.Format.STAGES,
    )


def double_bracket(tournament: Tournament) -> tuple[double_elimination.DoubleBracket, list[int]] | None:
    """The double-elimination bracket and its seeding (entrant ids, best first), or None before the
    knockout is drawn. The seeding is the single-elimination bracket's (the same draw, byes to the
    top seeds)."""
    if not is_double_elimination(tournament):
        return None
    bracket = tournament_bracket(tournament)
    if bracket is None:
        return None
    seeding = list(bracket.seeding)
    return double_elimination.double_elimination(len(seeding), reset=tournament.grand_final_reset), seeding


def double_results(
    tournament: Tournament, drawn: tuple[double_elimination.DoubleBracket, list[int]]
) -> tuple[dict[str, int], dict[tuple[int, int], str]]:
    """The winners of the played double-elimination tables (key -> winner id) and which table of which
    knockout round holds which key ((round number, table number) -> key), from each table's
    `bracket_key` (set when the round is drawn: `key_double_tables`)."""
    results: dict[str, int] = {}
    keys: dict[tuple[int, int], str] = {}
    tables = (
        Table.objects.filter(round__tournament=tournament, round__stage=Round.Stage.KNOCKOUT, is_bye=False)
        .exclude(bracket_key="").select_related("round").prefetch_related("results__scores")
    )
    for table in tables:
        keys[(table.round.number, table.number)] = table.bracket_key
        final = next((r for r in table.results.all() if r.state in Result.FINAL_STATES), None)
        if final is not None:
            results[table.bracket_key] = lines_in_finishing_order(final.scores.all())[0].entrant_id
    return results, keys


def key_double_tables(tournament: Tournament, round_: Round) -> None:
    """Mark each table of a new double-elimination round with the bracket table it plays (the ready
    table with the same two entrants)."""
    drawn = double_bracket(tournament)
    if drawn is None:
        return
    results, _keys = double_results(tournament, drawn)
    states = double_elimination.double_elimination_resolve(drawn[0], drawn[1], results)
    by_pair = {frozenset(s.entrants): key for key, s in states.items() if s.state == "ready"}
    for table in round_.tables.filter(is_bye=False).prefetch_related("seats"):
        key = by_pair.get(frozenset(seat.entrant_id for seat in table.seats.all()), "")
        if key:
            table.bracket_key = key
            table.save(update_fields=["bracket_key"])
