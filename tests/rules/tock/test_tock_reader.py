"""The Tock reader: the fast path reads every turn exactly as the full reader does; variants; registry; CLI."""

from __future__ import annotations

import doctest
import json
import random
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

import rules.tock.game
from rules.core.errors import ErrorCode, RecordError
from rules.core.registry import get_engine
from rules.tock import ENGINE
from rules.tock.actions import _fast_action, home_tokens, parse_action
from rules.tock.game import TockVariant, default_deal_sizes, parse_variant
from rules.tock.state import make_board

ROOT = Path(__file__).resolve().parents[3]
CORPUS = ROOT / "tests" / "rules" / "records" / "tock"


def _turns() -> list[tuple[dict[str, Any], Any]]:
    out: list[tuple[dict[str, Any], Any]] = []
    docs = [json.loads(p.read_text(encoding="utf-8")) for p in sorted(CORPUS.glob("*.json"))]
    docs.append(ENGINE.random_record({"seats": 6, "mode": "teams"}, random.Random(2)))
    for doc in docs:
        for deal in doc.get("deals", []):
            for turn in deal.get("turns", []):
                out.append((doc.get("variant", {}), turn))
    return out


def test_tock_fast_reader_agrees_with_full_reader() -> None:
    seen_fast = 0
    for variant_raw, turn in _turns():
        try:
            board = make_board(parse_variant(variant_raw))
        except RecordError:
            continue
        homes = home_tokens(board)
        try:
            full = parse_action(turn, "/t", board)
        except RecordError as err:
            with pytest.raises(RecordError) as again:
                parse_action(turn, "/t", board, homes)
            assert (again.value.code, again.value.path) == (err.code, err.path)
            continue
        fast = _fast_action(turn, board, homes)
        if fast is not None:
            seen_fast += 1
            assert fast == full
        assert parse_action(turn, "/t", board, homes) == full
        assert parse_action(full.to_json(board), "/t", board) == full
    assert seen_fast > 1000


def test_tock_fast_reader_sends_odd_turns_to_the_full_reader() -> None:
    board = make_board(TockVariant())
    homes = home_tokens(board)
    for odd in (
        {"seat": 0, "card": "A", "enter": 1},
        {"seat": True, "card": "A", "enter": True},
        {"seat": 0, "card": "A", "moves": [[1, 2.0]]},
        {"seat": 0, "card": "A", "moves": [[1, "H9:1"]]},
        {"seat": 0, "card": "11", "discard": True},
        {"seat": 0, "card": ["A"], "discard": True},
        {"seat": 0, "card": "A", "jump": True},
    ):
        assert _fast_action(odd, board, homes) is None
        with pytest.raises(RecordError) as err:
            parse_action(odd, "/t", board, homes)
        assert err.value.code in (ErrorCode.MALFORMED, ErrorCode.UNKNOWN_CARD)
    goal_swap = {"seat": 0, "card": "J", "swap": [1, "H0:1"]}
    assert _fast_action(goal_swap, board, homes) is None
    assert parse_action(goal_swap, "/t", board, homes).moves == ((1, board.home(0, 1)),)


def test_tock_variant_defaults_and_errors() -> None:
    assert parse_variant({}) == TockVariant(deal_sizes=(5, 4, 4))
    assert [default_deal_sizes(n) for n in range(2, 7)] == [
        (5, 5, 4, 4, 4, 4),
        (5, 4, 4, 4),
        (5, 4, 4),
        (5, 5),
        (4, 4),
    ]
    for n in range(2, 7):
        assert n * sum(default_deal_sizes(n)) == 52 // n * n
    for bad, key in (
        ({"seats": "4"}, "seats"),
        ({"seats": True}, "seats"),
        ({"mode": "2v2"}, "mode"),
        ({"seats": 2, "mode": "teams"}, "mode"),
        ({"quick_start": 1}, "quick_start"),
        ({"seven": "split7"}, "seven"),
        ({"ring_fields_per_seat": 4}, "ring_fields_per_seat"),
        ({"home_entry_offset": 16}, "home_entry_offset"),
        ({"deal_sizes": []}, "deal_sizes"),
        ({"deal_sizes": [7, 7]}, "deal_sizes"),
        ({"deal_sizes": [0]}, "deal_sizes"),
    ):
        with pytest.raises(RecordError) as err:
            parse_variant(bad)
        assert (err.value.code, err.value.path) == (ErrorCode.BAD_VARIANT, f"/variant/{key}")
    assert parse_variant({"seats": 6, "mode": "teams"}).partner(1) == 4
    assert parse_variant({"mode": "teams"}).team_of(3) == (1, 3)


def test_tock_doctests() -> None:
    assert doctest.testmod(rules.tock.game).failed == 0


def test_tock_registered() -> None:
    assert get_engine("tock") is ENGINE
    assert ENGINE.name == "tock" and ENGINE.version.startswith("tock-")


def test_tock_cli_random_then_validate(tmp_path: Path) -> None:
    out = subprocess.run(
        [sys.executable, "-m", "rules", "random", "tock", "--variant", '{"seats": 3}', "--seed", "4"],
        cwd=ROOT,
        capture_output=True,
        timeout=120,
        check=True,
    ).stdout
    record = tmp_path / "game.json"
    record.write_bytes(out)
    proc = subprocess.run(
        [sys.executable, "-m", "rules", "validate", str(record)], cwd=ROOT, capture_output=True, timeout=120
    )
    assert proc.returncode == 0, proc.stderr.decode()
    assert proc.stdout.decode().startswith(f"{record}: valid complete tock winners=")
