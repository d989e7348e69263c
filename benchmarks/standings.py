"""Standings speed: the pure computation with every tiebreak, and a whole simulated tournament
through the services (a subprocess on a throw-away SQLite database)."""

from __future__ import annotations

import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from tournaments.standings import (
    GameLine,
    PlayedGame,
    compute_standings,
    placing_match_points,
    placings_from_scores,
)

ROOT = Path(__file__).resolve().parents[1]
ORDER = ["match_points", "marble_difference", "buchholz", "median_buchholz", "sonneborn_berger", "head_to_head",
         "opponents_match_win_pct", "games_won"]


def _games(entrants: int, rounds: int, seed: int = 7) -> list[PlayedGame]:
    rng = random.Random(seed)
    games: list[PlayedGame] = []
    key = 0
    for _ in range(rounds):
        ids = list(range(1, entrants + 1))
        rng.shuffle(ids)
        for a, b in zip(ids[::2], ids[1::2], strict=False):
            winner = rng.randrange(2)
            scores = [8 if i == winner else rng.randint(0, 7) for i in range(2)]
            placings = placings_from_scores(scores, winner)
            points = placing_match_points(placings, [2, 0])
            key += 1
            games.append(PlayedGame(key=key, max_points=2, lines=(
                GameLine(a, placings[0], points[0], scores[0]), GameLine(b, placings[1], points[1], scores[1]))))
    return games


def _pure(entrants: int, rounds: int) -> dict[str, Any]:
    games = _games(entrants, rounds)
    times = []
    for _ in range(5):
        started = time.perf_counter()
        compute_standings(range(1, entrants + 1), games, ORDER)
        times.append(time.perf_counter() - started)
    return {"entrants": entrants, "rounds": rounds, "median_seconds": round(statistics.median(times), 5)}


def _simulation() -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as tmp:
        env = {**os.environ, "DATABASE_URL": f"sqlite:///{tmp}/bench.sqlite3", "CELERY_TASK_ALWAYS_EAGER": "True"}
        env.pop("CELERY_BROKER_URL", None)
        subprocess.run([sys.executable, "manage.py", "migrate", "-v0"], cwd=ROOT, env=env, check=True, timeout=120)
        done = subprocess.run(
            [sys.executable, "manage.py", "simulate_tournament", "--game", "tac", "--entrants", "64", "--rounds", "7",
             "--format", "swiss", "--json"],
            cwd=ROOT, env=env, check=True, capture_output=True, text=True, timeout=300,
        )
    figures = json.loads(done.stdout.strip().splitlines()[-1])
    return {k: figures[k] for k in ("entrants", "rounds", "rematches", "pairing_seconds", "standings_seconds",
                                    "results_seconds", "total_seconds")}


def _final_ranking(entrants: int, dropped: int, knockout: int) -> dict[str, Any]:
    """The final ranking (tournaments/standings/final_ranking.py) over a played-out bracket of
    `knockout` entrants with placement tables and `dropped` dropped entrants in the field."""
    from tournaments.pairing import PairingRequest, knockout_bracket
    from tournaments.pairing.simulation import fake_entrants
    from tournaments.standings.final_ranking import StagePlace, bracket_places, bracket_resolve, final_ranking

    rng = random.Random(3)
    stage = [StagePlace(i, i, (float(i),)) for i in range(1, entrants + 1)]
    last = {i: 9 for i in range(1, entrants + 1)}
    gone = set(rng.sample(range(knockout + 1, entrants + 1), dropped))
    for entrant_id in gone:
        last[entrant_id] = rng.randint(1, 8)
    bracket = knockout_bracket(PairingRequest(entrants=fake_entrants(knockout), table_size=2), placements=True)
    results: dict[int, dict[int, tuple[int, ...]]] = {}
    for number in range(1, len(bracket.rounds) + 1):
        resolved = bracket_resolve(bracket, results)[number - 1]
        results[number] = {t.number: tuple(sorted(i for i in t.entrant_ids if i is not None))
                           for t in resolved.tables if t.number is not None}
    times = []
    for _ in range(5):
        started = time.perf_counter()
        final_ranking(stage=stage, knockout=bracket_places(bracket, results), last_round=last, dropped=gone)
        times.append(time.perf_counter() - started)
    return {"entrants": entrants, "dropped": dropped, "knockout": knockout,
            "median_seconds": round(statistics.median(times), 5)}


def run() -> dict[str, Any]:
    return {
        "compute_standings_all_tiebreaks": [_pure(64, 7), _pure(256, 9), _pure(1024, 9)],
        "final_ranking": [_final_ranking(64, 6, 16), _final_ranking(1024, 100, 64)],
        "simulate_tac_swiss_64x7_sqlite": _simulation(),
    }
