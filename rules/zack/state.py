"""One ZACK! position and the rules that move it on, event by event (spec section 8).

The position is the stacks (top first), the bowl (bottom first), the current colours, the player
cards lying in the bowl and the obliged seat. Every rule the record does not state is derived here:
who is obliged, whether a throw is a fault, whether a challenge succeeds, who collects the bowl.
"""

from __future__ import annotations

from collections import Counter, deque
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from rules.core.errors import ErrorCode, RecordError
from rules.core.pointer import child
from rules.zack.actions import OUT_OF_TURN, REASONS, SLOW, Challenge, Event, PlayerCard, Throw
from rules.zack.cards import AGAIN, BACK, DIRECTION_OFFSETS, STOP_CARDS, STOP_CHOOSE, STOP_MIRROR, STOP_SWAP
from rules.zack.game import ZackVariant

TOP_FOUR = 4  # "solange die falsche Karte eine der vier obersten Karten in der Schale ist"


@dataclass(frozen=True)
class BowlCard:
    """A ZACK! card in the bowl. `effect` is the card it acts as (an `again` takes the card below)."""

    seat: int
    card: str
    effect: str
    fault: bool
    choose: str | None = None


@dataclass(frozen=True)
class LoosePlayerCard:
    """A player card thrown as a fault; it lies in the bowl until the next collection."""

    colour: str
    seat: int
    zack_below: int  # ZACK! cards in the bowl when it was thrown


def effect_of(card: str, bowl: Sequence[BowlCard]) -> str:
    """What a card thrown on `bowl` acts as: an `again` repeats the card below, recursively.

    An `again` (or a chain of them) on an empty bowl stays `again`: the thrower throws once more.

    >>> effect_of("again", [BowlCard(0, "right", "right", False)])
    'right'
    >>> effect_of("again", [])
    'again'
    """
    if card != AGAIN or not bowl:
        return card
    return bowl[-1].effect


class ZackState:
    """A ZACK! position. `apply` checks an event and performs it, raising RecordError if illegal."""

    __slots__ = (
        "variant",
        "n",
        "colours",
        "stacks",
        "bowl",
        "loose",
        "obliged",
        "winner",
        "total",
        "collected",
    )

    def __init__(
        self,
        variant: ZackVariant,
        *,
        colours: Sequence[str],
        stacks: Iterable[Iterable[str]],
        bowl: Iterable[BowlCard] = (),
        obliged: int,
    ) -> None:
        self.variant = variant
        self.n = variant.seats
        self.colours: list[str] = list(colours)
        self.stacks: list[deque[str]] = [deque(stack) for stack in stacks]
        self.bowl: list[BowlCard] = list(bowl)
        self.loose: list[LoosePlayerCard] = []
        self.obliged = obliged
        self.winner: int | None = None
        self.total = sum(len(s) for s in self.stacks) + len(self.bowl)
        self.collected: list[int] = [0] * self.n  # cards each seat has taken from the bowl (history only)

    # ----------------------------------------------------------------- derived facts

    def holder(self, colour: str) -> int:
        """The seat whose player colour is `colour` now."""
        return self.colours.index(colour)

    def mirrored(self) -> bool:
        """True while an odd number of cards acting as Links=Rechts lie in the bowl."""
        return sum(1 for b in self.bowl if b.effect == STOP_MIRROR) % 2 == 1

    def obliged_by_top(self) -> int:
        """The seat the top ZACK! card obliges (the bowl must not be empty)."""
        index = len(self.bowl) - 1
        top = self.bowl[index]
        effect = top.effect
        if effect in self.colours:
            return self.holder(effect)
        offset = DIRECTION_OFFSETS.get(effect)
        if offset is not None:
            if self.mirrored():
                offset = -offset
            return (top.seat + offset) % self.n
        if effect == BACK:
            return self.bowl[index - 1].seat if index > 0 else top.seat
        if effect == STOP_CHOOSE:
            assert top.choose is not None
            return self.holder(top.choose)
        # `again` as the first card, Farben wechseln and Links=Rechts: the thrower goes on.
        return top.seat

    def holds_player_card(self, seat: int) -> bool:
        colour = self.colours[seat]
        return all(p.colour != colour for p in self.loose)

    def holds_challenge_card(self, seat: int, colour: str) -> bool:
        """A seat holds the challenge cards of every colour in play but its own."""
        return colour in self.colours and colour != self.colours[seat]

    def fault_in_reach(self, accused: int) -> bool:
        """True if a fault by `accused` is still one of the top four (only ZACK! cards count)."""
        if any(b.fault and b.seat == accused for b in self.bowl[-TOP_FOUR:]):
            return True
        depth = len(self.bowl)
        return any(p.seat == accused and depth - p.zack_below < TOP_FOUR for p in self.loose)

    def next_effect(self, seat: int) -> str | None:
        """What the top card of `seat`'s stack would act as if thrown now (None: empty stack)."""
        stack = self.stacks[seat]
        return effect_of(stack[0], self.bowl) if stack else None

    def card_count(self) -> int:
        """ZACK! cards in stacks and bowl: constant over a Partie."""
        return sum(len(s) for s in self.stacks) + len(self.bowl)

    # ----------------------------------------------------------------- the protocol

    def is_terminal(self) -> bool:
        return self.winner is not None

    def outcome(self) -> dict[str, Any] | None:
        return None if self.winner is None else {"winners": [self.winner]}

    def clone(self) -> ZackState:
        other = ZackState.__new__(ZackState)
        other.variant = self.variant
        other.n = self.n
        other.colours = list(self.colours)
        other.stacks = [deque(s) for s in self.stacks]
        other.bowl = list(self.bowl)
        other.loose = list(self.loose)
        other.obliged = self.obliged
        other.winner = self.winner
        other.total = self.total
        other.collected = list(self.collected)
        return other

    def snapshot(self) -> tuple[Any, ...]:
        """Everything that defines the position, for equality checks."""
        return (
            tuple(self.colours),
            tuple(tuple(s) for s in self.stacks),
            tuple(self.bowl),
            tuple(self.loose),
            self.obliged,
            self.winner,
        )

    def legal_actions(self) -> list[Event]:
        """The canonical events possible now: every throw from a non-empty stack (faults are legal),
        every challenge by a seat that is not obliged, every player card still held. Variants of these
        with `after`, `accused` or `order` are legal as well but not listed."""
        if self.winner is not None:
            return []
        actions: list[Event] = []
        for seat in range(self.n):
            effect = self.next_effect(seat)
            if effect is None:
                continue
            if effect == STOP_CHOOSE:
                actions.extend(Throw(seat=seat, choose=colour) for colour in self.colours)
            else:
                actions.append(Throw(seat=seat))
        for seat in range(self.n):
            if seat == self.obliged:
                continue
            for colour in self.colours:
                if colour != self.colours[seat]:
                    actions.extend(Challenge(seat=seat, color=colour, reason=reason) for reason in REASONS)
        actions.extend(PlayerCard(seat=seat) for seat in range(self.n) if self.holds_player_card(seat))
        return actions

    def apply(self, action: Event, path: str = "") -> None:
        """Check and perform one event; `path` is its JSON Pointer for errors."""
        if self.winner is not None:
            raise RecordError(ErrorCode.GAME_ALREADY_OVER, path, f"Seat {self.winner} has already won.")
        if isinstance(action, Throw):
            self._throw(action, path)
        elif isinstance(action, Challenge):
            self._challenge(action, path)
        else:
            self._player_card(action, path)

    # ----------------------------------------------------------------- events

    def _take_top(self, seat: int, card: str | None, path: str) -> str:
        stack = self.stacks[seat]
        if not stack:
            raise RecordError(ErrorCode.ILLEGAL_MOVE, path, f"Seat {seat} has no card left to throw.")
        if card is not None and card != stack[0]:
            raise RecordError(
                ErrorCode.DECK_MISMATCH,
                child(path, "card"),
                f"The top of seat {seat}'s stack is {stack[0]}, not {card}.",
            )
        return stack.popleft()

    def _throw(self, ev: Throw, path: str) -> None:
        stack = self.stacks[ev.seat]
        if not stack:
            raise RecordError(ErrorCode.ILLEGAL_MOVE, path, f"Seat {ev.seat} has no card left to throw.")
        if ev.card is not None and ev.card != stack[0]:
            raise RecordError(
                ErrorCode.DECK_MISMATCH,
                child(path, "card"),
                f"The top of seat {ev.seat}'s stack is {stack[0]}, not {ev.card}.",
            )
        effect = effect_of(stack[0], self.bowl)
        if effect in STOP_CARDS:
            if effect == STOP_CHOOSE:
                if ev.choose is None:
                    raise RecordError(
                        ErrorCode.MISSING_ACTION, path, "Farbe wählen needs `choose`: a player colour."
                    )
                if ev.choose not in self.colours:
                    raise RecordError(
                        ErrorCode.ILLEGAL_MOVE,
                        child(path, "choose"),
                        f"{ev.choose!r} is not a player colour in play.",
                    )
            elif ev.choose is not None:
                raise RecordError(
                    ErrorCode.ILLEGAL_MOVE, child(path, "choose"), f"A {effect} card chooses no colour."
                )
        else:
            if ev.choose is not None:
                raise RecordError(
                    ErrorCode.ILLEGAL_MOVE, child(path, "choose"), f"A {effect} card chooses no colour."
                )
            if ev.after is not None:
                raise RecordError(
                    ErrorCode.ILLEGAL_MOVE,
                    child(path, "after"),
                    "Only a Stopp card or a challenge stops play.",
                )
        card = stack.popleft()
        fault = ev.seat != self.obliged
        choose = ev.choose if effect == STOP_CHOOSE else None
        self.bowl.append(BowlCard(seat=ev.seat, card=card, effect=effect, fault=fault, choose=choose))
        if effect in STOP_CARDS:
            self._void_after(ev.after or (), path, challenger=None)
            if effect == STOP_SWAP:
                # Player and challenge cards pass to the left: seat s+1 takes seat s's colour.
                self.colours = [self.colours[-1], *self.colours[:-1]]
        self.obliged = self.obliged_by_top()

    def _void_after(self, events: Sequence[Event], path: str, *, challenger: int | None) -> None:
        """Events that landed after a Stopp card or a challenge: ZACK! cards go back under their
        throwers' stacks in order, challenge and player cards back to their owners."""
        taken: list[tuple[int, str]] = []
        challengers: set[int] = set() if challenger is None else {challenger}
        thrown_player_cards: set[int] = set()
        for j, ev in enumerate(events):
            p = child(path, "after", j)
            if isinstance(ev, Throw):
                taken.append((ev.seat, self._take_top(ev.seat, ev.card, p)))
            elif isinstance(ev, Challenge):
                if not self.holds_challenge_card(ev.seat, ev.color):
                    raise RecordError(
                        ErrorCode.ILLEGAL_MOVE,
                        child(p, "color"),
                        f"Seat {ev.seat} holds no {ev.color} challenge card.",
                    )
                if ev.seat in challengers:
                    raise RecordError(
                        ErrorCode.ILLEGAL_MOVE, p, f"Seat {ev.seat} already has a challenge card in the bowl."
                    )
                challengers.add(ev.seat)
            else:
                if not self.holds_player_card(ev.seat) or ev.seat in thrown_player_cards:
                    raise RecordError(
                        ErrorCode.CARD_NOT_IN_HAND, p, f"Seat {ev.seat}'s player card is in the bowl."
                    )
                thrown_player_cards.add(ev.seat)
        for seat, card in taken:
            self.stacks[seat].append(card)

    def _challenge(self, ev: Challenge, path: str) -> None:
        if ev.seat == self.obliged:
            raise RecordError(
                ErrorCode.ILLEGAL_MOVE, path, f"Seat {ev.seat} is obliged to throw and cannot challenge."
            )
        if not self.holds_challenge_card(ev.seat, ev.color):
            raise RecordError(
                ErrorCode.ILLEGAL_MOVE,
                child(path, "color"),
                f"Seat {ev.seat} holds no {ev.color} challenge card.",
            )
        if ev.accused == ev.seat:
            raise RecordError(
                ErrorCode.ILLEGAL_MOVE, child(path, "accused"), "A challenge accuses another player."
            )
        holder = self.holder(ev.color)
        accused = holder if ev.accused is None else ev.accused
        if ev.reason == SLOW:
            proven = accused == self.obliged
        else:
            assert ev.reason == OUT_OF_TURN
            proven = self.fault_in_reach(accused)
        success = accused == holder and proven
        self._void_after(ev.after or (), path, challenger=ev.seat)
        loser, winner = (accused, ev.seat) if success else (ev.seat, accused)
        collected = [b.card for b in self.bowl]
        if ev.order is not None:
            if Counter(ev.order) != Counter(collected):
                raise RecordError(
                    ErrorCode.DECK_MISMATCH,
                    child(path, "order"),
                    f"`order` must list exactly the bowl's cards {sorted(collected)}.",
                )
            collected = list(ev.order)
        self.stacks[loser].extend(collected)
        self.collected[loser] += len(collected)
        self.bowl.clear()
        self.loose.clear()
        self.obliged = winner

    def _player_card(self, ev: PlayerCard, path: str) -> None:
        if not self.holds_player_card(ev.seat):
            raise RecordError(
                ErrorCode.CARD_NOT_IN_HAND, path, f"Seat {ev.seat}'s player card is already in the bowl."
            )
        if ev.seat == self.obliged and not self.stacks[ev.seat]:
            self.winner = ev.seat
            return
        self.loose.append(
            LoosePlayerCard(colour=self.colours[ev.seat], seat=ev.seat, zack_below=len(self.bowl))
        )
