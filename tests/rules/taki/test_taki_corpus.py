"""The TAKI golden corpus: every record's verdict equals its `x_expect`, and the corpus is up to date."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from rules.core.pointer import is_within
from rules.core.replay import verify_document
from tests.rules.taki.taki_corpus_source import CASES, RECORDS

FILES = sorted(RECORDS.glob("*.json"))


def _load(path: Path) -> dict[str, Any]:
    doc: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return doc


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_taki_record_verdict(path: Path) -> None:
    doc = _load(path)
    expect = doc["x_expect"]
    assert isinstance(doc.get("comment"), str) and doc["comment"], "every corpus record quotes its rule"
    verdict = verify_document(doc, file=path.name)
    if expect["valid"]:
        assert verdict.error is None, verdict.error.to_json() if verdict.error else None
        assert verdict.valid
        assert verdict.complete is expect["complete"]
    else:
        assert verdict.error is not None, "expected an invalid record"
        assert verdict.error.code.value == expect["code"], verdict.error.to_json()
        assert is_within(verdict.error.path, expect["path"]), verdict.error.to_json()


def test_taki_corpus_matches_its_source() -> None:
    on_disk = {p.stem: _load(p) for p in FILES}
    assert on_disk == CASES, "regenerate: python -m tests.rules.taki.taki_corpus_source"


def test_taki_corpus_has_valid_and_invalid_twins() -> None:
    expects = [c["x_expect"] for c in CASES.values()]
    valid = sum(1 for e in expects if e["valid"])
    invalid = len(expects) - valid
    assert valid >= 50 and invalid >= 50
    codes = {e["code"] for e in expects if not e["valid"]}
    assert codes >= {
        "malformed", "bad_variant", "bad_setup", "unknown_card", "deck_mismatch", "wrong_seat",
        "card_not_in_hand", "illegal_move", "must_play", "missing_action", "game_already_over",
        "result_mismatch",
    }  # fmt: skip
