"""Fuzz the Tock record reader: any JSON, and valid records with one part replaced by any JSON, get a
verdict with a listed code, never an exception or an internal error."""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules.core.errors import ErrorCode
from rules.core.replay import INTERNAL_ERROR_PREFIX, verify_bytes, verify_document
from rules.tock import ENGINE

CODES = {code.value for code in ErrorCode}
CORPUS = Path(__file__).resolve().parents[1] / "records" / "tock"
SEEDS = [json.loads(p.read_text(encoding="utf-8")) for p in sorted(CORPUS.glob("*.json"))[:60]]
SEEDS.append(ENGINE.random_record({"seats": 2}, random.Random(5)))

scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(min_value=-3, max_value=140),
    st.sampled_from(["A", "7", "10", "J", "K", "H0:1", "H3:4", "H9:9", "teams", "split", "single", "x", ""]),
    st.text(max_size=4),
    st.floats(allow_nan=False, allow_infinity=False),
)
any_json = st.recursive(
    scalars,
    lambda inner: st.one_of(
        st.lists(inner, max_size=4),
        st.dictionaries(
            st.sampled_from(
                ["seat", "card", "moves", "enter", "swap", "discard", "turns", "hands", "x_a", "zz"]
            ),
            inner,
            max_size=4,
        ),
    ),
    max_leaves=12,
)


def check(verdict_json: dict[str, Any]) -> None:
    if verdict_json["valid"]:
        assert verdict_json["error"] is None
        return
    error = verdict_json["error"]
    assert error["code"] in CODES
    assert not error["message"].startswith(INTERNAL_ERROR_PREFIX), error["message"]
    assert error["path"] == "" or error["path"].startswith("/")


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(any_json)
def test_tock_any_json_gets_a_verdict(value: Any) -> None:
    doc = {
        "format": "game-record/1",
        "game": "tock",
        "players": [{"name": "a", "seats": [0, 1, 2, 3]}],
        "deals": value,
    }
    check(verify_document(doc, file="fuzz").to_json())
    check(verify_document(value, file="fuzz").to_json())


@settings(max_examples=150, deadline=None)
@given(st.binary(max_size=64))
def test_tock_any_bytes_get_a_verdict(data: bytes) -> None:
    check(verify_bytes(data, file="fuzz").to_json())


def _locations(node: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [path]
    if isinstance(node, dict):
        for key, value in node.items():
            out.extend(_locations(value, (*path, key)))
    elif isinstance(node, list):
        for i, value in enumerate(node):
            out.extend(_locations(value, (*path, i)))
    return out


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.integers(min_value=0, max_value=len(SEEDS) - 1), st.randoms(use_true_random=False), any_json)
def test_tock_mutated_records_get_a_verdict(index: int, rnd: random.Random, value: Any) -> None:
    doc = copy.deepcopy(SEEDS[index])
    locations = [p for p in _locations(doc) if p]
    where = rnd.choice(locations)
    parent = doc
    for part in where[:-1]:
        parent = parent[part]
    parent[where[-1]] = value
    check(verify_document(doc, file="fuzz").to_json())
