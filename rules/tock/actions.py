"""Tock actions: the small value a turn names, how it is read from a record and written back."""

from __future__ import annotations

from typing import Any, Final, NamedTuple

from rules.core.errors import ErrorCode, RecordError
from rules.core.pointer import child
from rules.core.reader import check_keys, expect_list, expect_object, expect_seat
from rules.tock.cards import RANKS, STEPS, SWAP_CARD, parse_card
from rules.track.board import Board

ENTER: Final = "enter"
MOVES: Final = "moves"
SWAP: Final = "swap"
DISCARD: Final = "discard"
ACTION_KEYS: Final[tuple[str, ...]] = (ENTER, MOVES, SWAP, DISCARD)
CARDS: Final[frozenset[str]] = frozenset(RANKS)


class TockAction(NamedTuple):
    """One turn: a seat plays `card` to enter, move (segments `moves`), swap (`moves[0]`) or discard."""

    seat: int
    card: str
    kind: str
    moves: tuple[tuple[int, int], ...] = ()

    def to_json(self, board: Board) -> dict[str, Any]:
        out: dict[str, Any] = {"seat": self.seat, "card": self.card}
        if self.kind == MOVES:
            out[MOVES] = [[board.token(a), board.token(b)] for a, b in self.moves]
        elif self.kind == SWAP:
            a, b = self.moves[0]
            out[SWAP] = [board.token(a), board.token(b)]
        else:
            out[self.kind] = True
        return out


def _position(token: Any, path: str, k: int, board: Board) -> int:
    if type(token) is int and 0 <= token < board.ring:  # the common case, without building a pointer
        return token
    return board.parse(token, child(path, k))


def _pair(raw: Any, path: str, board: Board) -> tuple[int, int]:
    items = expect_list(raw, path)
    if len(items) != 2:
        raise RecordError(ErrorCode.MALFORMED, path, f"Expected a pair [from, to], found {len(items)} items.")
    return _position(items[0], path, 0, board), _position(items[1], path, 1, board)


def home_tokens(board: Board) -> dict[str, int]:
    """Every goal token of the board ("H2:3") with its position."""
    first = board.ring
    return {str(board.token(p)): p for p in range(first, first + board.home_slots * board.seats)}


def _fast_action(raw: Any, board: Board, homes: dict[str, int]) -> TockAction | None:
    """The common well-formed turn read without building any pointer; None sends it to the full reader."""
    if type(raw) is not dict or len(raw) != 3:
        return None
    seat = raw.get("seat")
    card = raw.get("card")
    if type(seat) is not int or not 0 <= seat < board.seats or type(card) is not str or card not in CARDS:
        return None
    ring = board.ring
    value = raw.get(MOVES)
    if value is not None:
        if type(value) is not list or not value:
            return None
        segments: list[tuple[int, int]] = []
        for seg in value:
            if type(seg) is not list or len(seg) != 2:
                return None
            a, b = seg
            frm = a if type(a) is int and 0 <= a < ring else homes.get(a) if type(a) is str else None
            to = b if type(b) is int and 0 <= b < ring else homes.get(b) if type(b) is str else None
            if frm is None or to is None:
                return None
            segments.append((frm, to))
        return TockAction(seat, card, MOVES, tuple(segments))
    if raw.get(DISCARD) is True:
        return TockAction(seat, card, DISCARD)
    if raw.get(ENTER) is True:
        return TockAction(seat, card, ENTER)
    value = raw.get(SWAP)
    if type(value) is list and len(value) == 2:
        a, b = value
        if type(a) is int and type(b) is int and 0 <= a < ring and 0 <= b < ring:
            return TockAction(seat, card, SWAP, ((a, b),))
    return None


def parse_action(raw: Any, path: str, board: Board, homes: dict[str, int] | None = None) -> TockAction:
    """Read one turn object; schema problems are `malformed`, unknown card tokens `unknown_card`."""
    if homes is not None:
        fast = _fast_action(raw, board, homes)
        if fast is not None:
            return fast
    obj = expect_object(raw, path)
    check_keys(obj, path, required=("seat", "card"), optional=ACTION_KEYS)
    seat = obj["seat"]
    if type(seat) is not int or not 0 <= seat < board.seats:
        seat = expect_seat(seat, child(path, "seat"), board.seats)
    card = obj["card"]
    if type(card) is not str or (card not in STEPS and card != SWAP_CARD):
        card = parse_card(card, child(path, "card"))
    present = [key for key in ACTION_KEYS if key in obj]
    if len(present) != 1:
        raise RecordError(
            ErrorCode.MALFORMED,
            path,
            "A turn needs exactly one of enter, moves, swap, discard"
            + (f"; found {', '.join(present)}." if present else "."),
        )
    kind = present[0]
    value = obj[kind]
    vpath = f"{path}/{kind}"
    if kind in (ENTER, DISCARD):
        if value is not True:
            raise RecordError(ErrorCode.MALFORMED, vpath, f"`{kind}` must be true.")
        return TockAction(seat, card, kind)
    if kind == SWAP:
        return TockAction(seat, card, SWAP, (_pair(value, vpath, board),))
    segments = expect_list(value, vpath)
    if not segments:
        raise RecordError(ErrorCode.MALFORMED, vpath, "`moves` needs at least one segment.")
    return TockAction(
        seat, card, MOVES, tuple(_pair(s, f"{vpath}/{i}", board) for i, s in enumerate(segments))
    )
