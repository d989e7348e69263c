"""The examples in docs/record-notation.md replay as valid records."""

from __future__ import annotations

import json
import re
from pathlib import Path

from rules.core.replay import verify_document

DOC = Path(__file__).resolve().parents[3] / "docs" / "record-notation.md"


def test_tac_notation_examples_validate() -> None:
    blocks = re.findall(r"```json\n(.*?)```", DOC.read_text(encoding="utf-8"), re.S)
    whole = json.loads(blocks[0])
    assert verify_document(whole, file="example").valid
    fragment = json.loads("{" + blocks[1] + "}")
    doc = {
        "format": "game-record/1",
        "game": "tac",
        "players": [{"name": f"P{s}", "seats": [s]} for s in range(4)],
        **fragment,
    }
    verdict = verify_document(doc, file="setup-example")
    assert verdict.valid, verdict.text_line()
