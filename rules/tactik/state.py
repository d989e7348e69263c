"""One Tac-Tik position and its rules: whose turn, legal actions, applying an action.

Marbles are kept in :class:`rules.track.marbles.Marbles` (position -> colour; prefields implicit).
The only per-marble state is the *pieu*: the set of start fields whose marble has just entered and
has neither moved nor been swapped since. A pieu always stands on its own colour's start field.

Movement (spec sections 3 and 5, rule decisions in section 9 and docs/rules/tactik.md):

* forward cards move one marble exactly their value; a non-pieu marble may branch into its own base
  at its start field; a pieu never branches;
* nothing may pass or land on a pieu (of any colour, its owner's included), nor pass or land on a
  base marble; landing on any other marble captures it (whatever its colour);
* the -4 moves a ring marble 4 fields back along the ring, never into a base;
* the 7x1 moves marbles of the seat's colour by segments totalling 7 and captures every ring marble
  it passes or lands on;
* the permuter swaps a ring marble of the seat's colour (its pieu included) with another ring marble
  that is not another colour's pieu; both swapped marbles are ordinary afterwards.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, Self

from rules.core.errors import ErrorCode, RecordError
from rules.core.pointer import child
from rules.tactik.actions import Action
from rules.tactik.cards import (
    BACKWARD,
    BACKWARD_STEPS,
    ENTER_CARDS,
    FORWARD_STEPS,
    PERMUTER,
    SPLIT,
    SPLIT_STEPS,
)
from rules.tactik.game import Variant
from rules.track.board import Board
from rules.track.marbles import MARBLES_PER_COLOUR, Marbles
from rules.track.options import turn_options

PathKey = tuple[int, int, int, bool, bool]
Path = tuple[int, ...]


class Geometry:
    """Cached paths and targets of one board (the board computes them; we only remember them)."""

    __slots__ = ("_paths", "_targets", "board")
    _by_board: dict[Board, Geometry] = {}

    def __init__(self, board: Board) -> None:
        self.board = board
        self._paths: dict[PathKey, Path | None] = {}
        self._targets: dict[PathKey, tuple[int, ...]] = {}

    @classmethod
    def of(cls, board: Board) -> Geometry:
        geo = cls._by_board.get(board)
        if geo is None:
            geo = cls._by_board[board] = cls(board)
        return geo

    def path(self, colour: int, frm: int, to: int, backward: bool, branch: bool) -> Path | None:
        key = (colour, frm, to, backward, branch)
        try:
            return self._paths[key]
        except KeyError:
            found = self._paths[key] = self.board.path(colour, frm, to, backward=backward, branch=branch)
            return found

    def targets(self, colour: int, frm: int, steps: int, backward: bool, branch: bool) -> tuple[int, ...]:
        key = (colour, frm, steps, backward, branch)
        try:
            return self._targets[key]
        except KeyError:
            found = self._targets[key] = self.board.targets(
                colour, frm, steps, backward=backward, branch=branch
            )
            return found


def _illegal(path: str, message: str) -> RecordError:
    return RecordError(ErrorCode.ILLEGAL_MOVE, path, message)


class State:
    """A position: marbles, pieux, hands, the dealer and whose turn it is."""

    __slots__ = (
        "board",
        "dealer",
        "deal_index",
        "geo",
        "hands",
        "marbles",
        "pieux",
        "to_move",
        "variant",
        "winners",
    )

    def __init__(
        self,
        variant: Variant,
        *,
        marbles: Marbles | None = None,
        pieux: set[int] | None = None,
        hands: list[list[str]] | None = None,
        dealer: int = 0,
        deal_index: int = 0,
        to_move: int | None = None,
    ) -> None:
        self.variant = variant
        self.board = variant.board
        self.geo = Geometry.of(self.board)
        self.marbles = marbles if marbles is not None else Marbles(self.board)
        self.pieux: set[int] = pieux if pieux is not None else set()
        self.hands: list[list[str]] = hands if hands is not None else [[] for _ in range(variant.seats)]
        self.dealer = dealer
        self.deal_index = deal_index
        self.to_move = to_move
        self.winners: tuple[int, ...] | None = None
        self._check_win_all()

    # --- protocol -----------------------------------------------------------------------------
    def clone(self) -> Self:
        other = object.__new__(type(self))
        other.variant = self.variant
        other.board = self.board
        other.geo = self.geo
        other.marbles = self.marbles.copy()
        other.pieux = set(self.pieux)
        other.hands = [list(h) for h in self.hands]
        other.dealer = self.dealer
        other.deal_index = self.deal_index
        other.to_move = self.to_move
        other.winners = self.winners
        return other

    def __eq__(self, other: object) -> bool:
        return (
            isinstance(other, State)
            and self.variant == other.variant
            and self.marbles.at == other.marbles.at
            and self.pieux == other.pieux
            and [sorted(h) for h in self.hands] == [sorted(h) for h in other.hands]
            and (self.dealer, self.deal_index, self.to_move, self.winners)
            == (other.dealer, other.deal_index, other.to_move, other.winners)
        )

    __hash__ = None  # type: ignore[assignment]

    def is_terminal(self) -> bool:
        return self.winners is not None

    def outcome(self) -> dict[str, Any] | None:
        if self.winners is None:
            return None
        return {"winners": list(self.winners)}

    def legal_actions(self) -> Sequence[Action]:
        """Every legal action of the seat to move (7x1 and permuter in one canonical form each)."""
        seat = self.to_move
        if seat is None or self.winners is not None:
            return []
        colour = self.colour_for(seat)
        distinct = sorted(set(self.hands[seat]))
        own = self.own_positions(colour)
        return turn_options(
            distinct,
            distinct,
            lambda card: self.card_actions(seat, colour, card, first_only=False, own=own),
            lambda card: Action(seat, card, "discard"),
        )

    def apply(self, action: Action, path: str = "") -> None:
        """Check `action` against the rules and perform it; RecordError (at `path`) if it is not legal."""
        if self.winners is not None:
            raise RecordError(
                ErrorCode.GAME_ALREADY_OVER, path, f"The game is over: seats {list(self.winners)} won."
            )
        if self.to_move is None:
            raise RecordError(
                ErrorCode.WRONG_SEAT, path, "No seat is to act: every hand of this deal is played out."
            )
        seat = action.seat
        if seat != self.to_move:
            raise RecordError(
                ErrorCode.WRONG_SEAT, path + "/seat", f"Seat {self.to_move} is to act, not seat {seat}."
            )
        hand = self.hands[seat]
        if action.card not in hand:
            raise RecordError(
                ErrorCode.CARD_NOT_IN_HAND, path + "/card", f"Seat {seat} does not hold {action.card!r}."
            )
        colour = self.colour_for(seat)
        if action.kind == "discard":
            own = self.own_positions(colour)
            for card in sorted(set(hand)):
                playable = self.card_actions(seat, colour, card, first_only=True, own=own)
                if playable:
                    example = playable[0].to_json(self.board)
                    example.pop("seat")
                    raise RecordError(
                        ErrorCode.MUST_PLAY, path, f"Seat {seat} discarded although it can play {example}."
                    )
        else:
            self._check_and_perform(action, colour, path)
        hand.remove(action.card)
        self._after_action(seat)

    def replay_last(self, action: Action, path: str) -> None:
        """Perform the setup's `last` action on the position, without turn or hand checks."""
        if action.kind != "discard":
            self._check_and_perform(action, self.colour_for(action.seat), path)
        self._check_win_all()

    def play(self, action: Action) -> None:
        """Perform an action taken from :meth:`legal_actions` (no second check; for random play)."""
        seat = action.seat
        if action.kind != "discard":
            self._perform(action, self.colour_for(seat))
        self.hands[seat].remove(action.card)
        self._after_action(seat)

    # --- whose turn, which colour -------------------------------------------------------------
    def colour_for(self, seat: int) -> int:
        """The colour a seat moves: its own until its 4 marbles are home, then its partner's."""
        if self.home_count(seat) == MARBLES_PER_COLOUR:
            return self.variant.partner[seat]
        return seat

    def home_count(self, colour: int) -> int:
        """Marbles in the colour's base (a base only ever holds its own colour; 4 slots)."""
        at = self.marbles.at
        first = self.board.ring + 4 * colour
        return (first in at) + (first + 1 in at) + (first + 2 in at) + (first + 3 in at)

    def on_board(self, colour: int) -> int:
        return sum(1 for c in self.marbles.at.values() if c == colour)

    def next_seat(self, after: int) -> int | None:
        """The next seat clockwise after `after` that still holds cards (`after` itself last)."""
        n = self.variant.seats
        for i in range(1, n + 1):
            seat = (after + i) % n
            if self.hands[seat]:
                return seat
        return None

    def start_deal(self, dealer: int, deal_index: int, hands: list[list[str]]) -> None:
        self.dealer = dealer
        self.deal_index = deal_index
        self.hands = hands
        self.to_move = self.next_seat(dealer)

    def _after_action(self, seat: int) -> None:
        """A team wins as soon as both its colours are home; otherwise the next seat with cards moves."""
        partner = self.variant.partner[seat]
        if self.home_count(seat) == MARBLES_PER_COLOUR and self.home_count(partner) == MARBLES_PER_COLOUR:
            self.winners = self.variant.team_of(seat)
        self.to_move = self.next_seat(seat)

    def _check_win_all(self) -> None:
        for team in self.variant.teams:
            if all(self.home_count(c) == MARBLES_PER_COLOUR for c in team):
                self.winners = team

    # --- movement -----------------------------------------------------------------------------
    def _trace(
        self,
        at: dict[int, int],
        pieux: set[int],
        colour: int,
        frm: int,
        to: int,
        *,
        backward: bool,
        steps: int | None,
    ) -> Path | str:
        """The fields a marble of `colour` passes from `frm` to `to`, or why it cannot go there."""
        board = self.board
        ring = board.ring
        owner = at.get(frm)
        if owner is None:
            return f"No marble stands on {board.token(frm)}."
        if owner != colour:
            return f"The marble on {board.token(frm)} is colour {owner}; seat moves colour {colour}."
        if backward:
            if frm >= ring:
                return "A marble in its base cannot move backward."
            if to >= ring:
                return "The -4 never moves a marble into a base."
            path = self.geo.path(colour, frm, to, True, False)
        else:
            is_pieu = frm in pieux
            path = self.geo.path(colour, frm, to, False, not is_pieu)
            if path is None:
                if frm >= ring:
                    return f"A marble in its base moves only forward inside it, not to {board.token(to)}."
                if to >= ring and board.home_owner(to) == colour and is_pieu:
                    return "A pieu cannot enter its base."
                return f"{board.token(to)} cannot be reached from {board.token(frm)}."
        if path is None:
            return f"{board.token(to)} cannot be reached from {board.token(frm)}."
        if steps is not None and len(path) != steps:
            return f"{board.token(frm)} to {board.token(to)} is {len(path)} fields, not {steps}."
        for p in path[:-1]:
            if p in pieux:
                return f"The pieu on {board.token(p)} cannot be passed."
            if p >= ring and p in at:
                return f"The marble on {board.token(p)} is in its base and cannot be passed."
        dest = path[-1]
        if dest in pieux:
            return f"The pieu on {board.token(dest)} cannot be captured."
        if dest >= ring and dest in at:
            return f"{board.token(dest)} is taken: a marble in its base cannot be captured."
        return path

    def _exact_targets(
        self, at: dict[int, int], pieux: set[int], colour: int, frm: int, steps: int
    ) -> list[int]:
        """Where the marble on `frm` may go forward with exactly `steps` steps.

        The same rules as :meth:`_trace` without building paths (the conformance oracle holds the two to
        agreement): no pieu passed or landed on; into the base only from a non-pieu, through the start
        field, over and onto free slots; inside the base, over and onto free slots.
        """
        board = self.board
        ring = board.ring
        out: list[int] = []
        if frm >= ring:
            slot = board.home_slot(frm)
            if slot + steps <= board.home_slots:
                base = frm - slot
                if all(base + k not in at for k in range(slot + 1, slot + steps + 1)):
                    out.append(frm + steps)
            return out
        clear = steps + 1  # fields frm+1 .. frm+clear-1 hold no pieu
        for k in range(1, steps + 1):
            if (frm + k) % ring in pieux:
                clear = k
                break
        if clear > steps:
            out.append((frm + steps) % ring)
        to_entry = (board.entry(colour) - frm) % ring
        slot = steps - to_entry
        if 1 <= slot <= board.home_slots and clear > to_entry and frm not in pieux:
            first = board.home(colour, 1)
            if all(first + k not in at for k in range(slot)):
                out.append(first + slot - 1)
        return out

    def _move(self, at: dict[int, int], pieux: set[int], frm: int, path: Path, capture_passed: bool) -> None:
        colour = at.pop(frm)
        pieux.discard(frm)
        if capture_passed:
            ring = self.board.ring
            for p in path[:-1]:
                if p < ring:
                    at.pop(p, None)
        at[path[-1]] = colour

    def _check_and_perform(self, action: Action, colour: int, path: str) -> None:
        card = action.card
        board = self.board
        at = self.marbles.at
        pieux = self.pieux
        if action.kind == "enter":
            k_path = path + "/enter"
            if card not in ENTER_CARDS:
                raise _illegal(k_path, f"{card!r} cannot start a marble; only 1 and 10 can.")
            if self.on_board(colour) == MARBLES_PER_COLOUR:
                raise _illegal(k_path, f"Colour {colour} has no marble left to start.")
            start = board.start(colour)
            if start in pieux:
                raise _illegal(k_path, f"A pieu stands on start field {start}: nothing can start onto it.")
            at[start] = colour
            pieux.add(start)
            return
        if action.kind == "swap":
            k_path = path + "/swap"
            if card != PERMUTER:
                raise _illegal(k_path, f"{card!r} cannot swap marbles; only the permuter can.")
            a, b = action.segments[0]
            message = self._swap_error(colour, a, b)
            if message is not None:
                raise _illegal(k_path, message)
            self.marbles.swap(a, b)
            pieux.discard(a)
            pieux.discard(b)
            return
        m_path = path + "/moves"
        segments = action.segments
        if card == SPLIT:
            work = dict(at)
            work_pieux = set(pieux)
            total = 0
            for i, (frm, to) in enumerate(segments):
                traced = self._trace(work, work_pieux, colour, frm, to, backward=False, steps=None)
                if isinstance(traced, str):
                    raise _illegal(child(m_path, i), traced)
                total += len(traced)
                if total > SPLIT_STEPS:
                    raise _illegal(
                        child(m_path, i), f"The 7x1 moves 7 fields, and this segment makes {total}."
                    )
                self._move(work, work_pieux, frm, traced, True)
            if total != SPLIT_STEPS:
                raise _illegal(m_path, f"The 7x1 must use all 7 fields, not {total}.")
            self.marbles.at = work
            self.pieux = work_pieux
            return
        if card == PERMUTER:
            raise _illegal(m_path, "The permuter swaps two marbles; it does not move one.")
        if len(segments) != 1:
            raise _illegal(m_path, f"Only the 7x1 moves several segments; {card!r} moves one marble.")
        frm, to = segments[0]
        backward = card == BACKWARD
        steps = BACKWARD_STEPS if backward else FORWARD_STEPS[card]
        traced = self._trace(at, pieux, colour, frm, to, backward=backward, steps=steps)
        if isinstance(traced, str):
            raise _illegal(child(m_path, 0), traced)
        self._move(at, pieux, frm, traced, False)

    def _swap_error(self, colour: int, a: int, b: int) -> str | None:
        at = self.marbles.at
        board = self.board
        ring = board.ring
        if a >= ring or b >= ring:
            return "Marbles in a base cannot be swapped."
        if a == b:
            return "The permuter swaps two different marbles."
        ca, cb = at.get(a), at.get(b)
        if ca is None or cb is None:
            return f"No marble stands on {a if ca is None else b}."
        if ca != colour and cb != colour:
            return f"One of the swapped marbles must be the seat's colour {colour}."
        for p, c in ((a, ca), (b, cb)):
            if p in self.pieux and c != colour:
                return f"The pieu on {p} belongs to colour {c}; only its owner may swap it."
        return None

    def _perform(self, action: Action, colour: int) -> None:
        """Perform an action known to be legal (from legal_actions)."""
        if action.kind == "enter":
            start = self.board.start(colour)
            self.marbles.at[start] = colour
            self.pieux.add(start)
        elif action.kind == "swap":
            a, b = action.segments[0]
            self.marbles.swap(a, b)
            self.pieux.discard(a)
            self.pieux.discard(b)
        else:
            split = action.card == SPLIT
            backward = action.card == BACKWARD
            at = self.marbles.at
            for frm, to in action.segments:
                path = self.geo.path(colour, frm, to, backward, not backward and frm not in self.pieux)
                assert path is not None
                self._move(at, self.pieux, frm, path, split)

    # --- move generation ----------------------------------------------------------------------
    def own_positions(self, colour: int) -> list[int]:
        """The sorted positions of a colour's marbles on the ring and in its base."""
        return sorted([p for p, c in self.marbles.at.items() if c == colour])

    def card_actions(
        self, seat: int, colour: int, card: str, *, first_only: bool, own: list[int] | None = None
    ) -> list[Action]:
        """The legal actions of one card (empty if it cannot be played); `first_only` stops at one.

        `own` may pass :meth:`own_positions` of `colour` when the caller already has them.
        """
        at = self.marbles.at
        pieux = self.pieux
        board = self.board
        ring = board.ring
        out: list[Action] = []
        if own is None:
            own = self.own_positions(colour)
        if card in ENTER_CARDS and len(own) < MARBLES_PER_COLOUR and board.start(colour) not in pieux:
            out.append(Action(seat, card, "enter"))
            if first_only:
                return out
        steps = FORWARD_STEPS.get(card)
        if steps is not None:
            for p in own:
                for t in self._exact_targets(at, pieux, colour, p, steps):
                    out.append(Action(seat, card, "moves", ((p, t),)))
                    if first_only:
                        return out
        elif card == BACKWARD:
            for p in own:
                if p >= ring:
                    continue
                t = (p - BACKWARD_STEPS) % ring
                if not isinstance(
                    self._trace(at, pieux, colour, p, t, backward=True, steps=BACKWARD_STEPS), str
                ):
                    out.append(Action(seat, card, "moves", ((p, t),)))
                    if first_only:
                        return out
        elif card == PERMUTER:
            mine = [p for p in own if p < ring]
            for a in mine:
                for b in sorted(at):
                    if b >= ring or b == a:
                        continue
                    cb = at[b]
                    if cb == colour:
                        if b < a:
                            continue  # two own marbles: listed once
                    elif b in pieux:
                        continue
                    out.append(Action(seat, card, "swap", ((a, b),)))
                    if first_only:
                        return out
        elif card == SPLIT:
            out.extend(self._split_actions(seat, colour, first_only))
        return out

    def random_split(self, seat: int, colour: int, rng: random.Random) -> Action | None:
        """One legal 7x1 action found by a search in random order (random play), or None if there is none."""
        found = self._split_actions(seat, colour, True, rng)
        return found[0] if found else None

    def _split_actions(
        self, seat: int, colour: int, first_only: bool, rng: random.Random | None = None
    ) -> list[Action]:
        """7x1 actions in canonical form: each marble moves in at most one segment, results distinct.

        With `rng`, marbles and step counts are tried in a randomly rotated order (with `first_only`: one
        random action).
        """
        found: dict[tuple[frozenset[tuple[int, int]], frozenset[int]], Action] = {}

        def search(
            at: dict[int, int],
            pieux: set[int],
            remaining: int,
            moved: frozenset[int],
            segs: tuple[tuple[int, int], ...],
        ) -> bool:
            movable = [p for p, c in at.items() if c == colour and p not in moved]
            counts = list(range(1, remaining + 1))
            if rng is not None:  # a random rotation of each order: cheap, and every choice stays possible
                k = rng.randrange(len(movable)) if movable else 0
                movable = movable[k:] + movable[:k]
                k = rng.randrange(remaining)
                counts = counts[k:] + counts[:k]
            for p in movable:
                branch = p not in pieux
                for s in counts:
                    if s < remaining and len(movable) == 1:
                        continue
                    for t in self.geo.targets(colour, p, s, False, branch):
                        traced = self._trace(at, pieux, colour, p, t, backward=False, steps=s)
                        if isinstance(traced, str):
                            continue
                        at2 = dict(at)
                        pieux2 = set(pieux)
                        self._move(at2, pieux2, p, traced, True)
                        seq = (*segs, (p, t))
                        if s == remaining:
                            key = (frozenset(at2.items()), frozenset(pieux2))
                            if key not in found:
                                found[key] = Action(seat, SPLIT, "moves", seq)
                            if first_only:
                                return True
                        elif search(at2, pieux2, remaining - s, moved | {t}, seq) and first_only:
                            return True
            return False

        search(self.marbles.at, self.pieux, SPLIT_STEPS, frozenset(), ())
        return list(found.values())
