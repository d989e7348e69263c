"""The public contract of rules/core: error codes, pointers, verdict lines, CLI exit codes."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from rules.core.errors import ErrorCode
from rules.core.pointer import child, is_within, pointer
from rules.core.replay import verify_bytes, verify_document

ROOT = Path(__file__).resolve().parents[3]

SPEC_CODES = {
    "unreadable", "unsupported_format", "malformed", "bad_variant", "bad_setup", "unknown_card",
    "deck_mismatch", "bad_exchange", "false_announcement", "wrong_seat", "card_not_in_hand",
    "illegal_move", "must_play", "missing_action", "game_already_over", "result_mismatch",
}


def test_error_codes_are_exactly_the_spec_codes() -> None:
    assert {c.value for c in ErrorCode} == SPEC_CODES


def test_pointer_escapes_and_nests() -> None:
    assert pointer("deals", 0, "turns", 3) == "/deals/0/turns/3"
    assert pointer("a/b", "c~d") == "/a~1b/c~0d"
    assert child("/deals/1", "hands") == "/deals/1/hands"
    assert is_within("/deals/1/turns/2/then", "/deals/1/turns/2")
    assert not is_within("/deals/1/turns/22", "/deals/1/turns/2")


@pytest.mark.parametrize(
    ("data", "code", "path"),
    [
        (b"{not json", "unreadable", ""),
        (b"\xff\xfe\x00", "unreadable", ""),
        (b'{"a": 1, "a": 2}', "unreadable", ""),
        (b'{"x": NaN}', "unreadable", ""),
        (b"[1, 2]", "malformed", ""),
        (b'{"game": "tac"}', "unsupported_format", "/format"),
        (b'{"format": "game-record/2", "game": "tac"}', "unsupported_format", "/format"),
        (b'{"format": "game-record/1", "game": "chess"}', "unsupported_format", "/game"),
        (b'{"format": "game-record/1", "game": 5}', "unsupported_format", "/game"),
    ],
)
def test_envelope_errors(data: bytes, code: str, path: str) -> None:
    verdict = verify_bytes(data, file="x.json")
    assert not verdict.valid and not verdict.complete and verdict.result is None
    assert verdict.error is not None
    assert (verdict.error.code.value, verdict.error.path) == (code, path)


@pytest.mark.parametrize(("data", "key", "renamed"), [
    (b'{"a": 1, "b": 2, "a": 3}', "a", b'{"a": 1, "b": 2, "c": 3}'),
    (b'{"format": "game-record/1", "game": "tac", "deals": [{"x": {"y": 1, "z": 2, "z": 3, "y": 4}}]}', "z",
     b'{"format": "game-record/1", "game": "tac", "deals": [{"x": {"y": 1, "z": 2, "w": 3, "v": 4}}]}'),
    (b'{"a": {"k": 1}, "b": {"k": 2}, "c": {"k": 3, "k": 4}}', "k", b'{"a": {"k": 1}, "b": {"k": 2}, "c": {"k": 3, "j": 4}}'),
])
def test_a_repeated_key_anywhere_is_named(data: bytes, key: str, renamed: bytes) -> None:
    """The first key repeated within one object, in reading order, is named; keys repeated across
    objects are not repeats."""
    verdict = verify_bytes(data, file="x.json")
    assert verdict.error is not None and verdict.error.code is ErrorCode.UNREADABLE
    assert verdict.error.message == f"Not JSON: duplicate key {key!r}."
    again = verify_bytes(renamed, file="x.json")
    assert again.error is not None and again.error.code is not ErrorCode.UNREADABLE


def test_deep_nesting_is_a_verdict_not_a_crash() -> None:
    data = b"[" * 100_000 + b"]" * 100_000
    verdict = verify_bytes(data, file="deep.json")
    assert verdict.error is not None and verdict.error.code is ErrorCode.UNREADABLE


def test_verdict_json_shape() -> None:
    verdict = verify_document({"format": "game-record/1", "game": "nope"}, file="f.json")
    assert verdict.to_json() == {
        "file": "f.json",
        "valid": False,
        "complete": False,
        "game": None,
        "error": {"path": "/game", "code": "unsupported_format", "message": "Unknown game 'nope'."},
        "result": None,
    }
    assert verdict.text_line() == "f.json: invalid /game unsupported_format: Unknown game 'nope'."


def _cli(*args: str, stdin: bytes | None = None) -> subprocess.CompletedProcess[bytes]:
    return subprocess.run(
        [sys.executable, "-m", "rules", *args], cwd=ROOT, input=stdin, capture_output=True, timeout=60
    )


def test_cli_exit_codes_and_order(tmp_path: Path) -> None:
    bad = tmp_path / "bad.json"
    bad.write_text('{"format": "game-record/1", "game": "chess"}')
    broken = tmp_path / "broken.json"
    broken.write_text("{")
    proc = _cli("validate", str(bad))
    assert proc.returncode == 1
    assert proc.stdout.decode().splitlines() == [f"{bad}: invalid /game unsupported_format: Unknown game 'chess'."]
    proc = _cli("validate", str(bad), str(broken), "--json")
    assert proc.returncode == 2
    lines = [json.loads(x) for x in proc.stdout.decode().splitlines()]
    assert [x["file"] for x in lines] == [str(bad), str(broken)]
    assert lines[1]["error"]["code"] == "unreadable"
    proc = _cli("validate", "-", stdin=b"nope")
    assert proc.returncode == 2
    assert proc.stdout.decode().startswith("-: unreadable: ")
    proc = _cli("validate", str(tmp_path / "missing.json"))
    assert proc.returncode == 2


def test_rules_never_imports_django() -> None:
    code = (
        "import sys, pkgutil, importlib, rules\n"
        "for m in pkgutil.walk_packages(rules.__path__, 'rules.'):\n"
        "    if m.name != 'rules.__main__': importlib.import_module(m.name)\n"
        "bad = [m for m in sys.modules if m.split('.')[0] in ('django', 'tournaments', 'games', 'config')]\n"
        "assert not bad, bad\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, timeout=120)
    assert proc.returncode == 0, proc.stderr.decode()
    for path in (ROOT / "rules").rglob("*.py"):
        text = path.read_text()
        assert "import django" not in text and "from django" not in text, path
