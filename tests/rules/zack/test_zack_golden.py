"""The ZACK! golden corpus: every file's verdict equals its `x_expect` (a path inside the expected one counts)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from rules.core.pointer import is_within
from rules.core.replay import verify_bytes

RECORDS = Path(__file__).resolve().parents[1] / "records" / "zack"
FILES = sorted(RECORDS.glob("*.json"))


def test_corpus_is_there() -> None:
    assert len(FILES) >= 80


def test_corpus_has_valid_and_invalid_records_with_quotes() -> None:
    docs = [json.loads(f.read_text(encoding="utf-8")) for f in FILES]
    assert sum(1 for d in docs if d["x_expect"]["valid"]) >= 40
    assert sum(1 for d in docs if not d["x_expect"]["valid"]) >= 40
    assert all(d.get("comment") for d in docs)


@pytest.mark.parametrize("path", FILES, ids=[f.stem for f in FILES])
def test_golden_record(path: Path) -> None:
    data = path.read_bytes()
    expect: dict[str, Any] = json.loads(data)["x_expect"]
    verdict = verify_bytes(data, file=path.name)
    got = verdict.to_json()
    if expect["valid"]:
        assert verdict.valid, got
        assert verdict.complete == expect["complete"], got
    else:
        assert not verdict.valid, got
        assert verdict.error is not None
        assert verdict.error.code.value == expect["code"], got
        assert is_within(verdict.error.path, expect["path"]), got
