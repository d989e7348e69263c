"""Single elimination with standard seeding; tables of N entrants with the top K advancing.

The bracket is a tree: the final is one table of N; each table of a later round is fed by
b = N / K tables of the round before, each sending its top K. Seeds are dealt down the tree in a
serpentine (1, 2, ..., b, b, ..., 2, 1, ...; the last lap, the weakest seeds, running back towards
seed 1), which for tables of 2 gives the standard draw
1 v 16, 8 v 9, 4 v 13, 5 v 12, ... and keeps the top seeds apart until the last rounds. When the
field is smaller than the bracket the first-round tables are as even as possible (their sizes differ
by at most one) and the smaller ones are those of the top seeds; a first-round table with no more
than K entrants is not played and all of them advance (a bye). The byes go to the top seeds, as at
tables of 2: no entrant with a bye is seeded below one who plays (10 entrants at tables of 4, 2
advancing: seeds 1-4 have byes, 5-10 play at two tables of 3), and a bracket played to form still
ends in seed order. With the bracket as small as possible every table from round 2 on is full.

Third place: the best non-advancing entrants of the semi-final round (for tables of 2: the two
losing semi-finalists) play one more table next to the final.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence

from tournaments.pairing.group_separation import BracketShape, SeparatedDraw, separate_groups
from tournaments.pairing.ordering import first_round_order, validate_request
from tournaments.pairing.seats import assign_seats
from tournaments.pairing.values import (
    Bracket,
    BracketRound,
    BracketSource,
    BracketTable,
    PairedTable,
    PairingEntrant,
    PairingError,
    PairingRequest,
    PairingResult,
)

MAIN = "main"
THIRD_PLACE = "third_place"
PLACEMENT = "placement"


@dataclasses.dataclass(frozen=True)
class _Class:
    """Tables of one round that play for the same range of places (best_place onwards)."""

    best_place: int
    positions: list[int]
    kind: str


def _band_kind(
    bracket_class: _Class, band: int, last_table_next: bool, third_place: bool, placements: bool
) -> str | None:
    """Which kind of table the entrants finishing in ``band`` of a class go on to (None: they stop)."""
    if band == 0:
        return bracket_class.kind
    if placements:
        return (
            PLACEMENT if not (bracket_class.kind == MAIN and band == 1 and last_table_next) else THIRD_PLACE
        )
    if third_place and bracket_class.kind == MAIN and band == 1 and last_table_next:
        return THIRD_PLACE
    return None


def _numbered(tables: list[BracketTable]) -> list[BracketTable]:
    """Table numbers for the played tables, best places first (the final is table 1)."""
    order = sorted(range(len(tables)), key=lambda index: (tables[index].best_place, index))
    numbers: dict[int, int] = {}
    for index in order:
        if tables[index].size >= 2:
            numbers[index] = len(numbers) + 1
    return [dataclasses.replace(table, number=numbers.get(index)) for index, table in enumerate(tables)]


def knockout_bracket(
    request: PairingRequest, *, advance: int = 1, third_place: bool = True, placements: bool = False
) -> Bracket:
    """The whole bracket; round 1 tables from the seeds (1 v 16, 8 v 9, ...), byes to the top seeds.

    Seeds follow ``request.first_round`` ("seed": the organiser's seeds, "rating", or "random").
    ``advance``: how many entrants of each table go through (K); the table size must be a multiple.
    ``placements``: the entrants who do not advance keep playing for their places (5th-8th, ...) in
    classes of their own, so every place is decided; entrants who go out in a first round with byes or
    short tables share their places.
    """
    validate_request(request)
    size = request.table_size
    if not 1 <= advance < size:
        raise PairingError(
            f"Between 1 and {size - 1} entrants can advance from a table of {size}, not {advance}."
        )
    if size % advance:
        raise PairingError(
            f"With tables of {size}, the number advancing ({advance}) must divide {size} so the next round fills."
        )
    if len(request.entrants) < 2:
        raise PairingError("A knockout needs at least 2 entrants.")
    feeders = size // advance
    ordered = first_round_order(request)
    count = len(ordered)
    rounds = 1
    while size * feeders ** (rounds - 1) < count:
        rounds += 1
    slots = size * feeders ** (rounds - 1)
    leaves = _fill(_deal(list(range(1, slots + 1)), feeders, rounds), count, advance, rounds, feeders)

    seeded_ids = [entrant.id for entrant in ordered]
    first_tables: list[BracketTable] = []
    played: list[list[int]] = []
    byes: list[int] = []
    for position, seeds in enumerate(leaves, start=1):
        entrant_ids = [seeded_ids[seed - 1] for seed in seeds]
        is_played = _is_played(len(seeds), advance, rounds)
        if is_played:
            played.append(entrant_ids)
        else:
            byes.extend(entrant_ids)
        first_tables.append(
            BracketTable(
                position=position,
                number=len(played) if is_played else None,
                size=len(entrant_ids),
                entrant_ids=tuple(entrant_ids),
                seeds=seeds,
            )
        )
    seated = assign_seats(played, request)
    by_number = {table.number: table for table in seated}
    first_tables = [
        dataclasses.replace(
            table,
            entrant_ids=by_number[table.number].entrant_ids,
            seeds=tuple(
                seeded_ids.index(entrant_id) + 1 for entrant_id in by_number[table.number].entrant_ids
            ),
        )
        if table.number is not None
        else table
        for table in first_tables
    ]

    bracket_rounds = [
        BracketRound(1, _round_name(len(first_tables), rounds == 1, slots), tuple(first_tables))
    ]
    previous = first_tables
    classes = [_Class(best_place=1, positions=[table.position for table in first_tables], kind=MAIN)]
    for round_number in range(2, rounds + 1):
        tables: list[BracketTable] = []
        next_classes: list[_Class] = []
        for bracket_class in classes:
            feeder_tables = [previous[position - 1] for position in bracket_class.positions]
            if len(feeder_tables) < feeders:  # this class has played its last table
                continue
            # after a first round with byes or short tables the lower bands would be uneven: those
            # entrants share their places instead of playing on (the third-place table still plays)
            uneven = any(table.number is None or table.size < size for table in feeder_tables)
            for band in range(feeders):
                kind = _band_kind(bracket_class, band, len(feeder_tables) == feeders, third_place, placements)
                if kind is None or (band > 0 and uneven and kind != THIRD_PLACE):
                    continue
                positions: list[int] = []
                for group in range(len(feeder_tables) // feeders):
                    sources = tuple(
                        BracketSource(position=feeder.position, place=place)
                        for feeder in feeder_tables[group * feeders : (group + 1) * feeders]
                        if band == 0 or feeder.number is not None
                        for place in range(band * advance + 1, min((band + 1) * advance, feeder.size) + 1)
                    )
                    if len(sources) < 2 and band > 0:
                        continue
                    tables.append(
                        BracketTable(
                            position=len(tables) + 1,
                            number=None,
                            size=len(sources),
                            sources=sources,
                            kind=kind,
                            best_place=bracket_class.best_place + band * advance * len(feeder_tables),
                        )
                    )
                    positions.append(len(tables))
                if positions:
                    next_classes.append(_Class(tables[positions[0] - 1].best_place, positions, kind))
        tables = _numbered(tables)
        main_tables = sum(1 for table in tables if table.kind == MAIN)
        name = _round_name(
            main_tables, round_number == rounds, size * feeders ** (rounds - round_number)
        )
        bracket_rounds.append(BracketRound(round_number, name, tuple(tables)))
        previous = tables
        classes = next_classes

    return Bracket(
        table_size=size,
        advance=advance,
        third_place=third_place,
        placements=placements,
        seeding=tuple(seeded_ids),
        rounds=tuple(bracket_rounds),
        first_round=PairingResult(tables=seated, byes=tuple(byes)),
    )


def _deal(seeds: list[int], feeders: int, rounds: int) -> list[list[int]]:
    """Split ``seeds`` (best first) down the tree in serpentine order; the leaves are round-1 tables."""
    if rounds == 1:
        return [seeds]
    groups: list[list[int]] = [[] for _ in range(feeders)]
    laps = len(seeds) // feeders
    for index, seed in enumerate(seeds):
        lap, offset = divmod(index, feeders)
        backwards = lap % 2 == 1 or lap == laps - 1  # the last lap (the weakest seeds) runs back to seed 1
        groups[feeders - 1 - offset if backwards else offset].append(seed)
    groups.sort(key=min)
    return [leaf for group in groups for leaf in _deal(group, feeders, rounds - 1)]


def _is_played(entrants: int, advance: int, rounds: int) -> bool:
    """A first-round table is played when it sends on fewer than it holds (a lone final: 2 or more)."""
    return entrants > advance or (rounds == 1 and entrants >= 2)


def _fill(
    leaves: list[list[int]], count: int, advance: int, rounds: int, feeders: int
) -> list[tuple[int, ...]]:
    """The seeds at each first-round table, from the dealt places of a full bracket (``leaves``).

    The ``count`` entrants are spread as evenly as possible; the smaller tables are those of the top
    seeds (the best dealt place of each table). Without byes each table keeps its best dealt places
    and the seeds take them in dealt order (a full bracket: the dealt seeds). With byes see ``_units``.
    """
    tables = len(leaves)
    base, larger_tables = divmod(count, tables)
    by_head = sorted(range(tables), key=lambda index: min(leaves[index]))
    sizes = [0] * tables
    for rank, index in enumerate(by_head):
        sizes[index] = base + (1 if rank >= tables - larger_tables else 0)
    byes = {index for index in range(tables) if not _is_played(sizes[index], advance, rounds)}
    if not byes:
        kept = [sorted(leaf)[:table_size] for leaf, table_size in zip(leaves, sizes, strict=True)]
        seed_at = {place: seed for seed, place in enumerate(sorted(p for t in kept for p in t), start=1)}
        return [tuple(seed_at[place] for place in table) for table in kept]
    units = [sorted(leaf)[:advance] for leaf in leaves]  # the standard draw's, if the byes hold the best
    if any(seed > len(byes) * advance for index in byes for seed in units[index]):
        units = _units(tables, feeders, advance, byes)
    # the seeds below the round-2 field play the top tables' units; the weakest unit meets the best first
    challengers = list(range(tables * advance + 1, count + 1))
    played = sorted(set(range(tables)) - byes, key=lambda index: min(units[index]))
    room = {index: sizes[index] - advance for index in played}
    extra = _serpentine(challengers, played, room, backwards=advance % 2 == 1)
    return [tuple(sorted(units[index] + extra.get(index, []))) for index in range(tables)]


def _units(tables: int, feeders: int, advance: int, byes: set[int]) -> list[list[int]]:
    """The ``advance`` seeds of each first-round table that reach round 2 if seeds always win.

    Seeds 1 .. tables * advance (the round-2 field) are dealt down the tree so that at every round the
    tables' top ``advance`` are the best seeds left (a bracket played to form ends in seed order), with
    the seeds of the byes (``byes``: tree positions of the tables of ``advance`` entrants) exactly the
    best ones: no entrant with a bye is seeded below one who plays.
    """
    bye_seeds = len(byes) * advance
    # going up, the nodes whose top ``advance`` must all be seeds with a bye (None: no such level)
    constrained: list[set[int] | None] = [set(byes)]
    width = tables
    while width > 1:
        below = constrained[-1]
        width //= feeders
        if below is None or bye_seeds > width * advance:
            constrained.append(None)
        else:
            parents = {node // feeders for node in below}
            if len(parents) != len(below):  # pragma: no cover - the byes are the top seeds' tables
                raise AssertionError("two byes under one table of the round after")  # pragma: no mutate
            constrained.append(parents)
    outputs: list[list[int]] = [list(range(1, advance + 1))]
    for level in range(len(constrained) - 2, -1, -1):
        width = len(outputs) * feeders
        band = list(range(len(outputs) * advance + 1, width * advance + 1))
        bye_children = constrained[level] or set()
        # byes take the parents' top seeds (and the parents are constrained in turn), or, when there
        # are more seeds with a bye than parents' top seeds, also the best of this level's band
        takes_band = bool(bye_children) and constrained[level + 1] is None
        bye_band = [seed for seed in band if seed <= bye_seeds] if takes_band else []
        rest_band = band[len(bye_band) :]
        order = sorted(range(len(outputs)), key=lambda node: min(outputs[node]))
        children = {parent: [parent * feeders + offset for offset in range(feeders)] for parent in order}
        byes_under = {parent: [c for c in children[parent] if c in bye_children] for parent in order}
        bye_room = {parent: (len(byes_under[parent]) - 1) * advance if takes_band else 0 for parent in order}
        rest_room = {parent: (feeders - 1) * advance - bye_room[parent] for parent in order}
        got_byes = _serpentine(bye_band, order, bye_room, backwards=advance % 2 == 1)
        got_rest = _serpentine(rest_band, order, rest_room, backwards=advance % 2 == 1)
        next_outputs: list[list[int]] = [[] for _ in range(width)]
        for parent in order:
            byes_here = byes_under[parent]
            others = [c for c in children[parent] if c not in byes_here]
            if not byes_here:
                groups = [(children[parent], outputs[parent] + got_rest.get(parent, []))]
            elif constrained[level + 1] is not None:  # the bye takes the table's top seeds
                groups = [(byes_here, outputs[parent]), (others, got_rest.get(parent, []))]
            else:
                groups = [
                    (byes_here, outputs[parent] + got_byes.get(parent, [])),
                    (others, got_rest.get(parent, [])),
                ]
            for nodes, seeds in groups:
                room = dict.fromkeys(nodes, advance)
                for node, dealt in _serpentine(sorted(seeds), nodes, room, backwards=False).items():
                    next_outputs[node] = dealt
        outputs = next_outputs
    return outputs


def _serpentine(
    items: list[int], bins: list[int], room: Mapping[int, int], *, backwards: bool
) -> dict[int, list[int]]:
    """Deal ``items`` over ``bins`` lap by lap, turning at each end, skipping bins without room."""
    dealt: dict[int, list[int]] = {index: [] for index in bins}
    lap = list(reversed(bins)) if backwards else list(bins)
    items = list(items)
    while items:
        open_bins = [index for index in lap if len(dealt[index]) < room[index]]
        if not open_bins:
            raise AssertionError("more items than room")  # pragma: no cover, no mutate - the callers count
        for index in open_bins:
            if not items:
                break
            dealt[index].append(items.pop(0))
        lap.reverse()
    return dealt


def _round_name(tables: int, is_final: bool, slots: int) -> str:
    if is_final:
        return "Final"
    if tables == 2:
        return "Semi-finals"
    if tables == 4:
        return "Quarter-finals"
    return f"Round of {slots}"


def knockout_next_round(
    bracket: Bracket,
    finished: Mapping[int, Sequence[int]],
    *,
    round_number: int | None = None,
    entrants: Sequence[PairingEntrant] = (),
) -> PairingResult:
    """The next round from the finished one.

    ``finished``: table number of the finished knockout round -> its entrant ids in finishing order
    (winner first; every entrant of the table). ``round_number``: the number of the finished round
    (1-based). Pass it: it is inferred from ``finished`` only when that is unambiguous (e.g. after
    the semi-finals and after a final with a third-place table both hold tables 1 and 2).
    ``entrants``: when given, their seat counts balance the seats of the new tables.
    """
    done = _finished_round(bracket, finished, round_number)
    if done >= len(bracket.rounds):
        raise PairingError("The final has been played: the bracket is complete.")
    current = bracket.rounds[done - 1]
    following = bracket.rounds[done]
    needed = {source.position for table in following.tables for source in table.sources}
    numbers = {table.number for table in current.tables if table.number is not None}
    unknown = sorted(set(finished) - numbers)
    if unknown:
        raise PairingError(f"Round {done} has no table {unknown[0]}.")
    placings: dict[int, tuple[int, ...]] = {}  # bracket position -> entrants, best first
    seen: set[int] = set()
    for table in current.tables:
        if table.number is None:
            placings[table.position] = table.entrant_ids
            continue
        if table.number not in finished:
            if table.position in needed:
                raise PairingError(f"Round {done}, table {table.number} has no result yet.")
            continue
        order = tuple(finished[table.number])
        if len(order) != table.size or len(set(order)) != len(order):
            raise PairingError(
                f"Round {done}, table {table.number}: give all {table.size} entrants once, in finishing order."
            )
        if done == 1 and set(order) != set(table.entrant_ids):
            raise PairingError(
                f"Round 1, table {table.number}: these are not the entrants drawn at that table."
            )
        if seen & set(order):
            raise PairingError(f"Round {done}: an entrant finished at two tables.")
        seen.update(order)
        placings[table.position] = order
    tables = [
        [placings[source.position][source.place - 1] for source in table.sources]
        for table in following.tables
    ]
    if entrants:
        known = {entrant.id: entrant for entrant in entrants}
        request_entrants = tuple(known.get(i, PairingEntrant(id=i)) for table in tables for i in table)
        request = PairingRequest(entrants=request_entrants, table_size=bracket.table_size)
        return PairingResult(tables=assign_seats(tables, request), byes=())
    return PairingResult(
        tables=tuple(PairedTable(number=number, entrant_ids=tuple(t)) for number, t in enumerate(tables, 1)),
        byes=(),
    )


def _finished_round(bracket: Bracket, finished: Mapping[int, Sequence[int]], round_number: int | None) -> int:
    if round_number is not None:
        if not 1 <= round_number <= len(bracket.rounds):
            raise PairingError(f"This bracket has rounds 1 to {len(bracket.rounds)}, not {round_number}.")
        return round_number
    numbers = set(finished)
    candidates = [
        bracket_round.number
        for bracket_round in bracket.rounds
        if {table.number for table in bracket_round.tables if table.number is not None} == numbers
    ]
    if len(candidates) > 1 and 1 in candidates:
        drawn = {table.number: set(table.entrant_ids) for table in bracket.rounds[0].tables}
        if all(set(order) == drawn.get(number) for number, order in finished.items()):
            return 1
        candidates.remove(1)
    if len(candidates) != 1:
        raise PairingError("Cannot tell which knockout round these results belong to; pass round_number.")
    return candidates[0]


def stage_knockout(
    standings: Sequence[Sequence[int]],
    *,
    qualifiers: int,
    table_size: int = 2,
    advance: int = 1,
    third_place: bool = True,
    placements: bool = False,
    separate: bool = True,
) -> Bracket:
    """Knockout of the top ``qualifiers`` of each standings list (one list for Swiss, one per group).

    Seeds go by place, then by group: all group winners first (A1, B1, ...), then the runners-up in
    the same group order, and so on; with the standard draw group winners meet runners-up of other
    groups first (2 groups: A1 v B2, B1 v A2). With several lists and ``separate`` (the default) the
    entrants of one place then change seeds among themselves so that teams of one group meet as late
    as the bracket allows (`group_knockout_seeding`); ``separate=False`` keeps the plain order (a
    knockout drawn before the rule, whose first round is already played).
    """
    if qualifiers < 1:
        raise PairingError("At least one entrant per standings list must qualify.")
    if not standings:
        raise PairingError("No standings given.")
    for index, group in enumerate(standings, start=1):
        if len(group) < qualifiers:
            raise PairingError(
                f"Standings list {index} has {len(group)} entrants; {qualifiers} should qualify."
            )
    seeded = [group[place] for place in range(qualifiers) for group in standings]
    if len(set(seeded)) != len(seeded):
        raise PairingError("An entrant appears in two standings lists.")
    if separate and len(standings) > 1:
        seeded = list(
            group_knockout_seeding(standings, seeded, table_size=table_size, advance=advance).seeding
        )
    request = PairingRequest(
        entrants=tuple(
            PairingEntrant(id=entrant_id, seed=seed) for seed, entrant_id in enumerate(seeded, start=1)
        ),
        table_size=table_size,
        first_round="seed",
    )
    return knockout_bracket(request, advance=advance, third_place=third_place, placements=placements)


def bracket_shape(count: int, *, table_size: int = 2, advance: int = 1) -> BracketShape:
    """Where each of ``count`` seeds sits in the first round of the standard draw (tree order)."""
    request = PairingRequest(
        entrants=tuple(PairingEntrant(id=seed, seed=seed) for seed in range(1, count + 1)),
        table_size=table_size,
        first_round="seed",
    )
    bracket = knockout_bracket(request, advance=advance, third_place=False)
    position = [0] * count
    played = [False] * count
    for table in bracket.rounds[0].tables:
        for seed in table.seeds:
            position[seed - 1] = table.position - 1
            played[seed - 1] = table.number is not None
    return BracketShape(tuple(position), tuple(played), table_size // advance, len(bracket.rounds))


def group_knockout_seeding(
    groups: Sequence[Sequence[int]], seeded: Sequence[int], *, table_size: int = 2, advance: int = 1
) -> SeparatedDraw:
    """The knockout seeding after groups with teams of one group kept apart (docs/formats.md, Groups).

    ``groups``: each group's entrants in group order; ``seeded``: the qualifiers in seed order (A1,
    B1, ..., A2, B2, ..., then any best thirds). Entrants of one place in their groups (one tier: the
    winners, the runners-up, the best thirds ...) trade seeds so that no two of one group meet at the
    first table either plays when any draw avoids it, then as few as possible share a half, a
    quarter, ... (`tournaments.pairing.group_separation`).

    >>> group_knockout_seeding([[1, 2, 3], [4, 5, 6], [7, 8, 9]], [1, 4, 7, 2, 5, 8]).seeding
    (1, 4, 7, 5, 8, 2)
    """
    group_of: dict[int, int] = {}
    tier_of: dict[int, int] = {}
    for index, group in enumerate(groups):
        for place, entrant in enumerate(group):
            group_of[entrant] = index
            tier_of[entrant] = place
    missing = [entrant for entrant in seeded if entrant not in group_of]
    if missing:
        raise PairingError(f"Entrant {missing[0]} is in no group.")
    shape = bracket_shape(len(seeded), table_size=table_size, advance=advance)
    return separate_groups(seeded, group_of, tier_of, shape)


def knockout_places(
    bracket: Bracket, results: Mapping[int, Mapping[int, Sequence[int]]]
) -> dict[int, tuple[int, int]]:
    """Final places of the entrants whose knockout is over: entrant id -> (best, worst) place.

    ``results``: round number -> table number -> entrant ids in finishing order. Entrants who went
    out at the same stage with the same finishing place share a range (two losing semi-finalists
    without a third-place table: (3, 4)); a table that decides its places alone gives single places.
    Entrants still playing are left out.
    """
    places: dict[int, tuple[int, int]] = {}
    for bracket_round in bracket.rounds:
        finished = results.get(bracket_round.number, {})
        following = (
            bracket.rounds[bracket_round.number] if bracket_round.number < len(bracket.rounds) else None
        )
        going_on = (
            {(source.position, source.place) for table in following.tables for source in table.sources}
            if following is not None
            else set()
        )
        groups: dict[tuple[str, int], list[BracketTable]] = {}
        for table in bracket_round.tables:
            groups.setdefault((table.kind, table.best_place), []).append(table)
        for (_, best_place), tables in groups.items():
            if any(table.number is not None and table.number not in finished for table in tables):
                continue  # the stage is not over: nobody's place in it is known yet
            orders = {
                table.position: (
                    tuple(finished[table.number]) if table.number is not None else table.entrant_ids
                )
                for table in tables
            }
            by_place: dict[int, list[int]] = {}
            for order in orders.values():
                for place, entrant_id in enumerate(order, start=1):
                    by_place.setdefault(place, []).append(entrant_id)
            offset = 0
            for place in sorted(by_place):
                ids = by_place[place]
                for table in tables:
                    order = orders[table.position]
                    if (
                        len(order) >= place
                        and (table.position, place) not in going_on
                        and (table.number is not None or following is None)
                    ):
                        places[order[place - 1]] = (best_place + offset, best_place + offset + len(ids) - 1)
                offset += len(ids)
    return places
