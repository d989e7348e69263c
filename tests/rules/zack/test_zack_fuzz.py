"""Fuzzing the ZACK! reader: any JSON, and mutated records, get a verdict with a listed code, never a crash."""

from __future__ import annotations

import copy
import json
import random
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules.core.errors import ErrorCode
from rules.core.replay import INTERNAL_ERROR_PREFIX, verify_bytes, verify_document
from rules.zack import ENGINE

CODES = {code.value for code in ErrorCode}
BASE = ENGINE.random_record({"seats": 4, "stop_cards": True}, random.Random(3))

json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-3, 8)
    | st.floats(allow_nan=False)
    | st.sampled_from(
        [
            "red",
            "blue",
            "green",
            "yellow",
            "violet",
            "again",
            "back",
            "stop_choose",
            "throw",
            "challenge",
            "player_card",
            "slow",
            "out_of_turn",
            "right",
            "x",
        ]
    ),
    lambda children: (
        st.lists(children, max_size=4)
        | st.dictionaries(
            st.sampled_from(
                [
                    "seat",
                    "event",
                    "card",
                    "color",
                    "reason",
                    "after",
                    "order",
                    "choose",
                    "accused",
                    "stacks",
                    "dealer",
                    "events",
                    "bowl",
                    "to_move",
                    "colors",
                    "t",
                    "x_note",
                ]
            ),
            children,
            max_size=5,
        )
    ),
    max_leaves=20,
)


def _check(doc: Any) -> None:
    verdict = verify_document(doc)
    if verdict.error is not None:
        assert verdict.error.code.value in CODES
        assert not verdict.error.message.startswith(INTERNAL_ERROR_PREFIX), verdict.error.message
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


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_mutated_records_never_crash(data: st.DataObject) -> None:
    doc = copy.deepcopy(BASE)
    for _ in range(data.draw(st.integers(1, 3))):
        paths = [p for p in _paths(doc) if p]
        path = data.draw(st.sampled_from(paths))
        parent: Any = doc
        for part in path[:-1]:
            parent = parent[part]
        if data.draw(st.booleans()) and isinstance(parent, dict):
            del parent[path[-1]]
        else:
            parent[path[-1]] = data.draw(json_values)
    _check(doc)


@settings(max_examples=300, deadline=None)
@given(st.lists(json_values, max_size=6), json_values, json_values)
def test_any_events_never_crash(events: list[Any], setup: Any, variant: Any) -> None:
    doc = copy.deepcopy(BASE)
    doc["deals"][0]["events"] = events
    _check(doc)
    doc2 = copy.deepcopy(BASE)
    doc2["setup"] = setup
    doc2["deals"] = [{"events": events}]
    _check(doc2)
    doc3 = copy.deepcopy(BASE)
    doc3["variant"] = variant
    _check(doc3)


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=200) | st.text(max_size=200).map(str.encode))
def test_any_bytes_never_crash(data: bytes) -> None:
    verdict = verify_bytes(data)
    assert verdict.error is None or verdict.error.code.value in CODES


def test_base_record_is_valid() -> None:
    assert verify_bytes(json.dumps(BASE)).complete
