"""TAC actions: the record's action objects (spec section 3, "Action keys") as small values.

A :class:`Play` is what a seat chose: the card and one of ``enter``, ``moves``, ``swap``, ``skip``,
``strike``, ``discard`` or ``then``. Positions are board integers (see :mod:`rules.track.board`).

>>> p = parse_play({"seat": 1, "card": "4", "moves": [[18, "H1:2"]]}, "/t", BASIC, top=True)
>>> p.card, p.kind, p.moves
('4', 'moves', ((18, 69),))
>>> play_to_json(p, 1)
{'seat': 1, 'card': '4', 'moves': [[18, 'H1:2']]}
"""

from __future__ import annotations

from typing import Any

from rules.core.errors import ErrorCode, RecordError
from rules.core.reader import check_keys, expect_list, expect_object, expect_seat, expect_str, malformed
from rules.tac.cards import BASIC_DECK
from rules.track.board import Board

BOARD = Board(seats=4)
BASIC = BASIC_DECK

ENTER = "enter"
MOVES = "moves"
SWAP = "swap"
SKIP = "skip"
STRIKE = "strike"
DISCARD = "discard"
THEN = "then"
ACTION_KEYS = (ENTER, MOVES, SWAP, SKIP, STRIKE, DISCARD, THEN)
_TRUE_KEYS = frozenset({ENTER, SKIP, DISCARD})

Segment = tuple[int, int]


class Play:
    """One chosen action. ``moves`` holds segments, ``fields`` the swap pair or the strike field."""

    __slots__ = ("card", "kind", "moves", "fields", "then", "as_", "seat")

    def __init__(
        self,
        card: str,
        kind: str,
        *,
        moves: tuple[Segment, ...] = (),
        fields: tuple[int, ...] = (),
        then: Play | None = None,
        as_: str | None = None,
        seat: int | None = None,
    ) -> None:
        self.card = card
        self.kind = kind
        self.moves = moves
        self.fields = fields
        self.then = then
        self.as_ = as_
        self.seat = seat

    def key(self) -> tuple[Any, ...]:
        return (
            self.card,
            self.kind,
            self.moves,
            self.fields,
            None if self.then is None else self.then.key(),
            self.as_,
        )

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Play) and self.key() == other.key()

    def __hash__(self) -> int:
        return hash(self.key())

    def __repr__(self) -> str:
        return f"Play({play_to_json(self, self.seat)!r})"


_ACTION_SET = frozenset(ACTION_KEYS)
_OTHER_KEYS = frozenset({"seat", "card", "as"})


def _position(token: Any, path: str) -> int:
    if type(token) is int and 0 <= token < 64:
        return token
    return BOARD.parse(token, path)


def parse_play(raw: Any, path: str, deck: dict[str, int], *, top: bool) -> Play:
    """Read an action object (a turn, or a nested ``then``); malformed / unknown_card on bad input."""
    obj = raw if type(raw) is dict else expect_object(raw, path)
    kind = ""
    count = 0
    for key in obj:
        if key in _ACTION_SET:
            kind = key
            count += 1
        elif key not in _OTHER_KEYS:
            check_keys(obj, path, optional=(*ACTION_KEYS, *_OTHER_KEYS))
    if "comment" in obj:
        check_keys(obj, path, optional=(*ACTION_KEYS, *_OTHER_KEYS))
    required = ("seat", "card") if top else ("card",)
    for key in required:
        if key not in obj:
            raise malformed(path, f"Missing required key {key!r}.")
    if count == 0 and obj["card"] in ("narr", "teufel"):
        raise RecordError(ErrorCode.MISSING_ACTION, path, f"The {obj['card']} needs its follow-up `then`.")
    if count != 1:
        present = [key for key in ACTION_KEYS if key in obj]
        raise malformed(
            path,
            "An action needs exactly one of "
            + ", ".join(ACTION_KEYS)
            + (f"; found {', '.join(present)}." if present else "."),
        )
    seat: int | None = None
    if "seat" in obj:
        seat = obj["seat"]
        if not (type(seat) is int and 0 <= seat < 4):
            seat = expect_seat(seat, path + "/seat", 4)
    card = obj["card"]
    if type(card) is not str:
        card = expect_str(card, path + "/card")
    if card not in deck:
        raise RecordError(ErrorCode.UNKNOWN_CARD, path + "/card", f"{card!r} is not a card of this deck.")
    as_ = expect_str(obj["as"], path + "/as") if "as" in obj else None
    value = obj[kind]
    v_path = path + "/" + kind
    if kind == ENTER and type(value) is int:
        if not 0 <= value < 4:
            raise malformed(v_path, "`enter` is true, or the colour (0-3) to bring in.")
        return Play(card, kind, fields=(value,), as_=as_, seat=seat)
    if kind in _TRUE_KEYS:
        if value is not True:
            raise malformed(v_path, f"`{kind}` must be true.")
        return Play(card, kind, as_=as_, seat=seat)
    if kind == MOVES:
        items = value if type(value) is list else expect_list(value, v_path)
        if not items:
            raise malformed(v_path, "`moves` needs at least one segment.")
        segs: list[Segment] = []
        for i, item in enumerate(items):
            if type(item) is not list or len(item) != 2:
                s_path = f"{v_path}/{i}"
                expect_list(item, s_path)
                raise malformed(s_path, "A segment is [from, to].")
            a, b = item
            segs.append((_position(a, f"{v_path}/{i}/0"), _position(b, f"{v_path}/{i}/1")))
        return Play(card, kind, moves=tuple(segs), as_=as_, seat=seat)
    if kind == SWAP:
        pair = expect_list(value, v_path)
        if len(pair) != 2:
            raise malformed(v_path, "`swap` is [a, b].")
        return Play(
            card,
            kind,
            fields=(_position(pair[0], v_path + "/0"), _position(pair[1], v_path + "/1")),
            as_=as_,
            seat=seat,
        )
    if kind == STRIKE:
        return Play(card, kind, fields=(_position(value, v_path),), as_=as_, seat=seat)
    # THEN
    return Play(card, kind, then=parse_play(value, v_path, deck, top=False), as_=as_, seat=seat)


def play_to_json(play: Play, seat: int | None) -> dict[str, Any]:
    """The record form of a play (``seat`` omitted when None)."""
    out: dict[str, Any] = {}
    if seat is not None:
        out["seat"] = seat
    out["card"] = play.card
    if play.as_ is not None:
        out["as"] = play.as_
    if play.kind == MOVES:
        out[MOVES] = [[BOARD.token(a), BOARD.token(b)] for a, b in play.moves]
    elif play.kind == SWAP:
        out[SWAP] = [BOARD.token(p) for p in play.fields]
    elif play.kind == STRIKE:
        out[STRIKE] = BOARD.token(play.fields[0])
    elif play.kind == THEN:
        assert play.then is not None
        out[THEN] = play_to_json(play.then, play.then.seat)
    elif play.kind == ENTER and play.fields:
        out[ENTER] = play.fields[0]
    else:
        out[play.kind] = True
    return out
