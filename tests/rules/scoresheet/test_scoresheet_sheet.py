"""The scoresheet's phases, undo, hidden-card checks at the entry that makes them certain, corrections, the deck cycle and time-up."""

from __future__ import annotations

import random
from typing import Any

import pytest

from rules.core.registry import get_engine
from rules.core.replay import verify_document
from rules.scoresheet import (
    SUPPORTED_GAMES,
    EntryRefused,
    sheet_add,
    sheet_record,
    sheet_start,
    sheet_undo,
    sheet_view,
)

FOUR = [{"name": n, "seats": [s]} for s, n in enumerate(["Anna", "Ben", "Cleo", "Dan"])]
THREE = FOUR[:3]


def feed(state: dict[str, Any], entries: list[dict[str, Any]]) -> dict[str, Any]:
    for entry in entries:
        state = sheet_add(state, entry)
    return state


def test_supported_games_and_bad_starts() -> None:
    assert frozenset({"tac", "tock", "tactik"}) == SUPPORTED_GAMES
    with pytest.raises(EntryRefused) as refused:
        sheet_start(game="taki", variant={}, players=FOUR, dealer=0)
    assert refused.value.code == "unsupported_format"
    with pytest.raises(EntryRefused) as refused:
        sheet_start(game="tac", variant={"mode": "duel"}, players=FOUR, dealer=0)
    assert refused.value.code == "bad_variant"
    with pytest.raises(EntryRefused) as refused:
        sheet_start(game="tac", variant={"mode": "ffa3"}, players=THREE, dealer=3)
    assert refused.value.code == "malformed"


def test_phases_of_a_tac_deal() -> None:
    state = sheet_start(game="tac", variant={}, players=FOUR, dealer=3)
    view = sheet_view(state)
    assert (view.phase, view.deal, view.seat, view.over, view.last) == ("announce", 0, None, False, None)
    assert view.options[0] == {"announce": [False, False, False, False]}
    assert "exchange" in view.options[1]
    state = sheet_add(state, {"announce": [True, True, True, True]})
    view = sheet_view(state)
    assert view.phase == "exchange" and view.seat is None
    with pytest.raises(EntryRefused) as refused:
        sheet_add(state, {"seat": 0, "card": "1", "enter": True})
    assert refused.value.code == "bad_exchange"
    state = sheet_add(state, {"exchange": ["9", "2", "3", "5"]})
    view = sheet_view(state)
    assert (view.phase, view.seat) == ("turn", 0)
    assert {"seat": 0, "card": "1", "enter": True} in view.options
    assert {"seat": 0, "card": "3", "discard": True} in view.options  # the hidden hand may hold no 1/13
    assert {"seat": 0, "card": "5", "discard": True} in view.options  # seat 0 holds 3 and 5 (exchange)
    assert view.snapshot["kind"] == "marbles" and view.snapshot["hand_sizes"] == [5, 5, 5, 5]
    assert view.snapshot["hands"][0] == ["3"]  # what is known: seat 2's exchanged card


def test_exchange_errors() -> None:
    state = sheet_start(game="tac", variant={}, players=FOUR, dealer=3)
    for bad, code in (
        ({"exchange": ["9", "2", "3"]}, "malformed"),
        ({"exchange": ["9", None, "3", "5"]}, "bad_exchange"),
        ({"exchange": ["9", "2", "3", "ace"]}, "unknown_card"),
        ({"exchange": ["9"], "announce": [True]}, "malformed"),
    ):
        with pytest.raises(EntryRefused) as refused:
            sheet_add(state, bad)
        assert refused.value.code == code, bad
    ffa = sheet_start(game="tac", variant={"mode": "ffa3"}, players=THREE, dealer=2)
    with pytest.raises(EntryRefused) as refused:
        sheet_add(ffa, {"exchange": ["9", "2", "3"]})
    assert refused.value.code == "bad_exchange"


# ffa3 (no exchange), dealer 2: seat 0 discards a 5 while holding a 1 that could enter
MUST_PLAY_DEAL = [
    {"seat": 0, "card": "5", "discard": True},
    {"seat": 1, "card": "5", "discard": True},
    {"seat": 2, "card": "5", "discard": True},
    {"seat": 0, "card": "1", "enter": True},
    {"seat": 1, "card": "2", "discard": True},
    {"seat": 2, "card": "2", "discard": True},
    {"seat": 0, "card": "2", "moves": [[0, 2]]},
    {"seat": 1, "card": "3", "discard": True},
    {"seat": 2, "card": "3", "discard": True},
    {"seat": 0, "card": "3", "moves": [[2, 5]]},
    {"seat": 1, "card": "6", "discard": True},
    {"seat": 2, "card": "6", "discard": True},
    {"seat": 0, "card": "6", "moves": [[5, 11]]},
    {"seat": 1, "card": "9", "discard": True},
]


def test_must_play_is_refused_when_the_held_card_is_seen() -> None:
    state = sheet_start(game="tac", variant={"mode": "ffa3"}, players=THREE, dealer=2)
    state = feed(state, MUST_PLAY_DEAL[:3])  # each entry is possible whatever the hidden cards
    # seat 0 discarded a 5 while a 1 could have entered: the 1 it plays now was in its hand then
    with pytest.raises(EntryRefused) as refused:
        sheet_add(state, MUST_PLAY_DEAL[3])
    assert refused.value.code == "must_play"
    assert refused.value.turn == 3  # the entry that makes it certain, not later
    assert "Seat 0 discarded 5 (entry 0) although it held 1" in refused.value.message
    assert refused.value.params == {"reason": "held_usable", "seat": 0, "card": "1", "discarded": "5",
                                    "entry": 0}
    # before the 1 is seen, the record completes seat 0's hand so that the discard was legal
    record = sheet_record(state)
    assert verify_document(record).valid
    assert not {"1", "13"} & set(record["deals"][0]["hands"][0])


def test_a_known_usable_card_forbids_the_discard_at_once() -> None:
    state = sheet_start(game="tac", variant={"mode": "ffa3"}, players=THREE, dealer=2)
    state = feed(state, [{"seat": 0, "card": "1", "enter": True}, *MUST_PLAY_DEAL[1:3]])  # seat 0 entered
    with pytest.raises(EntryRefused) as refused:
        sheet_add(state, {"seat": 0, "card": "2", "discard": True})  # the 2 itself could move
    assert refused.value.code == "must_play"


def test_a_no_that_plays_a_1_is_refused_at_once() -> None:
    state = sheet_start(game="tac", variant={"mode": "ffa3"}, players=THREE, dealer=2)
    state = sheet_add(state, {"announce": [False, True, True]})
    with pytest.raises(EntryRefused) as refused:
        sheet_add(state, {"seat": 0, "card": "1", "enter": True})
    assert (refused.value.code, refused.value.turn) == ("false_announcement", 1)
    assert refused.value.params["seat"] == 0 and refused.value.params["card"] == "1"


def test_a_yes_that_discards_with_a_full_prefield_breaks_must_play_at_once() -> None:
    state = sheet_start(game="tac", variant={"mode": "ffa3"}, players=THREE, dealer=2)
    state = sheet_add(state, {"announce": [True, True, False]})
    state = sheet_add(state, {"seat": 0, "card": "1", "enter": True})
    # seat 1 said "ich kann" and has shown no 1 or 13: it holds one, and a discard is refused
    with pytest.raises(EntryRefused) as refused:
        sheet_add(state, {"seat": 1, "card": "5", "discard": True})
    assert (refused.value.code, refused.value.turn) == ("must_play", 2)
    assert refused.value.params == {"reason": "must_hold_usable", "seat": 1, "card": "5", "cards": ["1", "13"]}


def test_false_announcement_when_the_cycle_has_no_opening_card_left() -> None:
    # every 1 and 13 of the cycle is seen elsewhere: the "yes" of seat 1 is impossible at that entry
    state = sheet_start(game="tac", variant={"mode": "ffa3"}, players=THREE, dealer=2)
    state = sheet_add(state, {"announce": [True, True, False]})
    state = sheet_add(state, {"seat": 0, "card": "1", "enter": True})
    sheet = _sheet(state)
    for card in ("1", "13"):  # as if the rest were out elsewhere (a white-box shortcut)
        sheet.cycle.seen[card] = sheet.cycle.deck[card]
    with pytest.raises(EntryRefused) as refused:
        sheet._check(1)
    assert refused.value.code == "false_announcement" and refused.value.params["seat"] == 1


def _sheet(state: dict[str, Any]) -> Any:
    from rules.scoresheet import _load

    return _load(state)


def test_a_card_beyond_the_deck_cycle_is_refused_at_once() -> None:
    state = sheet_start(game="tac", variant={}, players=FOUR, dealer=3)
    state = sheet_add(state, {"exchange": ["trickser"] * 4})
    for seat in (0, 1, 2, 3, 0, 1, 2):  # 4 exchanged + 3 hidden = all 7 Tricksers
        state = sheet_add(state, {"seat": seat, "card": "trickser", "discard": True})
    with pytest.raises(EntryRefused) as refused:
        sheet_add(state, {"seat": 3, "card": "trickser", "discard": True})
    assert refused.value.code in ("deck_mismatch", "card_not_in_hand")
    assert "trickser" in refused.value.message


def test_undo_across_a_deal_boundary() -> None:
    original = get_engine("tac").random_record({}, random.Random(11))
    first, second = original["deals"][0], original["deals"][1]
    state = sheet_start(game="tac", variant={}, players=original["players"], dealer=first["dealer"])
    state = feed(state, [{"announce": first["announce"]}, {"exchange": first["exchange"]}, *first["turns"]])
    closed = sheet_view(state)
    assert closed.phase == "announce" and closed.deal == 1
    state2 = sheet_add(state, {"announce": second["announce"]})
    assert sheet_view(state2).phase == "exchange"
    back = sheet_undo(sheet_undo(state2))
    view = sheet_view(back)
    assert (view.phase, view.deal, view.seat) == ("turn", 0, first["turns"][-1]["seat"])
    assert first["turns"][-1] in view.options or "moves" in first["turns"][-1]
    again = feed(back, [first["turns"][-1], {"announce": second["announce"]}])
    assert again["entries"] == state2["entries"]
    # a fresh process (no cache) reads the same state
    import rules.scoresheet as api
    from rules.scoresheet import sheet as sheet_module

    before = sheet_view(state2)
    sheet_module._CACHE.clear()
    api._VIEWS.clear()
    after = sheet_view(again)
    assert (after.snapshot, after.options, after.phase) == (before.snapshot, before.options, before.phase)
    empty = sheet_start(game="tac", variant={}, players=FOUR, dealer=0)
    with pytest.raises(EntryRefused) as refused:
        sheet_undo(empty)
    assert refused.value.code == "nothing_to_undo"


def test_time_up_and_partial_records() -> None:
    original = get_engine("tock").random_record({"mode": "teams"}, random.Random(2))
    state = sheet_start(game="tock", variant={"mode": "teams"}, players=original["players"],
                        dealer=original["deals"][0]["dealer"])
    entries = [{"exchange": original["deals"][0]["exchange"]}, *original["deals"][0]["turns"][:7]]
    state = feed(state, entries)
    partial = sheet_record(state)
    verdict = verify_document(partial)
    assert verdict.valid and not verdict.complete and "result" not in partial
    timed = sheet_record(state, time_up=True)
    assert timed["result"]["termination"] == "adjudication"
    verdict = verify_document(timed)
    assert verdict.valid and not verdict.complete


def test_game_over_refuses_further_entries() -> None:
    original = get_engine("tock").random_record({"seats": 2}, random.Random(4))
    state = sheet_start(game="tock", variant={"seats": 2}, players=original["players"],
                        dealer=original["deals"][0]["dealer"])
    for deal in original["deals"]:
        state = feed(state, deal["turns"])
    view = sheet_view(state)
    assert view.over and view.phase == "over" and view.winners == original["result"]["winners"]
    assert view.options == [] and view.snapshot["over"]
    with pytest.raises(EntryRefused) as refused:
        sheet_add(state, {"seat": 0, "card": "A", "discard": True})
    assert refused.value.code == "game_already_over"
    record = sheet_record(state)
    assert verify_document(record).complete


def test_a_sheet_from_a_setup_with_the_compulsory_tac() -> None:
    setup = {
        "marbles": [[62, "H0:2", "H0:3", "H0:4"], [20], ["H2:1", "H2:2", "H2:3", "H2:4"], []],
        "hands": [["3"], ["tac", "5"], ["9"], ["9"]],
        "dealer": 3,
        "to_move": 0,
    }
    state = sheet_start(game="tac", variant={}, players=FOUR, dealer=3, setup=setup)
    view = sheet_view(state)
    assert (view.phase, view.seat) == ("turn", 0)
    state = sheet_add(state, {"seat": 0, "card": "3", "moves": [[62, "H0:1"]]})
    view = sheet_view(state)
    assert (view.phase, view.seat, view.over) == ("turn", 1, False)  # seat 1 holds a TAC: it must answer
    assert view.options == [{"seat": 1, "card": "tac", "as": "3", "moves": [[20, 23]]}]
    state = sheet_add(state, view.options[0])
    record = sheet_record(state)
    assert record["setup"] == setup and "hands" not in record["deals"][0]
    assert verify_document(record).valid
    with pytest.raises(EntryRefused) as refused:
        sheet_start(game="tac", variant={}, players=FOUR, dealer=3, setup={"hands": [], "dealer": 3})
    assert refused.value.code == "malformed"


def test_a_winning_move_nobody_can_answer_ends_the_game() -> None:
    setup = {
        "marbles": [[62, "H0:2", "H0:3", "H0:4"], [20], ["H2:1", "H2:2", "H2:3", "H2:4"], []],
        "hands": [["3", "9"], ["5", "9"], ["9", "9"], ["9", "9"]],
        "dealer": 3,
    }
    state = sheet_start(game="tac", variant={}, players=FOUR, dealer=3, setup=setup)
    state = sheet_add(state, {"seat": 0, "card": "3", "moves": [[62, "H0:1"]]})
    view = sheet_view(state)
    assert view.over and view.winners == [0, 2] and view.options == []
    record = sheet_record(state)
    verdict = verify_document(record)
    assert verdict.complete and verdict.result == {"winners": [0, 2]}


# ---------------------------------------------------------------------- corrections in place
def _tac_deal(seed: int = 11) -> tuple[dict[str, Any], dict[str, Any]]:
    original = get_engine("tac").random_record({}, random.Random(seed))
    state = sheet_start(game="tac", variant={}, players=original["players"],
                        dealer=original["deals"][0]["dealer"])
    return original, state


def test_an_announcement_is_corrected_in_place_and_the_deal_checked_again() -> None:
    from rules.scoresheet import sheet_correct

    original, state = _tac_deal()
    first = original["deals"][0]
    truth = first["announce"]
    wrong = [not truth[0], *truth[1:]]
    state = sheet_add(state, {"announce": wrong})
    state = sheet_add(state, {"exchange": first["exchange"]})
    played = 0
    for turn in first["turns"][:6]:
        try:
            state = sheet_add(state, turn)
            played += 1
        except EntryRefused as err:  # the wrong announcement showed: correct it, then go on
            assert err.code in ("false_announcement", "must_play")
            break
    fixed = sheet_correct(state, {"announce": truth})
    assert fixed["entries"][0] == {"announce": truth}
    assert fixed["entries"][1:] == state["entries"][1:]  # the exchange and the turns are kept
    assert len(fixed["entries"]) == 2 + played
    assert state["entries"][0] == {"announce": wrong}  # the state passed in is unchanged
    for turn in first["turns"][played:]:
        fixed = sheet_add(fixed, turn)
    assert sheet_view(fixed).deal == 1


def test_a_correction_that_breaks_a_later_entry_is_refused_naming_it() -> None:
    from rules.scoresheet import sheet_correct

    original, state = _tac_deal()
    first = original["deals"][0]
    state = feed(state, [{"announce": first["announce"]}, {"exchange": first["exchange"]}])
    opening = next((i for i, t in enumerate(first["turns"]) if t["card"] in ("1", "13")), None)
    assert opening is not None
    state = feed(state, first["turns"][: opening + 1])
    seat = first["turns"][opening]["seat"]
    said = list(first["announce"])
    said[seat] = False
    received = first["exchange"][(seat + 2) % 4] in ("1", "13")
    with pytest.raises(EntryRefused) as refused:
        sheet_correct(state, {"announce": said})
    if not received:
        assert refused.value.code == "false_announcement"
        assert refused.value.turn == 2 + opening  # the 1 or 13 that seat played, not the correction
        assert refused.value.params["corrected"] == 0


def test_nothing_to_correct() -> None:
    from rules.scoresheet import sheet_correct

    _, state = _tac_deal()
    for bad, code in (({"announce": [True] * 4}, "nothing_to_correct"), ({"seat": 0, "card": "1"}, "malformed")):
        with pytest.raises(EntryRefused) as refused:
            sheet_correct(state, bad)
        assert refused.value.code == code


def test_an_all_null_exchange_in_three_player_tac_is_accepted_and_validates() -> None:
    original = get_engine("tac").random_record({"mode": "ffa3"}, random.Random(5))
    state = sheet_start(game="tac", variant={"mode": "ffa3"}, players=original["players"],
                        dealer=original["deals"][0]["dealer"])
    first = original["deals"][0]
    nulls = [None] * len(first["hands"])
    state = sheet_add(state, {"exchange": nulls})
    assert sheet_view(state).phase == "turn"
    state = feed(state, first["turns"][:3])
    record = sheet_record(state)
    assert record["deals"][0]["exchange"] == nulls
    assert verify_document(record).valid
    with pytest.raises(EntryRefused) as refused:  # a card given in a mode without partners is refused
        sheet_add(sheet_start(game="tac", variant={"mode": "ffa3"}, players=original["players"],
                              dealer=original["deals"][0]["dealer"]), {"exchange": ["9", None, None, None]})
    assert refused.value.code == "bad_exchange"
