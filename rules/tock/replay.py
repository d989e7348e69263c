"""Replay a Tock record in the spec's order: variant, players, setup, then per deal dealer, hands,
exchange and turns. The first broken rule raises RecordError."""

from __future__ import annotations

from typing import Any

from rules.core.engine import Observer, ReplayOutcome
from rules.core.errors import ErrorCode, RecordError
from rules.core.pointer import child
from rules.core.reader import (
    check_keys,
    expect_int,
    expect_list,
    expect_object,
    expect_seat,
    parse_players,
    variant_dict,
)
from rules.tock.actions import CARDS, home_tokens, parse_action
from rules.tock.cards import BAN_CARD, COPIES, parse_card
from rules.tock.game import TockVariant, parse_variant
from rules.tock.state import TockState
from rules.track.marbles import MARBLES_PER_COLOUR


def _read_cards(raw: Any, path: str, counts: dict[str, int]) -> list[str]:
    """A list of card tokens, counted into the running deck cycle (a 5th copy is deck_mismatch)."""
    cards: list[str] = []
    for j, item in enumerate(expect_list(raw, path)):
        card = item if type(item) is str and item in CARDS else parse_card(item, f"{path}/{j}")
        counts[card] = counts.get(card, 0) + 1
        if counts[card] > COPIES:
            raise RecordError(
                ErrorCode.DECK_MISMATCH,
                f"{path}/{j}",
                f"A fifth {card} in one deck cycle (the deck holds {COPIES}).",
            )
        cards.append(card)
    return cards


def _read_hands(raw: Any, path: str, n: int, counts: dict[str, int], size: int | None) -> list[list[str]]:
    rows = expect_list(raw, path)
    if len(rows) != n:
        raise RecordError(ErrorCode.MALFORMED, path, f"Expected {n} hands, one per seat, found {len(rows)}.")
    hands: list[list[str]] = []
    for s, row in enumerate(rows):
        hpath = child(path, s)
        hand = _read_cards(row, hpath, counts)
        if size is not None and len(hand) != size:
            raise RecordError(
                ErrorCode.DECK_MISMATCH,
                hpath,
                f"Seat {s} was dealt {len(hand)} cards; this deal gives {size}.",
            )
        hands.append(hand)
    return hands


def _read_setup(raw: Any, variant: TockVariant) -> TockState:
    path = "/setup"
    obj = expect_object(raw, path)
    check_keys(
        obj,
        path,
        required=("dealer",),
        optional=("marbles", "fresh", "hands", "to_move", "deal_index", "last"),
    )
    n = variant.seats
    state = TockState(variant)
    board = state.board
    at = state.marbles.at
    if "marbles" in obj:
        mpath = child(path, "marbles")
        rows = expect_list(obj["marbles"], mpath)
        if len(rows) != n:
            raise RecordError(ErrorCode.MALFORMED, mpath, f"Expected {n} marble lists, one per seat.")
        for s, row in enumerate(rows):
            rpath = child(mpath, s)
            tokens = expect_list(row, rpath)
            if len(tokens) > MARBLES_PER_COLOUR:
                raise RecordError(ErrorCode.BAD_SETUP, rpath, f"Colour {s} has more than 4 marbles.")
            for j, token in enumerate(tokens):
                tpath = child(rpath, j)
                pos = board.parse(token, tpath)
                if pos in at:
                    raise RecordError(ErrorCode.BAD_SETUP, tpath, f"Two marbles on {board.token(pos)}.")
                if board.is_home(pos) and board.home_owner(pos) != s:
                    raise RecordError(
                        ErrorCode.BAD_SETUP,
                        tpath,
                        f"A marble of colour {s} in the goal of seat {board.home_owner(pos)}.",
                    )
                at[pos] = s
    if "fresh" in obj:
        fpath = child(path, "fresh")
        for j, item in enumerate(expect_list(obj["fresh"], fpath)):
            seat = expect_seat(item, child(fpath, j), n)
            if at.get(state.starts[seat]) != seat:
                raise RecordError(
                    ErrorCode.BAD_SETUP,
                    child(fpath, j),
                    f"Seat {seat} has no marble on its start field to protect.",
                )
            state.protected.add(seat)
    dealer = expect_seat(obj["dealer"], child(path, "dealer"), n)
    deal_index = 0
    if "deal_index" in obj:
        deal_index = expect_int(obj["deal_index"], child(path, "deal_index"), lo=0)
        if deal_index >= len(variant.deal_sizes):
            raise RecordError(
                ErrorCode.BAD_SETUP,
                child(path, "deal_index"),
                f"deal_index {deal_index} is beyond the {len(variant.deal_sizes)} deals of a cycle.",
            )
    counts: dict[str, int] = {}
    hands: list[list[str]] = [[] for _ in range(n)]
    if "hands" in obj:
        hpath = child(path, "hands")
        hands = _read_hands(obj["hands"], hpath, n, counts, None)
        size = variant.deal_sizes[deal_index]
        for s, hand in enumerate(hands):
            if len(hand) > size:
                raise RecordError(
                    ErrorCode.BAD_SETUP,
                    child(hpath, s),
                    f"Seat {s} holds {len(hand)} cards; this deal gives {size}.",
                )
    state.hands = hands
    state.dealer = dealer
    state.deal_index = deal_index
    state.cycle_counts = counts
    for colour in range(n):
        state.check_win(colour)
    if state.winners is not None:  # as in TAC and Tac-Tik: a won position is no running game
        raise RecordError(ErrorCode.BAD_SETUP, child(path, "marbles"), "A side already has every marble home.")
    last_seat: int | None = None
    last_card: str | None = None
    if "last" in obj:
        lpath = child(path, "last")
        action = parse_action(obj["last"], lpath, board)
        state.apply_unchecked_hand(action, lpath)
        last_seat, last_card = action.seat, action.card
    if "to_move" in obj:
        tpath = child(path, "to_move")
        to_move = expect_seat(obj["to_move"], tpath, n)
        if not hands[to_move] and any(hands):
            raise RecordError(ErrorCode.BAD_SETUP, tpath, f"Seat {to_move} is to move but holds no cards.")
        if last_seat is not None and any(hands) and to_move != state.next_seat(last_seat):
            raise RecordError(
                ErrorCode.BAD_SETUP,
                tpath,
                f"After seat {last_seat}'s `last`, seat {state.next_seat(last_seat)} moves.",
            )
        state.to_move = to_move if any(hands) else -1
    else:
        state.to_move = state.next_seat(dealer if last_seat is None else last_seat)
    state.banned = last_card == BAN_CARD and state.to_move >= 0 and state.to_move != last_seat
    return state


def _read_exchange(
    deal: dict[str, Any], dpath: str, variant: TockVariant, hands: list[list[str]]
) -> list[list[str]]:
    """Teams only: each seat gives one card of its dealt hand to its partner, simultaneously."""
    if not variant.teams:
        if "exchange" in deal:
            raise RecordError(
                ErrorCode.BAD_EXCHANGE,
                child(dpath, "exchange"),
                "There is no card exchange outside teams mode.",
            )
        return hands
    if "exchange" not in deal:
        raise RecordError(
            ErrorCode.BAD_EXCHANGE, dpath, "Teams exchange one card with the partner after each deal."
        )
    epath = child(dpath, "exchange")
    items = expect_list(deal["exchange"], epath)
    n = variant.seats
    if len(items) != n:
        raise RecordError(ErrorCode.MALFORMED, epath, f"Expected {n} exchanged cards, one per seat.")
    given: list[str] = []
    for s, item in enumerate(items):
        cpath = child(epath, s)
        if item is None:
            raise RecordError(ErrorCode.BAD_EXCHANGE, cpath, f"Seat {s} must give its partner a card.")
        card = parse_card(item, cpath)
        if card not in hands[s]:
            raise RecordError(ErrorCode.BAD_EXCHANGE, cpath, f"Seat {s} was not dealt {card}.")
        given.append(card)
    after = [list(h) for h in hands]
    for s in range(n):
        partner = variant.partner(s)
        assert partner is not None
        after[s].remove(given[s])
        after[s].append(given[partner])
    return after


def replay(doc: dict[str, Any], observe: Observer | None = None) -> ReplayOutcome:
    variant = parse_variant(variant_dict(doc))
    n = variant.seats
    parse_players(doc["players"], "/players", n_seats=n, active_seats=range(n))
    has_setup = "setup" in doc
    state = _read_setup(doc["setup"], variant) if has_setup else TockState.initial(variant)
    board = state.board
    homes = home_tokens(board)
    deals = expect_list(doc["deals"], "/deals")
    if observe is not None:
        observe("", "start", state)
    for i, raw_deal in enumerate(deals):
        dpath = child("/deals", i)
        if state.winners is not None and not (i == 0 and has_setup):
            raise RecordError(ErrorCode.GAME_ALREADY_OVER, dpath, "The game is already over.")
        if i > 0 and not state.deal_over():
            # the previous deal ends before this one is read
            raise RecordError(
                ErrorCode.MISSING_ACTION,
                child("/deals", i - 1, "turns"),
                f"Deal {i - 1} stops with cards in hand, but another deal follows.",
            )
        deal = expect_object(raw_deal, dpath)
        if i == 0 and has_setup:
            check_keys(deal, dpath, required=("turns",), optional=("dealer",))
            if "dealer" in deal and expect_seat(deal["dealer"], f"{dpath}/dealer", n) != state.dealer:
                raise RecordError(
                    ErrorCode.DECK_MISMATCH,
                    f"{dpath}/dealer",
                    f"The running deal's dealer is seat {state.dealer}.",
                )
        else:
            first = i == 0
            check_keys(
                deal,
                dpath,
                required=("hands", "turns", "dealer") if first else ("hands", "turns"),
                optional=("exchange",) if first else ("dealer", "exchange"),
            )
            if first:
                dealer = expect_seat(deal["dealer"], child(dpath, "dealer"), n)
                deal_index = 0
            else:
                dealer = (state.dealer + 1) % n
                deal_index = (state.deal_index + 1) % len(variant.deal_sizes)
                if "dealer" in deal:
                    given = expect_seat(deal["dealer"], child(dpath, "dealer"), n)
                    if given != dealer:
                        raise RecordError(
                            ErrorCode.DECK_MISMATCH,
                            child(dpath, "dealer"),
                            f"The dealer of deal {i} is seat {dealer}.",
                        )
            if deal_index == 0:
                state.cycle_counts = {}
            hands = _read_hands(
                deal["hands"], child(dpath, "hands"), n, state.cycle_counts, variant.deal_sizes[deal_index]
            )
            hands = _read_exchange(deal, dpath, variant, hands)
            state.begin_deal(dealer, deal_index, hands)
            if observe is not None:
                observe(dpath, "deal", state)
        tpath_base = child(dpath, "turns")
        for j, raw_turn in enumerate(expect_list(deal["turns"], tpath_base)):
            tpath = f"{tpath_base}/{j}"
            if state.winners is not None:
                raise RecordError(ErrorCode.GAME_ALREADY_OVER, tpath, "The game is already over.")
            state.apply(parse_action(raw_turn, tpath, board, homes), tpath)
            if observe is not None:
                observe(tpath, "action", state)
    return ReplayOutcome(finished=state.winners is not None, result=state.outcome())
