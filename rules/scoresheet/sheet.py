"""A scoresheet in progress: the entries so far, replayed through a game's engine with hidden hands.

The stored state is plain JSON (``header`` + ``entries``); everything else is derived by replaying the
entries, so a state can never disagree with itself. Replays are cached per process (keyed by the
entries), so adding an entry replays one entry, not the game.
"""

from __future__ import annotations

import copy
import hashlib
import json
import sys
import traceback
from collections import Counter, OrderedDict
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from rules.cards.hidden import Cycle, HiddenHand, assign_hidden
from rules.core.errors import ErrorCode, RecordError
from rules.core.registry import get_engine
from rules.core.replay import verify_document
from rules.scoresheet.games import GameRules

OPENING = frozenset({"1", "13"})
SHEET_FORMAT = "scoresheet/1"


class EntryRefused(ValueError):
    """An entry (or a record) the rules refuse: a verdict code, a message, and the entry it names."""

    def __init__(
        self,
        code: str,
        message: str,
        turn: int | None = None,
        path: str = "",
        params: Mapping[str, Any] | None = None,
    ) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message
        self.turn = turn
        self.path = path
        # what a page needs to say it in the player's language (docs/scoresheet.md, "Refusals"):
        # "reason" names the sentence, with "seat", "card", "cards", "entry" (an earlier entry) as it needs
        self.params: dict[str, Any] = dict(params or {})


@dataclass
class DealLog:
    """One deal as entered: dealer, hands (as HiddenHand objects by the seat dealt to), facts, turns."""

    dealer: int
    index: int
    first: bool
    hands: list[HiddenHand | None]
    announce: list[Any] | None = None
    exchange: list[str | None] | None = None
    announce_entry: int | None = None
    exchange_entry: int | None = None
    turns: list[dict[str, Any]] = field(default_factory=list)
    turn_entries: list[int] = field(default_factory=list)
    closed: bool = False
    discards: list[DiscardCheck] = field(default_factory=list)
    nested_discard: bool = False
    setup: bool = False
    # the last completion of the hidden cards found (by origin), and each hand's revealed count then:
    # reused while it still fits (replaced, never changed in place: copies of the sheet share it)
    fill: tuple[dict[int, list[str]], dict[int, int]] | None = None

    def received(self, rules: GameRules, seat: int) -> str | None:
        if self.exchange is None:
            return None
        for giver, card in enumerate(self.exchange):
            if card is not None and rules.partner(giver) == seat:
                return card
        return None

    def dealt(self, rules: GameRules, seat: int, fill: list[str] | None = None) -> list[str]:
        """The hand as dealt to `seat`: what left its hand, what is left (+ `fill`), given - received."""
        hand = self.hands[seat]
        if hand is None:
            return []
        cards = hand.played + hand.known() + list(fill or [])
        if self.exchange is not None and self.exchange[seat] is not None:
            cards.append(self.exchange[seat])  # type: ignore[arg-type]
        got = self.received(rules, seat)
        if got is not None and got in cards:
            cards.remove(got)
        return cards


@dataclass
class DiscardCheck:
    """A discard made while the hand had hidden cards: none of them may have had a legal use."""

    entry: int
    hand: HiddenHand
    revealed: int
    usable: set[str]
    seat: int = -1
    card: str = ""


class Sheet:
    """The replayed sheet: header, the game's rules adapter and state, and the deals so far."""

    def __init__(self, header: dict[str, Any], rules: GameRules) -> None:
        self.header = header
        self.rules = rules
        self.state: Any = rules.new_state()
        self.deals: list[DealLog] = []
        self.cycle = Cycle(rules.deck)
        self.entries: list[dict[str, Any]] = []
        self.digests: list[str] = [header_digest(header)]
        self.last: dict[str, Any] | None = None
        if header.get("setup") is not None:
            self._from_setup(header["setup"])

    def _from_setup(self, setup: Any) -> None:
        """Start from a `setup` position (spec 2): its hands are known, later deals are dealt unseen."""
        rules = self.rules
        doc: dict[str, Any] = {
            "format": "game-record/1",
            "game": rules.name,
            "variant": self.header.get("variant") or {},
            "players": self.header["players"],
            "setup": setup,
            "deals": [],
        }
        start: list[Any] = []

        def observe(path: str, kind: str, state: Any) -> None:
            if kind == "start":
                start.append(state.clone())

        try:
            get_engine(rules.name).replay(doc, observe=observe)
        except RecordError as err:
            raise EntryRefused(err.code.value, err.message, None, err.path) from None
        state = start[0]
        hands = [HiddenHand(s, 0, self.cycle, list(h)) for s, h in enumerate(state.hands)]
        for hand in hands:
            self.cycle.seen.update(hand.known())
        state.hands = list(hands)
        self.state = state
        log = DealLog(
            dealer=state.dealer, index=state.deal_index, first=True, hands=list(hands), setup=True
        )
        log.closed = rules.to_move(state) is None
        self.deals.append(log)

    # ------------------------------------------------------------------ phases
    def current(self) -> DealLog | None:
        return self.deals[-1] if self.deals else None

    def phase(self) -> str:
        rules = self.rules
        if rules.over(self.state) or (rules.pending_answer(self.state) and not self.answer_forced()):
            return "over"
        deal = self.current()
        if deal is None or deal.closed:
            return self._first_phase()
        if deal.turns or deal.setup:
            return "turn"
        if rules.has_announce and deal.announce is None and deal.exchange is None:
            return "announce"
        if rules.exchange_required() and deal.exchange is None and not deal.setup:
            return "exchange"
        return "turn"

    def answer_forced(self) -> bool:
        """TAC: the seat that may answer a winning move with a TAC must hold one (no completion of its
        hand without a TAC fits what is seen), so the game goes on with that answer."""
        deal = self.current()
        return deal is not None and not deal.closed and self.completion(deal, end=True) is None

    def _first_phase(self) -> str:
        if self.rules.has_announce:
            return "announce"
        return "exchange" if self.rules.exchange_required() else "turn"

    def _open_deal(self) -> DealLog:
        """Deal the next hands (unseen) if the running deal is closed."""
        deal = self.current()
        if deal is not None and not deal.closed:
            return deal
        rules = self.rules
        if deal is None:
            dealer = int(self.header["dealer"])
            index = 0
        else:
            dealer = rules.next_dealer(self.state, deal.dealer)
            index = (deal.index + 1) % len(rules.deal_sizes)
        if index == 0:
            self.cycle = Cycle(rules.deck)
        size = rules.deal_sizes[index]
        hands: list[HiddenHand | None] = [
            HiddenHand(s, size, self.cycle) if s in rules.active else None for s in range(rules.seats)
        ]
        log = DealLog(dealer=dealer, index=index, first=deal is None, hands=hands)
        self.deals.append(log)
        rules.begin_deal(
            self.state,
            dealer,
            index,
            [h if h is not None else HiddenHand(s, 0, self.cycle) for s, h in enumerate(hands)],
        )
        return log

    # ------------------------------------------------------------------ entries
    def add(self, raw: Mapping[str, Any]) -> None:
        """Apply one entry; EntryRefused (the sheet is then unusable: work on a copy)."""
        if not isinstance(raw, Mapping):
            raise EntryRefused(ErrorCode.MALFORMED.value, "An entry is a JSON object.")
        try:
            entry = json.loads(json.dumps(raw, allow_nan=False))  # plain JSON, detached from the caller's
        except (TypeError, ValueError, RecursionError):
            raise EntryRefused(ErrorCode.MALFORMED.value, "An entry must be plain JSON.") from None
        k = len(self.entries)
        phase = self.phase()
        if phase == "over":
            if not self.rules.pending_answer(self.state):
                raise EntryRefused(ErrorCode.GAME_ALREADY_OVER.value, "The game is already over.", k)
            if entry.get("card") != "tac":
                raise EntryRefused(
                    ErrorCode.GAME_ALREADY_OVER.value,
                    f"The game is over, unless seat {self.state.to_move} answers the winning move with a TAC.",
                    k,
                )
        deal = self._open_deal()
        try:
            if "announce" in entry:
                self._announce(deal, entry, k)
            elif "exchange" in entry:
                self._exchange(deal, entry, k)
            else:
                self._turn(deal, entry, k)
        except RecordError as err:
            raise EntryRefused(err.code.value, err.message, k, err.path) from None
        except EntryRefused:
            raise
        except Exception as exc:  # an engine bug must not become a server error: refuse the entry
            traceback.print_exc(file=sys.stderr)
            raise EntryRefused(
                ErrorCode.MALFORMED.value, f"Internal error in the rules engine: {exc!r}", k
            ) from None
        self.entries.append(entry)
        self.digests.append(chain(self.digests[-1], entry))
        if "announce" not in entry and "exchange" not in entry:
            self.last = entry
        if not deal.closed and deal.turns and self.rules.to_move(self.state) is None and not (
            self.rules.over(self.state) or self.rules.pending_answer(self.state)
        ):
            deal.closed = True
        self._check(k)

    def _announce(self, deal: DealLog, entry: dict[str, Any], k: int) -> None:
        rules = self.rules
        if not rules.has_announce:
            raise RecordError(ErrorCode.MALFORMED, "", f"{rules.name} has no announcements.")
        if set(entry) - {"announce", "comment"}:
            raise RecordError(ErrorCode.MALFORMED, "", "An announcement entry is {\"announce\": [...]}.")
        if deal.turns or deal.announce is not None or deal.exchange is not None:
            raise RecordError(
                ErrorCode.MALFORMED, "", "Announcements come once per deal, before the exchange and the first turn."
            )
        values = entry["announce"]
        if not isinstance(values, list) or len(values) not in (rules.seats, len(rules.active)):
            raise RecordError(ErrorCode.MALFORMED, "/announce", "Expected one announcement per seat.")
        for s, value in enumerate(values):
            if s in rules.active and len(values) == rules.seats or len(values) != rules.seats:
                if not isinstance(value, bool) and not (value is None and s not in rules.active):
                    raise RecordError(ErrorCode.MALFORMED, f"/announce/{s}", "An announcement is true or false.")
            elif value not in (None, False):
                raise RecordError(ErrorCode.FALSE_ANNOUNCEMENT, f"/announce/{s}", f"Seat {s} is empty.")
        deal.announce = values
        deal.announce_entry = k

    def _exchange(self, deal: DealLog, entry: dict[str, Any], k: int) -> None:
        rules = self.rules
        if set(entry) - {"exchange", "comment"}:
            raise RecordError(ErrorCode.MALFORMED, "", "An exchange entry is {\"exchange\": [...]}.")
        values = entry["exchange"]
        if not rules.exchange_required() and not (isinstance(values, list) and all(v is None for v in values)):
            # no seat has a partner: only the exchange that gives nothing (all null, spec 4) is written
            raise RecordError(ErrorCode.BAD_EXCHANGE, "/exchange", "This variant has no exchange.")
        if deal.turns or deal.exchange is not None:
            raise RecordError(ErrorCode.BAD_EXCHANGE, "/exchange", "The exchange comes once, before the first turn.")
        values = entry["exchange"]
        if not isinstance(values, list) or len(values) not in (rules.seats, len(rules.active)):
            raise RecordError(ErrorCode.MALFORMED, "/exchange", "Expected one exchanged card per seat.")
        gives: list[str | None] = [None] * rules.seats
        for s, value in enumerate(values):
            path = f"/exchange/{s}"
            if rules.partner(s) is None:
                if value is not None:
                    raise RecordError(ErrorCode.BAD_EXCHANGE, path, f"Seat {s} has no partner to give a card to.")
                continue
            if value is None:
                raise RecordError(ErrorCode.BAD_EXCHANGE, path, f"Seat {s} must give its partner a card.")
            if not isinstance(value, str):
                raise RecordError(ErrorCode.MALFORMED, path, "An exchanged card is a card token or null.")
            if value not in rules.deck:
                raise RecordError(ErrorCode.UNKNOWN_CARD, path, f"{value!r} is not a card of this deck.")
            gives[s] = value
        seen = Counter(self.cycle.seen)
        seen.update(c for c in gives if c is not None)
        for card, n in seen.items():
            if n > rules.deck.get(card, 0):
                raise RecordError(
                    ErrorCode.DECK_MISMATCH,
                    "/exchange",
                    f"This deck cycle has only {rules.deck.get(card, 0)} copies of {card}.",
                )
        for s, given in enumerate(gives):
            partner = rules.partner(s)
            hand = deal.hands[s]
            if given is None or partner is None or hand is None:
                continue
            other = deal.hands[partner]
            assert other is not None
            hand.hidden -= 1  # the given card leaves the dealt hand ...
            list.append(other, given)  # ... and is known in the partner's
            self.cycle.seen[given] += 1
        deal.exchange = gives
        deal.exchange_entry = k

    def _turn(self, deal: DealLog, entry: dict[str, Any], k: int) -> None:
        rules = self.rules
        if rules.exchange_required() and deal.exchange is None and not deal.setup:
            raise RecordError(ErrorCode.BAD_EXCHANGE, "", "The partner exchange of this deal comes first.")
        action = rules.parse(entry, "")
        seat = rules.entry_seat(action)
        to_move = rules.to_move(self.state)
        check: DiscardCheck | None = None
        if rules.is_discard(action) and seat == to_move:
            hand = self.state.hands[seat]
            if isinstance(hand, HiddenHand) and hand.hidden > 0:
                usable = rules.before_discard(self.state, seat)
                card = entry.get("card")
                if usable:
                    check = DiscardCheck(k, hand, len(hand.revealed), usable, seat, str(card))
                if isinstance(card, str) and self.cycle.available(card):
                    hand.reveal(card)
        nested: list[DiscardCheck] = []
        if _nested_discard(entry):
            deal.nested_discard = True
            for actor, hand, card, usable in rules.nested_discards(self.state, action):
                if hand.hidden > 0 and usable:
                    nested.append(DiscardCheck(k, hand, len(hand.revealed), set(usable), actor, card))
        try:
            rules.apply(self.state, action, "")
        except RecordError as err:
            if err.code == ErrorCode.CARD_NOT_IN_HAND:
                card = entry.get("card")
                if isinstance(card, str) and card in rules.deck and not self.cycle.available(card):
                    raise RecordError(
                        ErrorCode.DECK_MISMATCH,
                        err.path,
                        f"All {rules.deck[card]} copies of {card} are already out in this deck cycle.",
                    ) from None
            raise
        excess = self.cycle.excess()
        if excess is not None:
            raise RecordError(
                ErrorCode.DECK_MISMATCH,
                "/card",
                f"All {rules.deck[excess]} copies of {excess} are already out in this deck cycle.",
            )
        for found in ([check] if check is not None else []) + nested:
            deal.discards.append(found)
            found.hand.forbidden |= found.usable
        deal.turns.append(entry)
        deal.turn_entries.append(k)

    # ------------------------------------------------------------------ the record
    def _check(self, k: int) -> None:
        """After entry `k`: is there still a deal the entries fit? If not, refuse entry `k` at once.

        The hidden cards of the running deal must be completable (:meth:`completion`): from the cycle's
        unseen cards, without a card a recorded discard rules out, with a 1 or 13 exactly where it was
        announced. Once a deal closes nothing is hidden, so the same check is the deal's final word. A
        deal with a discard nested in a Narr or Teufel is also replayed with the engine when it closes.
        """
        deal = self.deals[-1] if self.deals else None
        if deal is None:
            return
        refusal = self._contradiction(deal, k)
        if refusal is not None:
            raise refusal
        if self.completion(deal) is None:
            raise self._diagnose(deal, k)
        if deal.closed and deal.nested_discard:
            doc = self.record(fill=False)
            verdict = verify_document(doc)
            if not verdict.valid:
                assert verdict.error is not None
                raise self.refusal(verdict.error.code, verdict.error.message, verdict.error.path, k)

    def _said(self, deal: DealLog, seat: int) -> bool | None:
        if deal.announce is None or seat >= len(deal.announce):
            return None
        said = deal.announce[seat]
        return said if isinstance(said, bool) else None

    def _contradiction(self, deal: DealLog, k: int) -> EntryRefused | None:
        """A rule certainly broken by what is seen, whatever the hidden cards: a card played from a hand
        after a discard that it would have had to play, or an announcement the seen cards contradict."""
        for check in deal.discards:
            later = check.hand.revealed[check.revealed :]
            bad = next((c for c in later if c in check.usable), None)
            if bad is not None:
                return EntryRefused(
                    ErrorCode.MUST_PLAY.value,
                    f"Seat {check.seat} discarded {check.card} (entry {check.entry}) although it held {bad}, "
                    "which had a legal use.",
                    k,
                    "",
                    {"reason": "held_usable", "seat": check.seat, "card": bad, "discarded": check.card,
                     "entry": check.entry},
                )
        for hand in deal.hands:
            if hand is None:
                continue
            said = self._said(deal, hand.origin)
            if said is None:
                continue
            dealt = deal.dealt(self.rules, hand.origin)
            opening = next((c for c in dealt if c in OPENING), None)
            if said is False and opening is not None:
                return EntryRefused(
                    ErrorCode.FALSE_ANNOUNCEMENT.value,
                    f"Seat {hand.origin} announced ich kann nicht, but was dealt {opening}.",
                    k,
                    "",
                    {"reason": "said_no_holds", "seat": hand.origin, "card": opening,
                     "entry": deal.announce_entry},
                )
            if said is True and opening is None and hand.hidden == 0:
                return EntryRefused(
                    ErrorCode.FALSE_ANNOUNCEMENT.value,
                    f"Seat {hand.origin} announced ich kann, but was dealt no 1 and no 13.",
                    k,
                    "",
                    {"reason": "said_yes_none", "seat": hand.origin, "cards": sorted(OPENING),
                     "entry": deal.announce_entry},
                )
        return None

    def _problem(
        self,
        deal: DealLog,
        *,
        end: bool = False,
        skip: frozenset[int] = frozenset(),
        announce: bool = True,
        discards: bool = True,
    ) -> tuple[dict[int, int], Counter[str], dict[int, set[str]], dict[int, frozenset[str]]]:
        """The completion problem of `deal`'s hidden cards (see rules.cards.hidden.assign_hidden):
        slots and forbidden cards per hand (by the seat dealt to), the needs, the pool. ``skip`` drops
        the announcements of those seats, ``announce``/``discards`` all of them (to find a culprit)."""
        slots: dict[int, int] = {}
        forbidden: dict[int, set[str]] = {}
        need: dict[int, frozenset[str]] = {}
        for hand in deal.hands:
            if hand is None:
                continue
            slots[hand.origin] = hand.hidden
            forbidden[hand.origin] = set()
            said = self._said(deal, hand.origin) if announce and hand.origin not in skip else None
            if said is not None and not any(c in OPENING for c in deal.dealt(self.rules, hand.origin)):
                if said:
                    need[hand.origin] = OPENING
                else:
                    forbidden[hand.origin] |= OPENING
        if discards:
            for check in deal.discards:
                forbidden.setdefault(check.hand.origin, set()).update(check.usable)
        if end and deal is self.deals[-1] and not deal.closed:
            for seat, cards in self.rules.end_constraints(self.state).items():
                hand = self.state.hands[seat]
                if isinstance(hand, HiddenHand):
                    forbidden.setdefault(hand.origin, set()).update(cards)
        return slots, self.cycle.pool() if deal is self.deals[-1] else Counter(), forbidden, need

    def completion(self, deal: DealLog, *, end: bool = False) -> dict[int, list[str]] | None:
        """Cards for `deal`'s hidden slots that fit every rule seen so far, or None if there are none.

        The last completion found is tried first (most entries reveal a card it already had), then the
        exact answer of :func:`rules.cards.hidden.assign_hidden`.
        """
        slots, pool, forbidden, need = self._problem(deal, end=end)
        if not any(slots.values()):
            return {} if not need else None
        if deal.fill is not None:
            guess = _adjust(deal, *deal.fill)
            if _fits(guess, slots, pool, forbidden, need):
                return guess
        found = assign_hidden(slots, pool, forbidden=forbidden, need=need)
        if found is not None:
            deal.fill = (found, {h.origin: len(h.revealed) for h in deal.hands if h is not None})
        return found

    def _diagnose(self, deal: DealLog, k: int) -> EntryRefused:
        """Entry `k` left no completion: say which rule the seen cards break (the most direct first)."""

        def fits(**relax: Any) -> bool:
            slots, pool, forbidden, need = self._problem(deal, **relax)
            return assign_hidden(slots, pool, forbidden=forbidden, need=need) is not None

        last = deal.discards[-1] if deal.discards and deal.discards[-1].entry == k else None
        if last is not None:
            slots, pool, forbidden, need = self._problem(deal)
            forbidden = {h: set(c) for h, c in forbidden.items()}
            others: set[str] = set()
            for check in deal.discards:
                if check is not last and check.hand is last.hand:
                    others |= check.usable
            said = self._said(deal, last.hand.origin)
            forbidden[last.hand.origin] = others | (OPENING if said is False else set())
            if assign_hidden(slots, pool, forbidden=forbidden, need=need) is not None:
                must = sorted(need.get(last.hand.origin, frozenset()) & last.usable, key=_card_key)
                if must:
                    message = (
                        f"Seat {last.seat} announced ich kann and has not shown a 1 or 13, so it holds one, "
                        f"which had a legal use: it may not discard {last.card}."
                    )
                else:
                    message = (
                        f"Seat {last.seat} may not discard {last.card}: the cards left in this deck cycle "
                        "leave its hand a card with a legal use."
                    )
                return EntryRefused(
                    ErrorCode.MUST_PLAY.value, message, k, "",
                    {"reason": "must_hold_usable", "seat": last.seat, "card": last.card, "cards": must},
                )
        if deal.announce is not None and fits(announce=False):
            for hand in deal.hands:
                if hand is None or self._said(deal, hand.origin) is None:
                    continue
                if fits(skip=frozenset({hand.origin})):
                    said = self._said(deal, hand.origin)
                    words = "ich kann" if said else "ich kann nicht"
                    return EntryRefused(
                        ErrorCode.FALSE_ANNOUNCEMENT.value,
                        f"Seat {hand.origin} announced {words}, but the cards seen in this deal leave "
                        "no hand that fits.",
                        k, "",
                        {"reason": "said_yes_none_left" if said else "said_no_must_hold",
                         "seat": hand.origin, "cards": sorted(OPENING), "entry": deal.announce_entry},
                    )
        if deal.discards and fits(discards=False):
            for check in deal.discards:
                slots, pool, forbidden, need = self._problem(deal, discards=False)
                for other in deal.discards:
                    if other is not check:
                        forbidden.setdefault(other.hand.origin, set()).update(other.usable)
                if assign_hidden(slots, pool, forbidden=forbidden, need=need) is not None:
                    return EntryRefused(
                        ErrorCode.MUST_PLAY.value,
                        f"Seat {check.seat} discarded {check.card} (entry {check.entry}), but the cards seen "
                        "since leave it a card that had a legal use.",
                        k, "",
                        {"reason": "discard_contradicted", "seat": check.seat, "card": check.card,
                         "entry": check.entry},
                    )
        return EntryRefused(
            ErrorCode.DECK_MISMATCH.value,
            "No hands fit the cards seen in this deal: check the entries since the deal began.",
            k, "", {"reason": "no_hands_fit"},
        )

    def refusal(self, code: str, message: str, path: str, default: int | None) -> EntryRefused:
        """An EntryRefused naming the entry that `path` (a pointer into the record) points into."""
        turn = default
        parts = path.split("/")
        if len(parts) >= 3 and parts[1] == "deals" and parts[2].isdigit() and int(parts[2]) < len(self.deals):
            deal = self.deals[int(parts[2])]
            if len(parts) >= 5 and parts[3] == "turns" and parts[4].isdigit() and int(parts[4]) < len(deal.turns):
                turn = deal.turn_entries[int(parts[4])]
            elif len(parts) >= 4 and parts[3] == "announce" and deal.announce_entry is not None:
                turn = deal.announce_entry
            elif len(parts) >= 4 and parts[3] == "exchange" and deal.exchange_entry is not None:
                turn = deal.exchange_entry
        where = ""
        if turn is not None:
            where = f" (entry {turn}"
            for i, deal in enumerate(self.deals):
                if turn in deal.turn_entries:
                    where += f", deal {i + 1}, turn {deal.turn_entries.index(turn) + 1}"
            where += ")"
        return EntryRefused(code, message + where, turn, path)

    def fills(self) -> dict[int, list[str]]:
        """Cards for the hidden slots of the running deal, consistent with every rule (or refuse)."""
        deal = self.current()
        if deal is None or deal.closed:
            return {}
        chosen = self.completion(deal, end=True)
        if chosen is None:
            raise EntryRefused(
                ErrorCode.DECK_MISMATCH.value,
                "No hands fit the cards seen in this deal: check the entries since the deal began.",
                deal.turn_entries[0] if deal.turn_entries else None,
                "",
                {"reason": "no_hands_fit"},
            )
        return chosen

    def record(self, *, fill: bool = True, time_up: bool = False) -> dict[str, Any]:
        rules = self.rules
        header = self.header
        doc: dict[str, Any] = {"format": "game-record/1", "game": rules.name}
        if header.get("variant"):
            doc["variant"] = header["variant"]
        doc["players"] = header["players"]
        if header.get("meta"):
            doc["meta"] = header["meta"]
        fills = self.fills() if fill else {}
        deals: list[dict[str, Any]] = []
        if header.get("setup") is not None:
            doc["setup"] = header["setup"]
        for deal in self.deals:
            out: dict[str, Any] = {}
            if deal is self.deals[-1] and not deal.turns and not deal.setup:
                break  # a deal whose facts are half entered (no turn yet) adds nothing to the record
            if deal.setup:
                deals.append({"turns": deal.turns})
                continue
            if deal.first:
                out["dealer"] = deal.dealer
            hands: list[list[str]] = []
            for s in range(rules.seats):
                if s not in rules.active and len(rules.active) != rules.seats and rules.name == "tac":
                    hands.append([])
                    continue
                hands.append(deal.dealt(rules, s, fills.get(s, []) if deal is self.deals[-1] else []))
            out["hands"] = hands
            if deal.announce is not None:
                out["announce"] = deal.announce
            if deal.exchange is not None:
                out["exchange"] = deal.exchange
            out["turns"] = deal.turns
            deals.append(out)
        doc["deals"] = deals
        result = rules.outcome(self.state)
        if result is not None:
            doc["result"] = result
        elif time_up:
            doc["result"] = {"winners": self._leaders(), "termination": "adjudication"}
        return doc

    def _leaders(self) -> list[int]:
        """At the time limit: the side with the most marbles home, if one side alone leads."""
        home = self.rules.marbles_home(self.state)
        sides = self.rules.sides() or [[s] for s in self.rules.active]
        counts = [sum(home[c] for c in side) for side in sides]
        best = max(counts) if counts else 0
        leaders = [side for side, n in zip(sides, counts, strict=True) if n == best]
        return sorted(leaders[0]) if len(leaders) == 1 and best > 0 else []


def _card_key(card: str) -> tuple[int, int | str]:
    return (0, int(card)) if card.isdigit() else (1, card)


def _adjust(deal: DealLog, fill: dict[int, list[str]], seen: dict[int, int]) -> dict[int, list[str]]:
    """The last completion, less the cards each hand has revealed since (a card it did not have in the
    completion takes the place of one it had)."""
    out: dict[int, list[str]] = {}
    for hand in deal.hands:
        if hand is None:
            continue
        cards = list(fill.get(hand.origin, []))
        for card in hand.revealed[seen.get(hand.origin, 0) :]:
            if card in cards:
                cards.remove(card)
            elif cards:
                cards.pop()
        out[hand.origin] = cards
    return out


def _fits(
    fill: Mapping[int, list[str]],
    slots: Mapping[int, int],
    pool: Counter[str],
    forbidden: Mapping[int, set[str]],
    need: Mapping[int, frozenset[str]],
) -> bool:
    used: Counter[str] = Counter()
    for h, n in slots.items():
        cards = fill.get(h, [])
        if len(cards) != n or any(c in forbidden.get(h, ()) for c in cards):
            return False
        if h in need and not any(c in need[h] for c in cards):
            return False
        used.update(cards)
    return all(pool[c] >= n for c, n in used.items())


# ---------------------------------------------------------------------- replay with a cache
_CACHE: OrderedDict[str, Sheet] = OrderedDict()
_CACHE_SIZE = 128


def _nested_discard(entry: Mapping[str, Any]) -> bool:
    then = entry.get("then")
    while isinstance(then, Mapping):
        if "discard" in then:
            return True
        then = then.get("then")
    return False


def header_of(state: Mapping[str, Any]) -> dict[str, Any]:
    keys = ("game", "variant", "players", "dealer", "meta", "setup")
    return {key: state[key] for key in keys if key in state}


def header_digest(header: Mapping[str, Any]) -> str:
    text = json.dumps(header, sort_keys=True, separators=(",", ":"))
    return hashlib.sha1(text.encode()).hexdigest()


def chain(digest: str, entry: Mapping[str, Any]) -> str:
    """The digest of a sheet after `entry`: a hash chain, so a state names its replay in O(1)."""
    text = digest + json.dumps(entry, sort_keys=True, separators=(",", ":"))
    return hashlib.sha1(text.encode()).hexdigest()


def digest_of(header: Mapping[str, Any], entries: list[Any]) -> str:
    digest = header_digest(header)
    for entry in entries:
        digest = chain(digest, entry)
    return digest


def _copy(sheet: Sheet) -> Sheet:
    """A copy that shares everything that never changes again (closed deals, entries, the rules)."""
    other = Sheet.__new__(Sheet)
    other.header = sheet.header
    other.rules = sheet.rules
    other.entries = list(sheet.entries)
    other.digests = list(sheet.digests)
    other.last = sheet.last
    cycle = Cycle(sheet.rules.deck)
    cycle.seen = Counter(sheet.cycle.seen)
    other.cycle = cycle
    hand_map: dict[int, HiddenHand] = {}

    def hand_copy(hand: HiddenHand) -> HiddenHand:
        new = hand_map.get(id(hand))
        if new is None:
            new = HiddenHand(hand.origin, hand.hidden, cycle if hand.cycle is sheet.cycle else hand.cycle, hand.known())
            new.played = hand.played[:]
            new.revealed = hand.revealed[:]
            new.forbidden = set(hand.forbidden)
            hand_map[id(hand)] = new
        return new

    other.deals = sheet.deals[:]
    if other.deals and not other.deals[-1].closed:
        old = other.deals[-1]
        new = copy.copy(old)
        new.hands = [None if h is None else hand_copy(h) for h in old.hands]
        new.turns = old.turns[:]
        new.turn_entries = old.turn_entries[:]
        new.discards = [
            DiscardCheck(d.entry, hand_copy(d.hand), d.revealed, d.usable, d.seat, d.card) for d in old.discards
        ]
        other.deals[-1] = new
    hands = [hand_copy(h) if isinstance(h, HiddenHand) else list(h) for h in sheet.state.hands]
    other.state = sheet.rules.copy_state(sheet.state, hands)
    return other


def remember(sheet: Sheet) -> None:
    key = sheet.digests[-1]
    _CACHE[key] = _copy(sheet)
    _CACHE.move_to_end(key)
    while len(_CACHE) > _CACHE_SIZE:
        _CACHE.popitem(last=False)


def _hit(key: str | None, entries: list[Any]) -> Sheet | None:
    """The cached sheet under `key` if it holds exactly `entries` (checked by count and last entry)."""
    if key is None:
        return None
    hit = _CACHE.get(key)
    if hit is None or len(hit.entries) != len(entries) or (entries and hit.entries[-1] != entries[-1]):
        return None
    _CACHE.move_to_end(key)
    return hit


def load(state: Mapping[str, Any], make: Any) -> Sheet:
    """The replayed sheet of a stored state (a private copy: change it freely).

    The state's ``digest`` (a hash chain over the entries) finds the replay in the cache; without a
    cached replay the entries are replayed from the start (and then cached).
    """
    header = header_of(state)
    entries = list(state.get("entries", []))
    digest = state.get("digest")
    hit = _hit(digest if isinstance(digest, str) else None, entries)
    if hit is None:
        digest = digest_of(header, entries)
        hit = _hit(digest, entries)
    if hit is not None:
        return _copy(hit)
    sheet = Sheet(header, make(header))
    for entry in entries:
        sheet.add(entry)
    remember(sheet)
    return sheet
