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
