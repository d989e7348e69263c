"""The board in words, for a screen reader or anyone who cannot read the picture (issue 31).

A marble game's position (kind "marbles", docs/replay-trace.md) as one sentence per player: how many
marbles wait in the prefield, where each marble on the track stands counted in fields from the
player's own start, which home slots are filled; and a move in the same words ("Julia Baumann: marble
3 fields after the start, 7 forward into home 2").

Pure Python like the renderers: the words come from `texts` (English defaults in DEFAULT_TEXTS, the
views pass translated ones with the same placeholders, see games.views.describe_texts).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from typing import Any

HOME_TOKEN = re.compile(r"^H(\d{1,2}):([1-4])$")

DEFAULT_TEXTS: dict[str, str] = {
    "seat": "Seat {n}",
    "line": "{name}: {parts}.",
    "plays": "{name} plays next.",
    "over": "The game is over.",
    "prefield": "{n} in the prefield",
    "track": "on the track {where}",
    "no_track": "none on the track",
    "home": "in home {slots}",
    "on_start": "on the start field",
    "protected": "on the start field (protected)",
    "field_after": "1 field after the start",
    "fields_after": "{n} fields after the start",
    "in_home": "in home {slot}",
    "and": ", ",
    "marble": "marble {where}",
    "forward": "{marble}, {n} forward {to}",
    "backward": "{marble}, {n} back {to}",
    "to_home": "into home {slot}",
    "to_field": "to {where}",
    "enter": "a marble from the prefield onto the start field",
    "swap": "{first} swaps places with {second}",
    "owned": "{owner}'s {marble}",
    "strike": "strikes {marble}",
    "skip": "skips the next player",
    "discard": "discards the card",
    "move": "{name}: {card}, {what}",
    "then": "{first}; then {second}",
}


class _Words:
    def __init__(self, texts: Mapping[str, str] | None, names: Sequence[str], seats: int) -> None:
        self.texts = {**DEFAULT_TEXTS, **(texts or {})}
        self.names = [str(names[s]) if s < len(names) and names[s] else self.get("seat", n=s) for s in range(seats)]

    def get(self, key: str, **values: Any) -> str:
        template = self.texts.get(key, DEFAULT_TEXTS[key])
        try:
            return template.format(**values)
        except (KeyError, IndexError, ValueError):
            return DEFAULT_TEXTS[key].format(**values)

    def name(self, seat: Any) -> str:
        if isinstance(seat, int) and 0 <= seat < len(self.names):
            return self.names[seat]
        return self.get("seat", n=seat)


def _ints(value: Any) -> list[int]:
    return [v for v in value if isinstance(v, int) and not isinstance(v, bool)] if isinstance(value, list) else []


class _Board:
    def __init__(self, snapshot: Mapping[str, Any]) -> None:
        seats = snapshot.get("seats")
        self.seats = max(0, min(seats, 16)) if isinstance(seats, int) else 0
        ring = snapshot.get("ring")
        self.ring = ring if isinstance(ring, int) and ring > 0 else 16 * max(self.seats, 1)
        self.starts = _ints(snapshot.get("starts")) or [k * self.ring // max(self.seats, 1) for k in range(self.seats)]
        marbles = snapshot.get("marbles")
        self.marbles = [m if isinstance(m, list) else [] for m in marbles] if isinstance(marbles, list) else []
        self.fresh = set(_ints(snapshot.get("fresh")))

    def start(self, seat: int) -> int:
        return self.starts[seat] if 0 <= seat < len(self.starts) else 0

    def owner(self, token: Any) -> int | None:
        """The seat whose marble stands on `token` (a ring field or a home slot), if any."""
        home = HOME_TOKEN.match(token) if isinstance(token, str) else None
        if home:
            return int(home.group(1))
        for seat, tokens in enumerate(self.marbles):
            if token in tokens or (isinstance(token, int) and str(token) in tokens):
                return seat
        return None


def _field(token: Any) -> int | None:
    if isinstance(token, bool):
        return None
    if isinstance(token, int):
        return token
    if isinstance(token, str) and token.isdigit():
        return int(token)
    return None


def _where(board: _Board, words: _Words, seat: int, token: Any) -> str:
    """Where a marble of `seat` stands, in words counted from that seat's own start."""
    home = HOME_TOKEN.match(token) if isinstance(token, str) else None
    if home:
        return words.get("in_home", slot=int(home.group(2)))
    field = _field(token)
    if field is None:
        return str(token)
    distance = (field - board.start(seat)) % board.ring
    if distance == 0:
        return words.get("protected" if field in board.fresh else "on_start")
    return words.get("field_after") if distance == 1 else words.get("fields_after", n=distance)


def describe_position(
    snapshot: Mapping[str, Any], names: Sequence[str], texts: Mapping[str, str] | None = None
) -> list[str]:
    """One sentence per player of a marble game's position (and who plays next); [] for other games."""
    if snapshot.get("kind") != "marbles":
        return []
    board = _Board(snapshot)
    words = _Words(texts, names, board.seats)
    prefield = snapshot.get("prefield") if isinstance(snapshot.get("prefield"), list) else []
    lines = []
    for seat in range(board.seats):
        tokens = board.marbles[seat] if seat < len(board.marbles) else []
        home = sorted(int(m.group(2)) for t in tokens if isinstance(t, str) and (m := HOME_TOKEN.match(t)))
        track = [t for t in tokens if _field(t) is not None]
        track.sort(key=lambda t: (_field(t) - board.start(seat)) % board.ring)  # type: ignore[operator]
        count = prefield[seat] if seat < len(prefield) and isinstance(prefield[seat], int) else 0
        parts = [words.get("prefield", n=count)]
        if track:
            where = words.get("and").join(_where(board, words, seat, t) for t in track)
            parts.append(words.get("track", where=where))
        else:
            parts.append(words.get("no_track"))
        if home:
            parts.append(words.get("home", slots=words.get("and").join(str(s) for s in home)))
        lines.append(words.get("line", name=words.name(seat), parts="; ".join(parts)))
    to_move = snapshot.get("to_move")
    if snapshot.get("over"):
        lines.append(words.get("over"))
    elif isinstance(to_move, int) and 0 <= to_move < board.seats:
        lines.append(words.get("plays", name=words.name(to_move)))
    return lines


def _segment(board: _Board, words: _Words, seat: int, card: str, source: Any, target: Any, *,
             after: bool) -> str:
    """One marble's move: where it stood, how far it went, where it arrived."""
    home_target = HOME_TOKEN.match(target) if isinstance(target, str) else None
    owner = board.owner(target if after else source)
    if owner is None:
        owner = int(home_target.group(1)) if home_target else seat
    marble = words.get("marble", where=_where(board, words, owner, source))
    if owner != seat:
        marble = words.get("owned", owner=words.name(owner), marble=marble)
    destination = (words.get("to_home", slot=int(home_target.group(2))) if home_target
                   else words.get("to_field", where=_where(board, words, owner, target)))
    start, end = _field(source), _field(target)
    if home_target and start is not None:
        entry = board.start(owner)
        distance = (entry - start) % board.ring + int(home_target.group(2))
    elif start is not None and end is not None:
        distance = (end - start) % board.ring
    else:  # within the home: slot to slot
        slots = [int(m.group(2)) for t in (source, target) if isinstance(t, str) and (m := HOME_TOKEN.match(t))]
        distance = abs(slots[1] - slots[0]) if len(slots) == 2 else 0
    if card == "4" and start is not None and end is not None:
        return words.get("backward", marble=marble, n=(start - end) % board.ring, to=destination)
    return words.get("forward", marble=marble, n=distance, to=destination)


def _what(board: _Board, words: _Words, action: Mapping[str, Any], seat: int, *, after: bool) -> str:
    card = str(action.get("card", ""))
    parts: list[str] = []
    if action.get("enter") is True:
        parts.append(words.get("enter"))
    moves = action.get("moves")
    for segment in moves if isinstance(moves, list) else []:
        if isinstance(segment, list) and len(segment) == 2:
            parts.append(_segment(board, words, seat, card, segment[0], segment[1], after=after))
    swap = action.get("swap")
    if isinstance(swap, list) and len(swap) == 2:
        described = []
        for token in swap:
            owner = board.owner(token)
            owner = seat if owner is None else owner
            marble = words.get("marble", where=_where(board, words, owner, token))
            described.append(words.get("owned", owner=words.name(owner), marble=marble))
        parts.append(words.get("swap", first=described[0], second=described[1]))
    if "strike" in action:
        token = action["strike"]
        owner = board.owner(token)
        owner = seat if owner is None else owner
        marble = words.get("owned", owner=words.name(owner),
                           marble=words.get("marble", where=_where(board, words, owner, token)))
        parts.append(words.get("strike", marble=marble))
    if action.get("skip") is True:
        parts.append(words.get("skip"))
    if action.get("discard") is True:
        parts.append(words.get("discard"))
    text = words.get("and").join(parts)
    then = action.get("then")
    if isinstance(then, Mapping):
        then_text = _what(board, words, then, seat, after=after)
        then_card = str(then.get("card", ""))
        second = f"{then_card}, {then_text}" if then_card and then_text else then_card or then_text
        text = words.get("then", first=text, second=second) if text else second
    return text


def describe_move(
    action: Mapping[str, Any] | None,
    snapshot: Mapping[str, Any],
    names: Sequence[str],
    texts: Mapping[str, str] | None = None,
    *,
    after: bool = True,
) -> str:
    """A marble-game action in words. `snapshot` is the position after the move (after=True, the replay's
    and the scoresheet's last entry) or before it (after=False, a move still to choose); "" when unknown."""
    if not isinstance(action, Mapping) or snapshot.get("kind") != "marbles" or "card" not in action:
        return ""
    board = _Board(snapshot)
    words = _Words(texts, names, board.seats)
    seat = action.get("seat")
    seat = seat if isinstance(seat, int) else 0
    what = _what(board, words, action, seat, after=after)
    card = str(action.get("card"))
    if action.get("as"):
        card += f" ({action['as']})"
    return words.get("move", name=words.name(seat), card=card, what=what) if what else f"{words.name(seat)}: {card}"
