"""Tock speed: actions validated per second on fixed seeded random records, and random games per second.

Rates use process CPU time (one core, robust when the machine is shared), like benchmarks/tac.py: records
are read from JSON bytes and replayed with every rule (must-play checks included).
"""

from __future__ import annotations

import json
import random
import time
from collections.abc import Callable
from typing import Any

from rules.core.replay import verify_bytes
from rules.tock import ENGINE

VARIANTS: tuple[dict[str, Any], ...] = (
    {"seats": 4},
    {"seats": 4, "mode": "teams"},
    {"seats": 2},
    {"seats": 6, "mode": "teams", "quick_start": True},
    {"seats": 3, "seven": "single"},
)
RECORDS_PER_VARIANT = 4
GAMES_PER_VARIANT = 8


def _turns(record: dict[str, Any]) -> int:
    return sum(len(deal["turns"]) for deal in record["deals"])


def _best_of(repeat: int, fn: Callable[[], None]) -> float:
    best = float("inf")
    for _ in range(repeat):
        started = time.process_time()
        fn()
        best = min(best, time.process_time() - started)
    return best


def run() -> dict[str, Any]:
    records = [
        ENGINE.random_record(dict(variant), random.Random(seed))
        for variant in VARIANTS
        for seed in range(RECORDS_PER_VARIANT)
    ]
    texts = [json.dumps(r).encode() for r in records]
    actions = sum(_turns(r) for r in records)

    def validate() -> None:
        for i, text in enumerate(texts):
            verdict = verify_bytes(text, file=str(i))
            if not (verdict.valid and verdict.complete):
                raise AssertionError(f"a random Tock record did not verify: {verdict.text_line()}")

    validate_seconds = _best_of(5, validate)
    per_variant: dict[str, float] = {}
    generated_actions = 0
    total_seconds = 0.0
    for variant in VARIANTS:
        counted: list[int] = []

        def generate(variant: dict[str, Any] = variant, counted: list[int] = counted) -> None:
            for seed in range(GAMES_PER_VARIANT):
                counted.append(_turns(ENGINE.random_record(dict(variant), random.Random(10_000 + seed))))

        seconds = _best_of(1, generate)
        total_seconds += seconds
        generated_actions += sum(counted)
        per_variant[json.dumps(variant, sort_keys=True)] = round(GAMES_PER_VARIANT / seconds, 1)
    return {
        "records": len(records),
        "actions_validated": actions,
        "actions_validated_per_second": round(actions / validate_seconds),
        "random_games_per_second": round(GAMES_PER_VARIANT * len(VARIANTS) / total_seconds, 1),
        "random_games_per_second_by_variant": per_variant,
        "random_actions_per_second": round(generated_actions / total_seconds),
    }


if __name__ == "__main__":
    print(json.dumps(run(), indent=1))
