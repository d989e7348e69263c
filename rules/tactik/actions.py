"""Tac-Tik actions: the value type, reading one from a record and writing one back.

An action is a seat, a card and exactly one of ``enter``, ``moves`` (``[[from, to], ...]``, several
only for the 7x1), ``swap`` (``[a, b]``) or ``discard``. Reading checks the schema only (``malformed``,
``unknown_card``); whether the action is legal is the state's business.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Literal

from rules.core.errors import ErrorCode, RecordError
from rules.core.pointer import child
from rules.core.reader import (
    check_keys,
    expect_bool,
    expect_list,
    expect_object,
    expect_seat,
    expect_str,
    malformed,
)
from rules.tactik.cards import DECK
from rules.track.board import Board

Kind = Literal["enter", "moves", "swap", "discard"]
ACTION_KEYS: tuple[Kind, ...] = ("enter", "moves", "swap", "discard")


@dataclass(frozen=True, slots=True)
class Action:
    """One turn. `segments` holds the `[from, to]` pairs of `moves`, or the one pair of `swap`."""

    seat: int
    card: str
    kind: Kind
    segments: tuple[tuple[int, int], ...] = ()

    def to_json(self, board: Board) -> dict[str, Any]:
        out: dict[str, Any] = {"seat": self.seat, "card": self.card}
        if self.kind == "moves":
            out["moves"] = [[board.token(a), board.token(b)] for a, b in self.segments]
        elif self.kind == "swap":
            a, b = self.segments[0]
            out["swap"] = [board.token(a), board.token(b)]
        else:
            out[self.kind] = True
        return out


def read_card(raw: Any, path: str) -> str:
    card = expect_str(raw, path)
    if card not in DECK:
        raise RecordError(ErrorCode.UNKNOWN_CARD, path, f"{card!r} is not a Tac-Tik card.")
    return card


def read_action(raw: Any, path: str, board: Board, *, seats: int) -> Action:
    """Read one turn object (Tac-Tik has no nested actions, so `seat` is always required)."""
    fast = _read_plain(raw, board.ring, seats)
    if fast is not None:
        return fast
    return _read_checked(raw, path, board, seats=seats)


def _read_plain(raw: Any, ring: int, seats: int) -> Action | None:
    """The common shape, read without building error paths; None sends anything else to the full reader."""
    if type(raw) is not dict or len(raw) != 3:
        return None
    seat = raw.get("seat")
    card = raw.get("card")
    if type(seat) is not int or not 0 <= seat < seats or type(card) is not str or card not in DECK:
        return None
    if "moves" in raw:
        segments = raw["moves"]
        if type(segments) is not list or not segments:
            return None
        out: list[tuple[int, int]] = []
        for seg in segments:
            if type(seg) is not list or len(seg) != 2:
                return None
            a, b = seg
            if type(a) is not int or type(b) is not int or not 0 <= a < ring or not 0 <= b < ring:
                return None
            out.append((a, b))
        return Action(seat, card, "moves", tuple(out))
    if "swap" in raw:
        pair = raw["swap"]
        if type(pair) is not list or len(pair) != 2:
            return None
        a, b = pair
        if type(a) is not int or type(b) is not int or not 0 <= a < ring or not 0 <= b < ring:
            return None
        return Action(seat, card, "swap", ((a, b),))
    if raw.get("enter") is True:
        return Action(seat, card, "enter")
    if raw.get("discard") is True:
        return Action(seat, card, "discard")
    return None


def _read_checked(raw: Any, path: str, board: Board, *, seats: int) -> Action:
    obj = expect_object(raw, path)
    check_keys(obj, path, required=("seat", "card"), optional=ACTION_KEYS)
    present = [key for key in ACTION_KEYS if key in obj]
    if len(present) != 1:
        raise malformed(
            path,
            "An action needs exactly one of enter, moves, swap, discard"
            + (f"; found {', '.join(present)}." if present else "."),
        )
    seat = expect_seat(obj["seat"], path + "/seat", seats)
    card = read_card(obj["card"], path + "/card")
    kind = present[0]
    k_path = f"{path}/{kind}"  # constant keys: nothing to escape
    if kind in ("enter", "discard"):
        if not expect_bool(obj[kind], k_path):
            raise malformed(k_path, f"`{kind}` is written as true.")
        return Action(seat, card, kind)
    if kind == "swap":
        pair = expect_list(obj["swap"], k_path)
        if len(pair) != 2:
            raise malformed(k_path, "`swap` names exactly two fields.")
        return Action(
            seat,
            card,
            "swap",
            ((board.parse(pair[0], child(k_path, 0)), board.parse(pair[1], child(k_path, 1))),),
        )
    segments_raw = expect_list(obj["moves"], k_path)
    if not segments_raw:
        raise malformed(k_path, "`moves` needs at least one [from, to] segment.")
    segments: list[tuple[int, int]] = []
    for i, seg in enumerate(segments_raw):
        s_path = f"{k_path}/{i}"
        pair = expect_list(seg, s_path)
        if len(pair) != 2:
            raise malformed(s_path, "A segment is [from, to].")
        segments.append((board.parse(pair[0], s_path + "/0"), board.parse(pair[1], s_path + "/1")))
    return Action(seat, card, "moves", tuple(segments))
