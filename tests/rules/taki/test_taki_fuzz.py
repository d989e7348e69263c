"""Hypothesis fuzzing of the TAKI reader: any JSON, and corpus records with one part replaced, get a verdict."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules.core.errors import ErrorCode
from rules.core.replay import INTERNAL_ERROR_PREFIX, verify_bytes, verify_document

CODES = {c.value for c in ErrorCode}
RECORDS = sorted((Path(__file__).resolve().parents[1] / "records" / "taki").glob("*.json"))
BASES = [json.loads(p.read_text(encoding="utf-8")) for p in RECORDS if p.stat().st_size < 4000]

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 12) | st.sampled_from(
        ["5r", "taki_r", "color:g", "supertaki:b", "king", "plus3", "breaker", "color", "x", "", "rules"]
    ),
    lambda inner: st.lists(inner, max_size=5) | st.dictionaries(
        st.sampled_from(["seat", "play", "draw", "close", "last_card", "reshuffle", "hands", "turns", "x_a", "q"]),
        inner,
        max_size=4,
    ),
    max_leaves=20,
)  # fmt: skip


def _assert_verdict(verdict: Any) -> None:
    if verdict.error is not None:
        assert verdict.error.code.value in CODES
        assert INTERNAL_ERROR_PREFIX not in verdict.error.message, verdict.error.message
        assert verdict.error.path == "" or verdict.error.path.startswith("/")


def _paths(value: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [prefix]
    if isinstance(value, dict):
        for key, item in value.items():
            out += _paths(item, (*prefix, key))
    elif isinstance(value, list):
        for i, item in enumerate(value):
            out += _paths(item, (*prefix, i))
    return out


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.dictionaries(st.sampled_from(["variant", "players", "setup", "deals", "result", "meta"]), json_values)
)
def test_taki_fuzz_any_envelope(parts: dict[str, Any]) -> None:
    doc = {"format": "game-record/1", "game": "taki", **parts}
    _assert_verdict(verify_document(doc, file="fuzz"))


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_taki_fuzz_mutated_records(data: st.DataObject) -> None:
    base = data.draw(st.sampled_from(BASES))
    doc = copy.deepcopy(base)
    for _ in range(data.draw(st.integers(1, 3))):
        paths = [p for p in _paths(doc) if p and p[0] not in ("format", "game", "x_expect", "comment")]
        if not paths:
            break
        target = data.draw(st.sampled_from(paths))
        parent = doc
        for key in target[:-1]:
            parent = parent[key]
        parent[target[-1]] = data.draw(json_values)
    _assert_verdict(verify_document(doc, file="fuzz"))


@settings(max_examples=100, deadline=None)
@given(st.binary(max_size=200))
def test_taki_fuzz_bytes(data: bytes) -> None:
    _assert_verdict(verify_bytes(b'{"format":"game-record/1","game":"taki",' + data, file="fuzz"))
