"""Occupancy of the ring and the homes. Prefields are implicit: 4 minus the marbles on the board."""

from __future__ import annotations

from rules.track.board import Board

MARBLES_PER_COLOUR = 4


class Marbles:
    """Which colour stands on which position. Cheap to copy."""

    __slots__ = ("at", "board")

    def __init__(self, board: Board, at: dict[int, int] | None = None) -> None:
        self.board = board
        self.at: dict[int, int] = dict(at) if at else {}

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Marbles) and self.board == other.board and self.at == other.at

    def __hash__(self) -> int:
        return hash(frozenset(self.at.items()))

    def __repr__(self) -> str:
        tokens = {self.board.token(p): c for p, c in sorted(self.at.items())}
        return f"Marbles({tokens})"

    def copy(self) -> Marbles:
        clone = Marbles.__new__(Marbles)
        clone.board = self.board
        clone.at = self.at.copy()
        return clone

    def colour_at(self, pos: int) -> int | None:
        return self.at.get(pos)

    def positions(self, colour: int) -> list[int]:
        return sorted(p for p, c in self.at.items() if c == colour)

    def ring_positions(self, colour: int) -> list[int]:
        ring = self.board.ring
        return sorted(p for p, c in self.at.items() if c == colour and p < ring)

    def prefield(self, colour: int) -> int:
        return MARBLES_PER_COLOUR - sum(1 for c in self.at.values() if c == colour)

    def home_count(self, colour: int) -> int:
        ring = self.board.ring
        return sum(1 for p, c in self.at.items() if c == colour and p >= ring)

    def place(self, pos: int, colour: int) -> int | None:
        """Put a marble on `pos`; a marble already there is captured (returned to its prefield)."""
        captured = self.at.get(pos)
        self.at[pos] = colour
        return captured

    def remove(self, pos: int) -> int:
        return self.at.pop(pos)

    def move(self, frm: int, to: int) -> int | None:
        colour = self.at.pop(frm)
        captured = self.at.get(to)
        self.at[to] = colour
        return captured

    def swap(self, a: int, b: int) -> None:
        ca, cb = self.at[a], self.at[b]
        self.at[a], self.at[b] = cb, ca

    def locked(self, pos: int) -> bool:
        """A home marble is locked when every deeper slot of its home is occupied."""
        board = self.board
        if pos < board.ring:
            return False
        seat = board.home_owner(pos)
        return all(board.home(seat, s) in self.at for s in range(board.home_slot(pos) + 1, board.home_slots + 1))
