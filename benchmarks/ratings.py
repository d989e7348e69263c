"""Rating updates per second: 10,000 games of 2v2 and 10,000 six-player free-for-all games (with ties)
through tournaments.rankings.compute (dataclasses in and out), next to openskill's own
`PlackettLuce.rate` on the same games with the library's rating objects; the final ratings must agree
exactly."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from openskill.models import PlackettLuce

from tournaments.rankings.compute import RatedGameInput, rate_stream

GAMES = 10_000
ROOT = Path(__file__).resolve().parents[1]


def _two_v_two(rng: random.Random, players: int) -> list[RatedGameInput]:
    games = []
    for i in range(GAMES):
        a, b, c, d = rng.sample(range(1, players + 1), 4)
        games.append(RatedGameInput(key=f"{i:06d}", teams=((a, b), (c, d)), ranks=(1, 2) if rng.random() < 0.5
                                    else (2, 1)))
    return games


def _ffa(rng: random.Random, players: int, seats: int = 6) -> list[RatedGameInput]:
    games = []
    for i in range(GAMES):
        seated = rng.sample(range(1, players + 1), seats)
        order = list(range(1, seats + 1))
        rng.shuffle(order)
        if rng.random() < 0.2:  # a tie for some place (competition ranking: 1 2 2 4 5 6)
            place = rng.randrange(1, seats)
            order = [place if r == place + 1 else r for r in order]
        games.append(RatedGameInput(key=f"{i:06d}", teams=tuple((p,) for p in seated), ranks=tuple(order)))
    return games


def _library(games: list[RatedGameInput]) -> tuple[float, dict[int, tuple[float, float]]]:
    model = PlackettLuce()
    ratings: dict[int, Any] = {}
    started = time.perf_counter()
    for game in games:
        teams = [[ratings.get(p) or model.rating() for p in team] for team in game.teams]
        rated = model.rate(teams, ranks=[float(r) for r in game.ranks])
        for team, new in zip(game.teams, rated, strict=True):
            for player, rating in zip(team, new, strict=True):
                ratings[player] = rating
    elapsed = time.perf_counter() - started
    return elapsed, {p: (r.mu, r.sigma) for p, r in ratings.items()}


def _ours(games: list[RatedGameInput]) -> tuple[float, dict[int, tuple[float, float]]]:
    started = time.perf_counter()
    _outcomes, final = rate_stream(games, {})
    elapsed = time.perf_counter() - started
    return elapsed, {p: (r.mu, r.sigma) for p, r in final.items()}


def _measure(games: list[RatedGameInput], repeats: int = 3) -> dict[str, Any]:
    """Best of `repeats` alternating runs (the machine is shared: the minimum is the least disturbed)."""
    library_seconds = ours_seconds = float("inf")
    for _ in range(repeats):
        seconds, library_final = _library(games)
        library_seconds = min(library_seconds, seconds)
        seconds, ours_final = _ours(games)
        ours_seconds = min(ours_seconds, seconds)
        if library_final != ours_final:
            raise AssertionError("compute.py and openskill disagree")
    return {
        "games": len(games),
        "compute_py_games_per_second": round(len(games) / ours_seconds),
        "openskill_rate_games_per_second": round(len(games) / library_seconds),
        "compute_py_seconds": round(ours_seconds, 3),
        "openskill_rate_seconds": round(library_seconds, 3),
        "overhead_pct": round(100 * (ours_seconds / library_seconds - 1), 1),
        "identical_final_ratings": True,
    }


def _services() -> dict[str, Any]:
    """The services on SQLite (a subprocess, see benchmarks/_ratings_service.py)."""
    with tempfile.TemporaryDirectory() as tmp:
        env = {**os.environ, "DATABASE_URL": f"sqlite:///{tmp}/bench.sqlite3", "CELERY_TASK_ALWAYS_EAGER": "True"}
        env.pop("CELERY_BROKER_URL", None)
        subprocess.run([sys.executable, "manage.py", "migrate", "-v0"], cwd=ROOT, env=env, check=True, timeout=120)
        done = subprocess.run([sys.executable, "-m", "benchmarks._ratings_service"], cwd=ROOT, env=env, check=True,
                              capture_output=True, text=True, timeout=300)
    figures: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return figures


def run() -> dict[str, Any]:
    rng = random.Random(9)
    return {
        "2v2": _measure(_two_v_two(rng, players=400)),
        "ffa6": _measure(_ffa(rng, players=600)),
        "services_taki_sqlite": _services(),
    }


if __name__ == "__main__":
    print(json.dumps(run(), indent=2))
