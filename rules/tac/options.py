"""The legal entries of one card in a TAC position (like python-chess ``legal_moves``).

The generator is the engine's own (:meth:`TacState.gen`, :meth:`TacState.tac_plays`, which the checker
uses for must-play and the compulsory TAC); this module adds what a scorer needs on top: the follow-ups of
the Narr and the Teufel when the hand they draw from is not fully known, the TAC borrowing either of
them, the skipped seat's choices, and when a discard may be written.

``possible(hand)`` says which cards a hand may hold: its cards when they are all known, or every card
still in the deck cycle while some are hidden (see :mod:`rules.scoresheet.hands`).
"""

from __future__ import annotations

from typing import Any

from rules.cards.hidden import fork_hands, possible_cards
from rules.tac.actions import DISCARD, THEN, Play
from rules.tac.state import TacState

Memo = dict[tuple[Any, ...], list[Play]]
"""Plays already found in one position (the Narr and the Teufel see the same board again)."""

_HAND_DEPENDENT = frozenset({"8", "narr", "teufel", "tac"})


def usable(state: TacState, seat: int, card: str) -> bool:
    """Does `card` have a legal use for `seat` now? (the engine's own must-play test)"""
    return bool(state.card_plays(seat, card, True))


def card_plays(state: TacState, seat: int, card: str, memo: Memo | None = None) -> list[Play]:
    """Every legal use of `card` by `seat` now (no discard; skip and compulsory TAC not applied)."""
    if memo is None:
        memo = {}
    key: tuple[Any, ...] = (seat, card, tuple(state.board), tuple(state.fresh))
    if card == "tac":
        key += (id(state.history[-1]) if state.history else None, state.tac_banned)
    if card in _HAND_DEPENDENT:
        key += (state.last_card(seat),)
    if card in ("narr", "teufel") or (card == "tac" and state.history and state.history[-1].fn in ("narr", "teufel")):
        key = ()  # follow-ups depend on the hands: never shared
    found = memo.get(key) if key else None
    if found is not None:
        return found
    plays = _card_plays(state, seat, card, memo)
    if key:
        memo[key] = plays
    return plays


def _card_plays(state: TacState, seat: int, card: str, memo: Memo) -> list[Play]:
    if card == "tac":
        if state.tac_banned or not state.history:
            return []
        prev = state.history[-1]
        if prev.fn in ("narr", "teufel"):
            return _then_plays(state, seat, card, prev.fn, memo)
        plays = state.tac_plays(seat, False)
        if prev.fn == "7" and plays:
            saved = state._snap()
            if not prev.discarded and prev.snapshot is not None:
                state._restore(prev.snapshot)
            try:
                plays = _canonical_sevens(state, plays)
            finally:
                state._restore(saved)
        return plays
    if card in ("narr", "teufel"):
        if state.last_card(seat):
            return []
        return _then_plays(state, seat, card, card, memo)
    plays = state.gen(seat, card, card, None, False)
    if card == "7":
        return _canonical_sevens(state, plays)
    return plays


def _canonical_sevens(state: TacState, plays: list[Play]) -> list[Play]:
    """Write each 7 with as few segments as give the same play: ``[[38, 40], [40, 45]]`` is
    ``[[38, 45]]`` (one marble going on the same way passes and captures the same marbles)."""
    locked = state.locked_set()
    out: list[Play] = []
    seen: set[tuple[tuple[int, int], ...]] = set()
    for play in plays:
        segs = list(play.moves)
        merged: list[tuple[int, int]] = []
        saved = state._snap()
        before = saved
        try:
            for frm, to in segs:
                if merged and merged[-1][1] == frm:
                    a, b = merged[-1]
                    colour = state.board[frm]
                    state._restore(before)
                    d_ab = state.seven_distance(a, b, colour, locked)
                    d_ac = state.seven_distance(a, to, colour, locked)
                    state._seven_segment(a, b)
                    d_bc = state.seven_distance(b, to, colour, locked)
                    if d_ab is not None and d_ac is not None and d_bc is not None and d_ac == d_ab + d_bc:
                        state._restore(before)
                        state._seven_segment(a, to)
                        merged[-1] = (a, to)
                        continue
                    state._restore(before)
                    state._seven_segment(a, b)
                before = state._snap()
                state._seven_segment(frm, to)
                merged.append((frm, to))
        finally:
            state._restore(saved)
        key = tuple(merged)
        if key not in seen:
            seen.add(key)
            out.append(Play(play.card, play.kind, moves=key, as_=play.as_))
    return out


def turn_plays(state: TacState, seat: int, memo: Memo | None = None) -> list[Play]:
    """Every entry `seat` may make now with a card its hand may hold (known, or hidden and unseen).

    A discard of a card is offered when neither it nor any known card has a legal use (a hidden card
    that could be used is checked when the deal closes); a skipped seat may discard any card or play
    its TAC, and a compulsory TAC answer is the only entry after a winning move it can answer.
    """
    if memo is None:
        memo = {}
    hand = state.hands[seat]
    cards = possible_cards(hand)
    if state.must_tac:
        return card_plays(state, seat, "tac", memo) if "tac" in cards else []
    if state.skipped == seat:
        out = [Play(card, DISCARD) for card in cards]
        if "tac" in cards:
            out.extend(card_plays(state, seat, "tac", memo))
        return out
    known_use = any(usable(state, seat, card) for card in set(hand))
    out = []
    for card in cards:
        plays = card_plays(state, seat, card, memo)
        if plays:
            out.extend(plays)
        elif not known_use:
            out.append(Play(card, DISCARD))
    return out


def _then_plays(state: TacState, seat: int, card: str, fn: str, memo: Memo) -> list[Play]:
    """The Narr's or Teufel's entries: the card played, with every follow-up the drawn hand allows
    (the position and the seat that plays on are the engine's: :meth:`TacState.then_position`)."""
    sim, actor = state.then_position(seat, fn, card, fork_hands(state.hands))
    if actor is None:
        return []
    sim.skipped = -1  # the follow-up is part of this turn: neither skipped nor a compulsory TAC answer
    sim.must_tac = False
    as_ = fn if card == "tac" else None
    return [Play(card, THEN, then=sub, as_=as_) for sub in turn_plays(sim, actor, memo)]
