"""Tac-Tik speed: actions validated per second on fixed seeded random records, and random games per second."""

from __future__ import annotations

import random
import time
from typing import Any

from rules.core.replay import verify_document
from rules.tactik import ENGINE

VARIANTS: tuple[dict[str, Any], ...] = ({"seats": 4}, {"seats": 6})
RECORDS_PER_VARIANT = 4
BUDGET_SECONDS = 8.0


def _turns(record: dict[str, Any]) -> int:
    return sum(len(deal["turns"]) for deal in record["deals"])


def run() -> dict[str, Any]:
    records = [
        ENGINE.random_record(dict(variant), random.Random(seed))
        for variant in VARIANTS
        for seed in range(RECORDS_PER_VARIANT)
    ]
    actions_per_pass = sum(_turns(r) for r in records)
    passes = 0
    started = time.perf_counter()
    while passes == 0 or time.perf_counter() - started < BUDGET_SECONDS:
        for record in records:
            verdict = verify_document(record)
            if not verdict.complete:
                raise AssertionError(f"a random Tac-Tik record did not verify: {verdict.to_json()}")
        passes += 1
    verify_seconds = time.perf_counter() - started
    games = 0
    actions = 0
    rng = random.Random(12345)
    started = time.perf_counter()
    while games == 0 or time.perf_counter() - started < BUDGET_SECONDS:
        actions += _turns(ENGINE.random_record(dict(VARIANTS[games % len(VARIANTS)]), rng))
        games += 1
    generate_seconds = time.perf_counter() - started
    return {
        "records": len(records),
        "actions_per_record": round(actions_per_pass / len(records), 1),
        "actions_validated_per_second": round(actions_per_pass * passes / verify_seconds),
        "records_validated_per_second": round(len(records) * passes / verify_seconds, 1),
        "random_games_per_second": round(games / generate_seconds, 1),
        "random_actions_per_second": round(actions / generate_seconds),
    }
