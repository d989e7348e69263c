"""The message of every refused corpus record is public output (`python -m rules validate` prints it,
and it never changes unannounced): corpus_messages.json holds each one. Change a message only on
purpose, and then update the file with it (a new corpus record may be added to the file)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from rules.core.replay import verify_bytes

CORPUS = Path(__file__).resolve().parents[1] / "records" / "tac"
MESSAGES: dict[str, str] = json.loads((Path(__file__).with_name("corpus_messages.json")).read_text("utf-8"))


def test_every_named_record_is_in_the_corpus() -> None:
    assert len(MESSAGES) >= 80
    assert not [name for name in MESSAGES if not (CORPUS / f"{name}.json").exists()]


@pytest.mark.parametrize("name", sorted(MESSAGES))
def test_tac_corpus_error_message(name: str) -> None:
    path = CORPUS / f"{name}.json"
    verdict = verify_bytes(path.read_bytes(), file=path.name)
    assert verdict.error is not None
    assert verdict.error.message == MESSAGES[name]
