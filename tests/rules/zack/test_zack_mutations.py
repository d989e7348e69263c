"""Mutations of valid random ZACK! records: each gets the right code at the right path, never a crash."""

from __future__ import annotations

import copy
import random
from typing import Any

import pytest

from rules.core.pointer import is_within
from rules.core.replay import INTERNAL_ERROR_PREFIX, verify_document
from rules.core.verdict import Verdict
from rules.zack import ENGINE
from rules.zack.actions import parse_event
from rules.zack.game import parse_variant
from rules.zack.state import ZackState

SEEDS = range(25)
EVENTS = "/deals/0/events"


def _record(seed: int) -> dict[str, Any]:
    variant: dict[str, Any] = {"seats": 3 + seed % 4, "stop_cards": seed % 2 == 0}
    return ENGINE.random_record(variant, random.Random(seed))


def _states_before(record: dict[str, Any]) -> list[ZackState]:
    """The position before each event."""
    variant = parse_variant(record["variant"])
    deal = record["deals"][0]
    state = ZackState(
        variant, colours=variant.colours, stacks=deal["stacks"], obliged=(deal["dealer"] + 1) % variant.seats
    )
    out = []
    for raw in deal["events"]:
        out.append(state.clone())
        state.apply(parse_event(raw, "", state.n))
    return out


def _invalid(doc: dict[str, Any]) -> Verdict:
    verdict = verify_document(doc)
    assert not verdict.valid, "the mutation must be caught"
    assert verdict.error is not None
    assert not verdict.error.message.startswith(INTERNAL_ERROR_PREFIX), verdict.error.message
    return verdict


def _expect(doc: dict[str, Any], code: str, path: str) -> None:
    verdict = _invalid(doc)
    assert verdict.error is not None
    assert verdict.error.code.value == code, verdict.to_json()
    assert is_within(verdict.error.path, path), verdict.to_json()


@pytest.mark.parametrize("seed", SEEDS)
def test_change_one_card(seed: int) -> None:
    record = _record(seed)
    rng = random.Random(seed)
    events = record["deals"][0]["events"]
    throws = [k for k, e in enumerate(events) if e["event"] == "throw"]
    k = rng.choice(throws)
    doc = copy.deepcopy(record)
    card = doc["deals"][0]["events"][k]["card"]
    doc["deals"][0]["events"][k]["card"] = "left" if card != "left" else "right"
    _expect(doc, "deck_mismatch", f"{EVENTS}/{k}/card")


@pytest.mark.parametrize("seed", SEEDS)
def test_change_one_seat(seed: int) -> None:
    """Another seat throwing: its own top card differs (deck_mismatch) or its stack is empty."""
    record = _record(seed)
    before = _states_before(record)
    events = record["deals"][0]["events"]
    rng = random.Random(seed)
    candidates = []
    for k, e in enumerate(events):
        if e["event"] != "throw":
            continue
        for seat in range(before[k].n):
            stack = before[k].stacks[seat]
            if seat != e["seat"] and (not stack or stack[0] != e["card"]):
                candidates.append((k, seat))
    k, seat = rng.choice(candidates)
    doc = copy.deepcopy(record)
    doc["deals"][0]["events"][k]["seat"] = seat
    if before[k].stacks[seat]:
        _expect(doc, "deck_mismatch", f"{EVENTS}/{k}/card")
    else:
        _expect(doc, "illegal_move", f"{EVENTS}/{k}")


@pytest.mark.parametrize("seed", SEEDS)
def test_challenge_by_the_obliged_seat(seed: int) -> None:
    record = _record(seed)
    before = _states_before(record)
    events = record["deals"][0]["events"]
    challenges = [k for k, e in enumerate(events) if e["event"] == "challenge"]
    if not challenges:
        pytest.skip("no challenge in this game")
    k = challenges[0]
    obliged = before[k].obliged
    doc = copy.deepcopy(record)
    doc["deals"][0]["events"][k]["seat"] = obliged
    _expect(doc, "illegal_move", f"{EVENTS}/{k}")


@pytest.mark.parametrize("seed", SEEDS)
def test_drop_the_winning_player_card(seed: int) -> None:
    doc = _record(seed)
    doc["deals"][0]["events"].pop()
    _expect(doc, "result_mismatch", "/result")


@pytest.mark.parametrize("seed", SEEDS)
def test_drop_a_throw_of_the_winner(seed: int) -> None:
    """The winner's stack then holds a card it never throws: its player card does not win."""
    record = _record(seed)
    winner = record["result"]["winners"][0]
    events = record["deals"][0]["events"]
    throws = [
        k for k, e in enumerate(events) if e["event"] == "throw" and e["seat"] == winner and "after" not in e
    ]
    if not throws:
        pytest.skip("the winner never threw")
    k = throws[-1]
    doc = copy.deepcopy(record)
    del doc["deals"][0]["events"][k]
    verdict = _invalid(doc)
    assert verdict.error is not None
    assert verdict.error.code.value in {
        "deck_mismatch",
        "result_mismatch",
        "illegal_move",
        "card_not_in_hand",
    }
    if verdict.error.path.startswith(EVENTS + "/"):
        assert int(verdict.error.path.split("/")[4]) >= k


@pytest.mark.parametrize("seed", SEEDS)
def test_claim_a_wrong_winner(seed: int) -> None:
    doc = _record(seed)
    n = doc["variant"]["seats"]
    doc["result"]["winners"] = [(doc["result"]["winners"][0] + 1) % n]
    _expect(doc, "result_mismatch", "/result/winners")


@pytest.mark.parametrize("seed", SEEDS)
def test_event_after_the_end(seed: int) -> None:
    doc = _record(seed)
    events = doc["deals"][0]["events"]
    events.append(copy.deepcopy(events[0]))
    _expect(doc, "game_already_over", f"{EVENTS}/{len(events) - 1}")


@pytest.mark.parametrize("seed", SEEDS)
def test_challenge_with_own_colour(seed: int) -> None:
    record = _record(seed)
    before = _states_before(record)
    events = record["deals"][0]["events"]
    challenges = [k for k, e in enumerate(events) if e["event"] == "challenge"]
    if not challenges:
        pytest.skip("no challenge in this game")
    k = challenges[-1]
    doc = copy.deepcopy(record)
    event = doc["deals"][0]["events"][k]
    event["color"] = before[k].colours[event["seat"]]
    _expect(doc, "illegal_move", f"{EVENTS}/{k}/color")


@pytest.mark.parametrize("seed", [s for s in SEEDS if s % 2 == 0])
def test_choose_a_colour_out_of_play(seed: int) -> None:
    record = _record(seed)
    events = record["deals"][0]["events"]
    chosen = [k for k, e in enumerate(events) if "choose" in e]
    if not chosen:
        pytest.skip("no Farbe wählen in this game")
    k = chosen[0]
    doc = copy.deepcopy(record)
    doc["deals"][0]["events"][k]["choose"] = "violet" if doc["variant"]["seats"] < 6 else "pink"
    _expect(doc, "illegal_move", f"{EVENTS}/{k}/choose")
