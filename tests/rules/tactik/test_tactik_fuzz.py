"""Hypothesis fuzzing of the Tac-Tik reader: any JSON, and mutated records, get a verdict with a listed
code and never an engine crash."""

from __future__ import annotations

import copy
import json
import random
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules.core.errors import ErrorCode
from rules.core.replay import INTERNAL_ERROR_PREFIX, verify_bytes, verify_document
from rules.tactik import ENGINE

CODES = {c.value for c in ErrorCode}
BASE = ENGINE.random_record({}, random.Random(11))
BASE["deals"] = BASE["deals"][:3]
del BASE["result"]
SETUP_BASE: dict[str, Any] = json.loads(
    """{"format": "game-record/1", "game": "tactik",
        "players": [{"name": "a", "seats": [0]}, {"name": "b", "seats": [1]},
                    {"name": "c", "seats": [2]}, {"name": "d", "seats": [3]}],
        "setup": {"dealer": 3, "marbles": [[5, "H0:4"], [16], [40], []], "fresh": [1],
                  "hands": [["7x1", "2"], ["-4", "1"], ["permuter", "10"], ["12", "5"]]},
        "deals": [{"turns": [{"seat": 0, "card": "7x1", "moves": [[5, 12]]},
                             {"seat": 1, "card": "-4", "moves": [[16, 12]]},
                             {"seat": 2, "card": "permuter", "swap": [40, 12]}]}]}"""
)

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-3, 100) | st.sampled_from(["H0:1", "H9:9", "7x1", "1", "x", ""]),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4),
    max_leaves=12,
)


def check(verdict_json: dict[str, Any]) -> None:
    error = verdict_json["error"]
    if error is not None:
        assert error["code"] in CODES
        assert not error["message"].startswith(INTERNAL_ERROR_PREFIX), error


def paths_of(value: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    out = [prefix]
    if isinstance(value, dict):
        for k, v in value.items():
            out.extend(paths_of(v, (*prefix, k)))
    elif isinstance(value, list):
        for i, v in enumerate(value):
            out.extend(paths_of(v, (*prefix, i)))
    return out


def mutate(doc: dict[str, Any], where: int, new: Any) -> dict[str, Any]:
    doc = copy.deepcopy(doc)
    paths = [p for p in paths_of(doc) if p and p[0] not in ("format", "game")]
    target = paths[where % len(paths)]
    parent: Any = doc
    for part in target[:-1]:
        parent = parent[part]
    parent[target[-1]] = new
    return doc


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.dictionaries(st.sampled_from(["variant", "players", "setup", "deals", "result", "x_a"]), json_values)
)
def test_any_json_body(body: dict[str, Any]) -> None:
    doc = {"format": "game-record/1", "game": "tactik", **body}
    check(verify_document(doc).to_json())


@settings(max_examples=300, deadline=None)
@given(st.integers(0, 10**6), json_values)
def test_mutated_record(where: int, new: Any) -> None:
    check(verify_document(mutate(BASE, where, new)).to_json())


@settings(max_examples=300, deadline=None)
@given(st.integers(0, 10**6), json_values)
def test_mutated_setup_record(where: int, new: Any) -> None:
    check(verify_document(mutate(SETUP_BASE, where, new)).to_json())


@settings(max_examples=100, deadline=None)
@given(st.binary(max_size=64))
def test_bytes(data: bytes) -> None:
    check(verify_bytes(data).to_json())


def test_setup_base_is_valid() -> None:
    verdict = verify_document(SETUP_BASE)
    assert verdict.valid, verdict.to_json()
