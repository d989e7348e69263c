"""A stand-in for `rules.core.trace.trace_bytes` (same fields) for the viewer tests while the `trace`
branch is not merged: the real verdict, one step per start / deal / top-level action, each with a
hand-made snapshot of the game's kind, and the failing action found by the verdict's path.

`install(monkeypatch)` uses it only when `rules.core.trace` cannot be imported.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pytest

from rules.core.replay import load_json, verify_bytes
from tests.games.test_replay_svg import tac_snapshot, taki_snapshot, tock_snapshot, zack_snapshot


@dataclass(frozen=True)
class Step:
    index: int
    path: str
    kind: str
    seat: int | None
    action: dict[str, Any] | None
    label: str
    snapshot: dict[str, Any]


@dataclass(frozen=True)
class Trace:
    verdict: Any
    steps: list[Step]
    failed_action: dict[str, Any] | None
    truncated: bool


def _snapshot(game: str, index: int) -> dict[str, Any]:
    if game == "taki":
        snap = taki_snapshot(stock_count=60 - index % 50)
    elif game == "zack":
        snap = zack_snapshot(collected=[index % 7, 0, 0, 0])
    elif game == "tac":
        snap = tac_snapshot(marbles=[[index % 64], [18], [], []])
    else:
        snap = tock_snapshot(4) | {"game": game, "marbles": [[index % 64], [], [], []]}
    return snap


def trace_bytes(data: bytes | str, *, file: str = "-", max_steps: int = 5000) -> Trace:
    verdict = verify_bytes(data, file=file)
    try:
        doc = load_json(data)
    except Exception:
        return Trace(verdict, [], None, False)
    if not isinstance(doc, dict) or not isinstance(doc.get("deals"), list):
        return Trace(verdict, [], None, False)
    game = str(doc.get("game"))
    error_path = verdict.error.path if verdict.error is not None else None
    steps: list[Step] = []
    failed: dict[str, Any] | None = None

    def add(path: str, kind: str, action: dict[str, Any] | None) -> None:
        seat = action.get("seat") if action else None
        label = (
            f"Seat {seat}: {action.get('card', action.get('play', action.get('event')))}" if action else kind
        )
        steps.append(Step(len(steps), path, kind, seat, action, label, _snapshot(game, len(steps))))

    add("", "start", None)
    for i, deal in enumerate(doc["deals"]):
        if not isinstance(deal, dict):
            break
        deal_path = f"/deals/{i}"
        if error_path is not None and (error_path == deal_path or error_path.startswith(deal_path + "/h")):
            break
        add(deal_path, "deal", None)
        key = "events" if game == "zack" else "turns"
        for j, action in enumerate(deal.get(key) or []):
            path = f"{deal_path}/{key}/{j}"
            if error_path is not None and (error_path == path or error_path.startswith(path + "/")):
                failed = action
                return Trace(verdict, steps[:max_steps], failed, len(steps) > max_steps)
            add(path, "action", action)
    return Trace(verdict, steps[:max_steps], failed, len(steps) > max_steps)


def install(monkeypatch: pytest.MonkeyPatch) -> None:
    try:
        import rules.core.trace  # noqa: F401
    except ImportError:
        import sys
        import types

        module = types.ModuleType("rules.core.trace")
        from tests.games.conftest import fake_final_snapshot

        module.trace_bytes = trace_bytes  # type: ignore[attr-defined]
        module.final_snapshot = fake_final_snapshot  # type: ignore[attr-defined]
        monkeypatch.setitem(sys.modules, "rules.core.trace", module)
