"""Pairing quality and speed figures of issue 3 (one core, seeded, about a minute).

* Swiss, 2 per table, 1024 entrants, 9 rounds with random results: seconds per round (median, max),
  rematches, score spread.
* Swiss, 2 per table, 256 entrants: the squared score difference of the block-wise matching against
  a blossom over the complete graph of every pair that has not met (the optimum), on a few rounds.
* Swiss, 3 per table, 192 entrants (64 tables), 7 rounds: rematched pairs and score spread per round,
  next to a greedy score-ordered grouping with the same byes.
* Round robin: every pair exactly once at tables of 2; 9 entrants at tables of 3 in 4 rounds;
  maximum/minimum meetings of a few uneven fields.
"""

from __future__ import annotations

import dataclasses
import itertools
import random
import statistics
import time
from collections import Counter
from typing import Any

import networkx as nx  # type: ignore[import-untyped]

from tournaments.pairing import PairingRequest, knockout_bracket, round_robin_rounds, swiss_pair
from tournaments.pairing.costs import PairCosts
from tournaments.pairing.simulation import fake_entrants, play_round, simulate_swiss


def run() -> dict[str, Any]:
    return {
        "swiss_2_per_table_1024": _swiss_two_large(1024, draw_rate=0.0),
        "swiss_2_per_table_1001_with_draws": _swiss_two_large(1001, draw_rate=0.15),
        "swiss_2_per_table_256_vs_complete_graph": _swiss_two_against_complete_graph(),
        "swiss_3_per_table_192": _swiss_three(),
        "round_robin": _round_robin(),
        "knockout": _knockout(),
    }


def _swiss_two_large(count: int, *, draw_rate: float) -> dict[str, Any]:
    simulation = simulate_swiss(count, 2, 9, seed=2026, draw_rate=draw_rate)
    seconds = [r.seconds for r in simulation.rounds]
    return {
        "entrants": count,
        "draw_rate": draw_rate,
        "rounds": 9,
        "median_seconds_per_round": round(statistics.median(seconds), 3),
        "max_seconds_per_round": round(max(seconds), 3),
        "rematches_total": simulation.total_rematches,
        "rematches_per_round": [r.rematches for r in simulation.rounds],
        "score_spread_per_round": [r.score_spread for r in simulation.rounds],
        "widest_table_per_round": [r.max_table_spread for r in simulation.rounds],
        "seat_spread": simulation.seat_spread,
        "start_spread": simulation.start_spread,
    }


def _swiss_two_against_complete_graph() -> dict[str, Any]:
    """Squared score difference: block-wise matching vs the optimum over the complete graph."""
    rng = random.Random(7)
    entrants = fake_entrants(255, seed=7)  # odd: a bye every round
    met: set[frozenset[int]] = set()
    compared: list[dict[str, Any]] = []
    for number in range(1, 10):
        request = PairingRequest(
            entrants=entrants, table_size=2, round_number=number, met_pairs=frozenset(met)
        )
        result = swiss_pair(request)
        if number in (3, 5, 7, 9):
            costs = PairCosts(request)
            ours = sum(
                (costs.scores[t.entrant_ids[0]] - costs.scores[t.entrant_ids[1]]) ** 2 for t in result.tables
            )
            started = time.perf_counter()
            playing = [e.id for e in entrants if e.id not in set(result.byes)]
            graph = nx.Graph()
            for first, second in itertools.combinations(playing, 2):
                if not costs.is_rematch(first, second):
                    difference = costs.scores[first] - costs.scores[second]
                    graph.add_edge(first, second, weight=round(difference * difference * 100))
            optimum_pairs = nx.min_weight_matching(graph)
            optimum = sum((costs.scores[a] - costs.scores[b]) ** 2 for a, b in optimum_pairs)
            compared.append(
                {
                    "round": number,
                    "ours": ours,
                    "complete_graph_optimum": optimum,
                    "complete_graph_seconds": round(time.perf_counter() - started, 2),
                }
            )
        entrants = play_round(entrants, result, rng, draw_rate=0.2)
        for table in result.tables:
            met.add(frozenset(table.entrant_ids))
    return {"entrants": 255, "draw_rate": 0.2, "rounds": compared}


def _swiss_three() -> dict[str, Any]:
    simulation = simulate_swiss(192, 3, 7, seed=2026)
    return {
        "entrants": 192,
        "tables": 64,
        "rounds": 7,
        "rematched_pairs_per_round": [r.rematches for r in simulation.rounds],
        "greedy_rematched_pairs_per_round": [r.greedy_rematches for r in simulation.rounds],
        "score_spread_per_round": [r.score_spread for r in simulation.rounds],
        "greedy_score_spread_per_round": [r.greedy_score_spread for r in simulation.rounds],
        "widest_table_per_round": [r.max_table_spread for r in simulation.rounds],
        "never_more_than_greedy": all(r.rematches <= r.greedy_rematches for r in simulation.rounds),
        "median_seconds_per_round": round(statistics.median(r.seconds for r in simulation.rounds), 3),
        "seat_spread": simulation.seat_spread,
        "start_spread": simulation.start_spread,
    }


def _meetings(results: Any) -> Counter[frozenset[int]]:
    counter: Counter[frozenset[int]] = Counter()
    for result in results:
        for table in result.tables:
            counter.update(frozenset(pair) for pair in itertools.combinations(table.entrant_ids, 2))
    return counter


def _round_robin() -> dict[str, Any]:
    figures: dict[str, Any] = {}
    for count in (8, 9, 16, 33):
        results = round_robin_rounds(PairingRequest(entrants=fake_entrants(count), table_size=2))
        met = _meetings(results)
        pairs = [frozenset(p) for p in itertools.combinations(range(1, count + 1), 2)]
        figures[f"2_per_table_{count}_every_pair_once"] = all(met[p] == 1 for p in pairs)
    for count, size in ((6, 3), (9, 3), (15, 3), (12, 3), (16, 4), (13, 4), (10, 5)):
        started = time.perf_counter()
        results = round_robin_rounds(PairingRequest(entrants=fake_entrants(count), table_size=size))
        figures[f"{size}_per_table_{count}"] = {
            "rounds": len(results),
            "max_meetings": results[0].max_meetings,
            "min_meetings": results[0].min_meetings,
            "even_possible": results[0].even_possible,
            "seconds": round(time.perf_counter() - started, 2),
        }
    return figures


def _knockout() -> dict[str, Any]:
    figures: dict[str, Any] = {}
    for count, size, advance in ((16, 2, 1), (12, 2, 1), (100, 2, 1), (48, 4, 2), (20, 3, 1)):
        bracket = knockout_bracket(
            PairingRequest(entrants=fake_entrants(count), table_size=size), advance=advance, third_place=True
        )
        figures[f"{count}_at_{size}_top_{advance}"] = {
            "rounds": [dataclasses.asdict(r)["name"] for r in bracket.rounds],
            "first_round_tables": len(bracket.first_round.tables),
            "byes": len(bracket.first_round.byes),
        }
    return figures


if __name__ == "__main__":
    import json

    print(json.dumps(run(), indent=2))
