"""Random ZACK! Partien that look like real ones: mostly correct throws, a few faults, challenges that
succeed and challenges that fail, Stopp cards with late cards in `after`, and the final player card.

The simulation acts as the whole table. After a number of events proportional to the deck it calms
down (no more faults or challenges), so every game ends: each correct throw shortens the stacks.
"""

from __future__ import annotations

import random
from typing import Any

from rules.core.reader import FORMAT
from rules.zack.actions import OUT_OF_TURN, SLOW, Challenge, Event, PlayerCard, Throw
from rules.zack.cards import COLOURS, STOP_CARDS, STOP_CHOOSE, reference_deck
from rules.zack.game import ZackVariant, parse_variant
from rules.zack.state import ZackState

NAMES = ("Anita", "Bernd", "Corinna", "Dieter", "Emil", "Frieda")
DEFAULT_SEATS = 4


class TableSimulation:
    """Chooses the next event at a ZACK! table. Rates are per event."""

    def __init__(
        self,
        state: ZackState,
        rng: random.Random,
        *,
        fault_rate: float = 0.03,
        slow_rate: float = 0.02,
        wrong_challenge_rate: float = 0.01,
        player_card_fault_rate: float = 0.004,
        notice_rate: float = 0.35,
        late_card_rate: float = 0.3,
        calm_after: int = 2000,
    ) -> None:
        self.state = state
        self.rng = rng
        self.fault_rate = fault_rate
        self.slow_rate = slow_rate
        self.wrong_challenge_rate = wrong_challenge_rate
        self.player_card_fault_rate = player_card_fault_rate
        self.notice_rate = notice_rate
        self.late_card_rate = late_card_rate
        self.calm_after = calm_after
        self.events = 0

    # --------------------------------------------------------------- building blocks

    def _others(self, *excluded: int) -> list[int]:
        return [s for s in range(self.state.n) if s not in excluded]

    def _throw(self, seat: int) -> Throw:
        state = self.state
        card = state.stacks[seat][0]
        effect = state.next_effect(seat)
        if effect not in STOP_CARDS:
            return Throw(seat=seat, card=card)
        choose = self.rng.choice(state.colours) if effect == STOP_CHOOSE else None
        after: tuple[Event, ...] | None = None
        if self.rng.random() < self.late_card_rate:
            after = self._late_throws(exclude=seat)
        return Throw(seat=seat, card=card, choose=choose, after=after)

    def _late_throws(self, *, exclude: int, must_include: int | None = None) -> tuple[Event, ...]:
        """One or two ZACK! cards that land after play stopped (they go back under their stacks)."""
        state = self.state
        depth = [0] * state.n
        seats = [s for s in self._others(exclude) if state.stacks[s]]
        chosen: list[int] = [] if must_include is None else [must_include]
        for _ in range(self.rng.randint(0 if chosen else 1, 1)):
            if seats:
                chosen.append(self.rng.choice(seats))
        out: list[Event] = []
        for seat in chosen:
            stack = state.stacks[seat]
            if depth[seat] < len(stack):
                out.append(Throw(seat=seat, card=stack[depth[seat]]))
                depth[seat] += 1
        return tuple(out)

    def _collect_order(self) -> tuple[str, ...] | None:
        """Sometimes the collector's cards come up in another order than thrown."""
        cards = [b.card for b in self.state.bowl]
        if len(cards) < 2 or self.rng.random() > 0.15:
            return None
        self.rng.shuffle(cards)
        return tuple(cards)

    def _challenge(self, challenger: int, accused: int, reason: str, **extra: Any) -> Challenge:
        colour = self.state.colours[accused]
        return Challenge(seat=challenger, color=colour, reason=reason, order=self._collect_order(), **extra)

    # --------------------------------------------------------------- the policy

    def next_event(self) -> Event:
        self.events += 1
        state, rng = self.state, self.rng
        obliged = state.obliged
        calm = self.events > self.calm_after
        if not calm:
            faulty = [s for s in range(state.n) if state.fault_in_reach(s)]
            if faulty and rng.random() < self.notice_rate:
                accused = rng.choice(faulty)
                challenger = rng.choice(self._others(obliged, accused))
                return self._challenge(challenger, accused, OUT_OF_TURN)
        if not state.stacks[obliged]:
            if not state.holds_player_card(obliged) or (not calm and rng.random() < 0.1):
                # Stuck (its player card lies in the bowl after a fault) or simply slow: challenged.
                return self._challenge(rng.choice(self._others(obliged)), obliged, SLOW)
            return PlayerCard(seat=obliged)
        if calm:
            return self._throw(obliged)
        r = rng.random()
        if r < self.slow_rate:
            after = None
            if rng.random() < 0.5:  # the obliged seat's card lands on the challenge card: too late
                after = (Throw(seat=obliged, card=state.stacks[obliged][0]),)
            return self._challenge(rng.choice(self._others(obliged)), obliged, SLOW, after=after)
        r -= self.slow_rate
        if r < self.fault_rate:
            throwers = [s for s in self._others(obliged) if state.stacks[s]]
            if throwers:
                return self._throw(rng.choice(throwers))
        r -= self.fault_rate
        if r < self.wrong_challenge_rate:
            return self._wrong_challenge()
        r -= self.wrong_challenge_rate
        if r < self.player_card_fault_rate:
            holders = [s for s in range(state.n) if state.holds_player_card(s)]
            return PlayerCard(seat=rng.choice(holders))
        return self._throw(obliged)

    def _wrong_challenge(self) -> Challenge:
        """A challenge that fails: a seat accused that is not slow, or not at fault, or the wrong colour."""
        state, rng = self.state, self.rng
        obliged = state.obliged
        challenger = rng.choice(self._others(obliged))
        kind = rng.randrange(3)
        if kind == 0:
            accused = rng.choice(self._others(obliged, challenger))
            return self._challenge(challenger, accused, SLOW)
        if kind == 1:
            innocent = [s for s in self._others(challenger) if not state.fault_in_reach(s)]
            if innocent:
                return self._challenge(challenger, rng.choice(innocent), OUT_OF_TURN)
        # The challenge card shows another colour than the accused's: it fails.
        accused = obliged
        colours = [c for c in state.colours if c not in (state.colours[challenger], state.colours[accused])]
        return Challenge(seat=challenger, color=rng.choice(colours), reason=SLOW, accused=accused)


def _complete_variant(raw: dict[str, Any]) -> dict[str, Any]:
    variant = dict(raw)
    if "colors" not in variant:
        seats = variant.get("seats", DEFAULT_SEATS)
        if isinstance(seats, int) and not isinstance(seats, bool):
            variant["colors"] = list(COLOURS[: max(0, seats)])
    return variant


def deal(variant: ZackVariant, rng: random.Random, dealer: int) -> list[list[str]]:
    """Shuffle the deck and deal it one by one from the seat left of the dealer."""
    deck = (
        variant.deck
        if variant.deck is not None
        else reference_deck(variant.colours, again_back=variant.again_back, stop_cards=variant.stop_cards)
    )
    cards = [card for card, count in deck.items() for _ in range(count)]
    rng.shuffle(cards)
    stacks: list[list[str]] = [[] for _ in range(variant.seats)]
    for i, card in enumerate(cards):
        stacks[(dealer + 1 + i) % variant.seats].append(card)
    return stacks


def random_record(raw_variant: dict[str, Any], rng: random.Random, **rates: Any) -> dict[str, Any]:
    """One complete Partie as a record (RecordError(bad_variant) for a bad variant)."""
    variant_json = _complete_variant(raw_variant)
    variant = parse_variant(variant_json)
    dealer = rng.randrange(variant.seats)
    stacks = deal(variant, rng, dealer)
    state = ZackState(variant, colours=variant.colours, stacks=stacks, obliged=(dealer + 1) % variant.seats)
    rates.setdefault("calm_after", 4 * state.total + 40)
    table = TableSimulation(state, rng, **rates)
    events: list[dict[str, Any]] = []
    clock = 0
    while not state.is_terminal():
        event = table.next_event()
        state.apply(event)
        clock += rng.randint(250, 2500)
        events.append({**event.to_json(), "t": clock})
    outcome = state.outcome()
    assert outcome is not None
    return {
        "format": FORMAT,
        "game": "zack",
        "variant": variant_json,
        "players": [{"name": NAMES[s], "seats": [s]} for s in range(variant.seats)],
        "deals": [{"dealer": dealer, "stacks": stacks, "events": events}],
        "result": {**outcome, "termination": "rules"},
    }
