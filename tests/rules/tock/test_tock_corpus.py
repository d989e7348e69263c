"""Replay every record of the Tock golden corpus and compare with the verdict written in its x_expect."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from rules.core.pointer import is_within
from rules.core.replay import verify_bytes

CORPUS = Path(__file__).resolve().parents[1] / "records" / "tock"
FILES = sorted(CORPUS.glob("*.json"))


def test_corpus_is_there() -> None:
    assert len(FILES) >= 100
    names = {f.stem for f in FILES}
    assert sum(n.endswith("_valid") for n in names) >= 40
    assert sum(not n.endswith("_valid") for n in names) >= 50


@pytest.mark.parametrize("path", FILES, ids=[f.stem for f in FILES])
def test_tock_corpus_record(path: Path) -> None:
    data = path.read_bytes()
    doc: dict[str, Any] = json.loads(data)
    expect = doc["x_expect"]
    assert isinstance(doc.get("comment"), str) and doc["comment"], "each record quotes the rule it pins"
    verdict = verify_bytes(data, file=path.name)
    if expect["valid"]:
        assert verdict.valid, verdict.error and verdict.error.to_json()
        assert verdict.complete is expect["complete"]
        if expect["complete"]:
            assert verdict.result is not None and sorted(verdict.result["winners"]) == sorted(
                doc["result"]["winners"]
            )
    else:
        assert not verdict.valid, f"expected {expect['code']} at {expect['path']}"
        assert verdict.error is not None
        assert (verdict.error.code.value, verdict.error.path) == (expect["code"], verdict.error.path)
        assert verdict.error.code.value == expect["code"], verdict.error.to_json()
        assert is_within(verdict.error.path, expect["path"]), verdict.error.to_json()
        assert verdict.complete is False


RULE_FAMILIES = {
    "ace/king": ("ace_", "king_", "enter_"),
    "plain cards": ("nine_", "queen_"),
    "four": ("four_",),
    "seven split": (
        "seven_split",
        "seven_captures",
        "seven_segment",
        "seven_moves",
        "seven_passed",
        "seven_past",
    ),
    "seven single": ("seven_single",),
    "ten and ban": ("ten_",),
    "jack": ("jack_",),
    "protection": ("pass_", "protect", "capture_protected", "capture_unprotected", "quick_start"),
    "captures": ("capture_", "captured_", "no_capture", "passed_marble"),
    "goal": ("goal_", "exact_goal", "other_goal", "unprotected_on_start"),
    "must play": ("blockade_", "must_play"),
    "deal sizes": ("two_players", "three_players", "six_players", "variant_five", "fifth_copy"),
    "dealer and turn order": ("dealer_", "turn_order", "deal_unfinished", "card_not_in_hand"),
    "team exchange": ("team_exchange", "ffa_exchange"),
    "partner colour": (
        "team_finished",
        "team_unfinished",
        "team_partner",
        "team_switch",
        "six_teams",
        "team_seven",
    ),
    "end of game": ("ffa_win", "ffa_action", "team_win", "team_not_won", "setup_game_over"),
    "setup": ("setup_",),
    "board parameters": ("offset_", "small_ring"),
}


def test_corpus_has_valid_and_invalid_records_for_every_rule_family() -> None:
    for family, prefixes in RULE_FAMILIES.items():
        members = [f for f in FILES if f.stem.startswith(prefixes)]
        expects = [json.loads(f.read_text(encoding="utf-8"))["x_expect"]["valid"] for f in members]
        assert True in expects and False in expects, family
