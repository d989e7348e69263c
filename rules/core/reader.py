"""Strict schema helpers for reading records.

Every helper raises :class:`RecordError` with code ``malformed`` and the JSON Pointer of the offending
value. Unknown keys are errors, except ``comment`` on any object and keys that start with ``x_``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from rules.core.errors import ErrorCode, RecordError
from rules.core.pointer import child

FORMAT = "game-record/1"
ENVELOPE_KEYS = frozenset({"format", "game", "variant", "players", "meta", "setup", "deals", "result"})
TERMINATIONS = ("rules", "resignation", "adjudication", "abandoned")
_DATE = re.compile(r"^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])$")


def malformed(path: str, message: str) -> RecordError:
    return RecordError(ErrorCode.MALFORMED, path, message)


def _type_name(value: Any) -> str:
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    if isinstance(value, int | float):
        return "a number"
    if isinstance(value, str):
        return "a string"
    if isinstance(value, list):
        return "an array"
    if isinstance(value, dict):
        return "an object"
    return type(value).__name__


def expect_object(value: Any, path: str) -> dict[str, Any]:
    if not isinstance(value, dict):
        raise malformed(path, f"Expected an object, found {_type_name(value)}.")
    return value


def is_free_key(key: str) -> bool:
    """Keys allowed on any object: `comment` and extension keys starting with `x_`."""
    return key == "comment" or key.startswith("x_")


def check_keys(
    obj: Mapping[str, Any],
    path: str,
    *,
    required: Iterable[str] = (),
    optional: Iterable[str] = (),
) -> None:
    """Refuse unknown keys and report the first missing required key."""
    required_set = tuple(required)
    allowed = set(required_set) | set(optional)
    for key in obj:
        if key not in allowed and not is_free_key(key):
            raise malformed(child(path, key), f"Unknown key {key!r}.")
    for key in required_set:
        if key not in obj:
            raise malformed(path, f"Missing required key {key!r}.")
    comment = obj.get("comment")
    if comment is not None and not isinstance(comment, str):
        raise malformed(child(path, "comment"), "A comment must be a string.")


def expect_list(value: Any, path: str) -> list[Any]:
    if not isinstance(value, list):
        raise malformed(path, f"Expected an array, found {_type_name(value)}.")
    return value


def expect_int(value: Any, path: str, *, lo: int | None = None, hi: int | None = None) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise malformed(path, f"Expected an integer, found {_type_name(value)}.")
    if lo is not None and value < lo:
        raise malformed(path, f"{value} is below the minimum {lo}.")
    if hi is not None and value > hi:
        raise malformed(path, f"{value} is above the maximum {hi}.")
    return value


def expect_bool(value: Any, path: str) -> bool:
    if not isinstance(value, bool):
        raise malformed(path, f"Expected true or false, found {_type_name(value)}.")
    return value


def expect_str(value: Any, path: str) -> str:
    if not isinstance(value, str):
        raise malformed(path, f"Expected a string, found {_type_name(value)}.")
    return value


def expect_seat(value: Any, path: str, n_seats: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise malformed(path, f"A seat must be an integer, found {_type_name(value)}.")
    if not 0 <= value < n_seats:
        raise malformed(path, f"Seat {value} is out of range 0..{n_seats - 1}.")
    return value


@dataclass(frozen=True)
class Player:
    name: str
    id: str | int | None
    seats: tuple[int, ...]
    colors: tuple[str, ...] | None


def parse_players(raw: Any, path: str, *, n_seats: int, active_seats: Iterable[int]) -> list[Player]:
    """Read `players`: each active seat belongs to exactly one player; no seat twice, none inactive."""
    active = set(active_seats)
    items = expect_list(raw, path)
    if not items:
        raise malformed(path, "At least one player is required.")
    owner: dict[int, int] = {}
    players: list[Player] = []
    for i, item in enumerate(items):
        p_path = child(path, i)
        obj = expect_object(item, p_path)
        check_keys(obj, p_path, required=("name", "seats"), optional=("id", "colors"))
        name = expect_str(obj["name"], child(p_path, "name"))
        if not name.strip():
            raise malformed(child(p_path, "name"), "A player's name must not be empty.")
        pid = obj.get("id")
        if pid is not None and (isinstance(pid, bool) or not isinstance(pid, str | int)):
            raise malformed(child(p_path, "id"), "A player id must be a string or an integer.")
        seats_raw = expect_list(obj["seats"], child(p_path, "seats"))
        if not seats_raw:
            raise malformed(child(p_path, "seats"), "A player must hold at least one seat.")
        seats: list[int] = []
        for j, s in enumerate(seats_raw):
            s_path = child(p_path, "seats", j)
            seat = expect_seat(s, s_path, n_seats)
            if seat not in active:
                raise malformed(s_path, f"Seat {seat} is not in play in this variant.")
            if seat in owner:
                raise malformed(s_path, f"Seat {seat} is already held by player {owner[seat]}.")
            owner[seat] = i
            seats.append(seat)
        colors: tuple[str, ...] | None = None
        if "colors" in obj:
            c_list = expect_list(obj["colors"], child(p_path, "colors"))
            colors = tuple(expect_str(c, child(p_path, "colors", k)) for k, c in enumerate(c_list))
        players.append(Player(name=name, id=pid, seats=tuple(seats), colors=colors))
    missing = sorted(active - set(owner))
    if missing:
        raise malformed(path, f"Seat {missing[0]} has no player.")
    return players


def variant_dict(doc: Mapping[str, Any]) -> dict[str, Any]:
    """The record's `variant` object, or an empty one."""
    if "variant" not in doc:
        return {}
    return expect_object(doc["variant"], "/variant")


def check_meta(raw: Any) -> None:
    """`meta` is free-form, but its known keys have fixed types."""
    meta = expect_object(raw, "/meta")
    for key in ("event", "site", "scribe", "notes"):
        if key in meta:
            expect_str(meta[key], child("/meta", key))
    for key in ("round", "table"):
        if key in meta:
            value = meta[key]
            if isinstance(value, bool) or not isinstance(value, str | int):
                raise malformed(child("/meta", key), f"`{key}` must be a string or an integer.")
    if "date" in meta:
        date = expect_str(meta["date"], "/meta/date")
        if not _DATE.match(date):
            raise malformed("/meta/date", f"Date {date!r} is not YYYY-MM-DD.")


@dataclass(frozen=True)
class ClaimedResult:
    winners: tuple[int, ...]
    termination: str
    fields: dict[str, Any]


def read_claimed_result(raw: Any, result_fields: frozenset[str]) -> ClaimedResult:
    """Check the shape of the claimed `result` (its values are checked at the end of the replay)."""
    obj = expect_object(raw, "/result")
    check_keys(obj, "/result", required=("winners",), optional=("termination", *result_fields))
    winners_raw = expect_list(obj["winners"], "/result/winners")
    winners: list[int] = []
    for i, w in enumerate(winners_raw):
        seat = expect_int(w, child("/result/winners", i), lo=0)
        if seat in winners:
            raise malformed(child("/result/winners", i), f"Seat {seat} is listed twice.")
        winners.append(seat)
    termination = "rules"
    if "termination" in obj:
        termination = expect_str(obj["termination"], "/result/termination")
        if termination not in TERMINATIONS:
            raise malformed("/result/termination", f"Unknown termination {termination!r}.")
    fields = {k: v for k, v in obj.items() if k in result_fields}
    return ClaimedResult(winners=tuple(winners), termination=termination, fields=fields)
