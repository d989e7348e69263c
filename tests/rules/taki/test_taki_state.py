"""Exact legal-entry lists of small TAKI positions (like perft counts), and the State protocol."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from rules.core.errors import RecordError
from rules.taki.game import parse_variant
from rules.taki.state import TakiState

VARIANT = parse_variant({"seats": 3}, None)


def position(hands: list[list[str]], discard: list[str], **kw: Any) -> TakiState:
    used = Counter(c for h in hands for c in h) + Counter(discard)
    stock = list((Counter(VARIANT.deck.counts) - used).elements())
    top = discard[-1]
    colour = VARIANT.deck.color_of[top]
    symbol = VARIANT.deck.symbol_of[top] if colour else None
    return TakiState(VARIANT, hands, stock, discard, colour, symbol, 0, **kw)


def plays(state: TakiState) -> list[tuple[Any, ...]]:
    return sorted(
        (tuple(a.get("play", ())), a.get("draw", False), a.get("close", False), a.get("last_card", False))
        for a in state.legal_actions()
        if a["seat"] == state.to_move
    )


def test_taki_run_listed_once_per_last_card() -> None:
    state = position([["taki_r", "5r", "8r", "9b", "7g"], ["1g"], ["1b"]], ["3r"])
    assert plays(state) == [
        (("5r",), False, False, False),
        (("8r",), False, False, False),
        (("taki_r", "5r", "8r"), False, False, False),
        (("taki_r", "5r", "8r"), False, True, False),
        (("taki_r", "8r", "5r"), False, False, False),
        (("taki_r", "8r", "5r"), False, True, False),
    ]


def test_taki_open_taki_must_be_continued_whole_or_left() -> None:
    state = position([["7r", "4r", "8y", "1y"], ["1g"], ["1b"]], ["taki_r"], open_taki="r")
    assert plays(state) == [
        (("4r", "7r"), False, False, False),
        (("4r", "7r"), False, True, False),
        (("7r", "4r"), False, False, False),
        (("7r", "4r"), False, True, False),
    ]


def test_taki_plus_follow_or_draw_and_last_card() -> None:
    state = position([["plus_r", "9b", "7g"], ["1g"], ["1b"]], ["3r"])
    assert plays(state) == [(("plus_r",), True, False, False)]
    state = position([["plus_r", "5r"], ["1g"], ["1b"]], ["plus_b"])
    assert plays(state) == [(("plus_r", "5r"), False, False, False)]
    state = position([["5r", "9b"], ["1g"], ["1b"]], ["3r"])
    assert plays(state) == [(("5r",), False, False, False), (("5r",), False, False, True)]


def test_taki_stack_allows_add_king_or_draw() -> None:
    state = position([["plus2_g", "king", "5r"], ["1g"], ["1b"]], ["plus2_r"], plus2=2)
    listed = plays(state)
    assert ((), True, False, False) in listed
    assert (("plus2_g",), False, False, False) in listed
    assert (("king",), False, False, False) in listed
    assert (("king", "5r"), False, False, False) in listed
    assert all(p[0][:1] in (("plus2_g",), ("king",), ()) for p in listed)


def test_taki_waiting_plus3_lists_answers_of_other_seats() -> None:
    state = position([["5g"], ["king", "4b"], ["breaker", "6g"]], ["3r", "plus3"], plus3_by=0)
    state.to_move = 1
    actions = state.legal_actions()
    assert {"seat": 2, "play": ["breaker"]} in actions
    assert {"seat": 2, "play": ["breaker"], "last_card": True} in actions
    assert {"seat": 1, "play": ["king"]} in actions
    assert all(a["seat"] in (1, 2) for a in actions)


def test_taki_apply_refuses_and_keeps_position() -> None:
    state = position([["5r", "9b", "7g"], ["1g"], ["1b"]], ["3r"])
    before = state.clone()
    with pytest.raises(RecordError) as err:
        state.apply({"seat": 0, "play": ["9b"]})
    assert err.value.code.value == "illegal_move" and err.value.path == "/play/0"
    assert state == before
    state.apply({"seat": 0, "play": ["5r"]})
    assert state.to_move == 1 and state.lead_color == "r" and state.lead_symbol == "5"
    assert not state.is_terminal() and state.outcome() is None
