"""A TAC position and its rules: move generation, checked application, the TAC card's history.

The board is a flat list of 80 cells (ring fields 0..63, then the homes: seat k slot s at
64 + 4k + s - 1, as in :mod:`rules.track.board`), each holding a colour or ``EMPTY``. Prefields are
counts. ``fresh[c]`` says the colour-c marble on its start field has just entered. Copies of these three
lists are the snapshots the TAC card restores, which keeps the undo history cheap.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from rules.core.errors import ErrorCode, RecordError
from rules.tac.actions import (
    BOARD,
    DISCARD,
    ENTER,
    MOVES,
    SKIP,
    STRIKE,
    SWAP,
    THEN,
    Play,
)
from rules.tac.cards import FORWARD_STEPS, OPENING_CARDS
from rules.tac.game import TacConfig

EMPTY = -1
RING = 64
CELLS = 80
START = (0, 16, 32, 48)
HOME_BASE = (64, 68, 72, 76)

Snapshot = tuple[list[int], list[bool], list[int]]


def _illegal(path: str, message: str) -> RecordError:
    return RecordError(ErrorCode.ILLEGAL_MOVE, path, message)


def tok(pos: int) -> str:
    return str(BOARD.token(pos))


class Entry:
    """One entry of the deal's history: the position before it and the function a TAC would borrow."""

    __slots__ = ("snapshot", "fn", "discarded")

    def __init__(self, snapshot: Snapshot | None, fn: str | None, discarded: bool) -> None:
        self.snapshot = snapshot
        self.fn = fn
        self.discarded = discarded


class TacState:
    """One TAC position with the running deal: marbles, hands, whose turn, and the TAC history."""

    __slots__ = (
        "cfg",
        "board",
        "fresh",
        "pre",
        "hands",
        "to_move",
        "dealer",
        "deal_index",
        "history",
        "skipped",
        "tac_banned",
        "must_tac",
        "over",
        "winners",
        "cards_used",
    )

    def __init__(self, cfg: TacConfig) -> None:
        self.cfg = cfg
        self.board: list[int] = [EMPTY] * CELLS
        self.fresh: list[bool] = [False] * 4
        self.pre: list[int] = [4 if s in cfg.active else 0 for s in range(4)]
        self.hands: list[list[str]] = [[] for _ in range(4)]
        self.to_move: int | None = None
        self.dealer = 0
        self.deal_index = 0
        self.history: list[Entry] = []
        self.skipped = -1
        self.tac_banned = False
        self.must_tac = False
        self.over = False
        self.winners: tuple[int, ...] = ()
        self.cards_used = 0

    # ------------------------------------------------------------------ copying and comparing
    def clone(self) -> TacState:
        other = TacState.__new__(TacState)
        other.cfg = self.cfg
        other.board = self.board[:]
        other.fresh = self.fresh[:]
        other.pre = self.pre[:]
        other.hands = [h[:] for h in self.hands]
        other.to_move = self.to_move
        other.dealer = self.dealer
        other.deal_index = self.deal_index
        other.history = self.history[:]
        other.skipped = self.skipped
        other.tac_banned = self.tac_banned
        other.must_tac = self.must_tac
        other.over = self.over
        other.winners = self.winners
        other.cards_used = self.cards_used
        return other

    def signature(self) -> tuple[Any, ...]:
        """Everything that decides the future of the game (for clone/equality checks in tests)."""
        return (
            tuple(self.board),
            tuple(self.fresh),
            tuple(self.pre),
            tuple(tuple(sorted(h)) for h in self.hands),
            self.to_move,
            self.dealer,
            self.deal_index,
            tuple(
                (
                    None
                    if e.snapshot is None
                    else (tuple(e.snapshot[0]), tuple(e.snapshot[1]), tuple(e.snapshot[2])),
                    e.fn,
                    e.discarded,
                )
                for e in self.history
            ),
            self.skipped,
            self.tac_banned,
            self.must_tac,
            self.over,
            self.winners,
            self.cards_used,
        )

    def __eq__(self, other: object) -> bool:
        return isinstance(other, TacState) and self.signature() == other.signature()

    __hash__ = None  # type: ignore[assignment]

    def _snap(self) -> Snapshot:
        return (self.board[:], self.fresh[:], self.pre[:])

    def _restore(self, snap: Snapshot) -> None:
        self.board = snap[0][:]
        self.fresh = snap[1][:]
        self.pre = snap[2][:]

    # ------------------------------------------------------------------ seats and colours
    def all_home(self, colour: int) -> bool:
        b = self.board
        base = HOME_BASE[colour]
        return b[base] == colour and b[base + 1] == colour and b[base + 2] == colour and b[base + 3] == colour

    def movable(self, seat: int) -> tuple[int, ...]:
        """The colours a seat moves now: its own, then its partner's, then (coop, pair done) any."""
        if not self.all_home(seat):
            return (seat,)
        partner = self.cfg.partner[seat]
        if partner is None:
            return ()
        if not self.all_home(partner):
            return (partner,)
        if self.cfg.coop:
            return tuple(c for c in self.cfg.active if not self.all_home(c)) or ()
        return ()

    def next_with_cards(self, seat: int) -> int | None:
        """The next seat clockwise, other than `seat`, that still holds cards."""
        hands = self.hands
        for d in (1, 2, 3):
            t = (seat + d) & 3
            if hands[t]:
                return t
        return None

    def next_to_move(self, seat: int) -> int | None:
        t = self.next_with_cards(seat)
        if t is None and self.hands[seat]:
            return seat
        return t

    def left_occupied(self, seat: int) -> int:
        active = self.cfg.active
        for d in (1, 2, 3):
            t = (seat + d) & 3
            if t in active:
                return t
        return seat

    def engel_target(self, seat: int) -> int | None:
        """The colour the Engel acts on for `seat`: the left neighbour's, or its partner's if all home."""
        b = self.left_occupied(seat)
        if not self.all_home(b):
            return b
        p = self.cfg.partner[b]
        if p is None or self.all_home(p):
            return None
        return p

    def engel_colours(self, seat: int) -> tuple[int, ...]:
        """Every colour the Engel may act on for `seat`: its target's, or in coop, once the target's
        pair has all 8 marbles home, any colour not yet home (spec 4, coop)."""
        t = self.engel_target(seat)
        if t is not None:
            return (t,)
        if self.cfg.coop:
            return tuple(c for c in self.cfg.active if not self.all_home(c))
        return ()

    def enter_colours(self, seat: int, fn: str) -> tuple[int, ...]:
        """The colours `seat` may bring in with function `fn` (an opening card or the Engel)."""
        colours = self.engel_colours(seat) if fn == "engel" else self.movable(seat)
        return tuple(c for c in colours if self.pre[c] > 0)

    def _enter_plays(self, card: str, colours: tuple[int, ...], as_: str | None) -> list[Play]:
        """`enter: true` where one colour can enter, else one `enter: c` per colour."""
        if len(colours) == 1:
            return [Play(card, ENTER, as_=as_)]
        return [Play(card, ENTER, fields=(c,), as_=as_) for c in colours]

    def _enter_colour(self, seat: int, fn: str, play: Play, path: str) -> int:
        """The colour an `enter` brings in: the only one possible, or the one it names."""
        colours = self.enter_colours(seat, fn)
        if play.fields:
            colour = play.fields[0]
            if colour not in colours:
                raise _illegal(f"{path}/{ENTER}", f"Seat {seat} cannot bring in colour {colour} now.")
            return colour
        if not colours:
            if fn == "engel":
                raise _illegal(path, "The Engel has no prefield marble to bring in.")
            raise _illegal(path, f"Seat {seat} has no marble in its prefield.")
        if len(colours) > 1:
            raise _illegal(
                f"{path}/{ENTER}",
                f"Seat {seat} may bring in colours {', '.join(map(str, colours))}: `enter` must name one.",
            )
        return colours[0]

    def winning_side(self) -> tuple[int, ...] | None:
        b = self.board
        for side in self.cfg.sides:
            for c in side:
                base = HOME_BASE[c]
                if b[base] == EMPTY or b[base + 1] == EMPTY or b[base + 2] == EMPTY or b[base + 3] == EMPTY:
                    break
            else:
                return side
        return None

    def positions(self, colour: int) -> list[int]:
        """Fields of the colour's marbles on the ring and in its home, ascending."""
        b = self.board
        out: list[int] = []
        q = -1
        index = b.index
        try:
            while True:
                q = index(colour, q + 1)
                out.append(q)
        except ValueError:
            return out

    def locked_set(self) -> frozenset[int]:
        """Home marbles with every deeper slot occupied (judged at the start of a turn)."""
        b = self.board
        out: list[int] = []
        for base in HOME_BASE:
            q = base + 3
            while q >= base and b[q] != EMPTY:
                out.append(q)
                q -= 1
        return frozenset(out)

    # ------------------------------------------------------------------ elementary changes
    def _vacate(self, pos: int) -> None:
        if pos < RING and pos & 15 == 0:
            self.fresh[pos >> 4] = False

    def _capture(self, pos: int) -> None:
        colour = self.board[pos]
        self.board[pos] = EMPTY
        self.pre[colour] += 1
        self._vacate(pos)

    def _enter(self, colour: int) -> None:
        s = START[colour]
        if self.board[s] != EMPTY:
            self._capture(s)
        self.board[s] = colour
        self.pre[colour] -= 1
        self.fresh[colour] = True

    def _move(self, frm: int, to: int) -> None:
        b = self.board
        colour = b[frm]
        b[frm] = EMPTY
        self._vacate(frm)
        if b[to] != EMPTY:
            self._capture(to)
        b[to] = colour

    def _seven_segment(self, frm: int, to: int) -> None:
        """Move with the 7: every ring marble passed or landed on is captured."""
        b = self.board
        colour = b[frm]
        b[frm] = EMPTY
        self._vacate(frm)
        if frm < RING:
            last = to if to < RING else START[colour]
            q = frm
            while q != last:
                q = (q + 1) & 63
                if b[q] != EMPTY:
                    self._capture(q)
        b[to] = colour

    # ------------------------------------------------------------------ geometry with blocking
    def forward_targets(self, frm: int, colour: int, steps: int) -> list[int]:
        """Where the marble on `frm` may go with `steps` forward, without jumping (landing captures)."""
        b = self.board
        out: list[int] = []
        if frm >= RING:
            base = HOME_BASE[colour]
            i = frm - base
            j = i + steps
            if j > 3:
                return out
            for q in range(frm + 1, base + j + 1):
                if b[q] != EMPTY:
                    return out
            out.append(base + j)
            return out
        blocked = steps
        for i in range(1, steps):
            if b[(frm + i) & 63] != EMPTY:
                blocked = i
                break
        if blocked == steps:
            out.append((frm + steps) & 63)
        k = (START[colour] - frm) & 63
        if k < steps <= k + 4 and blocked > k and not (k == 0 and self.fresh[colour]):
            base = HOME_BASE[colour]
            h = steps - k
            for q in range(base, base + h):
                if b[q] != EMPTY:
                    return out
            out.append(base + h - 1)
        return out

    def backward_targets(self, frm: int, colour: int) -> list[int]:
        """Where a ring marble may go with the 4: four fields back, or into its home past the start."""
        b = self.board
        out: list[int] = []
        if frm >= RING:
            return out
        blocked = 4
        for i in (1, 2, 3):
            if b[(frm - i) & 63] != EMPTY:
                blocked = i
                break
        if blocked == 4:
            out.append((frm - 4) & 63)
        j = (frm - START[colour]) & 63
        if j <= 3 and blocked > j and not (j == 0 and self.fresh[colour]):
            base = HOME_BASE[colour]
            h = 4 - j
            for q in range(base, base + h):
                if b[q] != EMPTY:
                    return out
            out.append(base + h - 1)
        return out

    def seven_targets(self, frm: int, colour: int, steps: int, locked: frozenset[int]) -> list[int]:
        """Targets of one 7 segment: ring forward (capturing), into the home, or within it either way."""
        b = self.board
        out: list[int] = []
        if frm >= RING:
            if frm in locked:
                return out
            base = HOME_BASE[colour]
            i = frm - base
            j = i + steps
            if j <= 3 and all(b[q] == EMPTY for q in range(frm + 1, base + j + 1)):
                out.append(base + j)
            j = i - steps
            if j >= 0 and all(b[q] == EMPTY for q in range(base + j, frm)):
                out.append(base + j)
            return out
        out.append((frm + steps) & 63)
        k = (START[colour] - frm) & 63
        if k < steps <= k + 4 and not (k == 0 and self.fresh[colour]):
            base = HOME_BASE[colour]
            h = steps - k
            if all(b[q] == EMPTY for q in range(base, base + h)):
                out.append(base + h - 1)
        return out

    def seven_distance(self, frm: int, to: int, colour: int, locked: frozenset[int]) -> int | None:
        """Steps of a 7 segment from `frm` to `to`, or None if no such segment exists."""
        b = self.board
        if frm >= RING:
            base = HOME_BASE[colour]
            if frm in locked or not base <= to < base + 4 or to == frm:
                return None
            lo, hi = (frm + 1, to + 1) if to > frm else (to, frm)
            if any(b[q] != EMPTY for q in range(lo, hi)):
                return None
            return abs(to - frm)
        if to < RING:
            d = (to - frm) & 63
            return d or None
        base = HOME_BASE[colour]
        if not base <= to < base + 4:
            return None
        k = (START[colour] - frm) & 63
        if k == 0 and self.fresh[colour]:
            return None
        h = to - base + 1
        if any(b[q] != EMPTY for q in range(base, base + h)):
            return None
        return k + h

    # ------------------------------------------------------------------ move generation
    def last_card(self, seat: int) -> bool:
        """No other seat holds cards: the card `seat` plays now is the last of the deal."""
        return self.next_with_cards(seat) is None

    def has_ring_marble(self, colours: Sequence[int]) -> bool:
        ring = self.board[:RING]
        return any(c in ring for c in colours)

    def gen(
        self, seat: int, fn: str, card: str, as_: str | None, first: bool, rng: random.Random | None = None
    ) -> list[Play]:
        """Legal plays of function `fn` for `seat` (stamped with `card`); stop at one if `first`.

        With `rng`, a 7 yields one random split instead of all of them (random play).
        """
        out: list[Play] = []
        b = self.board
        if fn == "engel":
            targets = self.engel_colours(seat)
            entering = tuple(c for c in targets if self.pre[c] > 0)
            if entering:
                out.extend(self._enter_plays(card, entering, as_))
                return out[:1] if first else out
            for t in targets:
                for p in self.positions(t):
                    for n in (1, 13):
                        for to in self.forward_targets(p, t, n):
                            out.append(Play(card, MOVES, moves=((p, to),), as_=as_))
                            if first:
                                return out
            return out
        colours = self.movable(seat)
        if not colours:
            return out
        if fn in OPENING_CARDS:
            entering = tuple(c for c in colours if self.pre[c] > 0)
            if entering:
                out.extend(self._enter_plays(card, entering, as_))
                if first:
                    return out[:1]
        steps = FORWARD_STEPS.get(fn)
        if steps is not None:
            for c in colours:
                for p in self.positions(c):
                    for to in self.forward_targets(p, c, steps):
                        out.append(Play(card, MOVES, moves=((p, to),), as_=as_))
                        if first:
                            return out
            if fn == "8" and not self.last_card(seat) and self.has_ring_marble(colours):
                out.append(Play(card, SKIP, as_=as_))
            return out
        if fn == "4":
            for c in colours:
                for p in self.positions(c):
                    for to in self.backward_targets(p, c):
                        out.append(Play(card, MOVES, moves=((p, to),), as_=as_))
                        if first:
                            return out
            return out
        if fn == "7":
            return self._gen_seven(seat, card, as_, first, rng)
        if fn == "trickser":
            if not self.has_ring_marble(colours):
                return out
            ring = [q for q in range(RING) if b[q] != EMPTY]
            for i, x in enumerate(ring):
                for y in ring[i + 1 :]:
                    out.append(Play(card, SWAP, fields=(x, y), as_=as_))
                    if first:
                        return out
            return out
        if fn == "krieger":
            for q in range(RING):
                if b[q] in colours:
                    out.append(Play(card, STRIKE, fields=(q,), as_=as_))
                    if first:
                        return out
            return out
        if fn in ("narr", "teufel"):
            if self.last_card(seat):
                return out
            if first:
                out.append(Play(card, THEN, as_=as_))
                return out
            return self._gen_then(seat, fn, card, as_)
        return out

    def _gen_seven(
        self, seat: int, card: str, as_: str | None, first: bool, rng: random.Random | None = None
    ) -> list[Play]:
        locked = self.locked_set()
        results: list[Play] = []
        seen: set[tuple[Any, ...]] = set()
        segs: list[tuple[int, int]] = []

        if rng is not None:
            first = True
            if rng.random() < 0.85:
                singles = [
                    (p, to)
                    for c in self.movable(seat)
                    for p in self.positions(c)
                    if p not in locked
                    for to in self.seven_targets(p, c, 7, locked)
                ]
                if singles:
                    return [Play(card, MOVES, moves=(rng.choice(singles),), as_=as_)]

        def search(remaining: int) -> bool:
            options = [
                (p, k, to)
                for c in self.movable(seat)
                for p in self.positions(c)
                if p not in locked
                for k in range(1, remaining + 1)
                for to in self.seven_targets(p, c, k, locked)
            ]
            if rng is not None:
                rng.shuffle(options)
            for p, k, to in options:
                snap = self._snap()
                self._seven_segment(p, to)
                segs.append((p, to))
                key = (tuple(self.board), remaining - k)
                stop = False
                if key not in seen:
                    seen.add(key)
                    if k == remaining:
                        results.append(Play(card, MOVES, moves=tuple(segs), as_=as_))
                        stop = first
                    else:
                        stop = search(remaining - k)
                segs.pop()
                self._restore(snap)
                if stop:
                    return True
            return False

        search(7)
        return results

    def then_position(
        self, seat: int, fn: str, card: str, hands: list[list[str]]
    ) -> tuple[TacState, int | None]:
        """The position a Narr's or Teufel's follow-up is chosen in, and the seat that chooses it.

        `seat` plays `card` (the Narr or Teufel, or a TAC borrowing `fn`, which first restores the position
        before the previous entry); `hands` become the copy's hands (the caller's copies: the scoresheet's
        may be hidden). The Narr passes the hands and its player goes on; the Teufel's entry is recorded
        and the next seat with cards plays for itself (None if there is none).
        """
        sim = self.clone()
        sim.hands = hands
        sim.hands[seat].remove(card)
        if card == "tac":
            prev = sim.history[-1]
            if not prev.discarded and prev.snapshot is not None:
                sim._restore(prev.snapshot)
        if fn == "narr":
            sim.rotate_hands(seat)
            return sim, seat
        sim.history.append(Entry(sim._snap(), "teufel", False))
        return sim, sim.next_with_cards(seat)

    def _gen_then(self, seat: int, fn: str, card: str, as_: str | None) -> list[Play]:
        """Every Narr/Teufel play with its follow-up, found on a copy of the position."""
        sim, actor = self.then_position(seat, fn, card, [h[:] for h in self.hands])
        assert actor is not None  # gen() lets the Narr and Teufel through only when another seat holds cards
        return [Play(card, THEN, then=sub, as_=as_) for sub in sim.turn_options(actor)]

    def card_plays(self, seat: int, card: str, first: bool, rng: random.Random | None = None) -> list[Play]:
        if card == "tac":
            return self.tac_plays(seat, first, rng)
        return self.gen(seat, card, card, None, first, rng)

    def tac_plays(self, seat: int, first: bool, rng: random.Random | None = None) -> list[Play]:
        """What a TAC can do for `seat`: the previous entry's function on the restored position."""
        if self.tac_banned or not self.history:
            return []
        prev = self.history[-1]
        fn = prev.fn
        if fn is None:
            return []
        if prev.discarded or prev.snapshot is None:
            return self.gen(seat, fn, "tac", fn, first, rng)
        saved = (self.board, self.fresh, self.pre)
        self._restore(prev.snapshot)
        try:
            return self.gen(seat, fn, "tac", fn, first, rng)
        finally:
            self.board, self.fresh, self.pre = saved

    def any_legal(self, seat: int) -> bool:
        """Does any card in the seat's hand have a legal use? (a discard is legal only if not)"""
        return any(self.card_plays(seat, card, True) for card in set(self.hands[seat]))

    def turn_options(self, seat: int) -> list[Play]:
        """Every play of one turn (or nested `then`) for `seat`, ignoring skip and compulsory TAC."""
        out: list[Play] = []
        cards = sorted(set(self.hands[seat]))
        for card in cards:
            out.extend(self.card_plays(seat, card, False))
        if not out:
            out = [Play(card, DISCARD) for card in cards]
        return out

    def legal_actions(self) -> list[Play]:
        """Every legal action of the seat to move (7 splits listed once per resulting position)."""
        seat = self.to_move
        if self.over or seat is None:
            return []
        if self.must_tac:
            return self.tac_plays(seat, False)
        if self.skipped == seat:
            cards = sorted(set(self.hands[seat]))
            out = [Play(card, DISCARD) for card in cards]
            if "tac" in cards:
                out.extend(self.tac_plays(seat, False))
            return out
        return self.turn_options(seat)

    def rotate_hands(self, seat: int) -> None:
        """The Narr: every hand passes to the right; seats without cards are passed over."""
        order = [seat] + [t for t in ((seat + d) & 3 for d in (1, 2, 3)) if self.hands[t]]
        old = [self.hands[t] for t in order]
        for i, t in enumerate(order):
            self.hands[t] = old[(i + 1) % len(order)]

    # ------------------------------------------------------------------ applying
    def apply(self, action: Any) -> None:
        """State protocol: apply a Play for the seat to move (RecordError if illegal)."""
        if not isinstance(action, Play):
            raise RecordError(ErrorCode.MALFORMED, "", "An action must be a Play.")
        seat = action.seat if action.seat is not None else self.to_move
        if seat is None:
            raise RecordError(ErrorCode.WRONG_SEAT, "", "Nobody is to move.")
        self.play_turn(seat, action, "")

    def play_turn(self, seat: int, play: Play, path: str) -> None:
        """One turn of the record: every rule checked, turn order and game end derived."""
        if self.over:
            raise RecordError(ErrorCode.GAME_ALREADY_OVER, path, "The game is already over.")
        if self.to_move is None:
            raise RecordError(ErrorCode.WRONG_SEAT, path, "Every hand of this deal is empty.")
        if seat != self.to_move:
            raise RecordError(
                ErrorCode.WRONG_SEAT, path + "/seat", f"Seat {self.to_move} is to move, not seat {seat}."
            )
        was_skipped = self.skipped == seat
        compulsory = self.must_tac
        if seat not in self.cfg.active or play.card not in self.hands[seat]:
            raise RecordError(
                ErrorCode.CARD_NOT_IN_HAND, path + "/card", f"Seat {seat} does not hold {play.card}."
            )
        if compulsory and (play.card != "tac" or play.kind == DISCARD):
            raise RecordError(
                ErrorCode.MUST_PLAY, path, f"Seat {seat} must answer the winning move with its TAC card."
            )
        if was_skipped and play.card != "tac" and play.kind != DISCARD:
            raise _illegal(path, f"Seat {seat} is skipped by the 8: it must discard a card or play a TAC.")
        self.skipped = -1
        consumed = self._turn(seat, play, path, skipped=was_skipped)
        self.tac_banned = compulsory
        self.must_tac = False
        nxt = self.next_to_move(consumed)
        self.to_move = nxt
        side = self.winning_side()
        if side is not None:
            if (
                not compulsory
                and not self.cfg.coop
                and nxt is not None
                and nxt not in side
                and "tac" in self.hands[nxt]
                and self.tac_plays(nxt, True)
            ):
                self.must_tac = True
            else:
                self.over = True
                self.winners = side
        if nxt is None:
            self.tac_banned = False

    def _turn(self, seat: int, play: Play, path: str, *, skipped: bool = False) -> int:
        """Play one card from `seat`'s hand (a turn or a nested `then`); return the last seat consumed."""
        if play.seat is not None and play.seat != seat:
            raise RecordError(ErrorCode.WRONG_SEAT, path + "/seat", f"This action belongs to seat {seat}.")
        card = play.card
        hand = self.hands[seat]
        if card not in hand:
            raise RecordError(
                ErrorCode.CARD_NOT_IN_HAND, path + "/card", f"Seat {seat} does not hold {card}."
            )
        if play.kind == DISCARD:
            discarded_fn: str | None = card
            if card == "tac":
                discarded_fn = self.history[-1].fn if self.history else None
            if play.as_ is not None and (card != "tac" or play.as_ != discarded_fn):
                raise _illegal(path + "/as", "A discarded card borrows no function.")
            if not skipped and self.any_legal(seat):
                raise RecordError(
                    ErrorCode.MUST_PLAY,
                    path,
                    f"Seat {seat} discarded {card} although a card has a legal use.",
                )
            hand.remove(card)
            self.cards_used += 1
            self.history.append(Entry(None, discarded_fn, True))
            return seat
        hand.remove(card)
        self.cards_used += 1
        if card != "tac":
            if play.as_ is not None:
                raise _illegal(path + "/as", "Only a TAC card borrows a function (`as`).")
            return self._perform(seat, card, play, path, None)
        if self.tac_banned:
            raise _illegal(path, "No TAC may follow the TAC against a winning move.")
        if not self.history:
            raise _illegal(path, "A TAC may not be the first card of a deal.")
        prev = self.history[-1]
        borrowed = prev.fn
        if borrowed is None:
            raise _illegal(path, "There is no function before this TAC to borrow.")
        if play.as_ is not None and play.as_ != borrowed:
            raise _illegal(path + "/as", f"This TAC borrows {borrowed}, not {play.as_}.")
        before = self._snap()
        if not prev.discarded and prev.snapshot is not None:
            self._restore(prev.snapshot)
        return self._perform(seat, borrowed, play, path, before)

    def _perform(self, seat: int, fn: str, play: Play, path: str, before: Snapshot | None) -> int:
        """Check `play` against function `fn` for `seat` and execute it; add the history entry."""
        snap = before if before is not None else self._snap()
        kind = play.kind
        if fn in ("narr", "teufel"):
            if kind != THEN:
                raise _illegal(path, f"The {fn} is played with `then`.")
            if self.last_card(seat):
                raise _illegal(path, f"As the last card of the deal the {fn} lapses: it must be discarded.")
            assert play.then is not None
            if fn == "narr":
                self.rotate_hands(seat)
                return self._turn(seat, play.then, f"{path}/{THEN}")
            victim = self.next_with_cards(seat)
            assert victim is not None
            self.history.append(Entry(snap, "teufel", False))
            return self._turn(victim, play.then, f"{path}/{THEN}")
        if kind == THEN:
            raise _illegal(f"{path}/{THEN}", f"Only the Narr and the Teufel take `then`, not {fn}.")
        if kind == MOVES:
            if fn == "7":
                self._apply_seven(seat, play, f"{path}/{MOVES}")
            else:
                self._apply_single(seat, fn, play, f"{path}/{MOVES}")
        elif kind == ENTER:
            if fn == "engel" or fn in OPENING_CARDS:
                self._enter(self._enter_colour(seat, fn, play, path))
            else:
                raise _illegal(path, f"{fn} cannot bring a marble into play.")
        elif kind == SKIP:
            if fn != "8":
                raise _illegal(path, f"Only the 8 skips, not {fn}.")
            if not self.has_ring_marble(self.movable(seat)):
                raise _illegal(path, "The 8 skips only with an own marble on the ring.")
            victim = self.next_with_cards(seat)
            if victim is None:
                raise _illegal(path, "As the last card of the deal the 8 must move 8 fields.")
            self.skipped = victim
        elif kind == SWAP:
            self._apply_swap(seat, fn, play, path)
        elif kind == STRIKE:
            self._apply_strike(seat, fn, play, path)
        else:
            raise _illegal(path, f"Unexpected action {kind}.")
        self.history.append(Entry(snap, fn, False))
        return seat

    def _apply_single(self, seat: int, fn: str, play: Play, path: str) -> None:
        if len(play.moves) != 1:
            raise _illegal(f"{path}/{1}", "Only the 7 may move more than one segment.")
        frm, to = play.moves[0]
        seg = f"{path}/{0}"
        if fn == "engel":
            targets = self.engel_colours(seat)
            if not targets:
                raise _illegal(seg, "The Engel has no marble to act on.")
            if any(self.pre[t] > 0 for t in targets):
                raise _illegal(seg, "The Engel must bring in a marble while the prefield holds one.")
            target = self.board[frm]
            if target not in targets:
                names = ", ".join(map(str, targets))
                raise _illegal(seg, f"The Engel moves a marble of colour {names}; {tok(frm)} holds none.")
            if to not in self.forward_targets(frm, target, 1) and to not in self.forward_targets(
                frm, target, 13
            ):
                raise _illegal(seg, f"The Engel cannot move {tok(frm)} to {tok(to)} by 1 or 13.")
            self._move(frm, to)
            return
        colour = self.board[frm]
        if colour == EMPTY or colour not in self.movable(seat):
            raise _illegal(seg, f"Seat {seat} has no marble to move on {tok(frm)}.")
        if fn == "4":
            if to not in self.backward_targets(frm, colour):
                raise _illegal(seg, f"The 4 cannot move {tok(frm)} back to {tok(to)}.")
        else:
            steps = FORWARD_STEPS.get(fn)
            if steps is None:
                raise _illegal(seg, f"{fn} does not move a marble.")
            if to not in self.forward_targets(frm, colour, steps):
                raise _illegal(seg, f"The {fn} cannot move {tok(frm)} to {tok(to)}.")
        self._move(frm, to)

    def _apply_seven(self, seat: int, play: Play, path: str) -> None:
        locked = self.locked_set()
        total = 0
        for i, (frm, to) in enumerate(play.moves):
            seg = f"{path}/{i}"
            colour = self.board[frm]
            if colour == EMPTY or colour not in self.movable(seat):
                raise _illegal(seg, f"Seat {seat} has no marble to move on {tok(frm)}.")
            d = self.seven_distance(frm, to, colour, locked)
            if d is None:
                raise _illegal(seg, f"No path of the 7 leads from {tok(frm)} to {tok(to)}.")
            total += d
            if total > 7:
                raise _illegal(seg, f"The segments use {total} steps, more than 7.")
            self._seven_segment(frm, to)
        if total < 7:
            raise _illegal(path, f"The segments use {total} steps: all 7 must be moved.")

    def _apply_swap(self, seat: int, fn: str, play: Play, path: str) -> None:
        if fn != "trickser":
            raise _illegal(path, f"Only the Trickser swaps, not {fn}.")
        a, b = play.fields
        board = self.board
        if a == b or a >= RING or b >= RING or board[a] == EMPTY or board[b] == EMPTY:
            raise _illegal(f"{path}/{SWAP}", "The Trickser swaps two marbles on two ring fields.")
        if not self.has_ring_marble(self.movable(seat)):
            raise _illegal(path, "The Trickser needs an own marble on the ring.")
        board[a], board[b] = board[b], board[a]
        self._vacate(a)
        self._vacate(b)

    def _apply_strike(self, seat: int, fn: str, play: Play, path: str) -> None:
        if fn != "krieger":
            raise _illegal(path, f"Only the Krieger strikes, not {fn}.")
        frm = play.fields[0]
        board = self.board
        if frm >= RING or board[frm] == EMPTY or board[frm] not in self.movable(seat):
            raise _illegal(f"{path}/{STRIKE}", f"Seat {seat} has no ring marble on {tok(frm)}.")
        for d in range(1, RING):
            q = (frm + d) & 63
            if board[q] != EMPTY:
                self._move(frm, q)
                return
        self._capture(frm)

    # ------------------------------------------------------------------ protocol odds and ends
    def is_terminal(self) -> bool:
        return self.over

    def outcome(self) -> dict[str, Any] | None:
        if not self.over:
            return None
        result: dict[str, Any] = {"winners": sorted(self.winners)}
        if self.cfg.coop:
            result["cards_used"] = self.cards_used
        return result

    def marble_count(self, colour: int) -> int:
        return self.pre[colour] + sum(1 for q in self.board if q == colour)

    def start_deal(self, hands: list[list[str]], dealer: int) -> None:
        self.hands = hands
        self.dealer = dealer
        self.history = []
        self.skipped = -1
        self.tac_banned = False
        self.must_tac = False
        self.to_move = self.next_to_move(dealer)
