"""Replay every record of the Tac-Tik golden corpus and compare with its stated `x_expect`."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from rules.core.pointer import is_within
from rules.core.replay import verify_bytes

CORPUS = Path(__file__).resolve().parents[1] / "records" / "tactik"
FILES = sorted(CORPUS.glob("*.json"))


def test_corpus_is_there() -> None:
    assert len(FILES) >= 80
    names = {f.stem for f in FILES}
    # every rule of the brief has a valid record and an invalid twin
    for valid, invalid in [
        ("enter_with_1", "enter_with_2_illegal"),
        ("pass_ordinary_marble", "pass_pieu_illegal"),
        ("capture_ordinary_marble", "capture_pieu_illegal"),
        ("back4_pieu_then_enters_base", "back4_into_base_illegal"),
        ("permute_own_with_other", "permute_other_pieu_illegal"),
        ("seven_split_captures_path", "seven_split_two_colours_illegal"),
        ("base_exact_entry", "base_too_long_illegal"),
        ("base_push_deep", "base_pass_base_marble_illegal"),
        ("enter_captures_on_start", "enter_onto_own_pieu_illegal"),
        ("partner_phase_moves_partner", "partner_marble_too_early_illegal"),
        ("team_win", "team_win_wrong_winners"),
        ("deals_two_full", "exchange_missing"),
        ("discard_when_nothing_plays", "discard_despite_move_must_play"),
        ("six_seats_team_win", "six_seats_wrong_team"),
    ]:
        assert valid in names and invalid in names


@pytest.mark.parametrize("path", FILES, ids=[f.stem for f in FILES])
def test_corpus_record(path: Path) -> None:
    data = path.read_bytes()
    doc: dict[str, Any] = json.loads(data)
    expect = doc["x_expect"]
    assert isinstance(doc.get("comment"), str) and doc["comment"]
    verdict = verify_bytes(data, file=path.name)
    if expect["valid"]:
        assert verdict.valid, verdict.to_json()
        assert verdict.complete == expect["complete"], verdict.to_json()
    else:
        assert not verdict.valid, f"{path.name} should be invalid"
        assert verdict.error is not None
        assert verdict.error.code.value == expect["code"], verdict.to_json()
        assert is_within(verdict.error.path, expect["path"]), verdict.to_json()
