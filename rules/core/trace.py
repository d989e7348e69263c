"""A step-by-step trace of a game record: the verdict plus the position after every step.

The replay viewer renders these snapshots (shapes in docs/replay-trace.md). The verdict is computed by
the very code path of :func:`rules.core.replay.verify_document`, with an observer attached, so it is
always identical; these functions never raise.

>>> t = trace_document({"format": "game-record/1", "game": "tac", "players": [], "deals": []})
>>> t.verdict.valid, t.steps, t.failed_action
(False, [], None)
"""

from __future__ import annotations

import importlib
import sys
import traceback
from dataclasses import dataclass
from types import ModuleType
from typing import Any

from rules.core.errors import RecordError
from rules.core.pointer import resolve
from rules.core.replay import load_json, verify_observed
from rules.core.verdict import Verdict

START = "start"
DEAL = "deal"
ACTION = "action"


@dataclass(frozen=True)
class Step:
    index: int  # 0..n-1
    path: str  # JSON Pointer of the action; "" for the initial position, "/deals/<i>" after deal i
    kind: str  # "start" | "deal" | "action"
    seat: int | None  # the acting seat (None for start/deal)
    action: dict[str, Any] | None  # the raw action object from the record (None for start/deal)
    label: str  # short English description
    snapshot: dict[str, Any]  # JSON-serialisable position after this step

    def to_json(self) -> dict[str, Any]:
        return {
            "index": self.index,
            "path": self.path,
            "kind": self.kind,
            "seat": self.seat,
            "action": self.action,
            "label": self.label,
            "snapshot": self.snapshot,
        }


@dataclass(frozen=True)
class Trace:
    verdict: Verdict  # identical to verify_document's
    steps: list[Step]  # for an invalid record: every step up to the last legal one
    failed_action: dict[str, Any] | None  # the raw action holding the error, if it lies in one
    truncated: bool  # True if max_steps cut the list

    def to_json(self) -> dict[str, Any]:
        """The whole trace as JSON (for an API or a cache)."""
        return {
            "verdict": self.verdict.to_json(),
            "steps": [step.to_json() for step in self.steps],
            "failed_action": self.failed_action,
            "truncated": self.truncated,
        }


def _snapshot_module(game: str) -> ModuleType | None:
    try:
        return importlib.import_module(f"rules.{game}.snapshot")
    except ModuleNotFoundError:
        return None


def _deal_of(path: str) -> int:
    """The deal index a step path lies in (-1 for the start step)."""
    parts = path.split("/")
    if len(parts) >= 3 and parts[1] == "deals" and parts[2].isdigit():
        return int(parts[2])
    return -1


def _action_path(path: str) -> str | None:
    """The top-level action an error path lies in: /deals/i/turns/j or /deals/i/events/j or /setup/last."""
    parts = path.split("/")
    if len(parts) >= 5 and parts[1] == "deals" and parts[3] in ("turns", "events"):
        return "/".join(parts[:5])
    if len(parts) >= 3 and parts[1] == "setup" and parts[2] == "last":
        return "/setup/last"
    return None


class _Recorder:
    """The observer: turns each (path, kind, state) into a Step while the replay runs."""

    def __init__(self, doc: Any, max_steps: int) -> None:
        self.doc = doc
        self.max_steps = max_steps
        self.steps: list[Step] = []
        self.truncated = False
        self.broken = False
        self.module: ModuleType | None = None
        self.has_setup = isinstance(doc, dict) and "setup" in doc
        self.last: dict[str, Any] | None = None
        self.discarded = False

    def __call__(self, path: str, kind: str, state: Any) -> None:
        if self.broken:
            return
        if len(self.steps) >= self.max_steps:
            self.truncated = True
            return
        try:
            self.steps.append(self._step(path, kind, state))
        except Exception:  # a snapshot bug must never change the verdict
            traceback.print_exc(file=sys.stderr)
            self.broken = True

    def _step(self, path: str, kind: str, state: Any) -> Step:
        if self.module is None:
            self.module = _snapshot_module(str(self.doc["game"]))
            if self.module is None:
                raise LookupError(f"No snapshot for {self.doc['game']!r}.")
        module = self.module
        action: dict[str, Any] | None = None
        seat: int | None = None
        if kind == ACTION:
            raw = resolve(self.doc, path)
            action = raw if isinstance(raw, dict) else None
            if action is not None:
                seat_raw = action.get("seat")
                seat = seat_raw if isinstance(seat_raw, int) and not isinstance(seat_raw, bool) else None
                self.last = module.last_action(action)
                self.discarded = action.get("discard") is True
            label = module.label(action) if action is not None else path
        elif kind == DEAL:
            self.last = None
            self.discarded = False
            label = f"Deal {_deal_of(path) + 1}"
        else:
            label = "Setup" if self.has_setup else "Start"
            setup = self.doc.get("setup")
            setup_last = setup.get("last") if isinstance(setup, dict) else None
            if isinstance(setup_last, dict):  # a marble-game setup's `last` is already applied
                self.last = module.last_action(setup_last)
        snap: dict[str, Any] = module.snapshot(state)
        snap["deal"] = _deal_of(path) if kind != START else (0 if self.has_setup else -1)
        snap["last"] = self.last
        if snap.get("kind") == "marbles":
            snap["discarded"] = self.discarded
            if kind == DEAL:
                label += f" (dealer seat {snap['dealer']})"
        return Step(
            index=len(self.steps),
            path=path,
            kind=kind,
            seat=seat,
            action=action,
            label=label,
            snapshot=snap,
        )


def trace_document(doc: Any, *, file: str = "-", max_steps: int = 5000) -> Trace:
    """Replay `doc` and return its verdict and every step (at most `max_steps` of them)."""
    recorder = _Recorder(doc, max(0, max_steps))
    verdict = verify_observed(doc, file=file, observe=recorder)
    failed: dict[str, Any] | None = None
    if verdict.error is not None:
        where = _action_path(verdict.error.path)
        if where is not None:
            try:
                found = resolve(doc, where)
            except LookupError:
                found = None
            failed = found if isinstance(found, dict) else None
    return Trace(verdict=verdict, steps=recorder.steps, failed_action=failed, truncated=recorder.truncated)


def trace_bytes(data: bytes | str, *, file: str = "-", max_steps: int = 5000) -> Trace:
    """Like :func:`trace_document`, reading the JSON first (an unreadable file has no steps)."""
    try:
        doc = load_json(data)
    except RecordError as err:
        return Trace(verdict=Verdict.invalid(file, None, err), steps=[], failed_action=None, truncated=False)
    return trace_document(doc, file=file, max_steps=max_steps)


class _LastState:
    """An observer that remembers only the latest step: the final snapshot costs one snapshot call."""

    def __init__(self) -> None:
        self.path = ""
        self.kind = START
        self.state: Any = None

    def __call__(self, path: str, kind: str, state: Any) -> None:
        self.path, self.kind, self.state = path, kind, state


def final_snapshot(doc: Any) -> dict[str, Any] | None:
    """The snapshot after the last step of a valid record; None for an invalid one.

    Only one snapshot is built, after the replay, from the engine's final state."""
    return verify_with_final_snapshot(doc)[1]


def verify_with_final_snapshot(doc: Any, *, file: str = "-") -> tuple[Verdict, dict[str, Any] | None]:
    """The verdict of `doc` (identical to verify_document's) and, for a valid record, the snapshot after
    its last step, from one replay (the platform settles a table from both).

    >>> verdict, snapshot = verify_with_final_snapshot({"format": "game-record/1", "game": "tac"})
    >>> verdict.valid, snapshot
    (False, None)
    """
    last = _LastState()
    verdict = verify_observed(doc, file=file, observe=last)
    return verdict, _final_step_snapshot(doc, verdict, last)


def _final_step_snapshot(doc: Any, verdict: Verdict, last: _LastState) -> dict[str, Any] | None:
    if not verdict.valid or last.state is None or not isinstance(doc, dict):
        return None
    module = _snapshot_module(str(doc.get("game")))
    if module is None:
        return None
    recorder = _Recorder(doc, 1)
    recorder.module = module
    try:
        step = recorder._step(last.path, last.kind, last.state)
    except Exception:
        traceback.print_exc(file=sys.stderr)
        return None
    return step.snapshot
