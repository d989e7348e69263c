"""TacState.apply, the state protocol's entry (random play and the step oracle drive it): what it
refuses before any rule is looked at."""

from __future__ import annotations

import pytest

from rules.core.errors import ErrorCode, RecordError
from rules.tac.actions import DISCARD, Play
from rules.tac.game import parse_variant
from rules.tac.state import TacState


def refusal(state: TacState, action: object) -> tuple[ErrorCode, str, str]:
    with pytest.raises(RecordError) as raised:
        state.apply(action)
    return raised.value.code, raised.value.path, raised.value.message


def test_apply_takes_only_a_play() -> None:
    state = TacState(parse_variant({}))
    assert refusal(state, {"seat": 0, "card": "7"}) == (ErrorCode.MALFORMED, "", "An action must be a Play.")


def test_apply_before_a_deal_has_nobody_to_move() -> None:
    state = TacState(parse_variant({}))
    assert refusal(state, Play("7", DISCARD)) == (ErrorCode.WRONG_SEAT, "", "Nobody is to move.")


def test_apply_plays_for_the_seat_to_move() -> None:
    state = TacState(parse_variant({}))
    state.start_deal([["9"], ["9"], ["9"], ["9"]], dealer=3)
    assert state.to_move == 0
    state.apply(Play("9", DISCARD))  # no marble on the board: the 9 has no use and is discarded
    assert state.to_move == 1 and state.hands[0] == []
    assert refusal(state, Play("9", DISCARD, seat=2)) == (ErrorCode.WRONG_SEAT, "/seat", "Seat 1 is to move, not seat 2.")


def test_a_seat_skipped_by_the_8_may_discard_or_answer_with_its_tac() -> None:
    from rules.tac.actions import SKIP

    state = TacState(parse_variant({}))
    state.start_deal([["8"], ["tac", "9"], ["9"], ["9"]], dealer=3)
    state.board[10], state.board[30] = 0, 1
    state.pre[0], state.pre[1] = 3, 3
    state.apply(Play("8", SKIP))
    actions = state.legal_actions()
    assert {(a.card, a.kind) for a in actions if a.kind == DISCARD} == {("9", DISCARD), ("tac", DISCARD)}
    # the TAC borrows the 8 on the position before it: seat 1 moves its marble 8 fields, or skips
    borrowed = [a for a in actions if a.card == "tac" and a.kind != DISCARD]
    assert borrowed and all(a.as_ == "8" for a in borrowed)


def test_tac_legal_actions_after_the_game_is_won_are_none() -> None:
    # Rule: nothing is played after the end ("Otherwise the game is over."), and nobody is to move
    # before a deal or once every hand is empty: no legal action in either case, even when the next
    # seat still holds a usable card (mutation run seed 2611: `over and seat is None` listed its plays)
    from tests.rules.tac.test_tac_rule_pins import won_by_a_two

    assert TacState(parse_variant({})).legal_actions() == []  # before the first deal
    state = won_by_a_two()
    assert state.is_terminal() and state.to_move == 1 and state.hands[1] == ["9"]
    assert state.legal_actions() == []
    state = TacState(parse_variant({}))
    state.start_deal([["9"], ["9"], ["9"], ["9"]], dealer=3)
    for _ in range(4):
        state.apply(Play("9", DISCARD))  # no marble on the board: every 9 is discarded
    assert state.to_move is None and not state.is_terminal()
    assert state.legal_actions() == []
