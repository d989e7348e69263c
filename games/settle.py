"""From a verified record to the table's result: pure functions, no ORM (see docs/games.md).

The rules engine derives `winners` (seats) for a complete record; the platform needs one result line
per entrant. `seat_entrants[s]` is the entrant id holding seat `s` (set when the record was submitted).

- Score games (TAC, Tac-Tik, Tock in teams): the score of an entrant is the number of marbles home
  of its seats' colours, read from the final position (`home_count` of the trace's last snapshot).
- Placing games (Tock free-for-all, TAKI, ZACK!): the winner's entrant is first; the others are
  ranked by how close they came, read from the final position, ties sharing a place:
  Tock: more marbles home is better; TAKI: seats that went out (`finished`, in order) first, then
  fewer cards in hand; the TAKI phase game (the result carries `phases`): the phase reached, lower is
  better, then fewer cards in hand; ZACK!: fewer cards left in the stack.

Without a final position (`table_result(snapshot=None)`), a score game cannot be settled (None) and a
placing game gives the winner first and everybody else a shared second place.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from rules.core.trace import final_snapshot
from tournaments.profiles import PLACING, GameProfile


def final_position(doc: dict[str, Any]) -> dict[str, Any] | None:
    """The last snapshot of a valid record (rules.core.trace.final_snapshot), None for an invalid one."""
    return final_snapshot(doc)


def _competition_ranks(keys: dict[int, tuple[Any, ...]]) -> dict[int, int]:
    """1 + the number of strictly better keys (smaller is better): 1, 2, 2, 4."""
    return {entrant: 1 + sum(1 for other in keys.values() if other < key) for entrant, key in keys.items()}


def _tock_key(snapshot: dict[str, Any], seat: int) -> tuple[Any, ...]:
    home = snapshot.get("home_count") or []
    return (-int(home[seat]) if seat < len(home) else 0,)


def taki_phase_key(phases: Sequence[Any], snapshot: dict[str, Any] | None, seat: int) -> tuple[Any, ...]:
    """TAKI phase game (variant `tournament`): the phase reached (lower is better), then cards in hand."""
    phase = int(phases[seat]) if seat < len(phases) else 99
    hands = (snapshot or {}).get("hands") or []
    return (phase, len(hands[seat]) if seat < len(hands) else 0)


def _taki_key(snapshot: dict[str, Any], seat: int) -> tuple[Any, ...]:
    finished = list(snapshot.get("finished") or [])
    hands = snapshot.get("hands") or []
    out = finished.index(seat) if seat in finished else len(finished)
    return (out, len(hands[seat]) if seat < len(hands) else 0)


def _zack_key(snapshot: dict[str, Any], seat: int) -> tuple[Any, ...]:
    stacks = snapshot.get("stacks") or []
    return (len(stacks[seat]) if seat < len(stacks) else 0,)


PLACING_KEYS: dict[str, Callable[[dict[str, Any], int], tuple[Any, ...]]] = {
    "tock": _tock_key,
    "taki": _taki_key,
    "zack": _zack_key,
}


def table_result(
    *,
    profile: GameProfile,
    derived: dict[str, Any],
    seat_entrants: Sequence[int],
    snapshot: dict[str, Any] | None,
) -> dict[str, Any] | None:
    """The table's result implied by a valid complete record, as keyword arguments for
    `tournaments.services.result_report_from_record` (entrant ids as keys), or None if it cannot be told.

    >>> from tournaments.profiles import profile_for
    >>> table_result(profile=profile_for("tac", {}), derived={"winners": [0, 2]}, seat_entrants=[7, 9, 7, 9],
    ...              snapshot={"home_count": [4, 3, 4, 1]})
    {'kind': 'normal', 'scores': {7: 8, 9: 4}, 'winner': 7}
    >>> table_result(profile=profile_for("taki", {"seats": 3}), derived={"winners": [1]}, seat_entrants=[4, 5, 6],
    ...              snapshot={"hands": [["a"], [], ["b", "c"]]})
    {'kind': 'normal', 'placings': {4: 2, 5: 1, 6: 3}, 'winner': 5}
    >>> table_result(profile=profile_for("taki", {"seats": 4, "tournament": True}),
    ...              derived={"winners": [0], "phases": [1, 5, 2, 4]}, seat_entrants=[1, 2, 3, 4],
    ...              snapshot={"hands": [[], ["a"], ["b"] * 3, ["c"]]})["placings"]
    {1: 1, 2: 4, 3: 2, 4: 3}
    """
    entrants = list(dict.fromkeys(seat_entrants))
    winner_seats = [int(s) for s in derived.get("winners") or []]
    if not winner_seats or any(not 0 <= s < len(seat_entrants) for s in winner_seats):
        return None
    winner_entrants = {seat_entrants[s] for s in winner_seats}
    if len(winner_entrants) != 1:
        return None
    winner = next(iter(winner_entrants))
    if profile.result_mode != PLACING:
        if snapshot is None or not isinstance(snapshot.get("home_count"), list):
            return None
        home = snapshot["home_count"]
        scores = {e: 0 for e in entrants}
        for seat, entrant in enumerate(seat_entrants):
            scores[entrant] += int(home[seat]) if seat < len(home) else 0
        scores = {e: min(max(s, profile.score_min), profile.score_max) for e, s in scores.items()}
        return {"kind": "normal", "scores": scores, "winner": winner}
    key_of = PLACING_KEYS.get(profile.game)
    phases = derived.get("phases")

    def closeness(entrant: int) -> tuple[Any, ...]:
        """How close a non-winner came (smaller is better); its best seat counts."""
        seats = [s for s, e in enumerate(seat_entrants) if e == entrant]
        if profile.game == "taki" and isinstance(phases, list):
            return min(taki_phase_key(phases, snapshot, s) for s in seats)
        if snapshot is None or key_of is None:
            return ()  # nothing to tell them apart: they share second place
        return min(key_of(snapshot, s) for s in seats)

    # the winner is first; the others are ranked among themselves, from second place on
    behind = _competition_ranks({entrant: closeness(entrant) for entrant in entrants if entrant != winner})
    placings = {entrant: 1 + behind.get(entrant, 0) for entrant in entrants}
    return {"kind": "normal", "placings": placings, "winner": winner}


def result_matches(expected: dict[str, Any], lines: Sequence[dict[str, Any]]) -> bool:
    """True when a table result's lines (entrant, score, placing) say what `expected` says.

    `expected` may have string keys (as stored in JSON); `lines` are dicts with `entrant`, `score`,
    `placing`, `is_winner`, `forfeited`.
    """
    if any(line.get("forfeited") for line in lines):
        return False
    by_entrant = {int(line["entrant"]): line for line in lines}
    scores = {int(k): v for k, v in (expected.get("scores") or {}).items()}
    placings = {int(k): v for k, v in (expected.get("placings") or {}).items()}
    wanted = set(scores) | set(placings)
    if wanted != set(by_entrant):
        return False
    winner = expected.get("winner")
    for entrant, line in by_entrant.items():
        if entrant in scores and line.get("score") != scores[entrant]:
            return False
        if entrant in placings and line.get("placing") != placings[entrant]:
            return False
        if bool(line.get("is_winner")) != (winner is not None and int(winner) == entrant):
            return False
    return True
