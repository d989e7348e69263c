"""Mutations of valid TAKI records: each is refused with the right code at the right place, never a crash."""

from __future__ import annotations

import copy
import random
from typing import Any

import pytest

from rules.core.pointer import is_within
from rules.core.replay import INTERNAL_ERROR_PREFIX, verify_document
from rules.taki import ENGINE
from rules.taki.actions import parse_entry
from rules.taki.game import parse_variant
from rules.taki.state import TakiState

SEEDS = range(24)


def _record(seed: int) -> dict[str, Any]:
    seats = 2 + seed % 9
    return ENGINE.random_record({"seats": seats, "tournament": seed % 6 == 5}, random.Random(seed))


RECORDS = {seed: _record(seed) for seed in SEEDS}


def _states_before(record: dict[str, Any]) -> list[TakiState]:
    """The position before each entry."""
    variant = parse_variant(record["variant"], None)
    deal = record["deals"][0]
    state = TakiState.dealt(variant, deal["hands"], deal["lead"], deal["stock"], deal["first"])
    out = []
    for i, raw in enumerate(deal["turns"]):
        out.append(state.clone())
        state.apply_entry(parse_entry(raw, "", variant), f"/{i}")
    return out


def _verdict_error(doc: dict[str, Any]) -> tuple[str, str]:
    verdict = verify_document(doc, file="mutant")
    assert not verdict.valid, "the mutant must be refused"
    assert verdict.error is not None
    assert INTERNAL_ERROR_PREFIX not in verdict.error.message
    return verdict.error.code.value, verdict.error.path


def _turn(i: int) -> str:
    return f"/deals/0/turns/{i}"


@pytest.mark.parametrize("seed", SEEDS)
def test_taki_changed_card_is_not_in_hand(seed: int) -> None:
    record = RECORDS[seed]
    rng = random.Random(seed)
    states = _states_before(record)
    turns = record["deals"][0]["turns"]
    plays = [(i, j) for i, t in enumerate(turns) for j in range(len(t.get("play", [])))]
    for i, j in rng.sample(plays, min(5, len(plays))):
        seat = turns[i]["seat"]
        hand = states[i].hands[seat]
        absent = [
            c for c in states[i].variant.deck.counts if c not in hand and c not in ("color", "supertaki")
        ]
        doc = copy.deepcopy(record)
        doc["deals"][0]["turns"][i]["play"][j] = rng.choice(absent)
        code, path = _verdict_error(doc)
        assert (code, path) == ("card_not_in_hand", f"{_turn(i)}/play/{j}") or (
            j > 0 and is_within(path, _turn(i))
        ), (code, path)


@pytest.mark.parametrize("seed", SEEDS)
def test_taki_changed_seat_is_wrong_seat(seed: int) -> None:
    record = RECORDS[seed]
    rng = random.Random(seed)
    states = _states_before(record)
    turns = record["deals"][0]["turns"]
    candidates = [i for i in range(len(turns)) if states[i].plus3_by is None]
    for i in rng.sample(candidates, min(5, len(candidates))):
        doc = copy.deepcopy(record)
        n = states[i].n
        doc["deals"][0]["turns"][i]["seat"] = (turns[i]["seat"] + rng.randrange(1, n)) % n
        assert _verdict_error(doc) == ("wrong_seat", f"{_turn(i)}/seat")


@pytest.mark.parametrize("seed", SEEDS)
def test_taki_dropped_turn_is_refused(seed: int) -> None:
    record = RECORDS[seed]
    rng = random.Random(seed)
    turns = record["deals"][0]["turns"]
    for i in rng.sample(range(len(turns)), min(5, len(turns))):
        doc = copy.deepcopy(record)
        del doc["deals"][0]["turns"][i]
        code, path = _verdict_error(doc)
        if path.startswith("/deals/0/turns/"):
            assert int(path.split("/")[4]) >= i
        else:
            assert (code, path[:7]) == ("result_mismatch", "/result")


@pytest.mark.parametrize("seed", SEEDS)
def test_taki_wrong_winner_is_result_mismatch(seed: int) -> None:
    doc = copy.deepcopy(RECORDS[seed])
    winner = doc["result"]["winners"][0]
    doc["result"]["winners"] = [(winner + 1) % len(doc["players"])]
    assert _verdict_error(doc) == ("result_mismatch", "/result/winners")
    if "phases" in doc["result"]:
        doc = copy.deepcopy(RECORDS[seed])
        doc["result"]["phases"][0] = 9
        assert _verdict_error(doc) == ("result_mismatch", "/result/phases")


@pytest.mark.parametrize("seed", SEEDS)
def test_taki_false_flags_are_illegal(seed: int) -> None:
    record = RECORDS[seed]
    states = _states_before(record)
    turns = record["deals"][0]["turns"]
    variant = states[0].variant
    for i, entry in enumerate(turns):
        if "play" not in entry or "close" in entry or states[i].plus3_by is not None:
            continue
        trial = states[i].clone()
        trial.apply_entry(parse_entry(entry, "", variant), "")
        if trial.open_taki is None and len(entry["play"]) == 1 and entry["play"][0].split("_")[0] != "taki":
            doc = copy.deepcopy(record)
            doc["deals"][0]["turns"][i]["close"] = True
            assert _verdict_error(doc) == ("illegal_move", f"{_turn(i)}/close")
            break
    for i, entry in enumerate(turns):
        if states[i].plus3_by is not None or "play" not in entry or "last_card" in entry:
            continue
        if len(states[i].hands[entry["seat"]]) - len(entry["play"]) > 1:
            doc = copy.deepcopy(record)
            doc["deals"][0]["turns"][i]["last_card"] = True
            assert _verdict_error(doc) == ("illegal_move", f"{_turn(i)}/last_card")
            break


def test_taki_dropped_reshuffle_and_plus_draw() -> None:
    found_reshuffle = found_plus = False
    for seed, record in RECORDS.items():
        turns = record["deals"][0]["turns"]
        for i, entry in enumerate(turns):
            if "reshuffle" in entry and not found_reshuffle:
                doc = copy.deepcopy(record)
                del doc["deals"][0]["turns"][i]["reshuffle"]
                assert _verdict_error(doc) == ("deck_mismatch", _turn(i)), seed
                doc = copy.deepcopy(record)
                doc["deals"][0]["turns"][i]["reshuffle"].pop()
                assert _verdict_error(doc) == ("deck_mismatch", f"{_turn(i)}/reshuffle"), seed
                found_reshuffle = True
            if "play" in entry and entry.get("draw") and not found_plus:
                doc = copy.deepcopy(record)
                del doc["deals"][0]["turns"][i]["draw"]
                assert _verdict_error(doc) == ("missing_action", f"{_turn(i)}/play"), seed
                found_plus = True
    assert found_reshuffle and found_plus


def test_taki_deal_mutations() -> None:
    record = RECORDS[3]
    doc = copy.deepcopy(record)
    stock = doc["deals"][0]["stock"]
    stock[0] = stock[1] if stock[1] != stock[0] else stock[2]
    code, path = _verdict_error(doc)
    assert code == "deck_mismatch" and path == "/deals/0/stock"
    doc = copy.deepcopy(record)
    doc["deals"][0]["hands"][0].pop()
    assert _verdict_error(doc) == ("deck_mismatch", "/deals/0/hands/0")
    doc = copy.deepcopy(record)
    doc["deals"][0]["lead"] = "plus4"
    assert _verdict_error(doc) == ("unknown_card", "/deals/0/lead")
    doc = copy.deepcopy(record)
    doc["deals"][0]["first"] = 99
    assert _verdict_error(doc) == ("malformed", "/deals/0/first")
