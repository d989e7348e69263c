"""Tac-Tik speed: actions validated per second on fixed seeded random records, and random games per second.

Measured as TAC's benchmark does: records are validated from their JSON bytes (parsing included), rates
use process CPU time (one core, robust when the machine is shared), validation is the best of three
passes. Reported per seat count: 4 seats is the table TAC is played at, so its figures (top level)
compare with TAC's; a 6-seat game has about twice as many turns.
"""

from __future__ import annotations

import json
import random
import time
from collections.abc import Callable
from typing import Any

from rules.core.replay import verify_bytes
from rules.tactik import ENGINE

RECORDS = 12
GAMES_FOR_SPEED = 30


def _best_of(repeat: int, fn: Callable[[], None]) -> float:
    best = float("inf")
    for _ in range(repeat):
        started = time.process_time()
        fn()
        best = min(best, time.process_time() - started)
    return best


def _measure(seats: int) -> dict[str, Any]:
    variant = {"seats": seats}
    records = [ENGINE.random_record(dict(variant), random.Random(seed)) for seed in range(RECORDS)]
    actions = sum(len(deal["turns"]) for record in records for deal in record["deals"])
    texts = [json.dumps(record).encode() for record in records]

    def validate() -> None:
        for i, text in enumerate(texts):
            verdict = verify_bytes(text, file=str(i))
            if not (verdict.valid and verdict.complete):
                raise AssertionError(f"a random Tac-Tik record did not verify: {verdict.text_line()}")

    validate_seconds = _best_of(3, validate)
    generated_actions = 0

    def generate() -> None:
        nonlocal generated_actions
        generated_actions = 0
        for seed in range(GAMES_FOR_SPEED):
            record = ENGINE.random_record(dict(variant), random.Random(10_000 + seed))
            generated_actions += sum(len(deal["turns"]) for deal in record["deals"])

    generate_seconds = _best_of(1, generate)
    return {
        "records": RECORDS,
        "actions_per_record": round(actions / RECORDS, 1),
        "actions_validated_per_second": round(actions / validate_seconds),
        "random_games_per_second": round(GAMES_FOR_SPEED / generate_seconds, 2),
        "random_actions_per_second": round(generated_actions / generate_seconds),
    }


def run() -> dict[str, Any]:
    four = _measure(4)
    six = _measure(6)
    return {
        "actions_validated_per_second": four["actions_validated_per_second"],
        "random_games_per_second": four["random_games_per_second"],
        "seats_4": four,
        "seats_6": six,
    }


if __name__ == "__main__":
    print(json.dumps(run(), indent=1))
