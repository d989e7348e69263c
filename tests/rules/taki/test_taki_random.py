"""Seeded random TAKI games: invariants at every step, the legal-action list, and valid complete records."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

from rules.core.errors import RecordError
from rules.core.replay import verify_document
from rules.taki import ENGINE
from rules.taki.cards import TRANSPARENT
from rules.taki.game import Variant, parse_variant
from rules.taki.randomplay import deal_random, random_entry
from rules.taki.state import TakiState


def check_invariants(state: TakiState) -> None:
    variant = state.variant
    deck = variant.deck
    held: Counter[str] = Counter(state.stock) + Counter(state.discard)
    for hand in state.hands:
        held.update(hand)
    assert held == Counter(deck.counts), "cards are conserved across hands, stock and discard pile"
    assert state.discard, "the lead is always on the pile"
    assert 0 <= state.to_move < state.n and state.direction in (1, -1)
    assert state.plus2 >= 0 and state.plus2 % 2 == 0
    assert not (state.plus2 and state.open_taki), "an open TAKI and an active +2 stack never coexist"
    assert state.plus3_by is None or 0 <= state.plus3_by < state.n
    if state.lead_color is None:
        assert state.lead_symbol is None
    else:
        assert state.lead_color in deck.colors
    assert state.open_taki is None or state.open_taki == state.lead_color
    # the lead is the topmost non-transparent card of the pile (when the pile still holds one)
    below = [card for card in state.discard if card not in TRANSPARENT]
    if below and state.lead_color is not None:
        top = below[-1]
        if deck.color_of[top] is not None:
            assert (state.lead_color, state.lead_symbol) == (deck.color_of[top], deck.symbol_of[top])
        else:
            assert state.lead_symbol == {"color": "color", "supertaki": "taki"}[top]
    if state.phases is not None:
        assert all(1 <= p <= 8 for p in state.phases)
    if state.winner is None and not variant.tournament:
        assert all(state.hands), "outside the tournament an empty hand ends the game"


def illegal_candidates(state: TakiState, rng: random.Random) -> list[dict[str, Any]]:
    """Entries that must be refused: wrong seat, a card not held, a card that does not fit."""
    out: list[dict[str, Any]] = []
    seat = state.to_move
    other = (seat + 1) % state.n
    if state.plus3_by is None:
        out.append({"seat": other, "draw": True} if other != seat else {"seat": seat, "play": ["2x"]})
    missing = [
        c for c in state.variant.deck.counts if c not in state.hands[seat] and c not in ("color", "supertaki")
    ]
    out.append({"seat": seat, "play": [rng.choice(missing)]})
    trial = state.clone()
    trial.begin_turn(seat)
    fitting = {card for card, _ in trial.options()}
    unfit = [
        c
        for c in state.hands[seat]
        if c not in fitting and c not in ("color", "supertaki", "king", "breaker")
    ]
    if unfit and state.plus3_by is None:
        out.append({"seat": seat, "play": [rng.choice(unfit)]})
    return out


def canonical(entry: dict[str, Any]) -> tuple[Any, ...]:
    """An entry up to the free order of the void cards inside a TAKI run."""
    play = entry.get("play", [])
    return (
        entry["seat"],
        tuple(play[:1]),
        tuple(sorted(play[1:-1])),
        tuple(play[-1:]),
        entry.get("draw", False),
        entry.get("close", False),
        entry.get("last_card", False),
    )


def play_checked_game(
    variant: Variant, rng: random.Random, features: Counter[str], *, deep_every: int
) -> None:
    deal = deal_random(variant, rng)
    state = TakiState.dealt(variant, deal["hands"], deal["lead"], deal["stock"], deal["first"])
    mirror = state.clone()  # replays each entry through the public apply()
    turns: list[dict[str, Any]] = []
    step = 0
    while not state.is_terminal():
        check_invariants(state)
        assert state.clone() == state
        legal: list[dict[str, Any]] | None = None
        if step % deep_every == 0 and sum(len(h) for h in state.hands) <= 40:
            legal = state.legal_actions()
            assert legal, "a seat always has a legal entry"
            for action in legal:
                trial = state.clone()
                trial.apply(action)
                check_invariants(trial)
            for action in illegal_candidates(state, rng):
                if action in legal:
                    continue
                before = state.clone()
                with pytest.raises(RecordError):
                    before.apply(action)
                assert before == state, "a refused entry leaves the position unchanged"
        was_open = state.open_taki
        was_plus3 = state.plus3_by
        entry = random_entry(state, rng)
        turns.append(entry)
        if legal is not None and "reshuffle" not in entry:
            assert canonical(entry) in {canonical(a) for a in legal}, (
                "the random entry is a listed legal action"
            )
        mirror.apply(entry)
        assert mirror.hands == state.hands and mirror.stock == state.stock and mirror.to_move == state.to_move
        features["reshuffle"] += "reshuffle" in entry
        play = entry.get("play", [])
        if was_plus3 is not None and play == ["breaker"] and entry["seat"] != was_plus3:
            features["breaker_answer"] += 1
            features["breaker_out_of_turn"] += entry["seat"] != mirror.to_move
        if was_plus3 is not None and play[:1] == ["king"]:
            features["king_cancels_plus3"] += 1
        if was_open is not None and play and play[0] not in ("color",) and play[0][-1:] == was_open:
            features["open_taki_continued"] += 1
        for token in play:
            features["card:" + state.variant.deck.symbol_of[token.split(":")[0]]] += 1
        features["plus_draw"] += bool(play) and entry.get("draw", False)
        features["close"] += entry.get("close", False)
        step += 1
    check_invariants(state)
    features["games"] += 1
    features["tournament"] += variant.tournament
    record = {
        "format": "game-record/1",
        "game": "taki",
        "variant": variant.to_json(),
        "players": [{"name": f"P{s}", "seats": [s]} for s in range(variant.seats)],
        "deals": [{**deal, "turns": turns}],
        "result": state.outcome(),
    }
    verdict = verify_document(record, file="random")
    assert verdict.valid and verdict.complete, verdict.error.to_json() if verdict.error else None
    assert verdict.result == state.outcome()


def _variants(rng: random.Random, count: int) -> list[Variant]:
    out = []
    for i in range(count):
        raw: dict[str, Any] = {"seats": 2 + i % 9}
        if i % 5 == 4:
            raw["tournament"] = True
            raw["seats"] = 2 + i % 3
        out.append(parse_variant(raw, None))
    return out


def test_taki_random_games_conform() -> None:
    rng = random.Random(20261122)
    features: Counter[str] = Counter()
    for variant in _variants(rng, 150):
        play_checked_game(variant, rng, features, deep_every=5)
    for name in (
        "reshuffle", "breaker_answer", "breaker_out_of_turn", "king_cancels_plus3", "open_taki_continued",
        "plus_draw", "close", "tournament",
    ):  # fmt: skip
        assert features[name] > 0, f"random games never reached {name}: {dict(features)}"
    symbols = {s for s in parse_variant({"seats": 2}, None).deck.symbol_of.values()}
    for symbol in symbols:
        assert features["card:" + symbol] >= 20, f"random games seldom play {symbol}: {dict(features)}"


def test_taki_random_records_from_engine_validate() -> None:
    rng = random.Random(7)
    for seats in range(2, 11):
        for tournament in (False, True):
            record = ENGINE.random_record({"seats": seats, "tournament": tournament}, rng)
            verdict = verify_document(record, file="r")
            assert verdict.valid and verdict.complete, verdict.error
            if tournament:
                assert (
                    verdict.result is not None and verdict.result["phases"][verdict.result["winners"][0]] == 1
                )


@pytest.mark.slow
def test_taki_random_games_conform_many() -> None:
    rng = random.Random(99)
    features: Counter[str] = Counter()
    for variant in _variants(rng, 600):
        play_checked_game(variant, rng, features, deep_every=25)
    assert features["games"] == 600
