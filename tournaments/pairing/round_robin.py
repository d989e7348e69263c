"""Round robin schedules.

* Tables of 2: the circle method (Berger tables). One entrant stays put, the others rotate one place
  per round; with an odd count a phantom entrant makes the bye. Every pair meets exactly once
  (twice, seats swapped, in a double round robin).
* Tables of 3 or N: a schedule in which every pair meets as evenly as the numbers allow. When the
  field is q*q entrants at tables of q (q prime, e.g. 9 at tables of 3, 25 at tables of 5) the rows
  of the affine plane over Z_q give rounds in which every pair meets exactly once (a resolvable
  design). Otherwise an exact search (:mod:`tournaments.pairing.schedule_search`) finds the schedule
  with the narrowest spread of meetings per pair, or proves that no even one exists (six entrants at
  tables of three: never); when the search runs out of its budget (large groups) a seeded local
  search (simulated annealing on swaps inside a round) minimises the sum over pairs of meetings
  squared. The maximum and minimum meetings of any pair, and whether an even schedule exists
  (``even_possible``), are reported on every round's result.

Seats: each round is seated with :func:`assign_seats` on the seat counts the schedule has built up so
far, so seat positions and starting seats rotate over the rounds.
"""

from __future__ import annotations

import dataclasses
import functools
import itertools
import math
import random
from collections.abc import Sequence

from tournaments.pairing.costs import PairCosts
from tournaments.pairing.ordering import first_round_order, table_sizes, validate_request
from tournaments.pairing.schedule_search import ScheduleSearch, even_schedule
from tournaments.pairing.seats import assign_seats, seats_recorded
from tournaments.pairing.values import (
    PairedTable,
    PairingEntrant,
    PairingError,
    PairingRequest,
    PairingResult,
)

SEARCH_STEPS = 400_000
STALE_STEPS = 150_000  # stop when the best schedule has not improved for this many steps
START_TEMPERATURE = 0.6
MIN_TEMPERATURE = 0.3
COOLING = 0.995  # per 1000 steps
MAX_ENTRANTS = 512


def round_robin_rounds(
    request: PairingRequest, *, double: bool = False, rounds: int | None = None
) -> tuple[PairingResult, ...]:
    """All rounds of a (double) round robin of ``request.entrants`` at tables of ``request.table_size``.

    ``rounds`` (tables of 3 or N only): how many rounds per cycle; default the fewest in which every
    pair can meet once (9 entrants at tables of 3: 4 rounds). Entrants are placed in first-round order
    (seed, rating or random), so the schedule is reproducible.
    """
    validate_request(request)
    count = len(request.entrants)
    if count < 2:
        raise PairingError("A round robin needs at least 2 entrants.")
    if count > MAX_ENTRANTS:
        raise PairingError(f"A round robin of {count} entrants is too big; split the field into groups.")
    if rounds is not None and rounds < 1:
        raise PairingError("A round robin needs at least one round.")
    ordered = [entrant.id for entrant in first_round_order(request)]
    even_possible: bool | None = True
    if request.table_size == 2:
        if rounds is not None:
            raise PairingError(
                "A round robin at tables of 2 always has every pair meet once; do not set rounds."
            )
        cycle = _berger_rounds(ordered)
    else:
        cycle, even_possible = _group_rounds(ordered, request, rounds)
    schedule = list(cycle)
    if double:  # the second cycle repeats the first; at tables of 2 with the seats swapped
        flip = request.table_size == 2
        schedule += [
            ([table[::-1] if flip else list(table) for table in tables], byes) for tables, byes in cycle
        ]
    return _seated(schedule, request, keep_seat_order=request.table_size == 2, even_possible=even_possible)


def _berger_rounds(ordered: Sequence[int]) -> list[tuple[list[list[int]], list[int]]]:
    """Circle method: entrant slots 0..n-2 rotate round the fixed slot n-1; None is the bye."""
    players: list[int | None] = list(ordered)
    if len(players) % 2:
        players.append(None)
    size = len(players)
    fixed = players[-1]
    circle = players[:-1]
    schedule: list[tuple[list[list[int]], list[int]]] = []
    for round_index in range(size - 1):
        tables: list[list[int]] = []
        byes: list[int] = []
        pairs = [(circle[round_index % (size - 1)], fixed)]
        for offset in range(1, size // 2):
            first = circle[(round_index + offset) % (size - 1)]
            second = circle[(round_index - offset) % (size - 1)]
            pairs.append((first, second) if offset % 2 else (second, first))
        for index, (first, second) in enumerate(pairs):
            if index == 0 and round_index % 2:  # the fixed entrant alternates seats
                first, second = second, first
            if first is None or second is None:
                byes.extend(entrant for entrant in (first, second) if entrant is not None)
            else:
                tables.append([first, second])
        schedule.append((tables, byes))
    return schedule


def _group_rounds(
    ordered: Sequence[int], request: PairingRequest, rounds: int | None
) -> tuple[list[tuple[list[list[int]], list[int]]], bool | None]:
    """The rounds of one cycle and whether an even schedule exists (see ``PairingResult.even_possible``)."""
    count = len(ordered)
    sizes, bye_count = table_sizes(count, request.table_size, request.min_table_size)
    if not sizes:
        raise PairingError(
            f"{count} entrants cannot fill a table of {request.min_table_size or request.table_size}."
        )
    meetings_per_round = sum(size * (size - 1) // 2 for size in sizes)
    needed = math.ceil(count * (count - 1) / 2 / meetings_per_round)
    total_rounds = rounds if rounds is not None else needed
    affine = _affine_plane_rounds(ordered, request.table_size)
    if affine is not None and bye_count == 0 and total_rounds <= len(affine):
        return [(tables, []) for tables in affine[:total_rounds]], True
    bye_rounds = tuple(tuple(byes) for byes in _rotating_byes(ordered, bye_count, total_rounds))
    exact = _exact_rounds_cached(tuple(ordered), tuple(sizes), bye_rounds)
    if exact.rounds is not None:
        schedule = [
            ([list(table) for table in tables], list(byes)) for tables, byes in zip(exact.rounds, bye_rounds, strict=True)
        ]
        return schedule, exact.even
    searched = _annealed_rounds_cached(tuple(ordered), tuple(sizes), bye_rounds, request.random_seed)
    schedule = [([list(table) for table in tables], list(byes)) for tables, byes in searched]
    counts = _pair_meetings(ordered, [tables for tables, _ in schedule])
    # the local search may still reach the ideal window the exact search ran out of time for
    return schedule, (True if max(counts) - min(counts) <= exact.high - exact.low else None)


@functools.lru_cache(maxsize=32)
def _exact_rounds_cached(
    ordered: tuple[int, ...], sizes: tuple[int, ...], bye_rounds: tuple[tuple[int, ...], ...]
) -> ScheduleSearch:
    return even_schedule(ordered, sizes, bye_rounds)


def _pair_meetings(ordered: Sequence[int], rounds: Sequence[Sequence[Sequence[int]]]) -> list[int]:
    counts = {frozenset(pair): 0 for pair in itertools.combinations(ordered, 2)}
    for tables in rounds:
        for table in tables:
            for pair in itertools.combinations(table, 2):
                counts[frozenset(pair)] += 1
    return list(counts.values()) or [0]


@functools.lru_cache(maxsize=32)
def _annealed_rounds_cached(
    ordered: tuple[int, ...],
    sizes: tuple[int, ...],
    bye_rounds: tuple[tuple[int, ...], ...],
    random_seed: int,
) -> tuple[tuple[tuple[tuple[int, ...], ...], tuple[int, ...]], ...]:
    """The search depends only on these; the services ask for the same schedule every round."""
    schedule = _annealed_rounds(ordered, sizes, bye_rounds, random_seed)
    return tuple((tuple(tuple(table) for table in tables), tuple(byes)) for tables, byes in schedule)


def _affine_plane_rounds(ordered: Sequence[int], table_size: int) -> list[list[list[int]]] | None:
    """q*q entrants at tables of q, q prime: the q+1 parallel classes of the affine plane over Z_q."""
    q = table_size
    if len(ordered) != q * q or not _is_prime(q):
        return None

    def point(x: int, y: int) -> int:
        return ordered[x * q + y]

    classes: list[list[list[int]]] = [[[point(x, y) for x in range(q)] for y in range(q)]]  # rows y = c
    classes.insert(0, [[point(x, y) for y in range(q)] for x in range(q)])  # columns x = c
    for slope in range(1, q):
        classes.append([[point(x, (slope * x + intercept) % q) for x in range(q)] for intercept in range(q)])
    return classes


def _is_prime(number: int) -> bool:
    return number >= 2 and all(number % divisor for divisor in range(2, math.isqrt(number) + 1))


def _rotating_byes(ordered: Sequence[int], bye_count: int, total_rounds: int) -> list[list[int]]:
    """Byes go round the field from the bottom: nobody sits out twice before everyone sat out once."""
    rotation = list(reversed(ordered))
    return [
        [rotation[(round_index * bye_count + k) % len(rotation)] for k in range(bye_count)]
        for round_index in range(total_rounds)
    ]


def _annealed_rounds(
    ordered: Sequence[int], sizes: Sequence[int], bye_rounds: Sequence[Sequence[int]], random_seed: int
) -> list[tuple[list[list[int]], list[int]]]:
    rng = random.Random(random_seed)
    meetings: dict[frozenset[int], int] = {frozenset(pair): 0 for pair in itertools.combinations(ordered, 2)}
    schedule: list[list[list[int]]] = []
    for byes in bye_rounds:
        bye_set = set(byes)
        playing = [entrant for entrant in ordered if entrant not in bye_set]
        rng.shuffle(playing)
        tables: list[list[int]] = []
        start = 0
        for size in sizes:
            tables.append(playing[start : start + size])
            start += size
        schedule.append(tables)
        for table in tables:
            for pair in itertools.combinations(table, 2):
                meetings[frozenset(pair)] += 1

    total = sum(meetings.values())
    base, extra = divmod(total, len(meetings))
    ideal = extra * (base + 1) ** 2 + (len(meetings) - extra) * base**2
    cost = sum(value * value for value in meetings.values())
    temperature = START_TEMPERATURE
    steps = SEARCH_STEPS if len(sizes) > 1 else 0
    best_cost, best_schedule = cost, [[table.copy() for table in tables] for tables in schedule]
    best_step = 0
    for step in range(steps):
        if best_cost <= ideal or step - best_step > STALE_STEPS:
            break
        tables = schedule[rng.randrange(len(schedule))]
        first_index, second_index = rng.sample(range(len(tables)), 2)
        first_table, second_table = tables[first_index], tables[second_index]
        first_seat, second_seat = rng.randrange(len(first_table)), rng.randrange(len(second_table))
        first, second = first_table[first_seat], second_table[second_seat]
        change = 0
        for other in first_table:
            if other != first:
                change += 1 - 2 * meetings[frozenset((first, other))]  # first leaves
                change += 1 + 2 * meetings[frozenset((second, other))]  # second joins
        for other in second_table:
            if other != second:
                change += 1 - 2 * meetings[frozenset((second, other))]
                change += 1 + 2 * meetings[frozenset((first, other))]
        if change <= 0 or rng.random() < math.exp(-change / temperature):
            for other in first_table:
                if other != first:
                    meetings[frozenset((first, other))] -= 1
                    meetings[frozenset((second, other))] += 1
            for other in second_table:
                if other != second:
                    meetings[frozenset((second, other))] -= 1
                    meetings[frozenset((first, other))] += 1
            first_table[first_seat], second_table[second_seat] = second, first
            cost += change
            if cost < best_cost:
                best_step = step
                best_cost, best_schedule = cost, [[table.copy() for table in tables] for tables in schedule]
        if step % 1000 == 999:
            temperature = max(MIN_TEMPERATURE, temperature * COOLING)
    return [(tables, list(byes)) for tables, byes in zip(best_schedule, bye_rounds, strict=True)]


def _seated(
    schedule: Sequence[tuple[Sequence[Sequence[int]], Sequence[int]]],
    request: PairingRequest,
    *,
    keep_seat_order: bool,
    even_possible: bool | None = True,
) -> tuple[PairingResult, ...]:
    """Seat every round on the seat counts built up by the rounds before it."""
    entrants: tuple[PairingEntrant, ...] = request.entrants
    meetings: dict[frozenset[int], int] = {}
    for tables, _ in schedule:
        for table in tables:
            for pair in itertools.combinations(table, 2):
                meetings[frozenset(pair)] = meetings.get(frozenset(pair), 0) + 1
    all_pairs = [frozenset(pair) for pair in itertools.combinations([e.id for e in request.entrants], 2)]
    most = max((meetings.get(pair, 0) for pair in all_pairs), default=0)
    fewest = min((meetings.get(pair, 0) for pair in all_pairs), default=0)

    results: list[PairingResult] = []
    met: set[frozenset[int]] = set(request.met_pairs)
    for tables, byes in schedule:
        round_request = dataclasses.replace(request, entrants=entrants, met_pairs=frozenset(met))
        if keep_seat_order:
            by_id = {entrant.id: entrant for entrant in entrants}
            seated = tuple(
                PairedTable(number, tuple(table), _start_of(table, by_id))
                for number, table in enumerate(tables, 1)
            )
        else:
            seated = assign_seats(tables, round_request)
        costs = PairCosts(round_request)
        rematches = sum(
            costs.is_rematch(first, second)
            for table in seated
            for first, second in itertools.combinations(table.entrant_ids, 2)
        )
        results.append(
            PairingResult(
                tables=seated,
                byes=tuple(byes),
                rematches=rematches,
                score_spread=0.0,
                max_meetings=most,
                min_meetings=fewest,
                even_possible=even_possible,
            )
        )
        entrants = seats_recorded(entrants, seated)
        for seated_table in seated:
            met.update(frozenset(pair) for pair in itertools.combinations(seated_table.entrant_ids, 2))
    return tuple(results)


def _start_of(table: Sequence[int], by_id: dict[int, PairingEntrant]) -> int:
    return min(range(len(table)), key=lambda seat: (by_id[table[seat]].start_count, seat))
