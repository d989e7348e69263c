"""One Tock position and the rules that move it on (spec sections 3 and 6, BGA rule text).

Marbles are named by their positions (``rules.track``). The only per-marble state is protection:
``protected`` holds the colours whose marble on their own start field was brought in there (by A, K
or the quick start) and has not left it since.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from rules.core.errors import ErrorCode, RecordError
from rules.core.pointer import child
from rules.tock.actions import DISCARD, ENTER, MOVES, SWAP, TockAction
from rules.tock.cards import BACK_CARD, BAN_CARD, ENTER_CARDS, SEVEN, STEPS, SWAP_CARD
from rules.tock.game import TockVariant
from rules.track.board import Board
from rules.track.marbles import MARBLES_PER_COLOUR, Marbles
from rules.track.options import turn_options

#: The 7 is made of seven single steps.
SEVEN_STEPS = 7
#: Paths kept per board shape before the memo starts afresh (targets need no limit: steps are at most 13).
PATH_MEMO_LIMIT = 100_000


class Geometry:
    """`Board.path` and `Board.targets` memoized: they depend on the board alone, and move generation
    asks the same questions again and again. Shared by a state and its clones."""

    __slots__ = ("board", "_paths", "_targets")

    def __init__(self, board: Board) -> None:
        self.board = board
        self._paths: dict[tuple[int, int, int, bool, bool], tuple[int, ...] | None] = {}
        self._targets: dict[tuple[int, int, int, bool, bool], tuple[int, ...]] = {}

    def path(self, colour: int, frm: int, to: int, backward: bool, branch: bool) -> tuple[int, ...] | None:
        key = (colour, frm, to, backward, branch)
        try:
            return self._paths[key]
        except KeyError:
            if len(self._paths) >= PATH_MEMO_LIMIT:  # records may name any pair of fields: stay bounded
                self._paths.clear()
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


_GEOMETRIES: dict[Board, Geometry] = {}


def geometry_of(board: Board) -> Geometry:
    """One memo per board shape (there are few: seats x fields per seat x entry offset)."""
    geometry = _GEOMETRIES.get(board)
    if geometry is None:
        geometry = _GEOMETRIES[board] = Geometry(board)
    return geometry


def make_board(variant: TockVariant) -> Board:
    return Board(
        seats=variant.seats,
        fields_per_seat=variant.ring_fields_per_seat,
        home_entry_offset=variant.home_entry_offset,
    )


class TockState:
    """A Tock position: marbles, protection, hands, whose turn, a pending ban, the deal schedule."""

    __slots__ = (
        "variant",
        "board",
        "ring",
        "starts",
        "homes",
        "marbles",
        "protected",
        "hands",
        "to_move",
        "dealer",
        "deal_index",
        "banned",
        "winners",
        "cycle_counts",
        "partners",
        "geometry",
    )

    def __init__(self, variant: TockVariant, board: Board | None = None) -> None:
        self.variant = variant
        self.board = board if board is not None else make_board(variant)
        n = variant.seats
        self.ring = self.board.ring
        self.starts: tuple[int, ...] = tuple(self.board.start(k) for k in range(n))
        self.homes: tuple[tuple[int, ...], ...] = tuple(
            tuple(self.board.home(k, s) for s in range(1, self.board.home_slots + 1)) for k in range(n)
        )
        self.marbles = Marbles(self.board)
        self.protected: set[int] = set()
        self.hands: list[list[str]] = [[] for _ in range(n)]
        self.to_move = -1  # -1: no seat holds cards (between deals)
        self.dealer = n - 1
        self.deal_index = 0
        self.banned = False
        self.winners: tuple[int, ...] | None = None
        self.cycle_counts: dict[str, int] = {}
        self.partners: tuple[int | None, ...] = tuple(variant.partner(k) for k in range(n))
        self.geometry = geometry_of(self.board)

    # --- construction -------------------------------------------------------------------------
    @classmethod
    def initial(cls, variant: TockVariant) -> TockState:
        """The start of a game: marbles in the start areas, or one protected marble each (quick start)."""
        state = cls(variant)
        if variant.quick_start:
            for k in range(variant.seats):
                state.marbles.at[state.starts[k]] = k
                state.protected.add(k)
        return state

    def clone(self) -> TockState:
        other = TockState.__new__(TockState)
        other.variant = self.variant
        other.board = self.board
        other.ring = self.ring
        other.starts = self.starts
        other.homes = self.homes
        other.marbles = self.marbles.copy()
        other.protected = set(self.protected)
        other.hands = [list(h) for h in self.hands]
        other.to_move = self.to_move
        other.dealer = self.dealer
        other.deal_index = self.deal_index
        other.banned = self.banned
        other.winners = self.winners
        other.cycle_counts = dict(self.cycle_counts)
        other.partners = self.partners
        other.geometry = self.geometry
        return other

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, TockState):
            return NotImplemented
        return (
            self.variant == other.variant
            and self.marbles.at == other.marbles.at
            and self.protected == other.protected
            and self.hands == other.hands
            and self.to_move == other.to_move
            and self.dealer == other.dealer
            and self.deal_index == other.deal_index
            and self.banned == other.banned
            and self.winners == other.winners
            and self.cycle_counts == other.cycle_counts
        )

    __hash__ = None  # type: ignore[assignment]

    # --- derived facts ------------------------------------------------------------------------
    def home_count(self, colour: int) -> int:
        at = self.marbles.at
        return sum(1 for pos in self.homes[colour] if pos in at)

    def prefield(self, colour: int) -> int:
        return MARBLES_PER_COLOUR - sum(1 for c in self.marbles.at.values() if c == colour)

    def colour_of(self, seat: int) -> int:
        """The colour a seat moves: its own, or in teams the partner's once its own 4 are home."""
        partner = self.partners[seat]
        if partner is not None and self.home_count(seat) == MARBLES_PER_COLOUR:
            return partner
        return seat

    def is_protected(self, pos: int) -> bool:
        colour = self.marbles.at.get(pos)
        return colour is not None and colour in self.protected and pos == self.starts[colour]

    def next_seat(self, seat: int) -> int:
        """The next seat clockwise after `seat` that still holds cards, or -1 if none does."""
        n = self.variant.seats
        for i in range(1, n + 1):
            s = (seat + i) % n
            if self.hands[s]:
                return s
        return -1

    def is_terminal(self) -> bool:
        return self.winners is not None

    def outcome(self) -> dict[str, Any] | None:
        if self.winners is None:
            return None
        return {"winners": list(self.winners)}

    def deal_over(self) -> bool:
        return self.to_move < 0

    # --- deals --------------------------------------------------------------------------------
    def begin_deal(self, dealer: int, deal_index: int, hands: list[list[str]]) -> None:
        """Start a deal with the hands as held for play (after any exchange)."""
        self.dealer = dealer
        self.deal_index = deal_index
        self.hands = [list(h) for h in hands]
        self.banned = False
        self.to_move = self.next_seat(dealer)

    # --- geometry with the Tock rules ---------------------------------------------------------
    def _segment(
        self, at: dict[int, int], prot: set[int], colour: int, frm: int, to: int, backward: bool
    ) -> tuple[int, ...] | str:
        """The path of one segment, or why it is illegal (the same for every card; the 7 differs only
        in what it captures, see `_move`).

        Forward along the ring or into the own goal (never for a protected marble); backward only on
        the ring. No passing a protected marble, no jumping inside the goal, no landing on a protected
        marble or an occupied goal field.
        """
        ring = self.ring
        board = self.board
        if at.get(frm) != colour:
            return f"There is no marble of colour {colour} on {board.token(frm)}."
        if frm >= ring and backward:
            return "A marble in the goal never moves backward (Daheim ist Daheim)."
        if backward and to >= ring:
            return "The 4 never moves a marble backward into the goal."
        fresh = frm < ring and colour in prot and frm == self.starts[colour]
        path = self.geometry.path(colour, frm, to, backward, not backward and not fresh)
        if path is None:
            if fresh and to >= ring:
                return "A protected marble on its start field cannot enter the goal before it has left it."
            return f"{board.token(to)} cannot be reached from {board.token(frm)}."
        starts = self.starts
        for pos in path[:-1]:
            occupant = at.get(pos)
            if occupant is None:
                continue
            if pos >= ring:
                return f"Marbles in the goal cannot be jumped ({board.token(pos)})."
            if occupant in prot and pos == starts[occupant]:
                return f"The protected marble on {pos} cannot be passed."
        occupant = at.get(to)
        if occupant is not None:
            if to >= ring:
                return f"The goal field {board.token(to)} is occupied."
            if occupant in prot and to == starts[occupant]:
                return f"The protected marble on {to} cannot be captured."
        return path

    def _move(self, at: dict[int, int], prot: set[int], frm: int, path: tuple[int, ...], seven: bool) -> None:
        """Perform a checked segment: the 7 captures every marble passed, any move the one landed on."""
        colour = at.pop(frm)
        if frm == self.starts[colour]:
            prot.discard(colour)
        if seven:
            for pos in path[:-1]:
                if pos in at:
                    del at[pos]
        at[path[-1]] = colour

    def _enter_error(self, colour: int) -> str | None:
        if self.prefield(colour) == 0:
            return f"Colour {colour} has no marble left in its start area."
        if colour in self.protected:
            return f"The protected marble on start field {self.starts[colour]} cannot be captured."
        return None

    def _swap_error(self, colour: int, a: int, b: int) -> str | None:
        at = self.marbles.at
        ring = self.ring
        if a >= ring or b >= ring:
            return "The J swaps two marbles on the ring, never in the goal."
        if a == b:
            return "The J needs two different marbles."
        ca, cb = at.get(a), at.get(b)
        if ca is None or cb is None:
            return f"There is no marble on {a if ca is None else b}."
        if ca != colour and cb != colour:
            return f"One of the swapped marbles must be of colour {colour}."
        if self.is_protected(a) or self.is_protected(b):
            return "A protected marble on its start field cannot be swapped."
        return None

    # --- move generation ----------------------------------------------------------------------
    def _step_actions(
        self, seat: int, colour: int, card: str, steps: int, backward: bool
    ) -> list[TockAction]:
        at = self.marbles.at
        prot = self.protected
        ring = self.ring
        out: list[TockAction] = []
        for frm in [p for p, c in at.items() if c == colour]:
            if backward and frm >= ring:
                continue
            fresh = frm < ring and colour in prot and frm == self.starts[colour]
            for to in self.geometry.targets(colour, frm, steps, backward, not backward and not fresh):
                if backward and to >= ring:
                    continue
                if not isinstance(self._segment(at, prot, colour, frm, to, backward), str):
                    out.append(TockAction(seat, card, MOVES, ((frm, to),)))
        return out

    def _seven_single(self, seat: int, colour: int, first_only: bool) -> list[TockAction]:
        at = self.marbles.at
        prot = self.protected
        ring = self.ring
        out: list[TockAction] = []
        for frm in [p for p, c in at.items() if c == colour]:
            fresh = frm < ring and colour in prot and frm == self.starts[colour]
            for steps in range(SEVEN_STEPS, 0, -1):
                for to in self.geometry.targets(colour, frm, steps, False, not fresh):
                    if not isinstance(self._segment(at, prot, colour, frm, to, False), str):
                        out.append(TockAction(seat, SEVEN, MOVES, ((frm, to),)))
                        if first_only:
                            return out
        return out

    def _seven_split(
        self,
        at: dict[int, int],
        prot: set[int],
        colour: int,
        remaining: int,
        moved: frozenset[int],
        prefix: tuple[tuple[int, int], ...],
        out: list[tuple[tuple[int, int], ...]],
        first_only: bool,
        rng: random.Random | None = None,
    ) -> bool:
        """Every way to spend `remaining` steps, each marble moving at most once (in any order).

        With `rng` the marbles and step counts are tried in random order (random play takes the first).
        """
        ring = self.ring
        marbles = [p for p, c in at.items() if c == colour and p not in moved]
        step_counts = list(range(remaining, 0, -1))
        if rng is not None:
            rng.shuffle(marbles)
            rng.shuffle(step_counts)
        for frm in marbles:
            fresh = frm < ring and colour in prot and frm == self.starts[colour]
            for steps in step_counts:
                for to in self.geometry.targets(colour, frm, steps, False, not fresh):
                    path = self._segment(at, prot, colour, frm, to, False)
                    if isinstance(path, str):
                        continue
                    segs = (*prefix, (frm, to))
                    if steps == remaining:
                        out.append(segs)
                        if first_only:
                            return True
                        continue
                    at2 = dict(at)
                    prot2 = set(prot)
                    self._move(at2, prot2, frm, path, True)
                    moved2 = frozenset([m for m in moved if at2.get(m) == colour] + [to])
                    if self._seven_split(
                        at2, prot2, colour, remaining - steps, moved2, segs, out, first_only, rng
                    ):
                        return True
        return False

    def card_actions(self, seat: int, colour: int, card: str, first_only: bool = False) -> list[TockAction]:
        """The playable actions of one card (not the discard); with first_only, at most one."""
        out: list[TockAction] = []
        if card in ENTER_CARDS and self._enter_error(colour) is None:
            out.append(TockAction(seat, card, ENTER))
            if first_only:
                return out
        if card == SWAP_CARD:
            at = self.marbles.at
            ring = self.ring
            ring_marbles = sorted(p for p in at if p < ring and not self.is_protected(p))
            for a in ring_marbles:
                if at[a] != colour:
                    continue
                for b in ring_marbles:
                    if b == a or (at[b] == colour and b < a):
                        continue
                    out.append(TockAction(seat, card, SWAP, ((a, b),)))
                    if first_only:
                        return out
            return out
        if card == SEVEN:
            if self.variant.seven == "single":
                return self._seven_single(seat, colour, first_only)
            sequences: list[tuple[tuple[int, int], ...]] = []
            self._seven_split(
                self.marbles.at, self.protected, colour, SEVEN_STEPS, frozenset(), (), sequences, first_only
            )
            out.extend(TockAction(seat, card, MOVES, segs) for segs in sequences)
            return out
        out.extend(self._step_actions(seat, colour, card, STEPS[card], card == BACK_CARD))
        return out[:1] if first_only else out

    def playable(self, seat: int, colour: int, hand: Sequence[str]) -> str | None:
        """A card of `hand` that has a legal use, or None (then, and only then, a discard is allowed)."""
        for card in dict.fromkeys(hand):
            if self.card_actions(seat, colour, card, first_only=True):
                return card
        return None

    def legal_actions(self) -> list[TockAction]:
        """Every legal action of the seat to move (the 7 split lists each marble moving once)."""
        if self.winners is not None or self.to_move < 0:
            return []
        seat = self.to_move
        cards = list(dict.fromkeys(self.hands[seat]))
        colour = self.colour_of(seat)
        return turn_options(
            cards,
            cards,
            lambda card: self.card_actions(seat, colour, card),
            lambda card: TockAction(seat, card, DISCARD),
            forced_discard=self.banned,
        )

    def random_action(self, rng: random.Random) -> TockAction:
        """A random legal action for the seat to move.

        Cards are tried in random order; an action that enters a marble or moves one into the goal is
        taken at once, otherwise a random use of the first playable card. (Uniform choices make games
        about three times longer.) A split 7 is found by a randomized search, not by listing every split.
        """
        seat = self.to_move
        hand = self.hands[seat]
        if not self.banned:
            colour = self.colour_of(seat)
            cards = list(dict.fromkeys(hand))
            rng.shuffle(cards)
            fallback: list[TockAction] | None = None
            ring = self.ring
            for card in cards:
                if card == SEVEN and self.variant.seven == "split":
                    found: list[tuple[tuple[int, int], ...]] = []
                    self._seven_split(
                        self.marbles.at,
                        self.protected,
                        colour,
                        SEVEN_STEPS,
                        frozenset(),
                        (),
                        found,
                        True,
                        rng,
                    )
                    actions = [TockAction(seat, card, MOVES, segs) for segs in found]
                else:
                    actions = self.card_actions(seat, colour, card)
                if not actions:
                    continue
                if fallback is None:
                    fallback = actions
                homeward = [a for a in actions if a.kind == ENTER or any(to >= ring for _, to in a.moves)]
                if homeward:
                    return rng.choice(homeward)
            if fallback is not None:
                return rng.choice(fallback)
        return TockAction(seat, rng.choice(hand), DISCARD)

    # --- applying -----------------------------------------------------------------------------
    def apply(self, action: TockAction, path: str = "") -> None:
        """Check and perform one turn; RecordError (with `path`) for the first rule it breaks."""
        if self.winners is not None:
            raise RecordError(ErrorCode.GAME_ALREADY_OVER, path, "The game is already over.")
        seat = action.seat
        if self.to_move < 0:
            raise RecordError(ErrorCode.WRONG_SEAT, path, "No seat holds cards: the deal is over.")
        if seat != self.to_move:
            raise RecordError(ErrorCode.WRONG_SEAT, path, f"Seat {self.to_move} is to play, not seat {seat}.")
        hand = self.hands[seat]
        if action.card not in hand:
            raise RecordError(ErrorCode.CARD_NOT_IN_HAND, path, f"Seat {seat} does not hold {action.card}.")
        colour = self.colour_of(seat)
        if action.kind == DISCARD:
            if not self.banned:
                card = self.playable(seat, colour, hand)
                if card is not None:
                    raise RecordError(
                        ErrorCode.MUST_PLAY,
                        path,
                        f"Seat {seat} discarded {action.card} although {card} can be played.",
                    )
        else:
            if self.banned:
                raise RecordError(
                    ErrorCode.ILLEGAL_MOVE,
                    path,
                    f"Seat {seat} is banned by the previous 10 and must discard.",
                )
            self._perform(action, colour, path)
        self._finish_turn(seat, action.card, colour)

    def apply_unchecked_hand(self, action: TockAction, path: str) -> None:
        """Replay setup `last`: the move is checked, the hand, turn and must-play are not."""
        colour = self.colour_of(action.seat)
        if action.kind != DISCARD:
            self._perform(action, colour, path)
        self.check_win(colour)

    def _perform(self, action: TockAction, colour: int, path: str) -> None:
        card = action.card
        if action.kind == ENTER:
            if card not in ENTER_CARDS:
                raise RecordError(
                    ErrorCode.ILLEGAL_MOVE, child(path, ENTER), f"{card} cannot bring a marble in."
                )
            why = self._enter_error(colour)
            if why is not None:
                raise RecordError(ErrorCode.ILLEGAL_MOVE, child(path, ENTER), why)
            start = self.starts[colour]
            self.marbles.at[start] = colour
            self.protected.add(colour)
            return
        if action.kind == SWAP:
            if card != SWAP_CARD:
                raise RecordError(ErrorCode.ILLEGAL_MOVE, child(path, SWAP), f"Only the J swaps, not {card}.")
            a, b = action.moves[0]
            why = self._swap_error(colour, a, b)
            if why is not None:
                raise RecordError(ErrorCode.ILLEGAL_MOVE, child(path, SWAP), why)
            self.marbles.swap(a, b)
            return
        # moves
        if card == SWAP_CARD:
            raise RecordError(ErrorCode.ILLEGAL_MOVE, child(path, MOVES), "The J swaps; it does not move.")
        segments = action.moves
        seven = card == SEVEN
        if len(segments) > 1 and not (seven and self.variant.seven == "split"):
            raise RecordError(
                ErrorCode.ILLEGAL_MOVE,
                child(path, MOVES, 1),
                "Only the 7 (split option) may move several segments.",
            )
        backward = card == BACK_CARD
        if not seven:  # one segment: check it, then move in place
            frm, to = segments[0]
            at = self.marbles.at
            result = self._segment(at, self.protected, colour, frm, to, backward)
            if isinstance(result, str):
                raise RecordError(ErrorCode.ILLEGAL_MOVE, f"{path}/{MOVES}/0", result)
            if len(result) != STEPS[card]:
                raise RecordError(
                    ErrorCode.ILLEGAL_MOVE,
                    f"{path}/{MOVES}/0",
                    f"{card} moves exactly {STEPS[card]} fields, not {len(result)}.",
                )
            self._move(at, self.protected, frm, result, False)
            return
        at = dict(self.marbles.at)
        prot = set(self.protected)
        total = 0
        for i, (frm, to) in enumerate(segments):
            spath = f"{path}/{MOVES}/{i}"  # MOVES and i need no JSON Pointer escaping
            result = self._segment(at, prot, colour, frm, to, backward)
            if isinstance(result, str):
                raise RecordError(ErrorCode.ILLEGAL_MOVE, spath, result)
            total += len(result)
            if total > SEVEN_STEPS:
                raise RecordError(
                    ErrorCode.ILLEGAL_MOVE, spath, f"The 7 has only 7 steps; this makes {total}."
                )
            self._move(at, prot, frm, result, True)
        if self.variant.seven == "split" and total != SEVEN_STEPS:
            raise RecordError(
                ErrorCode.ILLEGAL_MOVE, child(path, MOVES), f"All 7 steps must be used; these make {total}."
            )
        self.marbles.at = at
        self.protected = prot

    def check_win(self, colour: int) -> None:
        """End the game if `colour` completes its side: its own 4 (ffa) or both partners' 8 (teams)."""
        if self.home_count(colour) != MARBLES_PER_COLOUR:
            return
        team = self.variant.team_of(colour)
        if all(self.home_count(c) == MARBLES_PER_COLOUR for c in team):
            self.winners = team

    def _finish_turn(self, seat: int, card: str, colour: int) -> None:
        self.hands[seat].remove(card)
        if self.home_count(colour) == MARBLES_PER_COLOUR:
            self.check_win(colour)
        nxt = self.next_seat(seat)
        self.to_move = nxt
        self.banned = card == BAN_CARD and nxt >= 0 and nxt != seat  # a seat never bans itself
