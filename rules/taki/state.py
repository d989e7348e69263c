"""A TAKI position and the rules that move it on, one record entry at a time.

The same stage methods serve the verifier (driven by a record entry), the random player (driven by a
random generator) and :meth:`TakiState.legal_actions` (driven by a search), so the three cannot
disagree about what is legal.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from enum import IntEnum
from typing import Any

from rules.core.errors import ErrorCode, RecordError
from rules.taki.actions import Entry, Played, parse_entry
from rules.taki.cards import (
    BREAKER,
    COLOR_CARD,
    KING,
    PLUS3,
    RUN_ENDING_ACTIONS,
    SUPERTAKI,
    TRANSPARENT,
)
from rules.taki.game import TOURNAMENT_START_PHASE, Variant

#: Called with the discard pile minus its top card when the stock runs out; returns the new stock, top first.
Shuffler = Callable[[list[str]], list[str]]


class Need(IntEnum):
    """What the seat whose turn is running may or must do next."""

    FIRST = 0  # nothing played yet
    RUN = 1  # a TAKI run goes on: every card of the run colour must follow
    PLUS = 2  # a Plus was executed: a matching card, or draw
    KING = 3  # a King was played: any card may follow, or the turn ends
    END = 4  # the turn is over


def _error(code: ErrorCode, path: str, message: str) -> RecordError:
    return RecordError(code, path, message)


def _identity(cards: list[str]) -> list[str]:
    return cards


class TakiState:
    """One TAKI position. Seats play in `direction` (1 = clockwise, seat s then s+1)."""

    def __init__(
        self,
        variant: Variant,
        hands: list[list[str]],
        stock_top_first: list[str],
        discard: list[str],
        lead_color: str | None,
        lead_symbol: str | None,
        to_move: int,
        *,
        direction: int = 1,
        plus2: int = 0,
        plus3_by: int | None = None,
        open_taki: str | None = None,
        phases: list[int] | None = None,
    ) -> None:
        self.variant = variant
        self.n = variant.seats
        self.hands = hands
        self.stock = list(reversed(stock_top_first))  # top at the end
        self.discard = discard  # bottom first; plain deck tokens
        self.lead_color = lead_color
        self.lead_symbol = lead_symbol
        self.to_move = to_move
        self.direction = direction
        self.plus2 = plus2  # cards the active +2 stack makes the next seat draw; 0 = none
        self.plus3_by = plus3_by  # the seat whose +3 waits for its answer
        self.open_taki = open_taki  # colour of an open TAKI the next seat may continue
        self.phases = phases
        self.winner: int | None = None
        # entry context
        self._path = ""
        self._reshuffle: tuple[str, ...] | None = None
        self._reshuffle_used = False
        self._shuffler: Shuffler | None = None
        self.recorded_reshuffle: tuple[str, ...] | None = None
        self._after_plus3 = False  # this entry began by drawing for a +3
        # turn context
        self._seat = to_move
        self.need = Need.FIRST
        self._run_color: str | None = None
        self._run_cards: list[str] = []
        self.pending_run: str | None = None
        self.run_alone = False
        self._skip = 0
        self._breaker_draw = False

    # ----------------------------------------------------------------- construction

    @classmethod
    def dealt(
        cls, variant: Variant, hands: list[list[str]], lead: str, stock_top_first: list[str], first: int
    ) -> TakiState:
        """The position after the deal: the lead's own action is ignored (rule decision 8)."""
        colour = variant.deck.color_of[lead]
        symbol = variant.deck.symbol_of[lead] if colour is not None else None
        phases = [TOURNAMENT_START_PHASE] * variant.seats if variant.tournament else None
        return cls(
            variant,
            [list(h) for h in hands],
            list(stock_top_first),
            [lead],
            colour,
            symbol,
            first,
            phases=phases,
        )

    def clone(self) -> TakiState:
        other = object.__new__(TakiState)
        other.__dict__.update(self.__dict__)
        other.hands = [list(h) for h in self.hands]
        other.stock = list(self.stock)
        other.discard = list(self.discard)
        other._run_cards = list(self._run_cards)
        if self.phases is not None:
            other.phases = list(self.phases)
        return other

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, TakiState):
            return NotImplemented
        mine = {k: v for k, v in self.__dict__.items() if k != "_shuffler"}
        theirs = {k: v for k, v in other.__dict__.items() if k != "_shuffler"}
        return mine == theirs

    __hash__ = None  # type: ignore[assignment]

    # ----------------------------------------------------------------- protocol

    def is_terminal(self) -> bool:
        return self.winner is not None

    def outcome(self) -> dict[str, Any] | None:
        if self.winner is None:
            return None
        result: dict[str, Any] = {"winners": [self.winner]}
        if self.phases is not None:
            result["phases"] = list(self.phases)
        return result

    def apply(self, action: Any) -> None:
        """Check and perform one record entry (a dict); on error the position is unchanged."""
        entry = parse_entry(action, "", self.variant)
        trial = self.clone()
        trial.apply_entry(entry, "")
        self.__dict__.update(trial.__dict__)

    def legal_actions(self) -> list[dict[str, Any]]:
        """Every legal entry now, as record dicts.

        A TAKI run is listed once per choice of its last card (the order of the others is free and
        void); a needed reshuffle is listed in one canonical order (the pile as it lies).
        """
        if self.winner is not None:
            return []
        entries: list[Entry] = []
        if self.plus3_by is not None:
            p = self.plus3_by
            for x in range(self.n):
                if x != p and BREAKER in self.hands[x]:
                    entries.append(Entry(x, ((BREAKER, None),), False, False, False, None))
                    if len(self.hands[x]) == 2:
                        entries.append(Entry(x, ((BREAKER, None),), False, False, True, None))
            if KING in self.hands[self.to_move]:
                cancelled = self.clone()
                cancelled.plus3_by = None
                entries += [e for e in cancelled._turn_entries() if e.play and e.play[0][0] == KING]
            resolved = self.clone()
            resolved.start_entry("", None, _identity)
            resolved.resolve_plus3()
            entries += [
                e for e in resolved._turn_entries(after_plus3=True) if not (e.play and e.play[0][0] == KING)
            ]
        else:
            entries = self._turn_entries()
        out: list[dict[str, Any]] = []
        for e in entries:
            trial = self.clone()
            recorded = trial.apply_entry(e, "", shuffler=_identity)
            as_json = e.to_json()
            if recorded is not None:
                as_json["reshuffle"] = list(recorded)
            out.append(as_json)
        return out

    # ----------------------------------------------------------------- one entry

    def apply_entry(
        self, entry: Entry, path: str, shuffler: Shuffler | None = None
    ) -> tuple[str, ...] | None:
        """Check and perform one entry; return the reshuffle a `shuffler` made, if any."""
        if self.winner is not None:
            raise _error(ErrorCode.GAME_ALREADY_OVER, path, f"Seat {self.winner} has already won.")
        self.start_entry(path, entry.reshuffle, shuffler)
        if self.plus3_by is not None:
            if entry.play and entry.play[0][0] == BREAKER and entry.seat != self.plus3_by:
                self.answer_plus3(entry, path)
                self.close_entry(path)
                return self.recorded_reshuffle
            if entry.seat == self.to_move and entry.play and entry.play[0][0] == KING:
                self.plus3_by = None  # a King at the start of the next turn cancels the +3
            else:
                self.resolve_plus3()
        if entry.seat != self.to_move:
            raise _error(
                ErrorCode.WRONG_SEAT,
                f"{path}/seat",
                f"Seat {self.to_move} is to play, not seat {entry.seat}.",
            )
        self.begin_turn(entry.seat)
        if not entry.play:
            self.draw_turn(entry, path)
        else:
            for i, (card, chosen) in enumerate(entry.play):
                self.play_card(card, chosen, f"{path}/play/{i}")
            self.finish_turn(entry.draw, entry.close, entry.last_card, path)
        self.close_entry(path)
        return self.recorded_reshuffle

    def start_entry(self, path: str, reshuffle: tuple[str, ...] | None, shuffler: Shuffler | None) -> None:
        self._path = path
        self._reshuffle = reshuffle
        self._reshuffle_used = False
        self._shuffler = shuffler
        self.recorded_reshuffle = None
        self._after_plus3 = False

    def close_entry(self, path: str) -> None:
        self._shuffler = None
        if self._reshuffle is not None and not self._reshuffle_used:
            raise _error(
                ErrorCode.DECK_MISMATCH,
                f"{path}/reshuffle",
                "The entry carries a reshuffle, but no draw in it found the stock empty.",
            )

    # ----------------------------------------------------------------- drawing

    def _draw(self, seat: int, k: int) -> None:
        hand = self.hands[seat]
        for _ in range(k):
            if not self.stock and not self._refill():
                return  # both piles are empty: the remaining draws lapse
            hand.append(self.stock.pop())

    def _refill(self) -> bool:
        rest = self.discard[:-1]
        if not rest or self._reshuffle_used:
            return False
        if self._shuffler is not None:
            new = tuple(self._shuffler(list(rest)))
            self.recorded_reshuffle = new
        else:
            if self._reshuffle is None:
                raise _error(
                    ErrorCode.DECK_MISMATCH,
                    self._path,
                    "The stock is empty: this entry must carry `reshuffle`, the discard pile minus its top card.",
                )
            if Counter(self._reshuffle) != Counter(rest):
                raise _error(
                    ErrorCode.DECK_MISMATCH,
                    f"{self._path}/reshuffle",
                    "The reshuffle is not the discard pile minus its top card.",
                )
            new = self._reshuffle
        self._reshuffle_used = True
        self.stock = list(reversed(new))
        self.discard = [self.discard[-1]]
        return True

    def _next(self, seat: int, steps: int) -> int:
        return (seat + self.direction * steps) % self.n

    # ----------------------------------------------------------------- the +3

    def resolve_plus3(self) -> None:
        """Every seat but the +3 player draws 3, in turn order from the next seat; no one loses a turn."""
        p = self.plus3_by
        self.plus3_by = None
        self._after_plus3 = True
        s = self.to_move
        for _ in range(self.n):
            if s != p:
                self._draw(s, 3)
            s = self._next(s, 1)

    def answer_plus3(self, entry: Entry, path: str) -> None:
        """A +3 Breaker from any other seat, out of turn: the +3 player draws 3; the turn order stays."""
        seat = entry.seat
        hand = self.hands[seat]
        if BREAKER not in hand:
            raise _error(ErrorCode.CARD_NOT_IN_HAND, f"{path}/play/0", f"Seat {seat} holds no breaker.")
        if len(entry.play) > 1:
            raise _error(
                ErrorCode.ILLEGAL_MOVE, f"{path}/play/1", "A +3 Breaker answering a +3 is played alone."
            )
        if entry.draw:
            raise _error(ErrorCode.ILLEGAL_MOVE, f"{path}/draw", "A +3 Breaker answer does not draw.")
        if entry.close:
            raise _error(ErrorCode.ILLEGAL_MOVE, f"{path}/close", "There is no TAKI run to close.")
        hand.remove(BREAKER)
        self.discard.append(BREAKER)
        p = self.plus3_by
        assert p is not None
        self.plus3_by = None
        left = len(hand)
        self._check_last_card(entry.last_card, left, path)
        self._draw(p, 3)
        if left == 1 and not entry.last_card:
            self._draw(seat, 4)
        self._check_empty(seat)

    # ----------------------------------------------------------------- a turn

    def begin_turn(self, seat: int) -> None:
        self._seat = seat
        self.need = Need.FIRST
        self._run_color = None
        self._run_cards = []
        self.pending_run = None
        self.run_alone = False
        self._skip = 0
        self._breaker_draw = False

    def card_reason(self, card: str, chosen: str | None) -> str | None:
        """Why `card` may not be played next in the running turn, or None if it may."""
        deck = self.variant.deck
        colour = deck.color_of[card]
        symbol = deck.symbol_of[card]
        need = self.need
        if need == Need.END:
            return "No further card may be played in this turn."
        if need == Need.RUN:
            if colour != self._run_color:
                return f"The TAKI run goes on with every {self._run_color} card the seat holds."
            return None
        if need == Need.FIRST and card in (BREAKER, KING) and self._after_plus3:
            return (
                f"After the +3 draws a {card} cannot open the turn: a turn that starts with it on a +3"
                " answers the +3 before anyone draws."
            )
        if need == Need.FIRST and self.plus2 > 0:
            if symbol not in ("plus2", KING):
                return "Only a +2 or a King may be played on an active +2 stack."
            return None
        if card == SUPERTAKI:
            if self.lead_color is None and chosen is None:
                return "A SuperTAKI on a colourless lead names its colour: supertaki:<colour>."
            if self.lead_color is not None and chosen not in (None, self.lead_color):
                return f"A SuperTAKI takes the lead colour {self.lead_color}."
        if need == Need.KING or colour is None:
            return None
        if need == Need.FIRST and self.open_taki == colour:
            return None
        if self.lead_color is None or colour == self.lead_color or symbol == self.lead_symbol:
            return None
        return f"{card} matches neither the lead colour {self.lead_color} nor the symbol {self.lead_symbol}."

    def options(self) -> list[Played]:
        """The distinct cards (with colour choices) the seat may play next."""
        colors = self.variant.deck.colors
        out: list[Played] = []
        for card in dict.fromkeys(self.hands[self._seat]):
            choices: list[Played]
            if card == COLOR_CARD or (card == SUPERTAKI and self.lead_color is None):
                choices = [(card, c) for c in colors]
            else:
                choices = [(card, None)]
            for played in choices:
                if self.card_reason(*played) is None:
                    out.append(played)
        return out

    def _set_lead(self, colour: str | None, symbol: str) -> None:
        self.lead_color = colour
        self.lead_symbol = symbol

    def play_card(self, card: str, chosen: str | None, path: str) -> None:
        hand = self.hands[self._seat]
        if card not in hand:
            raise _error(ErrorCode.CARD_NOT_IN_HAND, path, f"Seat {self._seat} does not hold {card}.")
        reason = self.card_reason(card, chosen)
        if reason is not None:
            raise _error(ErrorCode.ILLEGAL_MOVE, path, reason)
        hand.remove(card)
        self.discard.append(card)
        deck = self.variant.deck
        colour = deck.color_of[card]
        symbol = deck.symbol_of[card]
        if self.need == Need.RUN:
            self._run_cards.append(card)
            self._set_lead(colour, symbol)
            self._continue_or_end_run()
            return
        first = self.need == Need.FIRST
        self.pending_run = None
        if first and self.open_taki is not None:
            open_colour = self.open_taki
            self.open_taki = None  # continued now, or ended by a card of another kind
            if colour == open_colour:
                self._set_lead(colour, symbol)
                self._start_run(open_colour, card)
                return
        if symbol in TRANSPARENT:
            if symbol == KING:
                self.plus2 = 0
                self.need = Need.KING
            elif symbol == PLUS3:
                self.plus3_by = self._seat
                self.need = Need.END
            else:  # a breaker in one's own turn: the player draws 3 at the end of the turn
                self._breaker_draw = True
                self.need = Need.END
            return
        if symbol == COLOR_CARD:
            self._set_lead(chosen, COLOR_CARD)
            self.need = Need.END
            return
        if symbol == SUPERTAKI:
            run_colour = chosen if chosen is not None else self.lead_color
            assert run_colour is not None
            self._set_lead(run_colour, "taki")
            self._start_run(run_colour, card)
            return
        self._set_lead(colour, symbol)
        if symbol == "taki":
            assert colour is not None
            self._start_run(colour, card)
            return
        self._execute(symbol)

    def _execute(self, symbol: str) -> None:
        self.need = Need.END
        if symbol == "stop":
            self._skip += 1
        elif symbol == "dir":
            if self.n > 2:
                self.direction = -self.direction
        elif symbol == "plus2":
            self.plus2 += 2
        elif symbol == "plus":
            self.need = Need.PLUS

    def _start_run(self, colour: str, card: str) -> None:
        self._run_color = colour
        self._run_cards = [card]
        self._continue_or_end_run()

    def _continue_or_end_run(self) -> None:
        color_of = self.variant.deck.color_of
        colour = self._run_color
        if any(color_of[x] == colour for x in self.hands[self._seat]):
            self.need = Need.RUN
            return
        last = self._run_cards[-1]
        symbol = self.variant.deck.symbol_of[last]
        if symbol in RUN_ENDING_ACTIONS:
            self._execute(symbol)  # the last card's action happens and the run closes
            return
        self.need = Need.END
        self.pending_run = colour
        self.run_alone = len(self._run_cards) == 1 and symbol in ("taki", SUPERTAKI)

    def _check_last_card(self, said: bool, left: int, path: str) -> None:
        if said and left != 1:
            raise _error(
                ErrorCode.ILLEGAL_MOVE,
                f"{path}/last_card",
                f"`last_card` is said when a turn leaves exactly one card; this one leaves {left}.",
            )

    def finish_turn(self, draw: bool, close: bool, last_card: bool, path: str) -> None:
        seat = self._seat
        hand = self.hands[seat]
        need = self.need
        if need == Need.RUN:
            raise _error(
                ErrorCode.MISSING_ACTION,
                f"{path}/play",
                f"The TAKI run must go on with every {self._run_color} card seat {seat} holds.",
            )
        if need == Need.PLUS:
            if not draw:
                raise _error(
                    ErrorCode.MISSING_ACTION,
                    f"{path}/play",
                    "A Plus needs a second card, or `draw` when none can follow.",
                )
            if self.options():
                raise _error(
                    ErrorCode.MUST_PLAY,
                    f"{path}/draw",
                    "A card can follow the Plus; drawing is not allowed.",
                )
        elif draw:
            raise _error(
                ErrorCode.ILLEGAL_MOVE,
                f"{path}/draw",
                "Only a Plus that cannot be followed ends with a draw.",
            )
        if close:
            if self.pending_run is None:
                raise _error(ErrorCode.ILLEGAL_MOVE, f"{path}/close", "There is no open TAKI run to close.")
            if self.run_alone:
                raise _error(
                    ErrorCode.ILLEGAL_MOVE,
                    f"{path}/close",
                    "A TAKI played alone cannot be closed by its own player.",
                )
        elif self.pending_run is not None:
            self.open_taki = self.pending_run
        left = len(hand)
        self._check_last_card(last_card, left, path)
        if need == Need.PLUS:
            self._draw(seat, 1)
        if self._breaker_draw:
            self._draw(seat, 3)
        if left == 1 and not last_card:
            self._draw(seat, 4)
        self.need = Need.END
        self.to_move = self._next(seat, 1 + self._skip)
        self._check_empty(seat)

    def draw_turn(self, entry: Entry, path: str) -> None:
        seat = entry.seat
        if entry.close:
            raise _error(ErrorCode.ILLEGAL_MOVE, f"{path}/close", "A drawing turn closes nothing.")
        if entry.last_card:
            raise _error(ErrorCode.ILLEGAL_MOVE, f"{path}/last_card", "A drawing turn plays no card.")
        if self.plus2 > 0:
            k = self.plus2
            self.plus2 = 0
            self._draw(seat, k)
        else:
            if self.options():
                raise _error(
                    ErrorCode.MUST_PLAY,
                    f"{path}/draw",
                    f"Seat {seat} can play a card, so it may not draw.",
                )
            self._draw(seat, 1)
        self.need = Need.END
        self.to_move = self._next(seat, 1)

    def _check_empty(self, seat: int) -> None:
        if self.hands[seat]:
            return
        if self.phases is None or self.phases[seat] == 1:
            self.winner = seat
            return
        phase = self.phases[seat] - 1
        self.phases[seat] = phase
        self._draw(seat, phase)

    # ----------------------------------------------------------------- listing legal turns

    def _turn_entries(self, *, after_plus3: bool = False) -> list[Entry]:
        """Every turn of the seat to move (no +3 pending): draws and play lists."""
        st = self.clone()
        st._after_plus3 = after_plus3
        st.begin_turn(self.to_move)
        out: list[Entry] = []
        if st.plus2 > 0 or not st.options():
            out.append(Entry(st._seat, (), True, False, False, None))
        st._search([], out)
        return out

    def _search(self, plays: list[Played], out: list[Entry]) -> None:
        seat = self._seat
        need = self.need
        left = len(self.hands[seat])
        lasts = (False, True) if left == 1 else (False,)
        if plays and need in (Need.KING, Need.END):
            closes = (False, True) if self.pending_run is not None and not self.run_alone else (False,)
            for c in closes:
                for last in lasts:
                    out.append(Entry(seat, tuple(plays), False, c, last, None))
        if need == Need.PLUS and not self.options():
            for last in lasts:
                out.append(Entry(seat, tuple(plays), True, False, last, None))
        if need == Need.END:
            return
        if need == Need.RUN:
            color_of = self.variant.deck.color_of
            cards = sorted(x for x in self.hands[seat] if color_of[x] == self._run_color)
            for final in dict.fromkeys(cards):
                order = list(cards)
                order.remove(final)
                order.append(final)
                st = self.clone()
                for card in order:
                    st.play_card(card, None, "")
                st._search(plays + [(card, None) for card in order], out)
            return
        for played in self.options():
            st = self.clone()
            st.play_card(played[0], played[1], "")
            st._search([*plays, played], out)
