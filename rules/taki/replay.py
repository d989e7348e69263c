"""Replay a TAKI record: variant, players, setup or deal, then every entry (spec sections 2 and 7)."""

from __future__ import annotations

from collections import Counter
from typing import Any

from rules.cards.deck import parse_cards
from rules.core.engine import Observer, ReplayOutcome
from rules.core.errors import ErrorCode, RecordError
from rules.core.pointer import child
from rules.core.reader import (
    check_keys,
    expect_int,
    expect_list,
    expect_object,
    expect_seat,
    expect_str,
    parse_players,
    variant_dict,
)
from rules.taki.actions import parse_entry
from rules.taki.cards import COLOR_CARD, PLUS3, SUPERTAKI, TRANSPARENT
from rules.taki.game import TOURNAMENT_START_PHASE, Variant, parse_variant
from rules.taki.state import TakiState

DEAL_KEYS = ("hands", "lead", "stock", "first", "turns")
SETUP_REQUIRED = ("hands", "discard", "stock", "to_move")
SETUP_OPTIONAL = ("direction", "lead_color", "pending", "phases")


def _deck_mismatch(path: str, message: str) -> RecordError:
    return RecordError(ErrorCode.DECK_MISMATCH, path, message)


def _bad_setup(path: str, message: str) -> RecordError:
    return RecordError(ErrorCode.BAD_SETUP, path, message)


class _DeckCount:
    """Counts cards part by part and reports the first part that holds a copy too many."""

    def __init__(self, variant: Variant) -> None:
        self.deck = variant.deck.counts
        self.seen: Counter[str] = Counter()

    def add(self, cards: list[str], path: str) -> None:
        for card in cards:
            self.seen[card] += 1
            if self.seen[card] > self.deck[card]:
                raise _deck_mismatch(path, f"More copies of {card} than the deck's {self.deck[card]}.")

    def check_complete(self, path: str, what: str) -> None:
        missing = Counter(self.deck) - self.seen
        if missing:
            card = next(iter(sorted(missing)))
            raise _deck_mismatch(path, f"{what} must hold the whole deck; {card} is missing.")


def read_deal(deal: dict[str, Any], path: str, variant: Variant) -> TakiState:
    check_keys(deal, path, required=DEAL_KEYS)
    first = expect_seat(deal["first"], child(path, "first"), variant.seats)
    count = _DeckCount(variant)
    hands_path = child(path, "hands")
    raw_hands = expect_list(deal["hands"], hands_path)
    if len(raw_hands) != variant.seats:
        raise RecordError(
            ErrorCode.MALFORMED, hands_path, f"Expected {variant.seats} hands, found {len(raw_hands)}."
        )
    hands: list[list[str]] = []
    for s, raw in enumerate(raw_hands):
        h_path = child(hands_path, s)
        hand = parse_cards(raw, h_path, variant.deck.counts)
        if len(hand) != variant.hand_size:
            raise _deck_mismatch(h_path, f"Seat {s} was dealt {len(hand)} cards, not {variant.hand_size}.")
        count.add(hand, h_path)
        hands.append(hand)
    lead_path = child(path, "lead")
    lead = expect_str(deal["lead"], lead_path)
    if lead not in variant.deck.counts:
        raise RecordError(ErrorCode.UNKNOWN_CARD, lead_path, f"{lead!r} is not a card of this deck.")
    count.add([lead], lead_path)
    stock_path = child(path, "stock")
    stock = parse_cards(deal["stock"], stock_path, variant.deck.counts)
    count.add(stock, stock_path)
    count.check_complete(stock_path, "Hands, lead and stock")
    return TakiState.dealt(variant, hands, lead, stock, first)


def read_setup(raw: Any, variant: Variant) -> TakiState:
    path = "/setup"
    setup = expect_object(raw, path)
    check_keys(setup, path, required=SETUP_REQUIRED, optional=SETUP_OPTIONAL)
    deck = variant.deck
    count = _DeckCount(variant)
    hands_path = child(path, "hands")
    raw_hands = expect_list(setup["hands"], hands_path)
    if len(raw_hands) != variant.seats:
        raise RecordError(
            ErrorCode.MALFORMED, hands_path, f"Expected {variant.seats} hands, found {len(raw_hands)}."
        )
    hands: list[list[str]] = []
    for s, raw_hand in enumerate(raw_hands):
        h_path = child(hands_path, s)
        hand = parse_cards(raw_hand, h_path, deck.counts)
        if not hand:
            raise _bad_setup(h_path, f"Seat {s} holds no card: the game would already be over.")
        count.add(hand, h_path)
        hands.append(hand)
    discard_path = child(path, "discard")
    discard = parse_cards(setup["discard"], discard_path, deck.counts)
    if not discard:
        raise _bad_setup(discard_path, "The discard pile needs at least the lead card.")
    count.add(discard, discard_path)
    stock_path = child(path, "stock")
    stock = parse_cards(setup["stock"], stock_path, deck.counts)
    count.add(stock, stock_path)
    count.check_complete(path, "Hands, discard and stock of a setup")
    to_move = expect_seat(setup["to_move"], child(path, "to_move"), variant.seats)
    direction = 1
    if "direction" in setup:
        direction = expect_int(setup["direction"], child(path, "direction"), lo=-1, hi=1)
        if direction == 0:
            raise RecordError(ErrorCode.MALFORMED, child(path, "direction"), "`direction` is 1 or -1.")
    # the lead: the topmost card that is not transparent
    below = [card for card in discard if card not in TRANSPARENT]
    lead_color: str | None = None
    lead_symbol: str | None = None
    given_color: str | None = None
    lc_path = child(path, "lead_color")
    if "lead_color" in setup and setup["lead_color"] is not None:
        given_color = expect_str(setup["lead_color"], lc_path)
        if given_color not in deck.colors:
            raise _bad_setup(lc_path, f"{given_color!r} is not a colour of this variant.")
    if below:
        top = below[-1]
        colour = deck.color_of[top]
        if colour is not None:
            if given_color is not None and given_color != colour:
                raise _bad_setup(lc_path, f"The lead {top} is {colour}, not {given_color}.")
            lead_color, lead_symbol = colour, deck.symbol_of[top]
        elif given_color is not None:
            lead_color = given_color
            lead_symbol = COLOR_CARD if top == COLOR_CARD else "taki"
        elif len(below) == 1 and below[0] == discard[0]:
            pass  # the upturned lead is colourless and nothing coloured was played: any card matches
        else:
            raise _bad_setup(lc_path, f"The played {top} needs its chosen colour in `lead_color`.")
    elif given_color is not None:
        raise _bad_setup(lc_path, "Only transparent cards lie on the pile: there is no lead colour.")
    state = TakiState(
        variant,
        hands,
        stock,
        discard,
        lead_color,
        lead_symbol,
        to_move,
        direction=direction if variant.seats > 2 else 1,
    )
    if "pending" in setup:
        _read_pending(setup["pending"], child(path, "pending"), state)
    if "phases" in setup:
        ph_path = child(path, "phases")
        if not variant.tournament:
            raise _bad_setup(ph_path, "`phases` exist only in the tournament variant.")
        raw_phases = expect_list(setup["phases"], ph_path)
        if len(raw_phases) != variant.seats:
            raise RecordError(ErrorCode.MALFORMED, ph_path, f"Expected {variant.seats} phases.")
        state.phases = [
            expect_int(p, child(ph_path, i), lo=1, hi=TOURNAMENT_START_PHASE)
            for i, p in enumerate(raw_phases)
        ]
    elif variant.tournament:
        state.phases = [TOURNAMENT_START_PHASE] * variant.seats
    return state


def _read_pending(raw: Any, path: str, state: TakiState) -> None:
    pending = expect_object(raw, path)
    check_keys(pending, path, optional=("plus2", "plus3", "open_taki"))
    keys = [k for k in ("plus2", "plus3", "open_taki") if k in pending]
    if len(keys) != 1:
        raise RecordError(
            ErrorCode.MALFORMED, path, "`pending` holds exactly one of plus2, plus3, open_taki."
        )
    key = keys[0]
    k_path = child(path, key)
    deck = state.variant.deck
    top = state.discard[-1]
    if key == "plus2":
        n = expect_int(pending[key], k_path, lo=2)
        if n % 2:
            raise _bad_setup(k_path, "A +2 stack makes the next seat draw an even number of cards.")
        if deck.symbol_of[top] != "plus2":
            raise _bad_setup(k_path, f"An active +2 stack needs a +2 on top of the pile, not {top}.")
        state.plus2 = n
    elif key == "plus3":
        seat = expect_seat(pending[key], k_path, state.n)
        if top != PLUS3:
            raise _bad_setup(k_path, f"A waiting +3 needs the +3 on top of the pile, not {top}.")
        if seat == state.to_move:
            raise _bad_setup(k_path, "The +3 player is not the next seat.")
        state.plus3_by = seat
    else:
        colour = expect_str(pending[key], k_path)
        if colour not in deck.colors:
            raise _bad_setup(k_path, f"{colour!r} is not a colour of this variant.")
        if state.lead_color != colour or not (deck.color_of[top] == colour or top == SUPERTAKI):
            raise _bad_setup(
                k_path, f"An open {colour} TAKI needs a {colour} card or SuperTAKI on top of the pile."
            )
        state.open_taki = colour


def replay(doc: dict[str, Any], observe: Observer | None = None) -> ReplayOutcome:
    """Replay the record; ``observe`` sees the start (the setup, or the bare ``Variant`` before the deal),
    the deal and every entry."""
    variant = parse_variant(variant_dict(doc), doc.get("players"))
    parse_players(doc["players"], "/players", n_seats=variant.seats, active_seats=range(variant.seats))
    state: TakiState | None = read_setup(doc["setup"], variant) if "setup" in doc else None
    deals = expect_list(doc["deals"], "/deals")
    if len(deals) > 1:
        raise RecordError(ErrorCode.MALFORMED, "/deals/1", "A TAKI record has exactly one deal.")
    if observe is not None:
        observe("", "start", variant if state is None else state)
    if not deals:
        return ReplayOutcome(finished=False, result=None)
    deal = expect_object(deals[0], "/deals/0")
    if state is None:
        state = read_deal(deal, "/deals/0", variant)
        if observe is not None:
            observe("/deals/0", "deal", state)
    else:
        check_keys(deal, "/deals/0", required=("turns",))
    turns = expect_list(deal["turns"], "/deals/0/turns")
    for i, raw in enumerate(turns):
        path = f"/deals/0/turns/{i}"
        if state.winner is not None:
            raise RecordError(ErrorCode.GAME_ALREADY_OVER, path, f"Seat {state.winner} has already won.")
        state.apply_entry(parse_entry(raw, path, variant), path)
        if observe is not None:
            observe(path, "action", state)
    return ReplayOutcome(finished=state.is_terminal(), result=state.outcome())
