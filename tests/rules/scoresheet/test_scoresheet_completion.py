"""Every legal game finishes on the scoresheet, and an impossible entry is refused where it becomes so.

Random games (``python -m rules random``) are entered entry by entry with the hands hidden, exactly as a
table sees them (per deal the announcements, the exchange, then the turns): every one must be accepted
and end in a record that verifies valid and complete with the original's result. The fast sample runs in
the normal suite (40 games per family, with the games that once failed: TAC seeds 53 and 1400); the
`slow` run enters 10,000 per family (``SCORESHEET_GAMES`` changes the count):

    .venv/bin/pytest -m slow tests/rules/scoresheet/test_scoresheet_completion.py

The fuzz changes one entry of such a game and checks the sheet's verdict both ways: every prefix it
accepts can still be written as a valid record (so an impossibility is never reported late), and the
entry it refuses is refused also by the engine with the original hands (one of the possible deals), so
a refusal that those hands make legal (one too early) fails the test.
"""

from __future__ import annotations

import copy
import os
import random
from typing import Any

import pytest

from rules.core.registry import get_engine
from rules.core.replay import verify_document
from rules.scoresheet import EntryRefused, record_entries, sheet_record
from rules.scoresheet import _rules as rules_for
from rules.scoresheet.sheet import Sheet, _copy
from tests.rules.scoresheet.scoresheet_support import same_result

FAMILIES: dict[str, tuple[str, list[dict[str, Any]]]] = {
    "tac-basic": ("tac", [{}, {"mode": "ffa3"}, {"mode": "2v1"}, {"mode": "coop"}]),
    "tac-master": ("tac", [{"master": True}, {"mode": "ffa3", "master": True}, {"mode": "2v1", "master": True},
                           {"mode": "coop", "master": True}]),
    "tock": ("tock", [{}, {"seats": 2}, {"seats": 3}, {"mode": "teams"}, {"seats": 5, "quick_start": True},
                      {"seats": 6, "mode": "teams", "seven": "single"}, {"seats": 6}]),
    "tactik-4": ("tactik", [{}]),
    "tactik-6": ("tactik", [{"seats": 6}]),
}
FAST = 40
EXTRA = {"tac-basic": [53, 1400]}  # the seeds whose last deal the earlier search could not complete


def enter(game: str, variant: dict[str, Any], seed: int) -> str | None:
    """Enter one random game; None if it ends in the original's record, else what went wrong."""
    original = get_engine(game).random_record(variant, random.Random(seed))
    header = {"game": game, "variant": variant, "players": original["players"],
              "dealer": original["deals"][0]["dealer"]}
    sheet = Sheet(header, rules_for(header))
    try:
        for entry in record_entries(original):
            sheet.add(entry)
        record = sheet.record()
    except EntryRefused as err:
        return f"refused entry {err.turn}: {err.code}: {err.message}"
    verdict = verify_document(record)
    if not (verdict.valid and verdict.complete):
        return verdict.text_line()
    if not same_result(verdict.result, original["result"]):
        return f"result {verdict.result} instead of {original['result']}"
    return None


def seeds_for(family: str, count: int) -> list[int]:
    return [*EXTRA.get(family, []), *range(count)]


@pytest.mark.parametrize("family", sorted(FAMILIES))
def test_random_games_all_finish(family: str) -> None:
    game, variants = FAMILIES[family]
    failed = []
    for seed in seeds_for(family, FAST):
        variant = variants[seed % len(variants)]
        problem = enter(game, variant, seed)
        if problem is not None:
            failed.append((variant, seed, problem))
    assert not failed


@pytest.mark.slow
@pytest.mark.timeout(0)
@pytest.mark.parametrize("family", sorted(FAMILIES))
def test_ten_thousand_random_games_all_finish(family: str) -> None:
    game, variants = FAMILIES[family]
    count = int(os.environ.get("SCORESHEET_GAMES", "10000"))
    failed = []
    for seed in seeds_for(family, count):
        variant = variants[seed % len(variants)]
        problem = enter(game, variant, seed)
        if problem is not None:
            failed.append((variant, seed, problem))
    assert not failed, failed[:20]


# ---------------------------------------------------------------------- the fuzz: one entry changed
def mutate(entries: list[dict[str, Any]], deck: list[str], rng: random.Random) -> tuple[int, list[dict[str, Any]]]:
    """One entry changed the way a scorer slips: another card, a flipped announcement, another
    exchanged card, a discard instead of a play."""
    while True:
        i = rng.randrange(len(entries))
        entry = copy.deepcopy(entries[i])
        if "announce" in entry:
            seats = [s for s, v in enumerate(entry["announce"]) if isinstance(v, bool)]
            s = rng.choice(seats)
            entry["announce"][s] = not entry["announce"][s]
        elif "exchange" in entry:
            seats = [s for s, v in enumerate(entry["exchange"]) if v is not None]
            if not seats:
                continue
            entry["exchange"][rng.choice(seats)] = rng.choice(deck)
        elif "discard" in entry or rng.random() < 0.6:
            entry = {"seat": entry["seat"], "card": rng.choice(deck), "discard": True}
        else:
            entry["card"] = rng.choice(deck)  # the same action with another card
        if entry != entries[i]:
            out = entries[:i] + [entry] + entries[i + 1 :]
            return i, out


def prefix_record(original: dict[str, Any], entries: list[dict[str, Any]]) -> dict[str, Any]:
    """The record of `entries` with the original's hands (full information), cut where they stop."""
    doc = {k: v for k, v in original.items() if k not in ("deals", "result")}
    deals = []
    left = list(entries)
    for deal in original["deals"]:
        if not left:
            break
        out = {k: deal[k] for k in deal if k not in ("announce", "exchange", "turns")}
        if "announce" in deal and left and "announce" in left[0]:
            out["announce"] = left.pop(0)["announce"]
        if "exchange" in deal and left and "exchange" in left[0]:
            out["exchange"] = left.pop(0)["exchange"]
        out["turns"] = []
        while left and len(out["turns"]) < len(deal["turns"]):
            out["turns"].append(left.pop(0))
        deals.append(out)
    doc["deals"] = deals
    return doc


FUZZ = [("tac", {}), ("tac", {"master": True}), ("tac", {"mode": "ffa3"}), ("tock", {"mode": "teams"}),
        ("tactik", {})]


@pytest.mark.parametrize(("game", "variant"), FUZZ)
def test_a_changed_entry_is_refused_where_it_becomes_impossible(game: str, variant: dict[str, Any]) -> None:
    rng = random.Random(2027)
    refused_somewhere = 0
    for seed in range(int(os.environ.get("SCORESHEET_FUZZ", "12"))):
        original = get_engine(game).random_record(variant, random.Random(seed))
        entries = record_entries(original)
        header = {"game": game, "variant": variant, "players": original["players"],
                  "dealer": original["deals"][0]["dealer"]}
        deck = sorted(rules_for(header).deck)
        at, changed = mutate(entries, deck, rng)
        sheet = Sheet(header, rules_for(header))
        for entry in changed[:at]:
            sheet.add(entry)
        refused: EntryRefused | None = None
        j = at
        for j in range(at, len(changed)):
            trial = _copy(sheet)
            try:
                trial.add(changed[j])
            except EntryRefused as err:
                refused = err
                break
            sheet = trial
            # accepted: the entries so far can still be written as a valid record (never reported late)
            if j < at + 40:
                doc = sheet.record()
                verdict = verify_document(doc)
                assert verdict.valid, (game, variant, seed, at, j, verdict.text_line())
        if refused is None:
            continue
        refused_somewhere += 1
        assert refused.turn == j, (seed, refused.code, refused.message)
        # not too early: with the original hands the same entries are refused as well
        doc = prefix_record(original, changed[: j + 1])
        verdict = verify_document(doc)
        assert not verdict.valid, (game, variant, seed, at, j, refused.code, refused.message)
    assert refused_somewhere >= 3


def test_finish_never_refuses_what_the_sheet_accepted() -> None:
    # the state API end to end for the two games that once failed
    from rules.scoresheet import sheet_add, sheet_start

    for seed in (53, 1400):
        original = get_engine("tac").random_record({}, random.Random(seed))
        state = sheet_start(game="tac", variant={}, players=original["players"],
                            dealer=original["deals"][0]["dealer"])
        for entry in record_entries(original):
            state = sheet_add(state, entry)
        verdict = verify_document(sheet_record(state))
        assert verdict.valid and verdict.complete and same_result(verdict.result, original["result"])
