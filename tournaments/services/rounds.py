"""Generating, editing and publishing rounds. The pairing itself is `tournaments.pairing` (pure).

Which entrants are paired: every entrant not dropped. Round numbers run through the whole tournament;
a stages tournament plays its first phase (Swiss, or round robin in groups) with stage "main"/"groups"
and then its knockout rounds with stage "knockout".
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import asdict, replace
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from tournaments import pairing
from tournaments.errors import ErrorCode, TournamentError, refused
from tournaments.models import Entrant, ForbiddenPair, Result, Round, Seat, StandingRow, Table, Tournament
from tournaments.notifications import notify_on_commit
from tournaments.pairing import double_elimination
from tournaments.services.audit import audit_record
from tournaments.services.brackets import (
    double_bracket,
    double_results,
    is_double_elimination,
    key_double_tables,
    key_single_tables,
    lines_in_finishing_order,
    rolling_knockout_ready,
    tournament_bracket,
)
from tournaments.services.locking import lock_round, lock_tournament
from tournaments.services.results_final import result_finalised
from tournaments.services.standings import cross_group_entries, standings_recompute_locked
from tournaments.services.tournaments import require_organiser, tournament_profile
from tournaments.standings import final_ranking
from tournaments.webhooks.events import webhook_emit

# Warnings that make an edited round impossible to save (the others are shown and accepted).
BLOCKING_WARNINGS = {"entrant_twice", "unknown_entrant"}


def _warning_dict(warning: pairing.PairingWarning) -> dict[str, Any]:
    data = asdict(warning)
    data["entrant_ids"] = list(warning.entrant_ids)
    return data


def playing_entrants(tournament: Tournament) -> Any:
    """Who is paired: not dropped, and checked in when the tournament requires check-in."""
    if tournament.checkin_required:
        return tournament.entrants.filter(status=Entrant.Status.CHECKED_IN)
    return tournament.entrants.exclude(status=Entrant.Status.DROPPED)


def left_out_warnings(tournament: Tournament) -> list[dict[str, Any]]:
    """One warning per entrant a generated round leaves out, saying why (dropped / not checked in)."""
    warnings: list[dict[str, Any]] = []
    for entrant in tournament.entrants.exclude(pk__in=playing_entrants(tournament).values("pk")).order_by("name"):
        if entrant.status == Entrant.Status.DROPPED:
            reason, message = "dropped", _("%(name)s is left out: dropped.") % {"name": entrant.name}
        else:
            reason, message = "not_checked_in", _("%(name)s is left out: not checked in.") % {"name": entrant.name}
        warnings.append({"code": "left_out", "reason": reason, "message": message,
                         "entrant_ids": [entrant.pk], "table": None})
    return warnings


def pairing_request_build(tournament: Tournament, *, entrants: Sequence[Entrant] | None = None) -> pairing.PairingRequest:
    """The pairing input for the next round: scores and ranks from the current standings rows,
    byes, seat counts and every pair that has shared a table so far."""
    profile = tournament_profile(tournament)
    if entrants is None:
        entrants = list(playing_entrants(tournament).select_related("club").order_by("pk"))
    standing = {row.entrant_id: row for row in tournament.standing_rows.all()}
    byes: dict[int, int] = defaultdict(int)
    seat_counts: dict[int, list[int]] = defaultdict(lambda: [0] * profile.entrants_per_table)
    starts: dict[int, int] = defaultdict(int)
    tables: dict[int, list[int]] = defaultdict(list)
    for seat in Seat.objects.filter(table__round__tournament=tournament).values(
        "table_id", "table__is_bye", "entrant_id", "position", "is_starting"
    ):
        if seat["table__is_bye"]:
            byes[seat["entrant_id"]] += 1
            continue
        tables[seat["table_id"]].append(seat["entrant_id"])
        counts = seat_counts[seat["entrant_id"]]
        if seat["position"] < len(counts):
            counts[seat["position"]] += 1
        if seat["is_starting"]:
            starts[seat["entrant_id"]] += 1
    met: set[frozenset[int]] = set()
    for members in tables.values():
        for i, first in enumerate(members):
            for second in members[i + 1 :]:
                met.add(frozenset((first, second)))
    forbidden = {
        frozenset((a, b)) for a, b in ForbiddenPair.objects.filter(tournament=tournament).values_list("first", "second")
    }
    return pairing.PairingRequest(
        entrants=tuple(
            pairing.PairingEntrant(
                id=e.pk,
                score=float(standing[e.pk].values.get("match_points", 0.0)) if e.pk in standing else 0.0,
                rank=standing[e.pk].rank if e.pk in standing else 0,
                rating=e.rating,
                seed=e.seed,
                club=e.club.name if e.club else "",
                byes=byes[e.pk],
                seat_counts=tuple(seat_counts[e.pk]),
                start_count=starts[e.pk],
            )
            for e in entrants
        ),
        table_size=profile.entrants_per_table,
        min_table_size=profile.min_table_size,
        round_number=tournament.rounds.count() + 1,
        met_pairs=frozenset(met),
        forbidden_pairs=frozenset(forbidden),
        avoid_same_club=tournament.avoid_same_club,
        first_round=tournament.first_round,
        random_seed=tournament.random_seed,
    )


def _group_schedules(
    tournament: Tournament, request: pairing.PairingRequest
) -> tuple[dict[int, tuple[pairing.PairingResult, ...]], dict[int, list[pairing.PairingEntrant]]]:
    """The whole round robin schedule of every group (groups of one entrant have none).

    The schedule is computed over the entrants of its first round (everyone who was paired then, so
    it stays the same when someone drops later; dropped entrants are left out of their tables), and
    before round 1 over the entrants who would be paired now (no-shows are not scheduled)."""
    by_group: dict[int, list[pairing.PairingEntrant]] = defaultdict(list)
    first_round = tournament.rounds.exclude(stage=Round.Stage.KNOCKOUT).order_by("number").first()
    if first_round is not None:
        members = tournament.entrants.filter(seats__round=first_round)
    else:
        members = tournament.entrants.filter(pk__in=[e.id for e in request.entrants])
    for entrant in members.order_by("pk"):
        by_group[entrant.group].append(pairing.PairingEntrant(id=entrant.pk, seed=entrant.seed, rating=entrant.rating))
    schedules: dict[int, tuple[pairing.PairingResult, ...]] = {}
    for group in sorted(by_group):
        members = by_group[group]
        if len(members) < 2:
            continue
        schedules[group] = pairing.round_robin_rounds(
            pairing.PairingRequest(
                entrants=tuple(members), table_size=request.table_size, min_table_size=request.min_table_size,
                first_round="seed", random_seed=request.random_seed,
            ),
            double=tournament.double_round_robin,
            rounds=tournament.schedule_rounds if request.table_size > 2 else None,
        )
    return schedules, by_group


def round_robin_meetings(tournament: Tournament) -> list[dict[str, Any]]:
    """Per group: rounds, the fewest and most meetings of any pair over the schedule, and whether an
    even schedule exists (`even_possible`: true, false = proven impossible, null = not proven). Shown
    on the manage page and as `meetings` warnings on every draft of a group round, before publishing."""
    try:
        schedules, _members = _group_schedules(tournament, pairing_request_build(tournament))
    except pairing.PairingError:
        return []
    rows = []
    for group, schedule in schedules.items():
        first = schedule[0]
        row = {"code": "meetings", "entrant_ids": [], "table": None, "group": group, "rounds": len(schedule),
               "min_meetings": first.min_meetings, "max_meetings": first.max_meetings,
               "even_possible": first.even_possible}
        rows.append({**row, "message": meetings_message(row)})
    return rows


def meetings_message(row: dict[str, Any]) -> str:
    """The sentence of a `meetings` row, in the active language (pages re-render stored warnings)."""
    values = {"group": row.get("group"), "rounds": row.get("rounds"), "low": row.get("min_meetings"),
              "high": row.get("max_meetings")}
    if row.get("even_possible") is False:
        return _("Group %(group)s: over %(rounds)s rounds every pair meets %(low)s to %(high)s times. No "
                 "more even schedule exists for this number of rounds; this is the narrowest spread.") % values
    if row.get("even_possible") is None:
        return _("Group %(group)s: over %(rounds)s rounds every pair meets %(low)s to %(high)s times (the "
                 "best schedule found; the search could not prove that no more even one exists).") % values
    return _("Group %(group)s: over %(rounds)s rounds every pair meets %(low)s to %(high)s times.") % values


def _round_robin_round(tournament: Tournament, request: pairing.PairingRequest, index: int) -> pairing.PairingResult | None:
    """Round `index` (0-based) of the round robin of every group, or None when the schedule is over."""
    schedules, by_group = _group_schedules(tournament, request)
    active = {e.id for e in request.entrants}
    tables: list[tuple[int, ...]] = []
    byes: list[int] = []
    any_round = False
    for group in sorted(by_group):
        schedule = schedules.get(group)
        if schedule is None:
            byes.extend(e.id for e in by_group[group] if e.id in active)
            continue
        if index >= len(schedule):
            continue
        any_round = True
        for table in schedule[index].tables:
            seated = tuple(e for e in table.entrant_ids if e in active)
            if len(seated) >= 2:
                tables.append(seated)
            else:
                byes.extend(seated)
        byes.extend(e for e in schedule[index].byes if e in active)
    if not any_round:
        return None
    return pairing.PairingResult(
        tables=tuple(pairing.PairedTable(number=i, entrant_ids=t) for i, t in enumerate(tables, start=1)),
        byes=tuple(byes),
    )


def _knockout_bracket(tournament: Tournament, request: pairing.PairingRequest) -> pairing.Bracket:
    bracket = tournament_bracket(tournament)
    if bracket is None:
        raise TournamentError(ErrorCode.PAIRING_INVALID, _("The knockout has no seeding yet."))
    return bracket


def _best_of_groups(tournament: Tournament, rows: Sequence[StandingRow], lists: dict[int, list[int]]) -> list[int]:
    by_id = {row.entrant_id: row for row in rows}
    order = tournament.tiebreak_order or ["match_points"]
    comparable = cross_group_entries(tournament)  # like with like: no byes, same opponents' places

    def key(entrant_id: int) -> tuple[float, ...]:
        row = by_id[entrant_id]
        return final_ranking.group_place_key(comparable[entrant_id], row.group_rank or 0, order)

    size = tournament.knockout_size or 2
    needed = -(-size // len(lists))
    if any(len(members) < needed for members in lists.values()):
        raise TournamentError(
            ErrorCode.PAIRING_INVALID,
            _("Every group needs at least %(count)s active entrants for this knockout.") % {"count": needed},
        )
    return final_ranking.best_of_groups(
        [[(entrant_id, key(entrant_id)) for entrant_id in lists[g]] for g in sorted(lists)], size
    )


def _group_draw(tournament: Tournament, rows: Sequence[StandingRow], lists: dict[int, list[int]]) -> list[int]:
    """The knockout seeding after groups, as one list: A1, B1, ..., A2, B2, ... (then the best of the
    next place when the size is not a multiple of the groups), each place's entrants trading seeds
    so that teams of one group meet as late as the bracket allows (docs/formats.md, Groups)."""
    groups = [lists[g] for g in sorted(lists)]
    size = tournament.knockout_size or 2
    if size % len(groups):
        seeded = _best_of_groups(tournament, rows, lists)
    else:
        qualifiers = size // len(groups)
        if any(len(members) < qualifiers for members in groups):
            raise TournamentError(
                ErrorCode.PAIRING_INVALID,
                _("Every group needs at least %(count)s active entrants for this knockout.") % {"count": qualifiers},
            )
        seeded = [group[place] for place in range(qualifiers) for group in groups]
    draw = pairing.group_knockout_seeding(
        groups, seeded, table_size=tournament_profile(tournament).entrants_per_table,
        advance=tournament.knockout_advance,
    )
    return list(draw.seeding)


def _finishing_order(table: Table) -> list[int]:
    final = table.results.filter(state__in=Result.FINAL_STATES).first()
    if final is None:
        raise TournamentError(
            ErrorCode.ROUND_IN_PROGRESS,
            _("Table %(number)s has no final result yet.") % {"number": table.number},
        )
    return [line.entrant_id for line in lines_in_finishing_order(final.scores.all())]


def _knockout_round(tournament: Tournament, request: pairing.PairingRequest) -> tuple[pairing.PairingResult | None, str]:
    """The next knockout round; starts the bracket (storing its seeding) when none is running."""
    knockout_rounds = list(tournament.rounds.filter(stage=Round.Stage.KNOCKOUT).order_by("number"))
    if not knockout_rounds:
        if tournament.format == Tournament.Format.STAGES:
            rows = list(
                tournament.standing_rows.select_related("entrant").order_by("group_rank", "rank", "entrant_id")
            )
            lists: dict[int, list[int]] = defaultdict(list)
            for row in rows:
                if row.entrant.status != Entrant.Status.DROPPED:
                    lists[row.entrant.group].append(row.entrant_id)
            tournament.knockout_seeding = [lists[g] for g in sorted(lists)]
            if len(lists) > 1:
                tournament.knockout_seeding = [_group_draw(tournament, rows, lists)]
        else:
            bracket = pairing.knockout_bracket(
                request, advance=tournament.knockout_advance, third_place=tournament.third_place_match
            )
            tournament.knockout_seeding = [list(bracket.seeding)]
        tournament.save(update_fields=["knockout_seeding"])
        bracket = _knockout_bracket(tournament, request)
        if is_double_elimination(tournament):
            return _double_round(tournament), Round.Stage.KNOCKOUT
        return bracket.first_round, Round.Stage.KNOCKOUT
    if is_double_elimination(tournament):
        return _double_round(tournament), Round.Stage.KNOCKOUT
    bracket = _knockout_bracket(tournament, request)
    if tournament.rolling_rounds:
        return _rolling_knockout_round(tournament, bracket), Round.Stage.KNOCKOUT
    if len(knockout_rounds) >= len(bracket.rounds):
        return None, Round.Stage.KNOCKOUT
    previous = knockout_rounds[-1]
    finished = {
        table.number: _finishing_order(table)
        for table in previous.tables.filter(is_bye=False).prefetch_related("results__scores")
    }
    return (
        pairing.knockout_next_round(bracket, finished, round_number=len(knockout_rounds)),
        Round.Stage.KNOCKOUT,
    )


def _rolling_knockout_round(tournament: Tournament, bracket: pairing.Bracket) -> pairing.PairingResult | None:
    """Rolling single elimination: every bracket table whose feeders are done and which is not at a
    table yet (docs/formats.md, Rolling rounds); None when the bracket is complete."""
    ready, pending = rolling_knockout_ready(tournament, bracket)
    if not ready:
        if pending:
            raise TournamentError(
                ErrorCode.ROUND_IN_PROGRESS,
                _("No table can start yet: every table of the next round waits for a result."),
            )
        return None
    return pairing.PairingResult(
        tables=tuple(pairing.PairedTable(number=n, entrant_ids=ids) for n, (_key, ids) in enumerate(ready, start=1)),
        byes=(),
    )


def _double_round(tournament: Tournament) -> pairing.PairingResult | None:
    """The next double-elimination round: every table whose two entrants are known and which has no
    result yet, in bracket order (docs/formats.md, Double elimination); None when the final is decided."""
    drawn = double_bracket(tournament)
    if drawn is None:
        raise TournamentError(ErrorCode.PAIRING_INVALID, _("The knockout has no seeding yet."))
    bracket, seeding = drawn
    results, keys = double_results(tournament, drawn)
    drawn_keys = set(keys.values())  # already at a table (rolling: still being played)
    states = double_elimination.double_elimination_resolve(bracket, seeding, results)
    ready = [match.key for match in bracket.matches if states[match.key].state == "ready" and match.key not in drawn_keys]
    if not ready:
        if any(state.state == "ready" for state in states.values()):
            raise TournamentError(
                ErrorCode.ROUND_IN_PROGRESS,
                _("No table can start yet: every table of the next round waits for a result."),
            )
        return None
    return pairing.PairingResult(
        tables=tuple(
            pairing.PairedTable(number=number, entrant_ids=tuple(e for e in states[key].entrants if e))
            for number, key in enumerate(ready, start=1)
        ),
        byes=(),
    )


def _next_pairing(tournament: Tournament, request: pairing.PairingRequest) -> tuple[pairing.PairingResult | None, str]:
    played = tournament.rounds.exclude(stage=Round.Stage.KNOCKOUT).count()
    fmt = tournament.format
    if fmt == Tournament.Format.KNOCKOUT:
        return _knockout_round(tournament, request)
    if fmt == Tournament.Format.STAGES:
        if tournament.rounds.filter(stage=Round.Stage.KNOCKOUT).exists():
            return _knockout_round(tournament, request)
        if tournament.group_count > 1:
            result = _round_robin_round(tournament, request, played)
            if result is None:
                return _knockout_round(tournament, request)
            return result, Round.Stage.GROUPS
        if played >= tournament.rounds_planned:
            return _knockout_round(tournament, request)
        return pairing.swiss_pair(request), Round.Stage.MAIN
    if fmt == Tournament.Format.ROUND_ROBIN:
        return _round_robin_round(tournament, request, played), Round.Stage.GROUPS
    if played >= tournament.rounds_planned:
        return None, Round.Stage.MAIN
    return pairing.swiss_pair(request), Round.Stage.MAIN


def _group_rounds(tournament: Tournament) -> int | None:
    """Rounds of the round robin in groups at tables of 2 (the longest group: n - 1 rounds, n when
    odd; twice that for a double round robin); None at tables of 3 or more without a chosen number."""
    table_size = tournament_profile(tournament).entrants_per_table
    if table_size > 2:
        return tournament.schedule_rounds
    sizes: dict[int, int] = defaultdict(int)
    for group in tournament.entrants.exclude(status=Entrant.Status.DROPPED).values_list("group", flat=True):
        sizes[group or 0] += 1
    if not sizes:
        return None
    longest = max(sizes.values())
    rounds = longest - 1 if longest % 2 == 0 else longest
    return rounds * (2 if tournament.double_round_robin else 1)


def rounds_planned_derived(tournament: Tournament) -> int | None:
    """The number of rounds the format plays (docs/formats.md, "The end of an event"): a Swiss its
    rounds planned; a round robin its schedule; a knockout its bracket; a stage event its first stage
    (groups: their schedule, Swiss: the rounds planned) plus the knockout of ``knockout_size``.
    None when it cannot be known yet (tables of 3 or more without a chosen number of rounds)."""
    profile = tournament_profile(tournament)
    fmt = tournament.format
    if fmt == Tournament.Format.SWISS:
        return tournament.rounds_planned
    if fmt == Tournament.Format.ROUND_ROBIN:
        return _group_rounds(tournament)
    try:
        bracket = tournament_bracket(tournament)
    except pairing.PairingError:  # a stored seeding the bracket cannot be drawn from
        return None
    if fmt == Tournament.Format.KNOCKOUT:
        if bracket is not None:
            return len(bracket.rounds)
        count = tournament.entrants.exclude(status=Entrant.Status.DROPPED).count()
        size = count
    else:
        size = tournament.knockout_size or 2
    try:
        knockout = (
            len(bracket.rounds) if bracket is not None
            else pairing.bracket_shape(
                max(2, size), table_size=profile.entrants_per_table, advance=tournament.knockout_advance
            ).rounds
        )
    except pairing.PairingError:
        return None
    if is_double_elimination(tournament):
        knockout = double_elimination.double_elimination_rounds(
            double_elimination.double_elimination(max(2, size if bracket is None else len(bracket.seeding)),
                                                  reset=tournament.grand_final_reset)
        )
    if fmt == Tournament.Format.KNOCKOUT:
        return knockout
    first = _group_rounds(tournament) if tournament.group_count > 1 else tournament.rounds_planned
    return None if first is None else first + knockout


def next_round_possible(tournament: Tournament) -> bool:
    """False once the format has played its last round: after the knockout's final, after the last
    Swiss round, after the last round of a round robin at tables of 2 ("Generate round 7" is no longer
    offered after the final)."""
    knockout_rounds = tournament.rounds.filter(stage=Round.Stage.KNOCKOUT).count()
    try:
        if knockout_rounds and is_double_elimination(tournament):
            drawn = double_bracket(tournament)
            if drawn is None:
                return True
            results, _keys = double_results(tournament, drawn)
            states = double_elimination.double_elimination_resolve(drawn[0], drawn[1], results)
            return any(state.state in ("ready", "waiting") for state in states.values())
        if knockout_rounds:
            bracket = tournament_bracket(tournament)
            if bracket is not None and tournament.rolling_rounds:
                return rolling_knockout_ready(tournament, bracket)[1]
            return bracket is None or knockout_rounds < len(bracket.rounds)
    except pairing.PairingError:  # the generation says what is wrong
        return True
    played = tournament.rounds.exclude(stage=Round.Stage.KNOCKOUT).count()
    if tournament.format == Tournament.Format.SWISS:
        return played < tournament.rounds_planned
    if tournament.format == Tournament.Format.ROUND_ROBIN:
        total = _group_rounds(tournament)
        return total is None or played < total
    return True


def _save_tables(round_: Round, tables: Sequence[pairing.PairedTable], byes: Sequence[int]) -> None:
    for paired in tables:
        table = Table.objects.create(round=round_, number=paired.number)
        Seat.objects.bulk_create(
            Seat(table=table, round=round_, entrant_id=entrant_id, position=position,
                 is_starting=position == paired.start_seat)
            for position, entrant_id in enumerate(paired.entrant_ids)
        )
    next_number = max((t.number for t in tables), default=0) + 1
    for offset, entrant_id in enumerate(byes):
        table = Table.objects.create(round=round_, number=next_number + offset, is_bye=True)
        Seat.objects.create(table=table, round=round_, entrant_id=entrant_id, position=0, is_starting=True)


def rolling_release_allowed(tournament: Tournament) -> bool:
    """Round robin and group rounds with `rolling_rounds`: the next round may be generated and published
    while the current one is played; its tables start one by one (see `selectors.round_release`)."""
    groups = tournament.format == Tournament.Format.ROUND_ROBIN or (
        tournament.format == Tournament.Format.STAGES and tournament.group_count > 1
    )
    # knockouts: a round holds every table whose feeders are done
    knockout = tournament.format in (Tournament.Format.KNOCKOUT, Tournament.Format.STAGES) and (
        tournament.rounds.filter(stage=Round.Stage.KNOCKOUT).exists()
    )
    return tournament.rolling_rounds and (groups or knockout)


def rounds_complete(tournament: Tournament) -> bool:
    """Whether no round is left to generate (read only): the knockout's last round is played (single
    or double elimination), a Swiss has its planned rounds, a round robin's schedule is over. Pages use
    it not to offer a round after the final; `round_generate` answers `rounds_complete` in the same
    cases. One rule, `next_round_possible`, decides both."""
    return not next_round_possible(tournament)


@transaction.atomic
def round_generate(*, actor: Any, tournament: Tournament) -> Round:
    """Pair the next round and save it as a draft (replacing an existing draft)."""
    tournament = lock_tournament(tournament.pk)
    require_organiser(actor, tournament)
    if tournament.status == Tournament.Status.FINISHED:
        raise TournamentError(ErrorCode.TOURNAMENT_FINISHED, _("The tournament is finished."))
    draft = tournament.rounds.filter(status=Round.Status.DRAFT).first()
    if draft is not None:
        draft.delete()
    open_rounds = tournament.rounds.filter(status=Round.Status.PUBLISHED).count()
    if open_rounds and not (open_rounds == 1 and rolling_release_allowed(tournament)):
        raise TournamentError(
            ErrorCode.ROUND_IN_PROGRESS, _("The current round is still being played; all its results must be final.")
        )
    if tournament.standings_version < tournament.results_version:
        # The task may not have run yet (or runs elsewhere): pair on up-to-date standings.
        standings_recompute_locked(tournament)
    request = pairing_request_build(tournament)
    if len(request.entrants) < 2:
        raise TournamentError(
            ErrorCode.NOT_ENOUGH_ENTRANTS,
            _("At least two active entrants are needed to pair a round."),
        )
    try:
        result, stage = _next_pairing(tournament, request)
        if result is None:
            raise TournamentError(ErrorCode.ROUNDS_COMPLETE, _("All rounds of this tournament have been played."))
        if open_rounds and stage == Round.Stage.KNOCKOUT and not (
            tournament.rolling_rounds and tournament.rounds.filter(stage=Round.Stage.KNOCKOUT).exists()
        ):
            raise TournamentError(
                ErrorCode.ROUND_IN_PROGRESS,
                _("The knockout is drawn from the final group standings: all group results must be final."),
            )
        seated = pairing.assign_seats([t.entrant_ids for t in result.tables], request)
    except pairing.PairingError as exc:
        raise TournamentError(ErrorCode.PAIRING_INVALID, str(exc)) from exc
    number = (tournament.rounds.order_by("-number").values_list("number", flat=True).first() or 0) + 1
    warnings = [_warning_dict(w) for w in result.warnings] + left_out_warnings(tournament)
    if stage == Round.Stage.GROUPS:
        warnings += round_robin_meetings(tournament)
    round_ = Round.objects.create(tournament=tournament, number=number, stage=stage, warnings=warnings)
    _save_tables(round_, seated, result.byes)
    if stage == Round.Stage.KNOCKOUT and is_double_elimination(tournament):
        key_double_tables(tournament, round_)
    elif stage == Round.Stage.KNOCKOUT and tournament.rolling_rounds:
        bracket = tournament_bracket(tournament)
        if bracket is not None:
            key_single_tables(tournament, round_, rolling_knockout_ready(tournament, bracket)[0])
    audit_record(
        action="round_generated", tournament=tournament, obj=round_, actor=actor,
        data={"number": number, "tables": len(seated), "byes": list(result.byes), "rematches": result.rematches},
    )
    return round_


@transaction.atomic
def round_edit(
    *, actor: Any, round: Round, tables: Sequence[Sequence[int]], byes: Sequence[int] = ()
) -> tuple[Round, list[dict[str, Any]]]:
    """Replace a draft round's tables by a manual edit (entrant ids per table; seats are assigned anew).

    Returns the round and the pairing warnings (rematch, entrant missing, over/under capacity,
    forbidden pair, ...). An entrant twice or an unknown entrant is refused (`pairing_invalid`).
    """
    tournament = lock_tournament(round.tournament_id)
    round_ = lock_round(round.pk)
    require_organiser(actor, tournament)
    if round_.status != Round.Status.DRAFT:
        raise TournamentError(ErrorCode.ROUND_NOT_DRAFT, _("Only a draft round can be edited."))
    try:
        table_lists = [[int(e) for e in t] for t in tables]
        bye_list = [int(e) for e in byes]
    except (TypeError, ValueError) as exc:
        raise refused(_("Tables must be lists of entrant ids.")) from exc
    if not table_lists and not bye_list:
        raise refused(_("A round needs at least one table."))
    if any(len(t) < 2 for t in table_lists):
        raise refused(_("Every table needs at least two entrants; use a bye instead."))
    # Pair against the state before this round (its draft seats must not count as meetings).
    Table.objects.filter(round=round_).delete()
    request = replace(pairing_request_build(tournament), round_number=round_.number)
    active = {e.id for e in request.entrants}
    problems: list[dict[str, Any]] = []
    try:
        warnings = [
            _warning_dict(w) for w in pairing.check_round(table_lists, request)
            if not (w.code == "entrant_missing" and set(w.entrant_ids) <= set(bye_list))
        ]
    except pairing.PairingError as exc:
        raise TournamentError(ErrorCode.PAIRING_INVALID, str(exc)) from exc
    everyone = [e for t in table_lists for e in t] + bye_list
    if len(set(everyone)) != len(everyone):
        problems.append({"code": "entrant_twice", "message": _("An entrant appears twice in the round.")})
    unknown = sorted(set(everyone) - active)
    if unknown:
        problems.append({"code": "unknown_entrant", "message": _("Not an active entrant: %(ids)s.") % {"ids": unknown}})
    problems += [w for w in warnings if w["code"] in BLOCKING_WARNINGS]
    if problems:
        raise TournamentError(ErrorCode.PAIRING_INVALID, problems[0]["message"], problems=problems)
    try:
        seated = pairing.assign_seats(table_lists, request)
    except pairing.PairingError as exc:
        raise TournamentError(ErrorCode.PAIRING_INVALID, str(exc)) from exc
    _save_tables(round_, seated, bye_list)
    round_.warnings = warnings
    round_.save(update_fields=["warnings"])
    audit_record(
        action="round_edited", tournament=tournament, obj=round_, actor=actor,
        data={"tables": table_lists, "byes": bye_list, "warnings": [w["code"] for w in warnings]},
    )
    return round_, warnings


@transaction.atomic
def round_discard(*, actor: Any, round: Round) -> None:
    """Delete a draft round (nobody has seen it; nothing was played)."""
    tournament = lock_tournament(round.tournament_id)
    round_ = lock_round(round.pk)
    require_organiser(actor, tournament)
    if round_.status != Round.Status.DRAFT:
        raise TournamentError(ErrorCode.ROUND_NOT_DRAFT, _("Only a draft round can be discarded."))
    audit_record(action="round_discarded", tournament=tournament, obj=round_, actor=actor,
                 data={"number": round_.number})
    round_.delete()


@transaction.atomic
def round_publish(*, actor: Any, round: Round) -> Round:
    """Publish a draft round: players see it, results can be reported, byes are scored."""
    tournament = lock_tournament(round.tournament_id)
    round_ = lock_round(round.pk)
    require_organiser(actor, tournament)
    if round_.status != Round.Status.DRAFT:
        raise TournamentError(ErrorCode.ROUND_NOT_DRAFT, _("Only a draft round can be published."))
    round_.status = Round.Status.PUBLISHED
    round_.published_at = timezone.now()
    round_.save(update_fields=["status", "published_at"])
    if tournament.status == Tournament.Status.REGISTRATION:
        tournament.status = Tournament.Status.RUNNING
        tournament.save(update_fields=["status"])
    for table in round_.tables.filter(is_bye=True).prefetch_related("seats"):
        result = Result.objects.create(
            table=table, kind=Result.Kind.BYE, state=Result.State.CONFIRMED, decided_by=None,
            decided_at=timezone.now(),
        )
        seat = table.seats.all()[0]
        result.scores.create(
            entrant_id=seat.entrant_id, score=tournament.bye_score_for, placing=1, is_winner=True
        )
    audit_record(action="round_published", tournament=tournament, obj=round_, actor=actor,
                 data={"number": round_.number})
    if round_.tables.filter(is_bye=True).exists():
        result_finalised(tournament=tournament, round_=round_)
    notify_on_commit("round_published", round_.pk)
    webhook_emit("round.published", tournament=tournament, data={
        "round": {"id": round_.pk, "number": round_.number, "stage": round_.stage}})
    return round_


def round_tables_as_lists(round_: Round) -> tuple[list[list[int]], list[int]]:
    """The round's tables (entrant ids in seat order) and byes, as round_edit takes them."""
    tables: list[list[int]] = []
    byes: list[int] = []
    for table in round_.tables.prefetch_related("seats").order_by("number"):
        ids = [s.entrant_id for s in sorted(table.seats.all(), key=lambda s: s.position)]
        if table.is_bye:
            byes.extend(ids)
        else:
            tables.append(ids)
    return tables, byes

