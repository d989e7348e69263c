"""TAC rules that mutation testing of rules/tac/state.py found unpinned (issue 18, docs/testing.md):
each test states the rule, with the record or position worked out by hand.

Rule texts (spec `game-records.md`, section 4 TAC and section 3):
- Engel: "For the seat B on the player's left …: `enter` if B's prefield is not empty, otherwise `moves` one
  of B's marbles 1 or 13 forward."
- `then`: "The follow-up to a Narr or Teufel." (action keys); only those two cards take it.
- "A TAC card may also carry `as`, the borrowed function (optional, checked)."
- 8: "The skipped seat must `discard` any card or play `tac`"; "After a skip, the skipped seat's `tac` undoes
  the skip and uses the 8."
- End of game: "If the next seat can answer the winning action with a legal `tac`, that is its only legal
  action … Otherwise the game is over."; turns: "the deal ends when all hands are empty".
- 7: "Home segments may go either way, but only for marbles unlocked at the start of the turn"; "Home
  marbles cannot be captured, swapped or moved out"; "Locked: all deeper slots of the home are occupied."
- Coop: "Where a seat may bring in more than one colour, `enter` names it: `"enter": c`".
- Trace (docs/replay-trace.md): `skipped` "the seat skipped by an 8 and not yet played", `locked` "home
  tokens that are locked (every deeper slot occupied)".
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from rules.core.errors import ErrorCode, RecordError
from rules.core.replay import verify_document
from rules.tac.actions import DISCARD, MOVES, SKIP, Play
from rules.tac.game import parse_variant
from rules.tac.snapshot import snapshot
from rules.tac.state import Entry, TacState

T = "/deals/0/turns/"


def record(marbles: list[list[Any]], hands: list[list[str]], turns: list[dict[str, Any]], *,
           master: bool = False) -> dict[str, Any]:
    doc: dict[str, Any] = {"format": "game-record/1", "game": "tac"}
    if master:
        doc["variant"] = {"master": True}
    doc["players"] = [{"name": f"P{s}", "seats": [s]} for s in range(4)]
    doc["setup"] = {"marbles": marbles, "hands": hands, "dealer": 3}
    doc["deals"] = [{"turns": turns}]
    return doc


def verdict(doc: dict[str, Any]) -> Any:
    return verify_document(json.loads(json.dumps(doc)), file="t")


def error_of(doc: dict[str, Any]) -> tuple[ErrorCode, str, str]:
    result = verdict(doc)
    assert not result.valid
    return result.error.code, result.error.path, result.error.message


# ---------------------------------------------------------------- the Engel acts on the left neighbour's marbles
def engel(moves: list[list[int]]) -> dict[str, Any]:
    # seat 1 (seat 0's left neighbour) has all four marbles on the ring, so the Engel must move one of them
    return record([[10], [20, 40, 45, 50], [], []], [["engel"], ["9"], ["9"], ["9"]],
                  [{"seat": 0, "card": "engel", "moves": moves}], master=True)


def test_the_engel_moves_a_marble_of_the_left_neighbour_not_the_players_own() -> None:
    assert error_of(engel([[10, 11]])) == (
        ErrorCode.ILLEGAL_MOVE, T + "0/moves/0", "The Engel moves a marble of colour 1; 10 holds none.")
    # seat 1's marble on 20 goes 1 (to 21) or 13 (to 33: 21..32 are free) forward
    assert verdict(engel([[20, 21]])).valid
    assert verdict(engel([[20, 33]])).valid
    # 5 fields is neither 1 nor 13
    assert error_of(engel([[20, 25]])) == (
        ErrorCode.ILLEGAL_MOVE, T + "0/moves/0", "The Engel cannot move 20 to 25 by 1 or 13.")


# ---------------------------------------------------------------- `then` belongs to the Narr and the Teufel
def test_only_the_narr_and_the_teufel_take_a_then() -> None:
    doc = record([[10], [], [], []], [["5", "9"], ["9"], ["9"], ["9"]],
                 [{"seat": 0, "card": "5", "then": {"card": "9", "moves": [[10, 19]]}}])
    assert error_of(doc) == (ErrorCode.ILLEGAL_MOVE, T + "0/then", "Only the Narr and the Teufel take `then`, not 5.")


# ---------------------------------------------------------------- every play a TAC offers names what it borrows
FUNCTIONS = ["1", "13", "2", "3", "4", "5", "6", "7", "8", "9", "10", "12", "trickser", "krieger", "engel", "narr",
             "teufel"]


def after_discard_of(fn: str) -> TacState:
    """Seat 0 to move with a TAC after seat 3 discarded `fn` (the TAC borrows `fn`, restores nothing).

    Colour 0 has marbles on 10 and 44 and two in its prefield (it can enter, move every distance, swap,
    strike, skip);
    colour 1 has all four on the ring (the Engel moves one of them); the other seats hold cards.
    """
    state = TacState(parse_variant({"master": True}))
    state.start_deal([["tac", "9"], ["9", "5"], ["9", "5"], ["9"]], dealer=3)
    for field, colour in ((10, 0), (44, 0), (30, 1), (33, 1), (36, 1), (39, 1), (40, 2), (60, 3)):
        state.board[field] = colour
    state.pre = [2, 0, 3, 3]
    state.history.append(Entry(None, fn, True))
    return state


@pytest.mark.parametrize("fn", FUNCTIONS)
def test_every_play_the_tac_offers_names_the_function_it_borrows(fn: str) -> None:
    state = after_discard_of(fn)
    plays = state.tac_plays(0, False)
    assert plays, fn
    assert {(play.card, play.as_) for play in plays} == {("tac", fn)}
    assert {(play.card, play.as_) for play in state.legal_actions() if play.card == "tac"} == {("tac", fn)}


# ---------------------------------------------------------------- the skipped seat: any discard, or its TAC as the 8
def test_the_skipped_seat_is_offered_every_use_of_its_tac() -> None:
    state = TacState(parse_variant({}))
    state.start_deal([["8"], ["tac", "9"], ["9"], ["9"]], dealer=3)
    state.board[10], state.board[30] = 0, 1
    state.pre[0], state.pre[1] = 3, 3
    state.apply(Play("8", SKIP))
    # the TAC undoes the skip and uses the 8 for seat 1: its marble on 30 goes 8 forward to 38 (31..37 free),
    # or seat 1 skips seat 2 (it has a ring marble, and seat 2 still holds a card); no home is in reach
    expected = {
        ("9", DISCARD, (), None), ("tac", DISCARD, (), None),
        ("tac", MOVES, ((30, 38),), "8"), ("tac", SKIP, (), "8"),
    }
    assert {(a.card, a.kind, a.moves, a.as_) for a in state.legal_actions()} == expected


# ---------------------------------------------------------------- the trace names the skipped seat, or none
def test_the_trace_snapshot_names_the_seat_skipped_by_the_8_until_it_has_played() -> None:
    state = TacState(parse_variant({}))
    state.start_deal([["8", "5"], ["9", "9"], ["9", "9"], ["9", "9"]], dealer=3)
    state.board[10], state.board[30] = 0, 1
    state.pre[0], state.pre[1] = 3, 3
    assert snapshot(state)["skipped"] is None
    # before the first deal of a record without setup the trace shows the cycle's first deal
    assert snapshot(TacState(parse_variant({})))["deal_in_cycle"] == 0
    state.apply(Play("8", SKIP))
    assert snapshot(state)["skipped"] == 1
    state.apply(Play("9", DISCARD))  # seat 1, skipped, discards
    assert snapshot(state)["skipped"] is None
    state.apply(Play("9", DISCARD))  # seat 2 has no marble: its 9 has no use
    assert snapshot(state)["skipped"] is None


# ---------------------------------------------------------------- nothing is played after the end
def won_by_a_two() -> TacState:
    """Colour 0 on H0:2-4 and field 63, colour 2 all home, a colour-1 marble on field 30 (seat 1's 9
    could move it). Seat 0's 2 takes 63 over the start field 0 into H0:1: team {0, 2} is home and seat 1
    holds no TAC to answer with, so the game is over while seat 1 still holds a usable card."""
    state = TacState(parse_variant({}))
    state.start_deal([["2"], ["9"], ["9"], ["9"]], dealer=3)
    for field in (65, 66, 67, 63, 72, 73, 74, 75):
        state.board[field] = 0 if field < 72 else 2
    state.board[30] = 1
    state.pre = [0, 3, 0, 4]
    state.apply(Play("2", MOVES, moves=((63, 64),)))
    return state


def test_no_action_is_applied_after_the_game_is_over() -> None:
    state = won_by_a_two()
    assert state.is_terminal() and state.outcome() == {"winners": [0, 2]}
    with pytest.raises(RecordError) as raised:
        state.apply(Play("9", DISCARD))
    assert (raised.value.code, raised.value.path, raised.value.message) == (
        ErrorCode.GAME_ALREADY_OVER, "", "The game is already over.")


# ---------------------------------------------------------------- a 7's home segment stays in the own home and moves
def seven_from_home(*segments: list[Any]) -> dict[str, Any]:
    # colour 0: H0:1 (not locked: H0:2-4 are empty) and field 30
    return record([["H0:1", 30], [], [], []], [["7"], ["9"], ["9"], ["9"]],
                  [{"seat": 0, "card": "7", "moves": [list(s) for s in segments]}])


def test_a_seven_moves_a_home_marble_only_within_its_own_home() -> None:
    # "Home marbles cannot be … moved out"; "Home segments may go either way": H0:1 -> H1:1 leaves the home
    assert error_of(seven_from_home(["H0:1", "H1:1"], [30, 33])) == (
        ErrorCode.ILLEGAL_MOVE, T + "0/moves/0", "No path of the 7 leads from H0:1 to H1:1.")
    # a segment from a field to itself moves nothing: it is no path either
    assert error_of(seven_from_home(["H0:1", "H0:1"], [30, 37])) == (
        ErrorCode.ILLEGAL_MOVE, T + "0/moves/0", "No path of the 7 leads from H0:1 to H0:1.")
    # 3 steps H0:1 -> H0:4 inside the home and 4 on the ring make the 7
    assert verdict(seven_from_home(["H0:1", "H0:4"], [30, 34])).valid


# ---------------------------------------------------------------- a deal ends when every hand is empty
def test_no_turn_follows_the_last_card_of_a_deal() -> None:
    # nobody has a marble out: each 9 has no use and is discarded; then the deal's four cards are gone
    turns = [{"seat": s, "card": "9", "discard": True} for s in range(4)]
    hands = [["9"], ["9"], ["9"], ["9"]]
    assert verdict(record([[], [], [], []], hands, turns)).valid
    extra = turns + [{"seat": 0, "card": "9", "discard": True}]
    assert error_of(record([[], [], [], []], hands, extra)) == (
        ErrorCode.WRONG_SEAT, T + "4", "Every hand of this deal is empty.")


# ---------------------------------------------------------------- the 7 enters the own home only
def test_a_seven_does_not_run_on_past_the_own_home_into_the_next_one() -> None:
    # colour 0's home is H0:1-4 (64-67); the next cell, 68, is seat 1's H1:1: 62 -> 63 -> 0 -> H0:1..H0:4 is 6
    # steps, one more would leave the home at its deep end
    doc = record([[62, 30], [], [], []], [["7"], ["9"], ["9"], ["9"]],
                 [{"seat": 0, "card": "7", "moves": [[62, "H1:1"]]}])
    assert error_of(doc) == (ErrorCode.ILLEGAL_MOVE, T + "0/moves/0", "No path of the 7 leads from 62 to H1:1.")
    doc["deals"][0]["turns"][0]["moves"] = [[62, "H0:4"], [30, 31]]
    assert verdict(doc).valid


# ---------------------------------------------------------------- entering: the Engel, and coop's named colour
def test_the_engel_enters_only_from_a_prefield_that_holds_a_marble() -> None:
    # seat 1, the left neighbour, has all four marbles on the ring: nothing to bring in
    doc = record([[10], [20, 40, 45, 50], [], []], [["engel"], ["9"], ["9"], ["9"]],
                 [{"seat": 0, "card": "engel", "enter": True}], master=True)
    assert error_of(doc) == (ErrorCode.ILLEGAL_MOVE, T + "0", "The Engel has no prefield marble to bring in.")


def test_in_coop_a_pair_at_home_names_the_colour_it_brings_in() -> None:
    # seats 0 and 2 have all 8 marbles home: seat 0 may bring in colour 1 (3 in its prefield) or 3 (4)
    home = [["H0:1", "H0:2", "H0:3", "H0:4"], [20], ["H2:1", "H2:2", "H2:3", "H2:4"], []]
    doc = record(home, [["1"], ["9"], ["9"], ["9"]], [{"seat": 0, "card": "1", "enter": True}])
    doc["variant"] = {"mode": "coop"}
    assert error_of(doc) == (
        ErrorCode.ILLEGAL_MOVE, T + "0/enter", "Seat 0 may bring in colours 1, 3: `enter` must name one.")
    doc["deals"][0]["turns"][0]["enter"] = 3
    assert verdict(doc).valid


# ---------------------------------------------------------------- random play: a 7 is one random split
def test_random_play_draws_one_seven_split_also_through_a_tac() -> None:
    """`gen` with an rng: "a 7 yields one random split instead of all of them (random play)"; most draws
    (85 %) move one marble all 7 fields, as players mostly do, the others come from the split search."""
    import random

    state = TacState(parse_variant({}))
    state.start_deal([["7", "tac"], ["9"], ["9"], ["7"]], dealer=2)
    for field, colour in ((10, 0), (20, 0), (30, 0), (50, 3)):
        state.board[field] = colour
    state.pre = [1, 4, 4, 3]
    state.apply(Play("7", MOVES, moves=((50, 57),)))  # seat 3: a played 7 (the TAC restores before it)
    played = state.clone()
    discarded = state.clone()
    discarded.history[-1] = Entry(None, "7", True)  # as if seat 3 had discarded its 7: nothing restored
    whole = splits = 0
    for seed in range(40):
        for position, card in ((played, "7"), (played, "tac"), (discarded, "tac")):
            plays = position.card_plays(0, card, False, random.Random(seed))
            assert len(plays) == 1, (seed, card)
            assert plays[0].as_ == (None if card == "7" else "7")  # a TAC's draw names what it borrows
            trial = position.clone()
            trial.apply(plays[0])  # a legal play
            if len(plays[0].moves) > 1:
                splits += 1
            elif (plays[0].moves[0][1] - plays[0].moves[0][0]) % 64 == 7:
                whole += 1
    # 120 draws: about 102 whole 7-field moves expected (108 here); the split search alone would give few
    # (its first step is a whole 7 for one of ~21 shuffled first steps), and some draws went through it
    assert whole > 80 and splits > 0


# ---------------------------------------------------------------- the state protocol refuses an unknown action
def test_apply_refuses_an_action_kind_the_rules_do_not_know() -> None:
    state = TacState(parse_variant({}))
    state.start_deal([["5"], ["9"], ["9"], ["9"]], dealer=3)
    state.board[10] = 0
    state.pre[0] = 3
    with pytest.raises(RecordError) as raised:
        state.apply(Play("5", "hop"))
    assert (raised.value.code, raised.value.path, raised.value.message) == (
        ErrorCode.ILLEGAL_MOVE, "", "Unexpected action hop.")


# ---------------------------------------------------------------- the trace marks locked home marbles
def test_the_trace_marks_home_marbles_locked_when_every_deeper_slot_is_occupied() -> None:
    # "Locked: all deeper slots of the home are occupied": a full home is locked down to H:1; H1:1 is not
    # locked while H1:2 is empty, H1:3 and H1:4 are
    state = TacState(parse_variant({}))
    for field in (64, 65, 66, 67):
        state.board[field] = 0
    for field in (68, 70, 71):
        state.board[field] = 1
    state.pre = [0, 1, 4, 4]
    assert snapshot(state)["locked"] == ["H0:1", "H0:2", "H0:3", "H0:4", "H1:3", "H1:4"]


# ---------------------------------------------------------------- wrong actions for a card
def test_the_narr_is_played_with_then_and_the_trickser_does_not_move() -> None:
    hands = [["narr", "trickser", "5"], ["9"], ["9"], ["9"]]
    narr = record([[10], [], [], []], hands, [{"seat": 0, "card": "narr", "moves": [[10, 11]]}], master=True)
    assert error_of(narr) == (ErrorCode.ILLEGAL_MOVE, T + "0", "The narr is played with `then`.")
    trickser = record([[10], [], [], []], hands, [{"seat": 0, "card": "trickser", "moves": [[10, 11]]}], master=True)
    assert error_of(trickser) == (ErrorCode.ILLEGAL_MOVE, T + "0/moves/0", "trickser does not move a marble.")


def test_a_card_not_in_the_hand_is_refused_at_the_card() -> None:
    doc = record([[10], [], [], []], [["9"], ["9"], ["9"], ["9"]], [{"seat": 0, "card": "5", "moves": [[10, 15]]}])
    assert error_of(doc) == (ErrorCode.CARD_NOT_IN_HAND, T + "0/card", "Seat 0 does not hold 5.")


def test_only_a_discarded_tac_may_name_its_function() -> None:
    # "a discarded `tac`: the function of the entry before it": seat 1's TAC carries the 9 seat 0 discarded
    # (no marble is out, so neither card has a use); a plain card borrows nothing, not even itself
    hands = [["9"], ["tac"], ["9"], ["9"]]
    discard_9 = {"seat": 0, "card": "9", "discard": True}
    assert verdict(record([[], [], [], []], hands, [discard_9, {"seat": 1, "card": "tac", "discard": True, "as": "9"}])).valid
    assert error_of(record([[], [], [], []], hands, [discard_9, {"seat": 1, "card": "tac", "discard": True, "as": "5"}])) == (
        ErrorCode.ILLEGAL_MOVE, T + "1/as", "A discarded card borrows no function.")
    assert error_of(record([[], [], [], []], hands, [{**discard_9, "as": "9"}])) == (
        ErrorCode.ILLEGAL_MOVE, T + "0/as", "A discarded card borrows no function.")


def test_a_tac_after_a_tac_discarded_first_in_the_deal_has_nothing_to_borrow() -> None:
    # "A `tac` may not be the first card of a deal": seat 0 can only discard it, and that entry carries no
    # function ("a discarded `tac`: the function of the entry before it", and there is none)
    hands = [["tac"], ["tac", "5"], ["9"], ["9"]]
    turns = [{"seat": 0, "card": "tac", "discard": True}, {"seat": 1, "card": "tac", "moves": [[20, 25]]}]
    assert error_of(record([[], [20], [], []], hands, turns)) == (
        ErrorCode.ILLEGAL_MOVE, T + "1", "There is no function before this TAC to borrow.")


# ---------------------------------------------------------------- the 7: end positions listed once, the home's deep end
def test_the_seven_is_listed_once_per_end_position() -> None:
    # marbles on 10 and 30: a fields for the first, 7 - a for the second (a = 0..7): 8 end positions, and no
    # home in reach (the start field 0 is 54 and 34 fields ahead)
    state = TacState(parse_variant({}))
    state.start_deal([["7"], ["9"], ["9"], ["9"]], dealer=3)
    state.board[10] = state.board[30] = 0
    state.pre[0] = 2
    plays = state.legal_actions()
    boards = set()
    for play in plays:
        trial = state.clone()
        trial.apply(play)
        boards.add(tuple(trial.board))
    assert len(plays) == len(boards) == 8


def test_a_whole_seven_reaches_the_deepest_home_slot() -> None:
    # from 61: 62, 63, 0 (3 steps to the start field), then H0:1..H0:4 (4 more): H0:4 is field 67; or 7 on
    # along the ring to field 4
    state = TacState(parse_variant({}))
    state.board[61] = 0
    assert sorted(state.seven_targets(61, 0, 7, frozenset())) == [4, 67]


# ---------------------------------------------------------------- the compulsory TAC: every answer listed
def test_every_tac_answer_to_a_winning_move_is_listed() -> None:
    state = TacState(parse_variant({}))
    state.start_deal([["2"], ["tac", "9"], ["9"], ["9"]], dealer=3)
    for field in (65, 66, 67, 63, 72, 73, 74, 75):
        state.board[field] = 0 if field < 72 else 2
    state.board[20] = state.board[30] = 1
    state.pre = [0, 2, 0, 4]
    state.apply(Play("2", MOVES, moves=((63, 64),)))  # team {0, 2} is home
    # seat 1's TAC borrows the 2 on the position before it: 20 -> 22 or 30 -> 32; that is all it may do
    assert state.must_tac and not state.over
    assert {(a.card, a.moves, a.as_) for a in state.legal_actions()} == {
        ("tac", ((20, 22),), "2"), ("tac", ((30, 32),), "2")}


# ---------------------------------------------------------------- equal states: the history's snapshots count
def test_states_differing_only_in_what_a_tac_would_restore_are_not_equal() -> None:
    state = TacState(parse_variant({}))
    state.start_deal([["tac"], ["9"], ["9"], ["5"]], dealer=2)
    state.board[50] = 3
    state.pre[3] = 3
    state.apply(Play("5", MOVES, moves=((50, 55),)))
    other = state.clone()
    assert other == state
    before = other.history[-1].snapshot
    assert before is not None
    moved = before[0][:]
    moved[50], moved[45] = -1, 3  # a TAC would bring the marble back to 45 instead of 50
    other.history[-1] = Entry((moved, before[1][:], before[2][:]), "5", False)
    assert other != state
