"""Mutations of valid records: one card, one target, one seat, a dropped turn, a wrong winner.

The expected verdict of each mutation is derived from the record itself (who holds what, whose turn
it is), never from the engine's verdict on the mutant.
"""

from __future__ import annotations

import copy
import random
from typing import Any

import pytest

from rules.core.pointer import is_within
from rules.core.replay import verify_document
from rules.tactik import ENGINE
from rules.tactik.cards import CARDS, FORWARD_STEPS

RECORDS = [
    ENGINE.random_record({"seats": 6} if seed == 2 else {}, random.Random(100 + seed)) for seed in range(3)
]


def hands_before_each_turn(record: dict[str, Any]) -> list[tuple[int, int, list[str]]]:
    """(deal, turn, hand of the seat before its card) for every turn, from dealt hands and exchange."""
    n = len(record["players"])
    half = n // 2
    out = []
    for i, deal in enumerate(record["deals"]):
        hands = [list(h) for h in deal["hands"]]
        given = deal["exchange"]
        for s in range(n):
            hands[s].remove(given[s])
            hands[s].append(given[(s + half) % n])
        for j, turn in enumerate(deal["turns"]):
            out.append((i, j, list(hands[turn["seat"]])))
            hands[turn["seat"]].remove(turn["card"])
    return out


def expect_invalid(doc: dict[str, Any], code: str, path: str) -> None:
    verdict = verify_document(doc)
    assert not verdict.valid, f"mutation at {path} went unnoticed"
    assert verdict.error is not None
    assert (verdict.error.code.value, True) == (code, is_within(verdict.error.path, path)), verdict.to_json()


@pytest.mark.parametrize("record", RECORDS)
def test_card_not_held(record: dict[str, Any]) -> None:
    rng = random.Random(1)
    turns = hands_before_each_turn(record)
    for i, j, hand in rng.sample(turns, 20):
        foreign = [c for c in CARDS if c not in hand]
        if not foreign:
            continue
        doc = copy.deepcopy(record)
        doc["deals"][i]["turns"][j]["card"] = rng.choice(foreign)
        expect_invalid(doc, "card_not_in_hand", f"/deals/{i}/turns/{j}")


@pytest.mark.parametrize("record", RECORDS)
def test_target_off_by_one(record: dict[str, Any]) -> None:
    ring = 16 * len(record["players"])
    tried = 0
    for i, deal in enumerate(record["deals"]):
        for j, turn in enumerate(deal["turns"]):
            moves = turn.get("moves")
            if turn["card"] in FORWARD_STEPS or turn["card"] == "-4":
                assert moves is not None or "enter" in turn or "discard" in turn
            if not moves or turn["card"] == "7x1" or not isinstance(moves[0][1], int) or tried >= 20:
                continue
            doc = copy.deepcopy(record)
            doc["deals"][i]["turns"][j]["moves"][0][1] = (moves[0][1] + 1) % ring
            expect_invalid(doc, "illegal_move", f"/deals/{i}/turns/{j}")
            tried += 1
    assert tried > 10


@pytest.mark.parametrize("record", RECORDS)
def test_seven_split_one_step_short(record: dict[str, Any]) -> None:
    ring = 16 * len(record["players"])
    tried = 0
    for i, deal in enumerate(record["deals"]):
        for j, turn in enumerate(deal["turns"]):
            if turn["card"] != "7x1" or "moves" not in turn or tried >= 15:
                continue
            frm, to = turn["moves"][-1]
            if not isinstance(to, int) or not isinstance(frm, int) or (to - frm) % ring < 2:
                continue
            doc = copy.deepcopy(record)
            doc["deals"][i]["turns"][j]["moves"][-1][1] = (to - 1) % ring
            expect_invalid(doc, "illegal_move", f"/deals/{i}/turns/{j}")
            tried += 1
    assert tried > 0


@pytest.mark.parametrize("record", RECORDS)
def test_wrong_seat(record: dict[str, Any]) -> None:
    n = len(record["players"])
    rng = random.Random(2)
    for i, j, _ in rng.sample(hands_before_each_turn(record), 20):
        doc = copy.deepcopy(record)
        turn = doc["deals"][i]["turns"][j]
        turn["seat"] = (turn["seat"] + rng.randrange(1, n)) % n
        expect_invalid(doc, "wrong_seat", f"/deals/{i}/turns/{j}")


@pytest.mark.parametrize("record", RECORDS)
def test_dropped_turn(record: dict[str, Any]) -> None:
    rng = random.Random(3)
    deals = record["deals"]
    for i, j, _ in rng.sample(hands_before_each_turn(record), 20):
        doc = copy.deepcopy(record)
        del doc["deals"][i]["turns"][j]
        last_of_deal = j == len(deals[i]["turns"]) - 1
        if not last_of_deal:
            expect_invalid(doc, "wrong_seat", f"/deals/{i}/turns/{j}")
        elif i < len(deals) - 1:
            expect_invalid(doc, "missing_action", f"/deals/{i}/turns")
        else:
            expect_invalid(doc, "result_mismatch", "/result")


@pytest.mark.parametrize("record", RECORDS)
def test_dropped_winning_turn(record: dict[str, Any]) -> None:
    doc = copy.deepcopy(record)
    doc["deals"][-1]["turns"].pop()
    if not doc["deals"][-1]["turns"]:
        doc["deals"].pop()
    expect_invalid(doc, "result_mismatch", "/result")
    del doc["result"]
    verdict = verify_document(doc)
    assert verdict.valid and not verdict.complete


@pytest.mark.parametrize("record", RECORDS)
def test_wrong_winner(record: dict[str, Any]) -> None:
    n = len(record["players"])
    doc = copy.deepcopy(record)
    doc["result"]["winners"] = [(s + 1) % n for s in record["result"]["winners"]]
    expect_invalid(doc, "result_mismatch", "/result")


@pytest.mark.parametrize("record", RECORDS)
def test_exchange_and_hand_mutations(record: dict[str, Any]) -> None:
    n = len(record["players"])
    for i in (0, len(record["deals"]) // 2):
        deal = record["deals"][i]
        for s in range(n):
            absent = [c for c in CARDS if c not in deal["hands"][s]]
            doc = copy.deepcopy(record)
            doc["deals"][i]["exchange"][s] = absent[0]
            expect_invalid(doc, "bad_exchange", f"/deals/{i}/exchange/{s}")
        doc = copy.deepcopy(record)
        doc["deals"][i]["hands"][1].append("1")
        expect_invalid(doc, "deck_mismatch", f"/deals/{i}/hands/1")


def test_exchange_follows_the_teams_variant() -> None:
    """A 6-seat game with neighbours as partners, replayed under the default opposite partners: the
    exchanged cards land elsewhere, so the first turn playing a card its seat would not hold fails."""
    teams = [[0, 1], [2, 3], [4, 5]]
    record = ENGINE.random_record({"seats": 6, "teams": teams}, random.Random(21))
    assert verify_document(record).complete
    doc = copy.deepcopy(record)
    doc["variant"] = {"seats": 6}
    for i, deal in enumerate(record["deals"]):
        hands = [list(h) for h in deal["hands"]]
        for s in range(6):
            hands[s].remove(deal["exchange"][s])
            hands[s].append(deal["exchange"][(s + 3) % 6])
        for j, turn in enumerate(deal["turns"]):
            if turn["card"] not in hands[turn["seat"]]:
                expect_invalid(doc, "card_not_in_hand", f"/deals/{i}/turns/{j}")
                return
            hands[turn["seat"]].remove(turn["card"])
    raise AssertionError("the two partner mappings never diverged")
