"""Turn a record (bytes or parsed JSON) into a verdict. These functions never raise."""

from __future__ import annotations

import json
import sys
import traceback
from typing import Any

from rules.core.engine import Engine, Observer, ReplayOutcome
from rules.core.errors import ErrorCode, RecordError
from rules.core.reader import (
    ENVELOPE_KEYS,
    FORMAT,
    check_keys,
    check_meta,
    read_claimed_result,
)
from rules.core.registry import GAMES, get_engine
from rules.core.verdict import Verdict

INTERNAL_ERROR_PREFIX = "Internal error in the rules engine"


class DuplicateKeyError(ValueError):
    pass


def _no_duplicates(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    obj = dict(pairs)  # (built in C: a record has hundreds of objects; the loop below runs only on a duplicate)
    if len(obj) == len(pairs):
        return obj
    seen: set[str] = set()
    for key, _value in pairs:
        if key in seen:
            raise DuplicateKeyError(f"duplicate key {key!r}")
        seen.add(key)
    raise AssertionError("unreachable: fewer keys than pairs means a repeated key")


def _no_constants(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def load_json(data: bytes | str) -> Any:
    """Parse strict JSON (no NaN/Infinity, no duplicate keys); RecordError(unreadable) otherwise."""
    try:
        text = data.decode("utf-8-sig") if isinstance(data, bytes) else data
    except UnicodeDecodeError as exc:
        raise RecordError(ErrorCode.UNREADABLE, "", f"The file is not UTF-8 text ({exc.reason}).") from None
    try:
        return json.loads(text, object_pairs_hook=_no_duplicates, parse_constant=_no_constants)
    except RecursionError:
        raise RecordError(ErrorCode.UNREADABLE, "", "The JSON is nested too deeply.") from None
    except json.JSONDecodeError as exc:
        raise RecordError(
            ErrorCode.UNREADABLE, "", f"Not JSON: {exc.msg} at line {exc.lineno} column {exc.colno}."
        ) from None
    except ValueError as exc:
        raise RecordError(ErrorCode.UNREADABLE, "", f"Not JSON: {exc}.") from None


def verify_bytes(data: bytes | str, *, file: str = "-") -> Verdict:
    try:
        doc = load_json(data)
    except RecordError as err:
        return Verdict.invalid(file, None, err)
    return verify_document(doc, file=file)


def _check_envelope(doc: Any) -> tuple[str, Engine]:
    if not isinstance(doc, dict):
        raise RecordError(ErrorCode.MALFORMED, "", "A record must be a JSON object.")
    fmt = doc.get("format")
    if fmt is None:
        raise RecordError(ErrorCode.UNSUPPORTED_FORMAT, "/format", "The key `format` is missing.")
    if fmt != FORMAT:
        raise RecordError(
            ErrorCode.UNSUPPORTED_FORMAT, "/format", f"Unknown format {fmt!r}; expected {FORMAT!r}."
        )
    game = doc.get("game")
    if not isinstance(game, str) or game not in GAMES:
        raise RecordError(ErrorCode.UNSUPPORTED_FORMAT, "/game", f"Unknown game {game!r}.")
    try:
        engine = get_engine(game)
    except LookupError as exc:
        raise RecordError(ErrorCode.UNSUPPORTED_FORMAT, "/game", str(exc)) from None
    check_keys(
        doc,
        "",
        required=("format", "game", "players", "deals"),
        optional=ENVELOPE_KEYS - {"format", "game", "players", "deals"},
    )
    if "meta" in doc:
        check_meta(doc["meta"])
    return game, engine


def _judge_result(doc: dict[str, Any], engine: Engine, outcome: ReplayOutcome) -> tuple[bool, dict[str, Any] | None]:
    """Compare the claimed result with the derived one; return (complete, result for the verdict)."""
    if "result" not in doc:
        return (outcome.finished, outcome.result if outcome.finished else None)
    claim = read_claimed_result(doc["result"], engine.result_fields)
    if claim.termination != "rules":
        return (False, dict(doc["result"]))
    if not outcome.finished or outcome.result is None:
        raise RecordError(
            ErrorCode.RESULT_MISMATCH, "/result", "A result is claimed under the rules, but the game is not over."
        )
    derived = outcome.result
    derived_winners = sorted(int(w) for w in derived.get("winners", []))
    if sorted(claim.winners) != derived_winners:
        raise RecordError(
            ErrorCode.RESULT_MISMATCH,
            "/result/winners",
            f"Claimed winners {sorted(claim.winners)}, but the record gives {derived_winners}.",
        )
    for key, value in claim.fields.items():
        if derived.get(key) != value:
            raise RecordError(
                ErrorCode.RESULT_MISMATCH,
                f"/result/{key}",
                f"Claimed {key} {value!r}, but the record gives {derived.get(key)!r}.",
            )
    return (True, derived)


def verify_document(doc: Any, *, file: str = "-") -> Verdict:
    return verify_observed(doc, file=file, observe=None)


def verify_observed(doc: Any, *, file: str = "-", observe: Observer | None) -> Verdict:
    """``verify_document`` with an optional observer of every step (see rules.core.trace)."""
    game: str | None = None
    try:
        game, engine = _check_envelope(doc)
        outcome = engine.replay(doc, observe=observe)
        complete, result = _judge_result(doc, engine, outcome)
    except RecordError as err:
        return Verdict.invalid(file, game, err)
    except RecursionError:
        return Verdict.invalid(
            file, game, RecordError(ErrorCode.MALFORMED, "", "The record is nested too deeply.")
        )
    except Exception as exc:  # a bug in an engine must not crash a batch of verdicts
        traceback.print_exc(file=sys.stderr)
        return Verdict.invalid(
            file, game, RecordError(ErrorCode.MALFORMED, "", f"{INTERNAL_ERROR_PREFIX}: {exc!r}")
        )
    return Verdict(file=file, valid=True, complete=complete, game=game, error=None, result=result)
