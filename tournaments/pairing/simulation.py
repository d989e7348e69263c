"""Seeded simulated tournaments on fake entrants: the benchmark, the tests and the demo use them.

Results are random (a seeded ``random.Random``): at each table a random finishing order, the entrant
in place p of a table of s earning s - 1 - p points (a win is 1 point at tables of 2); with
``draw_rate`` a table of 2 is drawn that often (half a point each), which makes odd score groups.
"""

from __future__ import annotations

import dataclasses
import itertools
import random
import statistics
import time
from dataclasses import dataclass

from tournaments.pairing.costs import PairCosts
from tournaments.pairing.grouping import consecutive_tables
from tournaments.pairing.ordering import standings_order, table_sizes
from tournaments.pairing.seats import seat_spread, seats_recorded, start_spread
from tournaments.pairing.swiss import swiss_pair
from tournaments.pairing.values import PairingEntrant, PairingRequest, PairingResult


@dataclass(frozen=True)
class SimulatedRound:
    number: int
    seconds: float
    rematches: int  # pairs at a table that had met before
    greedy_rematches: int  # the same round grouped greedily in standings order (same byes)
    score_spread: float  # sum over tables of highest minus lowest score
    greedy_score_spread: float
    max_table_spread: float  # the widest table of the round
    byes: int
    rematch_free_possible: bool | None  # tables of 2: whether the whole field had a rematch-free pairing


@dataclass(frozen=True)
class SimulatedSwiss:
    entrants: int
    table_size: int
    rounds: tuple[SimulatedRound, ...]
    seat_spread: int
    start_spread: int
    most_byes: int

    @property
    def median_seconds(self) -> float:
        return statistics.median(r.seconds for r in self.rounds)

    @property
    def total_rematches(self) -> int:
        return sum(r.rematches for r in self.rounds)


def fake_entrants(count: int, *, seed: int = 0, clubs: int = 0) -> tuple[PairingEntrant, ...]:
    """Entrants 1..count with seeds 1..count, random ratings and (optionally) ``clubs`` clubs."""
    rng = random.Random(seed)
    return tuple(
        PairingEntrant(
            id=index,
            seed=index,
            rating=round(rng.gauss(1500, 200)),
            club=f"club {rng.randrange(clubs)}" if clubs else "",
        )
        for index in range(1, count + 1)
    )


def simulate_swiss(
    count: int,
    table_size: int,
    rounds: int,
    *,
    seed: int = 0,
    min_table_size: int | None = None,
    clubs: int = 0,
    draw_rate: float = 0.0,
) -> SimulatedSwiss:
    """Play ``rounds`` Swiss rounds with random results and measure every round."""
    rng = random.Random(seed)
    entrants = fake_entrants(count, seed=seed, clubs=clubs)
    met: set[frozenset[int]] = set()
    measured: list[SimulatedRound] = []
    for number in range(1, rounds + 1):
        request = PairingRequest(
            entrants=entrants,
            table_size=table_size,
            min_table_size=min_table_size,
            round_number=number,
            met_pairs=frozenset(met),
            avoid_same_club=bool(clubs),
        )
        started = time.perf_counter()
        result = swiss_pair(request)
        seconds = time.perf_counter() - started
        greedy_rematches, greedy_spread = greedy_baseline(request, result)
        widest = max((_table_spread(request, t.entrant_ids) for t in result.tables), default=0.0)
        measured.append(
            SimulatedRound(
                number=number,
                seconds=seconds,
                rematches=result.rematches,
                greedy_rematches=greedy_rematches,
                score_spread=result.score_spread,
                greedy_score_spread=greedy_spread,
                max_table_spread=widest,
                byes=len(result.byes),
                rematch_free_possible=None,
            )
        )
        entrants = play_round(entrants, result, rng, draw_rate=draw_rate)
        for table in result.tables:
            met.update(frozenset(pair) for pair in itertools.combinations(table.entrant_ids, 2))
    return SimulatedSwiss(
        entrants=count,
        table_size=table_size,
        rounds=tuple(measured),
        seat_spread=seat_spread(entrants, positions=table_size),
        start_spread=start_spread(entrants),
        most_byes=max(entrant.byes for entrant in entrants),
    )


def play_round(
    entrants: tuple[PairingEntrant, ...], result: PairingResult, rng: random.Random, *, draw_rate: float = 0.0
) -> tuple[PairingEntrant, ...]:
    """Random results for every table; byes score like a win; seats and byes are recorded."""
    points: dict[int, float] = {}
    for table in result.tables:
        order = list(table.entrant_ids)
        rng.shuffle(order)
        drawn = len(order) == 2 and rng.random() < draw_rate
        for place, entrant_id in enumerate(order):
            points[entrant_id] = 0.5 if drawn else float(len(order) - 1 - place)
    bye_points = float(max(1, min((len(t.entrant_ids) for t in result.tables), default=2) - 1))
    byes = set(result.byes)
    seated = seats_recorded(entrants, result.tables)
    return tuple(
        dataclasses.replace(
            entrant,
            score=entrant.score + points.get(entrant.id, bye_points if entrant.id in byes else 0.0),
            byes=entrant.byes + (1 if entrant.id in byes else 0),
        )
        for entrant in seated
    )


def greedy_baseline(request: PairingRequest, result: PairingResult) -> tuple[int, float]:
    """Rematched pairs and score spread of a greedy score-ordered grouping with the same byes."""
    byes = set(result.byes)
    ordered = [entrant.id for entrant in standings_order(request.entrants) if entrant.id not in byes]
    sizes, _ = table_sizes(len(ordered), request.table_size, request.min_table_size)
    costs = PairCosts(request)
    tables = consecutive_tables(ordered, sizes)
    rematches = sum(
        costs.is_rematch(first, second)
        for table in tables
        for first, second in itertools.combinations(table, 2)
    )
    return rematches, sum(_table_spread(request, table) for table in tables)


def _table_spread(request: PairingRequest, table: tuple[int, ...] | list[int]) -> float:
    scores = {entrant.id: entrant.score for entrant in request.entrants}
    values = [scores[entrant_id] for entrant_id in table]
    return max(values) - min(values) if values else 0.0
