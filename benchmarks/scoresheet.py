"""Scoresheet speed: the time from an entry to the next options, as the phone page sees it.

Random games are entered one public entry at a time through ``sheet_add`` and ``sheet_view`` (what a
request does once the sheet's replay is cached in the worker). The figure the issue sets is the median
for TAC under 20 ms; the p90, the master edition and the other games are printed alongside. Times are
process CPU time per entry (add + view, as the other benchmarks: robust when the machine is shared), so
they include building the options, however many there are.
"""

from __future__ import annotations

import json
import random
import statistics
import time
from typing import Any

from rules.core.registry import get_engine
from rules.scoresheet import record_entries, sheet_add, sheet_start, sheet_view

ENTRIES_PER_GAME = 400  # most of a game: the end game has the most marbles on the board
CASES: list[tuple[str, str, dict[str, Any], int]] = [
    ("tac_basic", "tac", {}, 2),
    ("tac_master", "tac", {"master": True}, 2),
    ("tock_teams", "tock", {"mode": "teams"}, 1),
    ("tactik_6", "tactik", {"seats": 6}, 1),
]




def _measure(game: str, variant: dict[str, Any], games: int) -> dict[str, Any]:
    engine = get_engine(game)
    times: list[float] = []
    options: list[int] = []
    for seed in range(games):
        record = engine.random_record(variant, random.Random(seed))
        state = sheet_start(
            game=game, variant=variant, players=record["players"], dealer=record["deals"][0]["dealer"]
        )
        sheet_view(state)
        for entry in record_entries(record)[:ENTRIES_PER_GAME]:
            started = time.process_time()
            state = sheet_add(state, entry)
            view = sheet_view(state)
            times.append(time.process_time() - started)
            options.append(len(view.options))
    times.sort()
    return {
        "entries": len(times),
        "median_ms": round(statistics.median(times) * 1000, 2),
        "p90_ms": round(times[int(len(times) * 0.9)] * 1000, 2),
        "max_ms": round(times[-1] * 1000, 2),
        "options_median": statistics.median(options),
        "options_max": max(options),
    }


def run() -> dict[str, Any]:
    out: dict[str, Any] = {name: _measure(game, variant, games) for name, game, variant, games in CASES}
    out["tac_median_under_20ms"] = out["tac_basic"]["median_ms"] < 20 and out["tac_master"]["median_ms"] < 20
    return out


if __name__ == "__main__":
    print(json.dumps(run(), indent=1))
