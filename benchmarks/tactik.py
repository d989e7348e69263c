"""Tac-Tik speed: actions validated per second on fixed seeded random records, and random games per second.

Reported per seat count: 4 seats is the table TAC is played at (its figures compare directly); a
6-seat game has about twice as many turns. The top-level figures are the 4-seat ones.
"""

from __future__ import annotations

import random
import time
from typing import Any

from rules.core.replay import verify_document
from rules.tactik import ENGINE

RECORDS_PER_VARIANT = 4
BUDGET_SECONDS = 4.0


def _turns(record: dict[str, Any]) -> int:
    return sum(len(deal["turns"]) for deal in record["deals"])


def _measure(seats: int) -> dict[str, Any]:
    variant = {"seats": seats}
    records = [
        ENGINE.random_record(dict(variant), random.Random(seed)) for seed in range(RECORDS_PER_VARIANT)
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
    rng = random.Random(12345 + seats)
    started = time.perf_counter()
    while games == 0 or time.perf_counter() - started < BUDGET_SECONDS:
        actions += _turns(ENGINE.random_record(dict(variant), rng))
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


def run() -> dict[str, Any]:
    four = _measure(4)
    six = _measure(6)
    return {
        "actions_validated_per_second": four["actions_validated_per_second"],
        "random_games_per_second": four["random_games_per_second"],
        "seats_4": four,
        "seats_6": six,
    }
