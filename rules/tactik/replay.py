"""Replaying a Tac-Tik record: variant, players, setup, then every deal and turn in order.

The first error found stops the replay with a :class:`RecordError` (spec section 2 gives the order:
variant, players, setup; then per deal ``dealer``, ``hands``, ``exchange`` and each turn).
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from rules.cards.deck import parse_cards
from rules.core.engine import Observer, ReplayOutcome
from rules.core.errors import ErrorCode, RecordError
from rules.core.pointer import child, pointer
from rules.core.reader import (
    check_keys,
    expect_int,
    expect_list,
    expect_object,
    expect_seat,
    malformed,
    parse_players,
    variant_dict,
)
from rules.tactik.actions import read_action, read_card
from rules.tactik.cards import COPIES, DECK
from rules.tactik.game import HAND_SIZE, Variant, parse_variant
from rules.tactik.state import State
from rules.track.marbles import MARBLES_PER_COLOUR, Marbles

SETUP_KEYS = ("marbles", "fresh", "to_move", "deal_index", "last")


def bad_setup(path: str, message: str) -> RecordError:
    return RecordError(ErrorCode.BAD_SETUP, path, message)


def deck_mismatch(path: str, message: str) -> RecordError:
    return RecordError(ErrorCode.DECK_MISMATCH, path, message)


def replay_record(doc: dict[str, Any], observe: Observer | None = None) -> ReplayOutcome:
    variant = parse_variant(variant_dict(doc))
    n = variant.seats
    parse_players(doc["players"], "/players", n_seats=n, active_seats=range(n))
    deals = expect_list(doc["deals"], "/deals")
    has_setup = "setup" in doc
    cycle: Counter[str] = Counter()
    state = read_setup(doc["setup"], variant, cycle) if has_setup else State(variant)
    board = variant.board
    if observe is not None:
        observe("", "start", state)
    for i, raw in enumerate(deals):
        d_path = pointer("deals", i)
        deal = expect_object(raw, d_path)
        if state.winners is not None:
            raise RecordError(
                ErrorCode.GAME_ALREADY_OVER, d_path, f"The game is over: seats {list(state.winners)} won."
            )
        if i == 0 and has_setup:
            check_keys(deal, d_path, required=("turns",), optional=("dealer",))
            if "dealer" in deal:
                dealer = expect_seat(deal["dealer"], child(d_path, "dealer"), n)
                if dealer != state.dealer:
                    raise deck_mismatch(
                        child(d_path, "dealer"), f"The setup names seat {state.dealer} as dealer."
                    )
        else:
            check_keys(
                deal,
                d_path,
                required=("dealer", "hands", "turns") if i == 0 else ("hands", "turns"),
                optional=("dealer", "exchange"),
            )
            _start_deal(state, deal, d_path, first=i == 0, cycle=cycle)
            if observe is not None:
                observe(d_path, "deal", state)
        turns_path = d_path + "/turns"
        turns = expect_list(deal["turns"], turns_path)
        for j, raw_turn in enumerate(turns):
            t_path = f"{turns_path}/{j}"  # integers and constant keys: nothing to escape
            if state.winners is not None:
                expect_object(raw_turn, t_path)
                raise RecordError(
                    ErrorCode.GAME_ALREADY_OVER, t_path, f"The game is over: seats {list(state.winners)} won."
                )
            state.apply(read_action(raw_turn, t_path, board, seats=n), t_path)
            if observe is not None:
                observe(t_path, "action", state)
        if state.winners is None and state.to_move is not None and i + 1 < len(deals):
            raise RecordError(
                ErrorCode.MISSING_ACTION,
                turns_path,
                f"Deal {i} stops while seat {state.to_move} still holds cards, and another deal follows.",
            )
    return ReplayOutcome(finished=state.winners is not None, result=state.outcome())


def _start_deal(state: State, deal: dict[str, Any], d_path: str, *, first: bool, cycle: Counter[str]) -> None:
    variant = state.variant
    n = variant.seats
    if first:
        dealer = expect_seat(deal["dealer"], child(d_path, "dealer"), n)
        deal_index = 0
    else:
        dealer = (state.dealer + 1) % n
        if "dealer" in deal:
            given = expect_seat(deal["dealer"], child(d_path, "dealer"), n)
            if given != dealer:
                raise deck_mismatch(
                    child(d_path, "dealer"), f"The deal passes clockwise: seat {dealer} deals, not {given}."
                )
        deal_index = (state.deal_index + 1) % len(variant.deal_sizes)
    if deal_index == 0:
        cycle.clear()  # a fresh shuffle of the 48 cards
    hands = read_hands(deal["hands"], child(d_path, "hands"), n, cycle)
    hands = read_exchange(deal, d_path, hands, variant)
    state.start_deal(dealer, deal_index, hands)


def read_hands(raw: Any, path: str, n: int, cycle: Counter[str]) -> list[list[str]]:
    """The hands as dealt: 4 cards per seat, no card more often in a deck cycle than the deck holds it.

    Every cycle deals exactly 48 cards (3x16 or 2x24), so with no excess copy a closed cycle is the deck.
    """
    items = expect_list(raw, path)
    if len(items) != n:
        raise malformed(path, f"`hands` lists one hand per seat: {n}, not {len(items)}.")
    plain = _plain_hands(items)
    if plain is not None:
        cycle.update(c for hand in plain for c in hand)
        if max(cycle.values()) <= COPIES:
            return plain
        cycle.subtract(c for hand in plain for c in hand)  # undo, then find the exact culprit below
    hands: list[list[str]] = []
    for s, item in enumerate(items):
        h_path = child(path, s)
        cards = parse_cards(item, h_path, DECK)
        if len(cards) != HAND_SIZE:
            raise deck_mismatch(
                h_path, f"Seat {s} is dealt {len(cards)} cards; every deal gives {HAND_SIZE}."
            )
        for j, card in enumerate(cards):
            cycle[card] += 1
            if cycle[card] > COPIES:
                raise deck_mismatch(
                    child(h_path, j), f"A fifth {card!r} in one deck cycle (the deck holds {COPIES})."
                )
        hands.append(cards)
    return hands


def _plain_hands(items: list[Any]) -> list[list[str]] | None:
    """The hands if every one is a list of 4 known card tokens (the usual case), else None."""
    for item in items:
        if type(item) is not list or len(item) != HAND_SIZE:
            return None
        for card in item:
            if type(card) is not str or card not in DECK:
                return None
    return [list(item) for item in items]


def read_exchange(
    deal: dict[str, Any], d_path: str, hands: list[list[str]], variant: Variant
) -> list[list[str]]:
    """The compulsory blind exchange: each seat gives one card of its dealt hand to its partner."""
    e_path = child(d_path, "exchange")
    if "exchange" not in deal:
        raise RecordError(
            ErrorCode.BAD_EXCHANGE, e_path, "The exchange between partners is compulsory after every deal."
        )
    items = expect_list(deal["exchange"], e_path)
    n = variant.seats
    if len(items) != n:
        raise malformed(e_path, f"`exchange` lists the card each seat gives: {n} entries, not {len(items)}.")
    gives: list[str] = []
    for s, item in enumerate(items):
        g_path = child(e_path, s)
        if item is None:
            raise RecordError(ErrorCode.BAD_EXCHANGE, g_path, f"Seat {s} must give its partner a card.")
        card = read_card(item, g_path)
        if card not in hands[s]:
            raise RecordError(ErrorCode.BAD_EXCHANGE, g_path, f"Seat {s} was not dealt {card!r}.")
        gives.append(card)
    after: list[list[str]] = []
    for s in range(n):
        hand = list(hands[s])
        hand.remove(gives[s])
        hand.append(gives[variant.partner[s]])
        after.append(hand)
    return after


def read_setup(raw: Any, variant: Variant, cycle: Counter[str]) -> State:
    path = "/setup"
    obj = expect_object(raw, path)
    check_keys(obj, path, required=("hands", "dealer"), optional=SETUP_KEYS)
    board = variant.board
    n = variant.seats
    at: dict[int, int] = {}
    if "marbles" in obj:
        m_path = child(path, "marbles")
        per_seat = expect_list(obj["marbles"], m_path)
        if len(per_seat) != n:
            raise malformed(m_path, f"`marbles` lists one array per seat: {n}, not {len(per_seat)}.")
        for colour, tokens in enumerate(per_seat):
            c_path = child(m_path, colour)
            positions = expect_list(tokens, c_path)
            if len(positions) > MARBLES_PER_COLOUR:
                raise bad_setup(
                    c_path, f"Colour {colour} has only {MARBLES_PER_COLOUR} marbles, not {len(positions)}."
                )
            for j, token in enumerate(positions):
                p_path = child(c_path, j)
                pos = board.parse(token, p_path)
                if pos in at:
                    raise bad_setup(p_path, f"Two marbles on {board.token(pos)}.")
                if board.is_home(pos) and board.home_owner(pos) != colour:
                    raise bad_setup(
                        p_path, f"A colour-{colour} marble cannot stand in base {board.home_owner(pos)}."
                    )
                at[pos] = colour
    pieux: set[int] = set()
    if "fresh" in obj:
        f_path = child(path, "fresh")
        for j, item in enumerate(expect_list(obj["fresh"], f_path)):
            seat = expect_seat(item, child(f_path, j), n)
            start = board.start(seat)
            if at.get(start) != seat:
                raise bad_setup(
                    child(f_path, j), f"Seat {seat} has no marble on its start field {start} to be a pieu."
                )
            if start in pieux:
                raise bad_setup(child(f_path, j), f"Seat {seat} is listed twice.")
            pieux.add(start)
    dealer = expect_seat(obj["dealer"], child(path, "dealer"), n)
    deal_index = 0
    if "deal_index" in obj:
        deal_index = expect_int(
            obj["deal_index"], child(path, "deal_index"), lo=0, hi=len(variant.deal_sizes) - 1
        )
    hands = _read_setup_hands(obj["hands"], child(path, "hands"), n, cycle)
    order = [(dealer + 1 + i) % n for i in range(n)]
    sizes = [len(hands[s]) for s in order]
    top = max(sizes)
    if top == 0:
        raise bad_setup(child(path, "hands"), "The running deal has no cards left to play.")
    first = sizes.index(top)
    if any(size != top - 1 for size in sizes[:first]) or any(size != top for size in sizes[first:]):
        raise bad_setup(
            child(path, "hands"),
            f"Hand sizes {[len(h) for h in hands]} cannot occur in a deal dealt by seat {dealer} (one card per turn, clockwise).",
        )
    to_move = order[first]
    if "to_move" in obj:
        given = expect_seat(obj["to_move"], child(path, "to_move"), n)
        if given != to_move:
            raise bad_setup(
                child(path, "to_move"), f"With these hands seat {to_move} is to move, not seat {given}."
            )
    state = State(
        variant,
        marbles=Marbles(board, at),
        pieux=pieux,
        hands=hands,
        dealer=dealer,
        deal_index=deal_index,
        to_move=to_move,
    )
    if "last" in obj:
        state.replay_last(read_action(obj["last"], child(path, "last"), board, seats=n), child(path, "last"))
    if state.winners is not None:
        raise bad_setup(path, f"Seats {list(state.winners)} have already won: there is no game to continue.")
    return state


def _read_setup_hands(raw: Any, path: str, n: int, cycle: Counter[str]) -> list[list[str]]:
    items = expect_list(raw, path)
    if len(items) != n:
        raise malformed(path, f"`hands` lists one hand per seat: {n}, not {len(items)}.")
    plain = _plain_hands(items)
    if plain is not None:
        cycle.update(c for hand in plain for c in hand)
        if max(cycle.values()) <= COPIES:
            return plain
        cycle.subtract(c for hand in plain for c in hand)  # undo, then find the exact culprit below
    hands: list[list[str]] = []
    for s, item in enumerate(items):
        h_path = child(path, s)
        cards = parse_cards(item, h_path, DECK)
        if len(cards) > HAND_SIZE:
            raise bad_setup(h_path, f"A Tac-Tik hand holds at most {HAND_SIZE} cards, not {len(cards)}.")
        for j, card in enumerate(cards):
            cycle[card] += 1
            if cycle[card] > COPIES:
                raise deck_mismatch(
                    child(h_path, j), f"A fifth {card!r} in one deck cycle (the deck holds {COPIES})."
                )
        hands.append(cards)
    return hands
