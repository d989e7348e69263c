"""TAKI speed: entries validated per second on fixed seeded records, random games generated per second."""

from __future__ import annotations

import random
import time
from typing import Any

from rules.core.replay import verify_document
from rules.taki import ENGINE

VARIANTS: list[dict[str, Any]] = [{"seats": s} for s in range(2, 11)] + [
    {"seats": 3, "tournament": True},
    {"seats": 6, "tournament": True},
]


def _records(seed: int, rounds: int) -> list[dict[str, Any]]:
    rng = random.Random(seed)
    return [ENGINE.random_record(dict(v), rng) for _ in range(rounds) for v in VARIANTS]


def run() -> dict[str, Any]:
    records = _records(2026, 4)
    entries = sum(len(r["deals"][0]["turns"]) for r in records)
    started = time.perf_counter()
    passes = 0
    while True:
        for record in records:
            verdict = verify_document(record, file="bench")
            assert verdict.valid and verdict.complete
        passes += 1
        elapsed = time.perf_counter() - started
        if elapsed > 8 or passes >= 20:
            break
    validate_rate = entries * passes / elapsed

    rng = random.Random(7)
    started = time.perf_counter()
    games = generated_entries = 0
    while time.perf_counter() - started < 8:
        for v in VARIANTS[:9]:
            record = ENGINE.random_record(dict(v), rng)
            games += 1
            generated_entries += len(record["deals"][0]["turns"])
    gen_elapsed = time.perf_counter() - started
    return {
        "records": len(records),
        "entries_per_pass": entries,
        "actions_validated_per_second": round(validate_rate),
        "random_games_per_second": round(games / gen_elapsed, 1),
        "random_games_variants": "2-10 seats, no tournament",
        "random_entries_per_second": round(generated_entries / gen_elapsed),
    }
