"""Replay a TAC record (spec sections 2-4) and derive its outcome; the first error stops the replay."""

from __future__ import annotations

from collections import Counter
from typing import Any

from rules.cards.deck import parse_cards
from rules.core.engine import Observer, ReplayOutcome
from rules.core.errors import ErrorCode, RecordError
from rules.core.reader import (
    check_keys,
    expect_bool,
    expect_int,
    expect_list,
    expect_object,
    expect_seat,
    parse_players,
    variant_dict,
)
from rules.tac.actions import BOARD, DISCARD, THEN, parse_play
from rules.tac.cards import OPENING_CARDS
from rules.tac.game import TacConfig, parse_variant
from rules.tac.state import HOME_BASE, START, Entry, TacState


def _bad_setup(path: str, message: str) -> RecordError:
    return RecordError(ErrorCode.BAD_SETUP, path, message)


def _seat_list(raw: Any, path: str, cfg: TacConfig) -> list[Any]:
    items = expect_list(raw, path)
    if len(items) not in (4, len(cfg.active)):
        raise RecordError(ErrorCode.MALFORMED, path, "Expected one entry per seat.")
    return items


class Replay:
    """The running replay: the state plus the deck-cycle bookkeeping."""

    def __init__(self, doc: dict[str, Any]) -> None:
        self.doc = doc
        self.cfg = parse_variant(variant_dict(doc))
        parse_players(doc["players"], "/players", n_seats=4, active_seats=self.cfg.active)
        self.state = TacState(self.cfg)
        self.cycle: Counter[str] = Counter()
        self.excess: str | None = None  # a card beyond its copies in the running cycle (reported late)
        self.excess_path = ""
        self.has_setup = "setup" in doc

    def run(self, observe: Observer | None = None) -> ReplayOutcome:
        if self.has_setup:
            self._setup(self.doc["setup"])
        if observe is not None:
            observe("", "start", self.state)
        deals = expect_list(self.doc["deals"], "/deals")
        for i, raw in enumerate(deals):
            path = f"/deals/{i}"
            if self.state.over:
                raise RecordError(ErrorCode.GAME_ALREADY_OVER, path, "The game was over before this deal.")
            deal = expect_object(raw, path)
            if i == 0 and self.has_setup:
                check_keys(deal, path, required=("turns",), optional=("dealer",))
                if "dealer" in deal:
                    dealer = expect_seat(deal["dealer"], path + "/dealer", 4)
                    if dealer != self.state.dealer:
                        raise RecordError(
                            ErrorCode.DECK_MISMATCH,
                            path + "/dealer",
                            "The dealer differs from the setup's.",
                        )
            else:
                self._deal(deal, path, first=i == 0)
                if observe is not None:
                    observe(path, "deal", self.state)
            turns = expect_list(deal["turns"], path + "/turns")
            for j, turn in enumerate(turns):
                t_path = f"{path}/turns/{j}"
                if self.state.over:
                    expect_object(turn, t_path)
                    raise RecordError(ErrorCode.GAME_ALREADY_OVER, t_path, "The game is already over.")
                play = parse_play(turn, t_path, self.cfg.deck, top=True)
                assert play.seat is not None
                self.state.play_turn(play.seat, play, t_path)
                if observe is not None:
                    observe(t_path, "action", self.state)
            if not self.state.over and i + 1 < len(deals) and any(self.state.hands):
                raise RecordError(
                    ErrorCode.MISSING_ACTION,
                    path + "/turns",
                    "The deal stops while cards are left in hands.",
                )
        if self.excess is not None:
            raise self._excess_error()
        return ReplayOutcome(finished=self.state.over, result=self.state.outcome())

    def _excess_error(self) -> RecordError:
        return RecordError(
            ErrorCode.DECK_MISMATCH,
            self.excess_path,
            f"This deck cycle holds too many copies of {self.excess}.",
        )

    # ------------------------------------------------------------------ deals
    def _deal(self, deal: dict[str, Any], path: str, *, first: bool) -> None:
        cfg, state = self.cfg, self.state
        optional = ["announce", "exchange"]
        required = ["hands", "turns"]
        (required if first else optional).append("dealer")
        check_keys(deal, path, required=required, optional=optional)
        if first:
            dealer = expect_seat(deal["dealer"], path + "/dealer", 4)
            if dealer not in cfg.active:
                raise RecordError(ErrorCode.MALFORMED, path + "/dealer", f"Seat {dealer} is not in play.")
            index = 0
        else:
            dealer = state.left_occupied(state.dealer)
            index = state.deal_index + 1
            if "dealer" in deal:
                given = expect_seat(deal["dealer"], path + "/dealer", 4)
                if given != dealer:
                    raise RecordError(
                        ErrorCode.DECK_MISMATCH,
                        path + "/dealer",
                        f"Seat {dealer} deals now, not seat {given}.",
                    )
        if index >= len(cfg.deal_sizes):
            index = 0
        if index == 0:
            self.cycle = Counter()
        size = cfg.deal_sizes[index]
        h_path = path + "/hands"
        raw_hands = _seat_list(deal["hands"], h_path, cfg)
        hands: list[list[str]] = [[] for _ in range(4)]
        deck = cfg.deck
        for s, raw in enumerate(raw_hands):
            if type(raw) is list and all(type(c) is str and c in deck for c in raw):
                hands[s] = list(raw)
            else:
                hands[s] = parse_cards(raw, f"{h_path}/{s}", deck)
        for s in range(4):
            want = size if s in cfg.active else 0
            if len(hands[s]) != want:
                raise RecordError(
                    ErrorCode.DECK_MISMATCH,
                    f"{h_path}/{s}",
                    f"Seat {s} must be dealt {want} cards, not {len(hands[s])}.",
                )
        for hand in hands:
            self.cycle.update(hand)
        if self.excess is None:
            self.excess = next((c for c, n in self.cycle.items() if n > cfg.deck[c]), None)
        self.excess_path = h_path
        if self.excess is not None and index == len(cfg.deal_sizes) - 1:
            raise self._excess_error()  # deck-cycle errors point to the deal closing the cycle
        if "announce" in deal:
            a_path = path + "/announce"
            for s, value in enumerate(_seat_list(deal["announce"], a_path, cfg)):
                if s not in cfg.active:
                    if value not in (None, False):
                        raise RecordError(
                            ErrorCode.FALSE_ANNOUNCEMENT, f"{a_path}/{s}", f"Seat {s} is empty."
                        )
                    continue
                said = expect_bool(value, f"{a_path}/{s}")
                can = any(c in OPENING_CARDS for c in hands[s])
                if said != can:
                    raise RecordError(
                        ErrorCode.FALSE_ANNOUNCEMENT,
                        f"{a_path}/{s}",
                        f"Seat {s} announced {'ich kann' if said else 'ich kann nicht'}, but its hand says otherwise.",
                    )
        gives: list[str | None] = [None] * 4
        needs = any(cfg.partner[s] is not None for s in cfg.active)
        e_path = path + "/exchange"
        if "exchange" not in deal:
            if needs:
                raise RecordError(ErrorCode.BAD_EXCHANGE, path, "The partner exchange is missing.")
        else:
            for s, value in enumerate(_seat_list(deal["exchange"], e_path, cfg)):
                s_path = f"{e_path}/{s}"
                if s not in cfg.active or cfg.partner[s] is None:
                    if value is not None:
                        raise RecordError(
                            ErrorCode.BAD_EXCHANGE, s_path, f"Seat {s} has no partner to give a card to."
                        )
                    continue
                if value is None:
                    raise RecordError(
                        ErrorCode.BAD_EXCHANGE, s_path, f"Seat {s} must give its partner a card."
                    )
                card = parse_cards([value], s_path, cfg.deck)[0] if isinstance(value, str) else None
                if card is None:
                    raise RecordError(
                        ErrorCode.MALFORMED, s_path, "An exchanged card is a card token or null."
                    )
                if card not in hands[s]:
                    raise RecordError(ErrorCode.BAD_EXCHANGE, s_path, f"Seat {s} was not dealt {card}.")
                gives[s] = card
        for s in cfg.active:
            card = gives[s]
            partner = cfg.partner[s]
            if card is not None and partner is not None:
                hands[s].remove(card)
                hands[partner].append(card)
        state.deal_index = index
        state.start_deal(hands, dealer)

    # ------------------------------------------------------------------ setup
    def _setup(self, raw: Any) -> None:
        cfg, state = self.cfg, self.state
        obj = expect_object(raw, "/setup")
        check_keys(
            obj,
            "/setup",
            required=("hands", "dealer"),
            optional=("marbles", "fresh", "to_move", "deal_index", "last"),
        )
        board = state.board
        if "marbles" in obj:
            m_path = "/setup/marbles"
            for colour, tokens in enumerate(_seat_list(obj["marbles"], m_path, cfg)):
                c_path = f"{m_path}/{colour}"
                items = expect_list(tokens, c_path)
                if items and colour not in cfg.active:
                    raise _bad_setup(c_path, f"Seat {colour} is empty and has no marbles.")
                if len(items) > 4:
                    raise _bad_setup(c_path, f"Colour {colour} has more than 4 marbles.")
                for k, token in enumerate(items):
                    pos = BOARD.parse(token, f"{c_path}/{k}")
                    if board[pos] != -1:
                        raise _bad_setup(f"{c_path}/{k}", f"Two marbles on {token}.")
                    if pos >= 64 and not HOME_BASE[colour] <= pos < HOME_BASE[colour] + 4:
                        raise _bad_setup(
                            f"{c_path}/{k}", f"A marble of colour {colour} cannot be in {token}."
                        )
                    board[pos] = colour
                    state.pre[colour] -= 1
        if "fresh" in obj:
            f_path = "/setup/fresh"
            for k, value in enumerate(expect_list(obj["fresh"], f_path)):
                seat = expect_seat(value, f"{f_path}/{k}", 4)
                if board[START[seat]] != seat:
                    raise _bad_setup(f"{f_path}/{k}", f"No marble of seat {seat} stands on its start field.")
                state.fresh[seat] = True
        h_path = "/setup/hands"
        hands: list[list[str]] = [[] for _ in range(4)]
        for s, cards in enumerate(_seat_list(obj["hands"], h_path, cfg)):
            hands[s] = parse_cards(cards, f"{h_path}/{s}", cfg.deck)
            if hands[s] and s not in cfg.active:
                raise _bad_setup(f"{h_path}/{s}", f"Seat {s} is empty and holds no cards.")
        for hand in hands:
            self.cycle.update(hand)
        excess = next((c for c, n in self.cycle.items() if n > cfg.deck[c]), None)
        if excess is not None:
            raise RecordError(  # too many copies: deck_mismatch, as in Tac-Tik and Tock
                ErrorCode.DECK_MISMATCH, h_path, f"The hands hold too many copies of {excess}."
            )
        dealer = expect_seat(obj["dealer"], "/setup/dealer", 4)
        if dealer not in cfg.active:
            raise _bad_setup("/setup/dealer", f"Seat {dealer} is not in play.")
        index = 0
        if "deal_index" in obj:
            index = expect_int(obj["deal_index"], "/setup/deal_index", lo=0)
            if index >= len(cfg.deal_sizes):
                raise _bad_setup(
                    "/setup/deal_index", f"There are only {len(cfg.deal_sizes)} deals in a cycle."
                )
        state.hands = hands
        state.dealer = dealer
        state.deal_index = index
        if state.winning_side() is not None:
            raise _bad_setup("/setup/marbles", "A side already has every marble home.")
        if "last" in obj:
            play = parse_play(obj["last"], "/setup/last", cfg.deck, top=True)
            assert play.seat is not None
            seat = play.seat
            if seat not in cfg.active:
                raise _bad_setup("/setup/last/seat", f"Seat {seat} is not in play.")
            if play.kind == THEN:
                raise _bad_setup(
                    "/setup/last",
                    "A Narr or Teufel cannot be the setup's last action: give the card played through it "
                    "(the Narr's then, or the victim's card) as `last` instead.",
                )
            if play.kind == DISCARD:
                fn = None if play.card == "tac" else play.card
                state.history.append(Entry(None, fn, True))
                state.to_move = state.next_to_move(seat)
            else:
                state.hands[seat].append(play.card)
                state.to_move = seat
                try:
                    state.play_turn(seat, play, "/setup/last")
                except RecordError as err:
                    raise _bad_setup(err.path, f"The last action is impossible: {err.message}") from None
            state.cards_used = 0
        else:
            state.to_move = state.next_to_move(dealer)
        if "to_move" in obj:
            to_move = expect_seat(obj["to_move"], "/setup/to_move", 4)
            if not hands[to_move]:
                raise _bad_setup("/setup/to_move", f"Seat {to_move} holds no cards.")
            if "last" in obj and to_move != state.to_move:
                raise _bad_setup("/setup/to_move", f"After the last action seat {state.to_move} is to move.")
            state.to_move = to_move


def replay_record(doc: dict[str, Any], observe: Observer | None = None) -> ReplayOutcome:
    return Replay(doc).run(observe)
