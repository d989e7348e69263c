"""The replay trace (rules.core.trace): same verdicts as verify_document, one step per deal and action."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest

from rules.core.engine import ReplayOutcome
from rules.core.pointer import is_within, resolve
from rules.core.registry import get_engine
from rules.core.replay import verify_bytes, verify_document
from rules.core.trace import Step, final_snapshot, trace_bytes, trace_document

RECORDS = Path(__file__).resolve().parents[1] / "records"
GAMES = ("tac", "tactik", "tock", "taki", "zack")
CORPUS = sorted(p for g in GAMES for p in (RECORDS / g).glob("*.json"))
COMMON_KEYS = {"game", "kind", "seats", "to_move", "over", "winners", "hands"}
KIND_KEYS = {
    "marbles": {
        "ring",
        "starts",
        "teams",
        "active",
        "marbles",
        "prefield",
        "fresh",
        "locked",
        "home_count",
        "dealer",
        "deal",
        "last",
    },
    "taki": {
        "discard_top",
        "discard_count",
        "stock_count",
        "direction",
        "lead_color",
        "open_taki",
        "pending_draw",
        "finished",
    },
    "zack": {"colours", "bowl", "stacks", "collected", "obliged"},
}
ACTION_LISTS = ("turns", "events")


def _expected_step_count(doc: dict[str, Any]) -> int:
    """1 start + one per dealt deal (not deals[0] under a setup) + one per top-level action."""
    count = 1
    for i, deal in enumerate(doc["deals"]):
        if not (i == 0 and "setup" in doc):
            count += 1
        count += sum(len(deal.get(key, [])) for key in ACTION_LISTS)
    return count


def _check_snapshot(snap: dict[str, Any], game: str) -> None:
    assert json.loads(json.dumps(snap)) == snap  # JSON-serialisable, no tuples or sets
    assert snap.keys() >= COMMON_KEYS
    assert snap["game"] == game
    assert KIND_KEYS[snap["kind"]] <= snap.keys()
    assert len(snap["hands"]) == snap["seats"]
    if snap["kind"] == "marbles":
        per = snap["marbles_per_seat"]
        for s in range(snap["seats"]):
            tokens = snap["marbles"][s]
            homes = [t for t in tokens if isinstance(t, str)]
            assert all(t.startswith(f"H{s}:") for t in homes)
            assert snap["home_count"][s] == len(homes)
            want = per if s in snap["active"] else 0
            assert len(tokens) + snap["prefield"][s] == want, (s, snap)
        occupied = [t for tokens in snap["marbles"] for t in tokens]
        assert len(occupied) == len(set(occupied))
        assert all(f in occupied for f in snap["fresh"])
        assert all(t in occupied for t in snap["locked"])


@pytest.mark.parametrize("path", CORPUS, ids=[f"{p.parent.name}/{p.stem}" for p in CORPUS])
def test_corpus_trace_matches_verdict(path: Path) -> None:
    data = path.read_bytes()
    doc = json.loads(data)
    game = doc.get("game")
    trace = trace_bytes(data, file=path.name)
    verdict = verify_bytes(data, file=path.name)
    assert trace.verdict.to_json() == verdict.to_json()
    assert not trace.truncated
    assert [s.index for s in trace.steps] == list(range(len(trace.steps)))
    for step in trace.steps:
        _check_snapshot(step.snapshot, game)
    if verdict.valid:
        assert len(trace.steps) == _expected_step_count(doc)
        assert trace.steps[-1].snapshot["over"] == verdict.complete or "result" in doc
        if verdict.complete:
            assert trace.steps[-1].snapshot["over"] is True
            assert trace.steps[-1].snapshot["winners"] == sorted(verdict.result["winners"])  # type: ignore[index]
        assert trace.failed_action is None
        assert final_snapshot(doc) == trace.steps[-1].snapshot
    else:
        assert verdict.error is not None
        assert final_snapshot(doc) is None
        parts = verdict.error.path.split("/")
        if len(parts) >= 5 and parts[1] == "deals" and parts[3] in ACTION_LISTS:
            action_path = "/".join(parts[:5])
            assert trace.failed_action == resolve(doc, action_path)
            # every step before the failed action is there, and it is not
            assert trace.steps, path.name
            assert not is_within(trace.steps[-1].path, action_path)
            assert trace.steps[-1].path != action_path
            # the failing action is the next one after the last step
            assert len(trace.steps) == _steps_before(doc, action_path)
        elif parts[1:3] == ["setup", "last"]:
            assert trace.failed_action == doc["setup"]["last"]  # the marble games' already-applied `last`
        else:
            assert trace.failed_action is None


def _steps_before(doc: dict[str, Any], action_path: str) -> int:
    """How many steps precede the action at action_path (/deals/i/<list>/j)."""
    _, _, i_raw, _, j_raw = action_path.split("/")
    i, j = int(i_raw), int(j_raw)
    count = 1
    for k, deal in enumerate(doc["deals"][: i + 1]):
        if not (k == 0 and "setup" in doc):
            count += 1
        if k < i:
            count += sum(len(deal.get(key, [])) for key in ACTION_LISTS)
    return count + j


def test_corpus_covers_every_game() -> None:
    for game in GAMES:
        assert len(list((RECORDS / game).glob("*.json"))) >= 20, game


def _random_records(game: str, variants: list[dict[str, Any]], count: int) -> list[dict[str, Any]]:
    engine = get_engine(game)
    out = []
    for k in range(count):
        rng = random.Random(f"trace-{game}-{k}")
        out.append(engine.random_record(variants[k % len(variants)], rng))
    return out


RANDOM = {
    "tac": [{}, {"master": True}, {"mode": "ffa3"}, {"mode": "2v1", "master": True}, {"mode": "coop"}],
    "tactik": [{}, {"seats": 6}],
    "tock": [{}, {"seats": 3}, {"seats": 6, "mode": "teams"}, {"seats": 4, "seven": "single"}],
    "taki": [{"seats": 2}, {"seats": 4}, {"seats": 3, "tournament": True}],
    "zack": [
        {"seats": 3, "colors": ["red", "blue", "green"]},
        {"seats": 5, "colors": ["red", "blue", "green", "yellow", "orange"], "stop_cards": True},
    ],
}


@pytest.mark.parametrize("game", GAMES)
def test_random_games_trace(game: str) -> None:
    for doc in _random_records(game, RANDOM[game], 6):
        trace = trace_document(doc)
        verdict = verify_document(doc)
        assert verdict.valid, verdict.text_line()
        assert trace.verdict.to_json() == verdict.to_json()
        assert len(trace.steps) == _expected_step_count(doc)
        last = trace.steps[-1].snapshot
        assert last["over"] == verdict.complete
        prev: Step | None = None
        for step in trace.steps:
            snap = step.snapshot
            _check_snapshot(snap, game)
            if step.kind == "action":
                assert step.action is not None
                assert step.seat == step.action.get("seat")
                assert step.label.startswith(f"Seat {step.seat}")
                assert snap["last"] is not None and snap["last"]["seat"] == step.seat
                assert prev is not None
                _check_action_effect(prev.snapshot, snap, step.action, step.label)
            else:
                assert step.action is None and step.seat is None
            prev = step
        assert final_snapshot(doc) == last


def _check_action_effect(
    before: dict[str, Any], after: dict[str, Any], action: dict[str, Any], label: str
) -> None:
    """What one plain action visibly does to the snapshot."""
    if after["kind"] == "marbles":
        if "then" in action:
            return  # a Narr or Teufel moves two cards and may rotate every hand
        cards_before = sum(len(h) for h in before["hands"])
        assert sum(len(h) for h in after["hands"]) == cards_before - 1, label
        moves = action.get("moves")
        if isinstance(moves, list) and len(moves) == 1:
            occupied = [t for tokens in after["marbles"] for t in tokens]
            assert moves[0][1] in occupied, label  # the marble stands where the record moved it
        if action.get("enter") is True and action.get("card") != "tac":  # a TAC first restores
            # a prefield marble enters (the seat's, its partner's, or the Engel's target colour) and is fresh;
            # it may capture one marble back into a prefield
            assert sum(after["prefield"]) - sum(before["prefield"]) in (-1, 0), label
            assert after["fresh"], label
    elif after["kind"] == "taki":
        seat = action["seat"]
        if action.get("play") and not action.get("draw") and not after["over"]:
            # cards leave the hand; penalties (last card, +3, breaker) only ever add 3 or 4
            assert (
                after["discard_count"] >= before["discard_count"] + 1
                or after["stock_count"] > before["stock_count"]
            ), label
        total = sum(len(h) for h in after["hands"]) + after["discard_count"] + after["stock_count"]
        assert total == sum(len(h) for h in before["hands"]) + before["discard_count"] + before["stock_count"]
        assert seat in range(after["seats"])
    else:
        cards_after = sum(len(s) for s in after["stacks"]) + len(after["bowl"])
        cards_before = sum(len(s) for s in before["stacks"]) + len(before["bowl"])
        assert cards_after == cards_before, label  # ZACK! cards never leave the table
        if action.get("event") == "throw" and not action.get("after"):
            seat = action["seat"]
            assert len(after["stacks"][seat]) == len(before["stacks"][seat]) - 1, label
            assert after["bowl"][-1]["seat"] == seat, label
        if action.get("event") == "challenge":
            assert after["bowl"] == [], label
            # the loser takes the whole bowl (the `after` cards go back to their throwers instead)
            assert sum(after["collected"]) - sum(before["collected"]) == len(before["bowl"]), label
            assert after["obliged"] is not None


def test_trace_to_json_round_trips() -> None:
    doc = _random_records("taki", RANDOM["taki"], 1)[0]
    trace = trace_document(doc)
    data = json.loads(json.dumps(trace.to_json()))
    assert data["verdict"] == verify_document(doc).to_json()
    assert [s["snapshot"] for s in data["steps"]] == [s.snapshot for s in trace.steps]
    assert data["steps"][1]["kind"] == "deal" and data["steps"][2]["action"] == doc["deals"][0]["turns"][0]


def test_max_steps_truncates_but_keeps_the_verdict() -> None:
    doc = _random_records("tac", [{}], 1)[0]
    full = trace_document(doc)
    cut = trace_document(doc, max_steps=10)
    assert cut.truncated and not full.truncated
    assert [s.snapshot for s in cut.steps] == [s.snapshot for s in full.steps[:10]]
    assert cut.verdict.to_json() == full.verdict.to_json()


def test_tac_narr_then_is_one_step_and_labelled() -> None:
    doc = json.loads((RECORDS / "tac").joinpath(_find_record("tac", '"narr"')).read_text())
    trace = trace_document(doc)
    narr = [s for s in trace.steps if s.action is not None and s.action.get("card") == "narr"]
    assert narr and all(", then " in s.label or "discard" in s.label for s in narr)


def _find_record(game: str, needle: str) -> str:
    for p in sorted((RECORDS / game).glob("*.json")):
        text = p.read_text()
        if needle in text and json.loads(text)["x_expect"]["valid"]:
            return p.name
    raise AssertionError(f"no valid {game} record contains {needle}")


def test_failed_action_is_the_raw_object() -> None:
    doc = _random_records("tac", [{}], 1)[0]
    turns = doc["deals"][1]["turns"]
    turns[3] = {**turns[3], "seat": (turns[3]["seat"] + 1) % 4}
    trace = trace_document(doc)
    assert not trace.verdict.valid
    assert trace.failed_action is turns[3]
    assert trace.steps[-1].path == "/deals/1/turns/2"


def test_unreadable_and_non_object_records() -> None:
    bad = trace_bytes(b"{not json")
    assert bad.verdict.error is not None and bad.verdict.error.code.value == "unreadable"
    assert bad.steps == [] and bad.failed_action is None
    assert trace_document([1, 2]).steps == []
    assert final_snapshot("x") is None


@pytest.mark.parametrize("game", GAMES)
def test_plain_replay_is_unaffected_by_the_hook(game: str) -> None:
    engine = get_engine(game)
    seen: list[tuple[str, str]] = []
    for doc in _random_records(game, RANDOM[game], 3):
        plain = engine.replay(doc)
        observed = engine.replay(doc, observe=lambda p, k, s: seen.append((p, k)))
        assert isinstance(plain, ReplayOutcome)
        assert plain == observed
        assert plain == engine.replay(doc, observe=None)
    assert seen and seen[0] == ("", "start")


def test_tac_snapshot_is_the_exact_position() -> None:
    """The spec's 7 example: seat 0's last marble goes home, seat 2's moves, 63 is captured on the way."""
    players = [{"name": n, "seats": [s]} for s, n in enumerate("ABCD")]
    doc = {
        "format": "game-record/1",
        "game": "tac",
        "players": players,
        "setup": {
            "dealer": 3,
            "marbles": [[62, "H0:2", "H0:3", "H0:4"], [16, 63], [26], [40]],
            "fresh": [1],
            "hands": [["7", "2"], ["3", "5"], ["9", "10"], ["12", "6"]],
        },
        "deals": [{"turns": [{"seat": 0, "card": "7", "moves": [[62, "H0:1"], [26, 30]]}]}],
    }
    trace = trace_document(doc)
    assert trace.verdict.valid and not trace.verdict.complete
    start, seven = trace.steps
    assert (start.kind, start.path, start.label) == ("start", "", "Setup")
    assert start.snapshot["locked"] == ["H0:2", "H0:3", "H0:4"]
    assert start.snapshot["to_move"] == 0
    assert seven.path == "/deals/0/turns/0" and seven.seat == 0
    assert seven.label == "Seat 0: 7 — 62→H0:1, 26→30"
    snap = seven.snapshot
    assert snap["marbles"] == [["H0:1", "H0:2", "H0:3", "H0:4"], [16], [30], [40]]
    assert snap["prefield"] == [0, 3, 3, 3]
    assert snap["home_count"] == [4, 0, 0, 0]
    assert snap["fresh"] == [16]
    assert snap["locked"] == ["H0:1", "H0:2", "H0:3", "H0:4"]
    assert snap["hands"] == [["2"], ["3", "5"], ["9", "10"], ["12", "6"]]
    assert (snap["to_move"], snap["deal"], snap["last"]) == (1, 0, {"seat": 0, "card": "7"})
    assert (snap["ring"], snap["starts"], snap["teams"]) == (64, [0, 16, 32, 48], [[0, 2], [1, 3]])
    # the same record with the 7 moving too far: the trace stops at the setup and names the action
    bad = json.loads(json.dumps(doc))
    bad["deals"][0]["turns"][0]["moves"] = [[62, "H0:1"], [26, 31]]
    failed = trace_document(bad)
    assert not failed.verdict.valid and len(failed.steps) == 1
    assert failed.failed_action == bad["deals"][0]["turns"][0]


def test_setup_last_is_the_start_steps_last_action() -> None:
    name = _find_record("tac", '"last"')
    doc = json.loads((RECORDS / "tac" / name).read_text())
    assert "last" in doc["setup"], name
    start = trace_document(doc).steps[0]
    assert start.snapshot["last"]["seat"] == doc["setup"]["last"]["seat"]
    assert start.snapshot["last"]["card"] == doc["setup"]["last"]["card"]


def test_a_snapshot_bug_never_changes_the_verdict(monkeypatch: pytest.MonkeyPatch) -> None:
    """A snapshot that raises stops the steps, not the replay: the verdict stays verify_document's."""
    import rules.tac.snapshot

    doc = _random_records("tac", [{}], 1)[0]
    real = rules.tac.snapshot.snapshot
    calls: list[int] = []

    def failing_after_three(state: Any) -> dict[str, Any]:
        calls.append(1)
        if len(calls) > 3:
            raise RuntimeError("snapshot bug")
        return real(state)

    monkeypatch.setattr(rules.tac.snapshot, "snapshot", failing_after_three)
    trace = trace_document(doc)
    assert trace.verdict.to_json() == verify_document(doc).to_json() and trace.verdict.valid
    assert len(trace.steps) == 3 and len(calls) == 4  # no snapshot is tried again after the first failure
    assert final_snapshot(doc) is None
