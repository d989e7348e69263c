"""The golden corpus: every record in tests/rules/records/tac carries its expected verdict in x_expect."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rules.core.pointer import is_within
from rules.core.replay import verify_bytes

CORPUS = Path(__file__).resolve().parents[1] / "records" / "tac"
FILES = sorted(CORPUS.glob("*.json"))


def test_corpus_is_there() -> None:
    assert len(FILES) >= 100


@pytest.mark.parametrize("path", FILES, ids=[p.stem for p in FILES])
def test_tac_corpus_record(path: Path) -> None:
    data = path.read_bytes()
    expect = json.loads(data)["x_expect"]
    verdict = verify_bytes(data, file=path.name)
    if expect["valid"]:
        assert verdict.valid, verdict.text_line()
        assert verdict.complete == expect["complete"], verdict.text_line()
    else:
        assert not verdict.valid, f"expected {expect['code']} at {expect['path']}"
        assert verdict.error is not None
        assert verdict.error.code.value == expect["code"], verdict.text_line()
        assert is_within(verdict.error.path, expect["path"]), verdict.text_line()
