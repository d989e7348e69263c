"""Random complete TAKI games, played through the same stage methods the verifier uses."""

from __future__ import annotations

import random
from typing import Any

from rules.cards.deck import shuffled
from rules.taki.actions import Entry, Played
from rules.taki.cards import BREAKER, KING
from rules.taki.game import Variant, parse_variant
from rules.taki.state import Need, TakiState

#: A game longer than this is dropped and dealt again (it has never been needed in practice).
MAX_ENTRIES = 20000


def random_entry(state: TakiState, rng: random.Random) -> dict[str, Any]:
    """Choose and perform one random legal entry; return it as a record dict.

    Out-of-turn breakers, forgotten "last card" calls, open TAKIs and draws against a +2 stack are
    chosen often on purpose, so that random games reach every rule.
    """

    def shuffler(cards: list[str]) -> list[str]:
        rng.shuffle(cards)
        return cards

    state.start_entry("", None, shuffler)
    king_start = False
    if state.plus3_by is not None:
        p = state.plus3_by
        holders = [x for x in range(state.n) if x != p and BREAKER in state.hands[x]]
        if holders and rng.random() < 0.6:
            x = rng.choice(holders)
            last = len(state.hands[x]) == 2 and rng.random() < 0.8
            entry = Entry(x, ((BREAKER, None),), False, False, last, None)
            state.answer_plus3(entry, "")
            state.close_entry("")
            return _with_reshuffle(entry, state)
        if KING in state.hands[state.to_move] and rng.random() < 0.6:
            king_start = True
            state.plus3_by = None
        else:
            state.resolve_plus3()
    seat = state.to_move
    state.begin_turn(seat)
    options = state.options()
    if not options or (state.plus2 > 0 and rng.random() < 0.35):
        entry = Entry(seat, (), True, False, False, None)
        state.draw_turn(entry, "")
        state.close_entry("")
        return _with_reshuffle(entry, state)
    plays: list[Played] = []
    choice: Played = (KING, None) if king_start else rng.choice(options)
    while True:
        state.play_card(choice[0], choice[1], "")
        plays.append(choice)
        need = state.need
        if need == Need.END:
            break
        options = state.options()
        if not options or (need == Need.KING and rng.random() < 0.4):
            break
        choice = rng.choice(options)
    draw = state.need == Need.PLUS
    close = state.pending_run is not None and not state.run_alone and rng.random() < 0.5
    last_card = len(state.hands[seat]) == 1 and rng.random() < 0.8
    state.finish_turn(draw, close, last_card, "")
    state.close_entry("")
    return _with_reshuffle(Entry(seat, tuple(plays), draw, close, last_card, None), state)


def _with_reshuffle(entry: Entry, state: TakiState) -> dict[str, Any]:
    out = entry.to_json()
    if state.recorded_reshuffle is not None:
        out["reshuffle"] = list(state.recorded_reshuffle)
    return out


def deal_random(variant: Variant, rng: random.Random) -> dict[str, Any]:
    """A shuffled deal in record form: hands, lead, stock (top first) and the first seat."""
    cards = shuffled(variant.deck.counts, rng)
    h = variant.hand_size
    hands = [cards[s * h : (s + 1) * h] for s in range(variant.seats)]
    n_dealt = variant.seats * h
    return {
        "first": rng.randrange(variant.seats),
        "hands": hands,
        "lead": cards[n_dealt],
        "stock": cards[n_dealt + 1 :],
    }


def random_record(variant_raw: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    raw = dict(variant_raw)
    raw.setdefault("seats", 4)
    variant = parse_variant(raw, None)
    while True:
        deal = deal_random(variant, rng)
        state = TakiState.dealt(variant, deal["hands"], deal["lead"], deal["stock"], deal["first"])
        turns: list[dict[str, Any]] = []
        while state.winner is None and len(turns) < MAX_ENTRIES:
            turns.append(random_entry(state, rng))
        if state.winner is None:
            continue
        deal["turns"] = turns
        result = state.outcome()
        assert result is not None
        return {
            "format": "game-record/1",
            "game": "taki",
            "variant": variant.to_json(),
            "players": [{"name": f"Player {s + 1}", "seats": [s]} for s in range(variant.seats)],
            "deals": [deal],
            "result": result,
        }
