"""Mutations of valid random records: one card, one target, one seat, a dropped turn, a wrong winner.
Each gives an invalid verdict with the right code at the right path, never a crash."""

from __future__ import annotations

import copy
import random
from collections.abc import Iterator
from typing import Any

import pytest

from rules.core.pointer import is_within
from rules.core.replay import INTERNAL_ERROR_PREFIX, verify_document
from rules.tock import ENGINE
from rules.tock.cards import RANKS
from rules.tock.game import parse_variant
from rules.tock.state import make_board

VARIANTS: list[dict[str, Any]] = [
    {"seats": 2},
    {"seats": 4, "mode": "teams"},
    {"seats": 3, "seven": "single"},
]


def records() -> Iterator[tuple[str, dict[str, Any]]]:
    for v in VARIANTS:
        for seed in range(2):
            yield f"{v}-{seed}", ENGINE.random_record(v, random.Random(seed))


RECORDS = list(records())


def n_seats(doc: dict[str, Any]) -> int:
    return len(doc["players"])


def turn_slots(doc: dict[str, Any]) -> list[tuple[int, int]]:
    return [(i, j) for i, deal in enumerate(doc["deals"]) for j in range(len(deal["turns"]))]


def hand_before(doc: dict[str, Any], deal_i: int, turn_j: int, seat: int) -> list[str]:
    """The cards `seat` holds just before turn j of deal i (dealt, exchanged, minus played)."""
    deal = doc["deals"][deal_i]
    hand = list(deal["hands"][seat])
    if "exchange" in deal:
        n = len(deal["hands"])
        hand.remove(deal["exchange"][seat])
        hand.append(deal["exchange"][(seat + n // 2) % n])
    for turn in deal["turns"][:turn_j]:
        if turn["seat"] == seat:
            hand.remove(turn["card"])
    return hand


def verdict_of(doc: dict[str, Any]) -> tuple[str, str]:
    verdict = verify_document(doc, file="mutant")
    assert not verdict.valid, "the mutant must be invalid"
    assert verdict.error is not None
    assert not verdict.error.message.startswith(INTERNAL_ERROR_PREFIX), verdict.error.message
    assert verdict.complete is False and verdict.result is None
    return verdict.error.code.value, verdict.error.path


@pytest.mark.parametrize(("name", "doc"), RECORDS, ids=[n for n, _ in RECORDS])
def test_tock_mutant_card_not_held(name: str, doc: dict[str, Any]) -> None:
    rng = random.Random(name)
    for i, j in rng.sample(turn_slots(doc), 15):
        turn = doc["deals"][i]["turns"][j]
        held = hand_before(doc, i, j, turn["seat"])
        missing = [r for r in RANKS if r not in held]
        if not missing:
            continue
        mutant = copy.deepcopy(doc)
        mutant["deals"][i]["turns"][j]["card"] = rng.choice(missing)
        assert verdict_of(mutant) == ("card_not_in_hand", f"/deals/{i}/turns/{j}")


@pytest.mark.parametrize(("name", "doc"), RECORDS, ids=[n for n, _ in RECORDS])
def test_tock_mutant_target_moved(name: str, doc: dict[str, Any]) -> None:
    rng = random.Random(name)
    board = make_board(parse_variant(doc["variant"]))
    tried = 0
    for i, j in rng.sample(turn_slots(doc), len(turn_slots(doc))):
        turn = doc["deals"][i]["turns"][j]
        if "moves" not in turn or (turn["card"] == "7" and doc["variant"]["seven"] == "single"):
            continue
        k = rng.randrange(len(turn["moves"]))
        to = board.parse(turn["moves"][k][1], "/")
        if board.is_home(to):
            continue
        mutant = copy.deepcopy(doc)
        mutant["deals"][i]["turns"][j]["moves"][k][1] = (to + 1) % board.ring
        code, path = verdict_of(mutant)
        assert code == "illegal_move"
        assert is_within(path, f"/deals/{i}/turns/{j}")
        tried += 1
        if tried == 15:
            break
    assert tried


@pytest.mark.parametrize(("name", "doc"), RECORDS, ids=[n for n, _ in RECORDS])
def test_tock_mutant_seat_changed(name: str, doc: dict[str, Any]) -> None:
    rng = random.Random(name)
    n = len(doc["players"])
    for i, j in rng.sample(turn_slots(doc), 15):
        mutant = copy.deepcopy(doc)
        turn = mutant["deals"][i]["turns"][j]
        turn["seat"] = (turn["seat"] + rng.randrange(1, n)) % n
        assert verdict_of(mutant) == ("wrong_seat", f"/deals/{i}/turns/{j}")


@pytest.mark.parametrize(("name", "doc"), RECORDS, ids=[n for n, _ in RECORDS])
def test_tock_mutant_turn_dropped(name: str, doc: dict[str, Any]) -> None:
    rng = random.Random(name)
    for i, j in rng.sample(turn_slots(doc), 15):
        turns = doc["deals"][i]["turns"]
        mutant = copy.deepcopy(doc)
        del mutant["deals"][i]["turns"][j]
        if j < len(turns) - 1:
            assert verdict_of(mutant) == ("wrong_seat", f"/deals/{i}/turns/{j}")
        elif i < len(doc["deals"]) - 1:
            assert verdict_of(mutant) == ("missing_action", f"/deals/{i}/turns")
        else:
            assert verdict_of(mutant)[0] == "result_mismatch"


@pytest.mark.parametrize(("name", "doc"), RECORDS, ids=[n for n, _ in RECORDS])
def test_tock_mutant_wrong_winner(name: str, doc: dict[str, Any]) -> None:
    n = len(doc["players"])
    mutant = copy.deepcopy(doc)
    winners = doc["result"]["winners"]
    mutant["result"]["winners"] = [(w + 1) % n for w in winners]
    code, path = verdict_of(mutant)
    assert code == "result_mismatch" and is_within(path, "/result")


@pytest.mark.parametrize(("name", "doc"), RECORDS, ids=[n for n, _ in RECORDS])
def test_tock_mutant_dealt_card_changed(name: str, doc: dict[str, Any]) -> None:
    """A changed dealt card (in a deal played out) breaks the deck, the hand or a later turn: never valid."""
    rng = random.Random(name)
    for _ in range(10):
        mutant = copy.deepcopy(doc)
        i = rng.randrange(len(doc["deals"]) - 1)
        hand = mutant["deals"][i]["hands"][rng.randrange(n_seats(doc))]
        k = rng.randrange(len(hand))
        hand[k] = rng.choice([r for r in RANKS if r != hand[k]])
        code, path = verdict_of(mutant)
        assert path.startswith(f"/deals/{i}") or path.startswith("/deals/") and int(path.split("/")[2]) >= i
        assert code in {
            "deck_mismatch",
            "card_not_in_hand",
            "bad_exchange",
            "must_play",
            "illegal_move",
            "missing_action",
        }
