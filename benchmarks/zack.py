"""ZACK! speed: events verified per second on fixed seeded records, and random Partien generated per second."""

from __future__ import annotations

import random
import time
from typing import Any

from rules.core.replay import verify_document
from rules.zack import ENGINE

VARIANTS: tuple[dict[str, Any], ...] = (
    {"seats": 4},
    {"seats": 6, "stop_cards": True},
    {"seats": 3, "again_back": False},
)
RECORDS_PER_VARIANT = 40
BUDGET_SECONDS = 8.0


def _events(record: dict[str, Any]) -> int:
    return sum(1 + len(e.get("after", ())) for e in record["deals"][0]["events"])


def run() -> dict[str, Any]:
    records = [
        ENGINE.random_record(dict(variant), random.Random(seed))
        for variant in VARIANTS
        for seed in range(RECORDS_PER_VARIANT)
    ]
    events_per_pass = sum(_events(r) for r in records)
    passes = 0
    started = time.perf_counter()
    while time.perf_counter() - started < BUDGET_SECONDS:
        for record in records:
            verdict = verify_document(record)
            if not verdict.complete:
                raise AssertionError(f"a random ZACK! record did not verify: {verdict.to_json()}")
        passes += 1
    verify_seconds = time.perf_counter() - started
    games = 0
    rng = random.Random(12345)
    started = time.perf_counter()
    while time.perf_counter() - started < BUDGET_SECONDS:
        ENGINE.random_record(dict(VARIANTS[games % len(VARIANTS)]), rng)
        games += 1
    generate_seconds = time.perf_counter() - started
    return {
        "records": len(records),
        "events_per_record": round(events_per_pass / len(records), 1),
        "events_verified_per_second": round(events_per_pass * passes / verify_seconds),
        "records_verified_per_second": round(len(records) * passes / verify_seconds, 1),
        "random_games_per_second": round(games / generate_seconds, 1),
    }
