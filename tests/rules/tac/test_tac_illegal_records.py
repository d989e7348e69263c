"""Illegal TAC records the corpus did not cover: a 7 taking a marble just entered on its start field
straight into its home, and a Krieger strike or a Trickser swap from the first home field (H0:1,
field 64 inside the engine), each next to the legal record it differs from.

Rule texts: "Eine gerade ins Spiel gebrachte Kugel … darf … nicht direkt ins Haus" (rule decision 1
of the record contract: a fresh marble cannot go into its home until it has moved, whatever the
card); the Trickser swaps two ring marbles and the Krieger strikes from a ring field (spec, Cards).
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from rules.core.errors import ErrorCode
from rules.core.replay import verify_document

T = "/deals/0/turns/"


def record(marbles: list[list[Any]], hands: list[list[str]], turns: list[dict[str, Any]], *,
           fresh: list[int] | None = None, master: bool = False) -> dict[str, Any]:
    setup: dict[str, Any] = {"marbles": marbles, "hands": hands, "dealer": 3}
    if fresh:
        setup["fresh"] = fresh
    doc: dict[str, Any] = {"format": "game-record/1", "game": "tac"}
    if master:
        doc["variant"] = {"master": True}
    doc["players"] = [{"name": f"P{s}", "seats": [s]} for s in range(4)]
    doc["setup"] = setup
    doc["deals"] = [{"turns": turns}]
    return doc


def verdict(doc: dict[str, Any]) -> Any:
    return verify_document(json.loads(json.dumps(doc)), file="t")


def assert_illegal(doc: dict[str, Any], path: str) -> None:
    result = verdict(doc)
    assert not result.valid
    assert (result.error.code, result.error.path) == (ErrorCode.ILLEGAL_MOVE, path)


def seven(*segments: tuple[Any, Any]) -> dict[str, Any]:
    return {"seat": 0, "card": "7", "moves": [list(s) for s in segments]}


def after_entering(*segments: tuple[Any, Any]) -> dict[str, Any]:
    """Seat 0 brings a marble onto its start field 0 with a 13; the others discard; then seat 0's 7."""
    return record(
        [[30], [], [], []],
        [["13", "7"], ["9"], ["9"], ["9"]],
        [
            {"seat": 0, "card": "13", "enter": True},
            {"seat": 1, "card": "9", "discard": True},
            {"seat": 2, "card": "9", "discard": True},
            {"seat": 3, "card": "9", "discard": True},
            seven(*segments),
        ],
    )


def test_a_seven_cannot_take_a_marble_just_entered_straight_into_its_home() -> None:
    # 4 steps from the start field into H0:4 and 3 with the marble on 30: the first segment is illegal
    assert_illegal(after_entering((0, "H0:4"), (30, 33)), T + "4/moves/0")
    assert_illegal(after_entering((30, 33), (0, "H0:4")), T + "4/moves/1")
    assert_illegal(after_entering((30, 34), (0, "H0:3")), T + "4/moves/1")
    # the same marble may move on along the ring, and with 7 whole fields
    assert verdict(after_entering((0, 4), (30, 33))).valid
    assert verdict(after_entering((0, 7))).valid


def test_a_seven_from_a_fresh_start_field_given_in_the_setup_is_refused_too() -> None:
    hands = [["7"], ["9"], ["9"], ["9"]]
    assert_illegal(record([[0, 30], [], [], []], hands, [seven((0, "H0:4"), (30, 33))], fresh=[0]), T + "0/moves/0")
    # not fresh (it has been round the ring): the same 7 is legal
    assert verdict(record([[0, 30], [], [], []], hands, [seven((0, "H0:4"), (30, 33))])).valid


def test_the_krieger_strikes_from_a_ring_field_only() -> None:
    hands = [["krieger"], ["9"], ["9"], ["9"]]
    strike_from_home = [{"seat": 0, "card": "krieger", "strike": "H0:1"}]
    assert_illegal(record([["H0:1", 10], [20], [], []], hands, strike_from_home, master=True), T + "0/strike")
    # from the ring field 10 it takes the next ring marble (20)
    assert verdict(record([["H0:1", 10], [20], [], []], hands, [{"seat": 0, "card": "krieger", "strike": 10}],
                          master=True)).valid


@pytest.mark.parametrize("fields", [["H0:1", 20], [20, "H0:1"], ["H0:1", "H0:2"]])
def test_the_trickser_swaps_ring_marbles_only(fields: list[Any]) -> None:
    hands = [["trickser"], ["9"], ["9"], ["9"]]
    doc = record([["H0:1", "H0:2", 10], [20], [], []], hands, [{"seat": 0, "card": "trickser", "swap": fields}])
    assert_illegal(doc, T + "0/swap")


def test_the_trickser_may_swap_the_last_ring_field_and_the_start_field() -> None:
    hands = [["trickser"], ["9"], ["9"], ["9"]]
    doc = record([[63], [0], [], []], hands, [{"seat": 0, "card": "trickser", "swap": [63, 0]}])
    assert verdict(doc).valid


def test_a_discard_borrows_no_function_and_a_plain_card_moves_one_segment() -> None:
    hands = [["9", "5"], ["9"], ["9"], ["9"]]
    discard_as = record([[], [], [], []], hands, [{"seat": 0, "card": "9", "discard": True, "as": "7"}])
    result = verdict(discard_as)
    assert (result.error.code, result.error.path, result.error.message) == (
        ErrorCode.ILLEGAL_MOVE, T + "0/as", "A discarded card borrows no function.")
    two_segments = record([[10, 20], [], [], []], hands, [{"seat": 0, "card": "5", "moves": [[10, 12], [20, 23]]}])
    result = verdict(two_segments)
    assert (result.error.code, result.error.path, result.error.message) == (
        ErrorCode.ILLEGAL_MOVE, T + "0/moves/1", "Only the 7 may move more than one segment.")
