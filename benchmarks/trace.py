"""Replay trace speed: plain TAC verification next to the same replay with a no-op observer and with a
full trace (a snapshot per step), on seeded random master games.

Rates use process CPU time (one core). ``hook_overhead`` is what the ``observe`` hook costs when it does
nothing; ``trace_slowdown`` what building every snapshot costs on top of plain verification.
"""

from __future__ import annotations

import json
import random
import time
from typing import Any

from rules.core.replay import verify_document, verify_observed
from rules.core.trace import final_snapshot, trace_document
from rules.tac import ENGINE

RECORDS = 12
REPEAT = 5


def _corpus() -> tuple[list[dict[str, Any]], int]:
    docs: list[dict[str, Any]] = []
    actions = 0
    for seed in range(RECORDS):
        record = ENGINE.random_record({"master": True}, random.Random(seed))
        actions += sum(len(deal["turns"]) for deal in record["deals"])
        docs.append(record)
    return docs, actions


def _cpu_seconds(fn: Any) -> float:
    started = time.process_time()
    fn()
    return time.process_time() - started


def _ignore(path: str, kind: str, state: Any) -> None:
    return None


def run() -> dict[str, Any]:
    docs, actions = _corpus()
    steps = sum(len(trace_document(doc).steps) for doc in docs)

    def plain() -> None:
        for doc in docs:
            assert verify_document(doc).complete

    def hooked() -> None:
        for doc in docs:
            assert verify_observed(doc, observe=_ignore).complete

    def traced() -> None:
        for doc in docs:
            assert trace_document(doc).verdict.complete

    def final() -> None:
        for doc in docs:
            assert final_snapshot(doc) is not None

    # interleave the measurements so that machine noise hits all of them alike
    plain_t = hooked_t = traced_t = final_t = float("inf")
    for _ in range(REPEAT):
        plain_t = min(plain_t, _cpu_seconds(plain))
        hooked_t = min(hooked_t, _cpu_seconds(hooked))
        traced_t = min(traced_t, _cpu_seconds(traced))
        final_t = min(final_t, _cpu_seconds(final))
    snapshot_sample = trace_document(docs[0]).steps[-1].snapshot
    return {
        "tac_actions": actions,
        "tac_steps": steps,
        "plain_actions_per_second": round(actions / plain_t),
        "hooked_actions_per_second": round(actions / hooked_t),
        "traced_actions_per_second": round(actions / traced_t),
        "final_snapshot_records_per_second": round(RECORDS / final_t, 1),
        "hook_overhead": round(hooked_t / plain_t - 1, 4),
        "trace_slowdown": round(traced_t / plain_t, 3),
        "microseconds_per_snapshot": round((traced_t - plain_t) / steps * 1e6, 1),
        "snapshot_json_bytes": len(json.dumps(snapshot_sample)),
    }


if __name__ == "__main__":
    print(json.dumps(run(), indent=1))
