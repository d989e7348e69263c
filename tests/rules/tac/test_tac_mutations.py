"""Mutations of valid records give the right error code at the right place, never a crash."""

from __future__ import annotations

import copy
import json
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules.core.errors import ErrorCode
from rules.core.pointer import is_within
from rules.core.replay import verify_bytes, verify_document
from rules.tac import ENGINE

CODES = {code.value for code in ErrorCode}


def _records() -> list[dict[str, Any]]:
    out = []
    for seed, variant in enumerate([{}, {"master": True}, {"mode": "2v1", "master": True}, {"mode": "ffa3"}]):
        out.append(ENGINE.random_record(variant, random.Random(300 + seed)))
    return out


RECORDS = _records()


def verdict_of(doc: Any) -> Any:
    return verify_document(json.loads(json.dumps(doc)), file="m")


def turn_slots(doc: dict[str, Any]) -> list[tuple[int, int]]:
    return [(i, j) for i, deal in enumerate(doc["deals"]) for j in range(len(deal["turns"]))]


@pytest.mark.parametrize("n", range(len(RECORDS)))
def test_tac_unknown_card(n: int) -> None:
    rng = random.Random(n)
    for _ in range(10):
        doc = copy.deepcopy(RECORDS[n])
        i, j = rng.choice(turn_slots(doc))
        doc["deals"][i]["turns"][j]["card"] = "joker"
        v = verdict_of(doc)
        assert not v.valid and v.error.code is ErrorCode.UNKNOWN_CARD
        assert v.error.path == f"/deals/{i}/turns/{j}/card"


@pytest.mark.parametrize("n", range(len(RECORDS)))
def test_tac_other_card(n: int) -> None:
    """Another card than the one played: not held, cannot do that, or a refused discard."""
    rng = random.Random(n)
    cards = ["1", "2", "3", "4", "5", "6", "7", "8", "9", "10", "12", "13", "trickser"]
    for _ in range(15):
        doc = copy.deepcopy(RECORDS[n])
        i, j = rng.choice(turn_slots(doc))
        turn = doc["deals"][i]["turns"][j]
        if turn["card"] == "tac" or "moves" not in turn:
            continue
        turn["card"] = rng.choice([c for c in cards if c != turn["card"] and c != "7"])
        v = verdict_of(doc)
        assert not v.valid
        assert v.error.code in (ErrorCode.CARD_NOT_IN_HAND, ErrorCode.ILLEGAL_MOVE)
        assert is_within(v.error.path, f"/deals/{i}/turns/{j}")


@pytest.mark.parametrize("n", range(len(RECORDS)))
def test_tac_other_seat(n: int) -> None:
    rng = random.Random(n)
    active = [0, 1, 2] if RECORDS[n]["variant"].get("mode") in ("ffa3", "2v1") else [0, 1, 2, 3]
    for _ in range(10):
        doc = copy.deepcopy(RECORDS[n])
        i, j = rng.choice(turn_slots(doc))
        turn = doc["deals"][i]["turns"][j]
        turn["seat"] = rng.choice([s for s in active if s != turn["seat"]])
        v = verdict_of(doc)
        assert not v.valid and v.error.code is ErrorCode.WRONG_SEAT
        assert v.error.path == f"/deals/{i}/turns/{j}/seat"


@pytest.mark.parametrize("n", range(len(RECORDS)))
def test_tac_other_field(n: int) -> None:
    rng = random.Random(n)
    for _ in range(15):
        doc = copy.deepcopy(RECORDS[n])
        i, j = rng.choice(turn_slots(doc))
        turn = doc["deals"][i]["turns"][j]
        if "moves" not in turn or not isinstance(turn["moves"][0][1], int):
            continue
        turn["moves"][0][1] = (turn["moves"][0][1] + rng.choice([1, 2, 3, 61, 62, 63])) % 64
        v = verdict_of(doc)
        assert not v.valid
        assert v.error.code is ErrorCode.ILLEGAL_MOVE
        assert is_within(v.error.path, f"/deals/{i}/turns/{j}")


@pytest.mark.parametrize("n", range(len(RECORDS)))
def test_tac_dropped_turn(n: int) -> None:
    rng = random.Random(n)
    for _ in range(10):
        doc = copy.deepcopy(RECORDS[n])
        i, j = rng.choice(turn_slots(doc))
        del doc["deals"][i]["turns"][j]
        v = verdict_of(doc)
        assert not v.valid
        assert v.error.code in (
            ErrorCode.WRONG_SEAT,
            ErrorCode.CARD_NOT_IN_HAND,
            ErrorCode.ILLEGAL_MOVE,
            ErrorCode.MUST_PLAY,
            ErrorCode.MISSING_ACTION,
            ErrorCode.RESULT_MISMATCH,
        )
        path = v.error.path
        if path.startswith(f"/deals/{i}/turns/"):
            assert int(path.split("/")[4]) >= j


@pytest.mark.parametrize("n", range(len(RECORDS)))
def test_tac_wrong_winner(n: int) -> None:
    doc = copy.deepcopy(RECORDS[n])
    winners = doc["result"]["winners"]
    doc["result"]["winners"] = [s for s in (0, 1, 2) if s not in winners][:1]
    v = verdict_of(doc)
    assert not v.valid and v.error.code is ErrorCode.RESULT_MISMATCH
    assert is_within(v.error.path, "/result")


def test_tac_valid_records_stay_valid() -> None:
    for doc in RECORDS:
        assert verdict_of(doc).complete


json_values = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-3, 100)
    | st.text(max_size=6)
    | st.sampled_from(["tac", "7", "H0:1", "H9:9", "narr"]),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=6), children, max_size=4)
    ),
    max_leaves=20,
)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(json_values)
def test_tac_fuzz_any_json(value: Any) -> None:
    doc = {"format": "game-record/1", "game": "tac", "players": value, "deals": value}
    v = verdict_of(doc)
    assert v.error is not None and v.error.code.value in CODES
    assert "Internal error" not in v.error.message


KEYS = [
    "seat",
    "card",
    "moves",
    "enter",
    "swap",
    "skip",
    "strike",
    "discard",
    "then",
    "as",
    "hands",
    "exchange",
    "announce",
    "dealer",
    "turns",
    "setup",
    "variant",
    "result",
    "marbles",
]


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_tac_fuzz_mutated_records(data: st.DataObject) -> None:
    doc = copy.deepcopy(RECORDS[data.draw(st.integers(0, len(RECORDS) - 1))])
    for _ in range(data.draw(st.integers(1, 3))):
        node: Any = doc
        for _depth in range(data.draw(st.integers(0, 6))):
            if isinstance(node, dict) and node:
                key = data.draw(st.sampled_from(sorted(node)))
                if isinstance(node[key], dict | list) and node[key]:
                    node = node[key]
            elif isinstance(node, list) and node:
                idx = data.draw(st.integers(0, len(node) - 1))
                if isinstance(node[idx], dict | list) and node[idx]:
                    node = node[idx]
        value = data.draw(json_values)
        if isinstance(node, dict):
            node[data.draw(st.sampled_from(KEYS))] = value
        elif isinstance(node, list) and node:
            node[data.draw(st.integers(0, len(node) - 1))] = value
    v = verdict_of(doc)
    if v.error is not None:
        assert v.error.code.value in CODES
        assert "Internal error" not in v.error.message


def test_tac_unreadable_bytes() -> None:
    v = verify_bytes(b"{not json", file="x")
    assert v.error is not None and v.error.code is ErrorCode.UNREADABLE
