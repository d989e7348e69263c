"""Test support for the live scoresheet: the public entries of a record (what a table enters), and a
tiny scripted stand-in for `rules.scoresheet` used only by the tests that pin the Django side
(versions, permissions, audit) independently of the engine."""

from __future__ import annotations

import copy
from dataclasses import dataclass
from types import SimpleNamespace
from typing import Any

from rules.scoresheet import record_entries as public_entries  # re-exported: the tests' name


class FakeRefused(ValueError):
    def __init__(self, code: str, message: str, turn: int | None = None) -> None:
        super().__init__(message)
        self.code, self.message, self.turn = code, message, turn


@dataclass(frozen=True)
class FakeView:
    phase: str
    deal: int | None
    seat: int | None
    options: list[dict[str, Any]]
    snapshot: dict[str, Any]
    last: dict[str, Any] | None
    over: bool
    winners: list[int] | None
    entries: int = 0


def fake_engine(record: dict[str, Any]) -> SimpleNamespace:
    """An engine that accepts exactly the public entries of `record`, in order, and gives back `record`."""
    script = public_entries(record)

    def sheet_start(*, game: str, variant: dict[str, Any], players: list[Any], dealer: int,
                    meta: Any = None) -> dict[str, Any]:
        if dealer >= len(players):
            raise FakeRefused("malformed", "no such dealer")
        return {"game": game, "players": players, "meta": meta, "entries": []}

    def sheet_view(state: dict[str, Any]) -> FakeView:
        done = state["entries"]
        following = script[len(done)] if len(done) < len(script) else None
        over = following is None
        phase = "over" if over else "exchange" if "exchange" in following else (
            "announce" if "announce" in following else "turn")
        options = [] if over else [following, {"seat": following.get("seat", 0), "card": "decoy", "discard": True}]
        return FakeView(phase=phase, deal=0, seat=None if over else following.get("seat"), options=options,
                        snapshot={}, last=done[-1] if done else None, over=over,
                        winners=record["result"]["winners"] if over else None, entries=len(done))

    def sheet_add(state: dict[str, Any], entry: dict[str, Any]) -> dict[str, Any]:
        done = state["entries"]
        if len(done) >= len(script) or entry != script[len(done)]:
            raise FakeRefused("illegal_move", "Not the move that was played.", turn=len(done))
        return {**state, "entries": [*done, entry]}

    def sheet_undo(state: dict[str, Any]) -> dict[str, Any]:
        if not state["entries"]:
            raise FakeRefused("nothing_to_undo", "Nothing to undo.")
        return {**state, "entries": state["entries"][:-1]}

    def sheet_record(state: dict[str, Any], *, time_up: bool = False) -> dict[str, Any]:
        document = copy.deepcopy(record)
        document["players"] = state["players"]
        document["meta"] = state["meta"]
        if time_up:
            document["result"] = {"winners": [], "termination": "adjudication"}
        return document

    return SimpleNamespace(SUPPORTED_GAMES=frozenset({"tac", "tock", "tactik"}), EntryRefused=FakeRefused,
                           sheet_start=sheet_start, sheet_view=sheet_view, sheet_add=sheet_add,
                           sheet_undo=sheet_undo, sheet_record=sheet_record)
