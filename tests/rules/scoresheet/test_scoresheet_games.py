"""Random games entered into a scoresheet one public entry at a time end in the same verified record.

`python -m rules random` games (every hidden fact known) are stripped to what a table sees: the
announcements and exchanges, then the turns. The sheet's record must verify valid and complete and give
the original result; 50 games per game family, every variant.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from rules.core.registry import get_engine
from rules.core.replay import verify_document
from rules.scoresheet import (
    EntryRefused,
    record_entries,
    sheet_add,
    sheet_record,
    sheet_start,
    sheet_view,
)
from rules.scoresheet import _rules as rules_for
from rules.scoresheet.sheet import Sheet
from tests.rules.scoresheet.scoresheet_support import same_result

VARIANTS: dict[str, list[dict[str, Any]]] = {
    "tac": [{}, {"master": True}, {"mode": "ffa3"}, {"mode": "2v1", "master": True}, {"mode": "coop"},
            {"mode": "coop", "master": True}, {"mode": "ffa3", "master": True}, {"mode": "2v1"}],
    "tock": [{}, {"seats": 2}, {"seats": 3}, {"mode": "teams"}, {"seats": 5, "quick_start": True},
             {"seats": 6, "mode": "teams", "seven": "single"}, {"seats": 6}],
    "tactik": [{}, {"seats": 6}],
}
GAMES_PER_FAMILY = 50






@pytest.mark.parametrize("game", sorted(VARIANTS))
def test_random_games_end_in_the_same_verified_record(game: str) -> None:
    engine = get_engine(game)
    variants = VARIANTS[game]
    for seed in range(GAMES_PER_FAMILY):
        variant = variants[seed % len(variants)]
        original = engine.random_record(variant, random.Random(seed))
        header = {"game": game, "variant": variant, "players": original["players"],
                  "dealer": original["deals"][0]["dealer"]}
        sheet = Sheet(header, rules_for(header))  # sheet_add's own path, without the per-call copy
        for entry in record_entries(original):
            sheet.add(entry)
        record = sheet.record()
        verdict = verify_document(record)
        assert verdict.valid and verdict.complete, (game, variant, seed, verdict.text_line())
        assert same_result(verdict.result, original["result"]), (game, variant, seed)
        # the hands the sheet reconstructed are the hands as dealt, for every deal played out
        for mine, theirs in zip(record["deals"][:-1], original["deals"][:-1], strict=True):
            assert [sorted(h) for h in mine["hands"]] == [sorted(h) for h in theirs["hands"]]


def _matches(entry: dict[str, Any], options: list[dict[str, Any]]) -> bool:
    """An entry is offered as is, or (a 7 or a TAC as 7) as the same split in fewer segments."""
    if entry in options:
        return True
    moves = entry.get("moves") or (entry.get("then") or {}).get("moves")
    return bool(moves) and len(moves) > 1 and any(o.get("card") == entry["card"] for o in options)


@pytest.mark.parametrize(("game", "variant", "seed"), [
    ("tac", {"master": True}, 3),
    ("tock", {"mode": "teams"}, 1),
    ("tactik", {}, 2),
])
def test_public_interface_offers_every_entry_of_a_game(game: str, variant: dict[str, Any], seed: int) -> None:
    original = get_engine(game).random_record(variant, random.Random(seed))
    state = sheet_start(game=game, variant=variant, players=original["players"],
                        dealer=original["deals"][0]["dealer"], meta={"event": "club night"})
    entries = record_entries(original)
    for k, entry in enumerate(entries[:160]):
        view = sheet_view(state)
        assert view.entries == k and not view.over
        if "announce" in entry:
            assert view.phase == "announce"
        elif "exchange" in entry:
            assert view.phase in ("announce", "exchange")
        else:
            assert view.phase in ("turn", "announce")
            assert view.seat == entry["seat"]
            assert _matches(entry, view.options), (k, entry)
        state = sheet_add(state, entry)
        assert sheet_view(state).last == entry
    record = sheet_record(state)
    verdict = verify_document(record)
    assert verdict.valid and not verdict.complete, verdict.text_line()
    assert record["meta"] == {"event": "club night"}


def test_every_master_card_with_its_follow_up_is_offered() -> None:
    """Narr and Teufel with their `then`, Engel, Krieger, Trickser pairs, the TAC, the 8's skip."""
    wanted = {"narr", "teufel", "engel", "krieger", "trickser", "tac", "skip"}
    seen: set[str] = set()
    for seed in range(40):
        if seen >= wanted:
            break
        original = get_engine("tac").random_record({"master": True}, random.Random(100 + seed))
        header = {"game": "tac", "variant": {"master": True}, "players": original["players"],
                  "dealer": original["deals"][0]["dealer"]}
        sheet = Sheet(header, rules_for(header))
        for entry in record_entries(original):
            card = entry.get("card")
            interesting = card in wanted or "skip" in entry
            if interesting and "discard" not in entry and not (
                card == "tac" and entry.get("as") == "7") and len(seen) < len(wanted):
                state = sheet.rules.to_move(sheet.state)
                assert state == entry["seat"]
                options = sheet.rules.options(sheet.state, entry["seat"])
                assert _matches(entry, options), entry
                seen.add("skip" if "skip" in entry else card)
            sheet.add(entry)
    assert seen >= wanted, wanted - seen


def test_a_wrong_entry_is_refused_and_changes_nothing() -> None:
    original = get_engine("tac").random_record({}, random.Random(5))
    state = sheet_start(game="tac", variant={}, players=original["players"],
                        dealer=original["deals"][0]["dealer"])
    for entry in record_entries(original)[:12]:
        state = sheet_add(state, entry)
    before = sheet_view(state)
    frozen = repr(state)
    seat = before.seat
    assert seat is not None
    with pytest.raises(EntryRefused) as refused:
        sheet_add(state, {"seat": (seat + 1) % 4, "card": "5", "moves": [[0, 5]]})
    assert refused.value.code == "wrong_seat"
    with pytest.raises(EntryRefused) as refused:
        sheet_add(state, {"seat": seat, "card": "5", "moves": [[0, 9]]})
    assert refused.value.code in ("illegal_move", "card_not_in_hand")
    with pytest.raises(EntryRefused) as refused:
        sheet_add(state, {"seat": seat, "card": "joker", "discard": True})
    assert refused.value.code == "unknown_card"
    assert repr(state) == frozen
    after = sheet_view(state)
    assert (after.entries, after.seat, after.options, after.snapshot) == (
        before.entries, before.seat, before.options, before.snapshot)


@pytest.mark.parametrize(("game", "variant", "seed"), [
    ("tac", {"mode": "coop", "master": True}, 2),
    ("tock", {"mode": "teams", "seven": "single"}, 3),
    ("tactik", {"seats": 6}, 4),
])
def test_every_offered_option_is_accepted(game: str, variant: dict[str, Any], seed: int) -> None:
    """Only entries that can be legal are offered (a rule of the whole hand waits for the deal's end)."""
    from rules.scoresheet.sheet import _copy

    original = get_engine(game).random_record(variant, random.Random(seed))
    header = {"game": game, "variant": variant, "players": original["players"],
              "dealer": original["deals"][0]["dealer"]}
    sheet = Sheet(header, rules_for(header))
    rng = random.Random(seed)
    for entry in record_entries(original)[:150]:
        if "seat" in entry:
            options = sheet.rules.options(sheet.state, entry["seat"])
            for option in rng.sample(options, min(len(options), 3)):
                trial = _copy(sheet)
                try:
                    trial.add(option)
                except EntryRefused as refused:
                    assert refused.code in ("must_play", "false_announcement"), (option, refused.message)
        sheet.add(entry)


def test_record_entries_are_the_inverse_of_sheet_record() -> None:
    """The entries of a record, entered on a sheet, give back the record's public part."""
    original = get_engine("tac").random_record({}, random.Random(7))
    state = sheet_start(game="tac", variant={}, players=original["players"], dealer=original["deals"][0]["dealer"])
    entries = record_entries(original)
    assert entries[0] == {"announce": original["deals"][0]["announce"]}
    for entry in entries:
        state = sheet_add(state, entry)
    assert record_entries(sheet_record(state)) == entries
