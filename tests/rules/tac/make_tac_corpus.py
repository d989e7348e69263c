"""Writes the TAC golden corpus (tests/rules/records/tac/*.json).

Each case states its expected verdict here, by hand, from the rule text; the engine is never asked.
Run: .venv/bin/python tests/rules/tac/make_tac_corpus.py  (the files are committed; this documents them).
"""

from __future__ import annotations

import copy
import json
import random
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[3]
OUT = ROOT / "tests" / "rules" / "records" / "tac"
T = "/deals/0/turns/"

CASES: dict[str, dict[str, Any]] = {}


def valid(complete: bool = False) -> dict[str, Any]:
    return {"valid": True, "complete": complete}


def invalid(code: str, path: str) -> dict[str, Any]:
    return {"valid": False, "code": code, "path": path}


def players(variant: dict[str, Any] | None) -> list[dict[str, Any]]:
    mode = (variant or {}).get("mode", "teams")
    seats = [0, 1, 2] if mode in ("ffa3", "2v1") else [0, 1, 2, 3]
    return [{"name": f"P{s}", "seats": [s]} for s in seats]


def case(
    name: str,
    comment: str,
    expect: dict[str, Any],
    *,
    marbles: list[list[Any]] | None = None,
    hands: list[list[str]],
    turns: list[dict[str, Any]],
    to_move: int | None = None,
    fresh: list[int] | None = None,
    last: dict[str, Any] | None = None,
    variant: dict[str, Any] | None = None,
    result: dict[str, Any] | None = None,
    dealer: int | None = None,
) -> None:
    setup: dict[str, Any] = {"marbles": marbles or [[], [], [], []], "hands": hands}
    first = turns[0]["seat"] if turns else 0
    mode = (variant or {}).get("mode", "teams")
    default_dealer = (first - 1) % 4
    if mode in ("ffa3", "2v1") and default_dealer == 3:
        default_dealer = 2
    setup["dealer"] = dealer if dealer is not None else default_dealer
    if fresh:
        setup["fresh"] = fresh
    if to_move is not None:
        setup["to_move"] = to_move
    if last is not None:
        setup["last"] = last
    doc: dict[str, Any] = {"format": "game-record/1", "game": "tac"}
    if variant:
        doc["variant"] = variant
    doc["players"] = players(variant)
    doc["setup"] = setup
    doc["deals"] = [{"turns": turns}]
    if result is not None:
        doc["result"] = result
    doc["comment"] = comment
    doc["x_expect"] = expect
    if name in CASES:
        raise SystemExit(f"duplicate case {name}")
    CASES[name] = doc


def mv(seat: int, card: str, *segs: tuple[Any, Any], **extra: Any) -> dict[str, Any]:
    return {"seat": seat, "card": card, **extra, "moves": [list(s) for s in segs]}


def enter(seat: int, card: str, **extra: Any) -> dict[str, Any]:
    return {"seat": seat, "card": card, **extra, "enter": True}


def discard(seat: int, card: str) -> dict[str, Any]:
    return {"seat": seat, "card": card, "discard": True}


HOME0 = ["H0:1", "H0:2", "H0:3", "H0:4"]
HOME2 = ["H2:1", "H2:2", "H2:3", "H2:4"]

# ---------------------------------------------------------------------------------------- entering
Q_OPEN = "Eine Kugel kann zu Beginn nur mit einer Eröffnungskarte ins Spiel gebracht werden."
case("enter_with_1", Q_OPEN, valid(), hands=[["1", "5"], ["9"], ["9"], ["9"]], turns=[enter(0, "1")])
case("enter_with_13", Q_OPEN, valid(), hands=[["13"], ["9"], ["9"], ["9"]], turns=[enter(0, "13")])
case(
    "enter_with_5",
    Q_OPEN,
    invalid("illegal_move", T + "0"),
    hands=[["5"], ["9"], ["9"], ["9"]],
    turns=[enter(0, "5")],
)
case(
    "enter_empty_prefield",
    Q_OPEN + " (no marble left in the prefield)",
    invalid("illegal_move", T + "0"),
    marbles=[[3, 5, 7, 9], [], [], []],
    hands=[["1"], ["9"], ["9"], ["9"]],
    turns=[enter(0, "1")],
)
Q_OWN = "Dabei kann es sogar passieren, dass eigene Kugeln oder Kugeln des Spielpartners geworfen werden müssen. (decision 3: entering captures even an own marble; the new marble is fresh)"
case(
    "enter_captures_own_then_fresh",
    Q_OWN,
    invalid("illegal_move", T + "4/moves/0"),
    marbles=[[0], [], [], []],
    hands=[["13", "4"], ["9"], ["9"], ["9"]],
    turns=[enter(0, "13"), discard(1, "9"), discard(2, "9"), discard(3, "9"), mv(0, "4", (0, "H0:4"))],
)
case(
    "four_from_second_visit_start",
    "Neutrales Feld - das eigene Startfeld – wenn eine Kugel dort zum 2. Mal liegt ... von dort darf sie (mit der 4) rückwärts ins Haus gezogen werden (decision 2: lands on H:4)",
    valid(),
    marbles=[[0], [], [], []],
    hands=[["4"], ["9"], ["9"], ["9"]],
    turns=[mv(0, "4", (0, "H0:4"))],
)
case(
    "enter_captures_opponent",
    "Gegnerische Kugeln können nur dann geschlagen werden, wenn der Zug ... genau auf dem Feld endet (enter captures the marble on the start field; seat 1 must then enter again)",
    valid(),
    marbles=[[], [0], [], []],
    hands=[["1"], ["1"], ["9"], ["9"]],
    turns=[enter(0, "1"), enter(1, "1")],
)

# ---------------------------------------------------------------------------------------- moving
Q_JUMP = "Kugeln überspringen – kann nie gelingen! Es ist nicht erlaubt, eigene oder fremde Kugeln zu überspringen."
case(
    "capture_by_landing",
    "Diese wird aus dem Spiel genommen und in das Vorfeld des betreffenden Spielers zurück gelegt. (seat 1 has no marble left and must enter)",
    valid(),
    marbles=[[10], [15], [], []],
    hands=[["5"], ["1", "9"], ["9"], ["9"]],
    turns=[mv(0, "5", (10, 15)), enter(1, "1")],
)
case(
    "capture_then_captured_marble_gone",
    "Diese wird aus dem Spiel genommen (the captured marble is no longer on 15)",
    invalid("illegal_move", T + "1/moves/0"),
    marbles=[[10], [15], [], []],
    hands=[["5"], ["2", "9"], ["9"], ["9"]],
    turns=[mv(0, "5", (10, 15)), mv(1, "2", (15, 17))],
)
case(
    "no_jumping",
    Q_JUMP,
    invalid("illegal_move", T + "0/moves/0"),
    marbles=[[8], [10], [], []],
    hands=[["5"], ["9"], ["9"], ["9"]],
    turns=[mv(0, "5", (8, 13))],
)
case(
    "no_jumping_own",
    Q_JUMP,
    invalid("illegal_move", T + "0/moves/0"),
    marbles=[[8, 10], [], [], []],
    hands=[["5"], ["9"], ["9"], ["9"]],
    turns=[mv(0, "5", (8, 13))],
)
case(
    "wrong_distance",
    "die dem Kartenwert genau entsprechende Anzahl von Feldern",
    invalid("illegal_move", T + "0/moves/0"),
    marbles=[[8], [], [], []],
    hands=[["5"], ["9"], ["9"], ["9"]],
    turns=[mv(0, "5", (8, 14))],
)
case(
    "move_forward_exact",
    "die dem Kartenwert genau entsprechende Anzahl von Feldern",
    valid(),
    marbles=[[8], [], [], []],
    hands=[["12"], ["9"], ["9"], ["9"]],
    turns=[mv(0, "12", (8, 20))],
)
case(
    "move_other_colour",
    "bis dahin dürfen nur die Kugeln der eigenen Farbe bewegt werden",
    invalid("illegal_move", T + "0/moves/0"),
    marbles=[[8], [30], [], []],
    hands=[["5"], ["9"], ["9"], ["9"]],
    turns=[mv(0, "5", (30, 35))],
)
Q_MUST = "Wer kann – der muss! Es besteht Zugzwang ... Besteht keine Möglichkeit des Einsatzes einer Karte, so muss der Spieler ... eine seiner Karten ungenutzt ablegen."
case(
    "must_play_discard_refused",
    Q_MUST,
    invalid("must_play", T + "0"),
    marbles=[[10], [], [], []],
    hands=[["5", "9"], ["9"], ["9"], ["9"]],
    turns=[discard(0, "9")],
)
case(
    "must_play_discard_allowed",
    Q_MUST,
    valid(),
    hands=[["5", "9"], ["9"], ["9"], ["9"]],
    turns=[discard(0, "9")],
)
case(
    "must_play_own_partner_capture",
    "Dabei kann es sogar passieren, dass eigene Kugeln oder Kugeln des Spielpartners geworfen werden müssen. (the only move captures the partner: a discard is refused)",
    invalid("must_play", T + "0"),
    marbles=[[10], [], [15], []],
    hands=[["5"], ["9"], ["9"], ["9"]],
    turns=[discard(0, "5")],
)
case(
    "wrong_seat",
    "Im UZS folgen die anderen Spieler.",
    invalid("wrong_seat", T + "1"),
    marbles=[[10], [], [], []],
    hands=[["5"], ["9"], ["9"], ["9"]],
    turns=[mv(0, "5", (10, 15)), discard(2, "9")],
)
case(
    "card_not_in_hand",
    "Er legt die Karte seiner Wahl offen in die Mitte",
    invalid("card_not_in_hand", T + "0"),
    marbles=[[10], [], [], []],
    hands=[["5"], ["9"], ["9"], ["9"]],
    turns=[mv(0, "6", (10, 16))],
)
case(
    "unknown_card",
    "104 Spielkarten (11 is not a TAC card)",
    invalid("unknown_card", T + "0/card"),
    marbles=[[10], [], [], []],
    hands=[["5"], ["9"], ["9"], ["9"]],
    turns=[mv(0, "11", (10, 21))],
)
case(
    "master_card_in_basic",
    "Der Spieler mit den schwarzen Kugeln nimmt ... die vier Karten der Meisterversion ... aus dem Stapel",
    invalid("unknown_card", "/setup/hands/0/0"),
    hands=[["narr"], ["9"], ["9"], ["9"]],
    turns=[],
)

# ---------------------------------------------------------------------------------------- home
Q_HOME = "Ist sie einmal im Haus – darf sie nicht wieder raus! ... können weder geworfen werden noch das Haus wieder verlassen"
case(
    "into_home_forward",
    "Startfeld - ... gleichzeitig das letzte Feld vor dem Haus",
    valid(),
    marbles=[[62], [], [], []],
    hands=[["3"], ["9"], ["9"], ["9"]],
    turns=[mv(0, "3", (62, "H0:1"))],
)
case(
    "into_home_overshoot",
    "die dem Kartenwert genau entsprechende Anzahl (H0:4 is the last field)",
    invalid("illegal_move", T + "0/moves/0"),
    marbles=[[62], [], [], []],
    hands=[["9"], ["9"], ["9"], ["9"]],
    turns=[mv(0, "9", (62, "H0:4"))],
)
case(
    "pass_by_home",
    "Andernfalls muss auch ... am Haus vorbei gezogen werden (a marble may pass its home)",
    valid(),
    marbles=[[62], [], [], []],
    hands=[["5"], ["9"], ["9"], ["9"]],
    turns=[mv(0, "5", (62, 3))],
)
case(
    "home_no_jump",
    "Kugeln überspringen – kann nie gelingen! (also inside the home)",
    invalid("illegal_move", T + "0/moves/0"),
    marbles=[["H0:1", "H0:2"], [], [], []],
    hands=[["2"], ["9"], ["9"], ["9"]],
    turns=[mv(0, "2", ("H0:1", "H0:3"))],
)
case(
    "home_forward_any_card",
    "decision 4: any card moves home marbles forward",
    valid(),
    marbles=[["H0:1"], [], [], []],
    hands=[["2"], ["9"], ["9"], ["9"]],
    turns=[mv(0, "2", ("H0:1", "H0:3"))],
)
case(
    "home_no_capture",
    Q_HOME,
    invalid("illegal_move", T + "0/moves/0"),
    marbles=[[62, "H0:1"], [], [], []],
    hands=[["3"], ["9"], ["9"], ["9"]],
    turns=[mv(0, "3", (62, "H0:1"))],
)
case(
    "home_no_leave_with_4",
    "Eine im Haus befindliche Kugel darf nicht rückwärts aus dem Haus gezogen werden.",
    invalid("illegal_move", T + "0/moves/0"),
    marbles=[["H0:2", 30], [], [], []],
    hands=[["4"], ["9"], ["9"], ["9"]],
    turns=[mv(0, "4", ("H0:2", 62))],
)
case(
    "fresh_not_into_home",
    "Eine gerade ins Spiel gebrachte Kugel ... darf ... nicht direkt ins Haus gezogen werden (decision 1)",
    invalid("illegal_move", T + "0/moves/0"),
    marbles=[[0], [], [], []],
    fresh=[0],
    hands=[["1"], ["9"], ["9"], ["9"]],
    turns=[mv(0, "1", (0, "H0:1"))],
)
case(
    "second_visit_into_home",
    "Neutrales Feld ... von dort darf sie (mit 1,2, 3 oder 7) vorwärts ... ins Haus gezogen werden",
    valid(),
    marbles=[[0], [], [], []],
    hands=[["1"], ["9"], ["9"], ["9"]],
    turns=[mv(0, "1", (0, "H0:1"))],
)
case(
    "start_field_blocks_home",
    Q_JUMP + " (a marble on the start field blocks the way home)",
    invalid("illegal_move", T + "0/moves/0"),
    marbles=[[62], [0], [], []],
    hands=[["3"], ["9"], ["9"], ["9"]],
    turns=[mv(0, "3", (62, "H0:1"))],
)

# ---------------------------------------------------------------------------------------- the 4
case(
    "four_backward",
    "Eine beliebige eigene Spielkugel 4 Felder rückwärts ziehen",
    valid(),
    marbles=[[20], [], [], []],
    hands=[["4"], ["9"], ["9"], ["9"]],
    turns=[mv(0, "4", (20, 16))],
)
case(
    "four_forward_refused",
    "Mit dieser Karte muss eine Kugel rückwärts gezogen werden.",
    invalid("illegal_move", T + "0/moves/0"),
    marbles=[[20], [], [], []],
    hands=[["4"], ["9"], ["9"], ["9"]],
    turns=[mv(0, "4", (20, 24))],
)
case(
    "four_backward_captures",
    "Falls genau 4 Felder zurück eine andere Spielkugel liegt, so wird diese durch den Rückwärtszug geworfen. (seat 1 must then enter)",
    valid(),
    marbles=[[20], [16], [], []],
    hands=[["4"], ["1"], ["9"], ["9"]],
    turns=[mv(0, "4", (20, 16)), enter(1, "1")],
)
case(
    "four_backward_no_jump",
    "Auch beim Rückwärtsziehen darf keine Kugel übersprungen werden.",
    invalid("illegal_move", T + "0/moves/0"),
    marbles=[[20], [18], [], []],
    hands=[["4"], ["9"], ["9"], ["9"]],
    turns=[mv(0, "4", (20, 16))],
)
case(
    "four_into_home_spec_example",
    "1, 2 oder 3 vorwärts ziehen und dann in der nächsten Runde mit der 4 rückwärts ins Haus ziehen (18,17,16,H1:1,H1:2)",
    valid(),
    marbles=[[], [18], [], []],
    hands=[["9"], ["4"], ["9"], ["9"]],
    turns=[mv(1, "4", (18, "H1:2"))],
)
case(
    "four_into_home_blocked",
    "Auch beim Rückwärtsziehen darf keine Kugel übersprungen werden.",
    invalid("illegal_move", T + "0/moves/0"),
    marbles=[[], [18, "H1:1"], [], []],
    hands=[["9"], ["4"], ["9"], ["9"]],
    turns=[mv(1, "4", (18, "H1:2"))],
)
case(
    "four_fresh_start_into_home",
    "Eine gerade ins Spiel gebrachte Kugel, die sich auf dem Startfeld befindet, darf mit der 4 nicht direkt ins Haus gezogen werden.",
    invalid("illegal_move", T + "0/moves/0"),
    marbles=[[0], [], [], []],
    fresh=[0],
    hands=[["4"], ["9"], ["9"], ["9"]],
    turns=[mv(0, "4", (0, "H0:4"))],
)
case(
    "four_fresh_start_along_ring",
    "spec 4: A fresh marble may move 4 back along the ring",
    valid(),
    marbles=[[0], [], [], []],
    fresh=[0],
    hands=[["4"], ["9"], ["9"], ["9"]],
    turns=[mv(0, "4", (0, 60))],
)
case(
    "four_start_home_not_free",
    "das geht natürlich nur, wenn alle Positionen im Haus noch frei sind",
    invalid("illegal_move", T + "0/moves/0"),
    marbles=[[0, "H0:2"], [], [], []],
    hands=[["4"], ["9"], ["9"], ["9"]],
    turns=[mv(0, "4", (0, "H0:4"))],
)

# ---------------------------------------------------------------------------------------- the 7
Q7 = 'Die 7 kann in beliebig viele Einzelschritte zerlegt werden ... Als einzige Karte ermöglicht die 7 das Werfen im "Überspringen"'
case(
    "seven_split_captures",
    Q7 + " (12 and 33 are captured; seat 1 must enter)",
    valid(),
    marbles=[[10, 30], [12], [33], []],
    hands=[["7"], ["1"], ["9"], ["9"]],
    turns=[mv(0, "7", (10, 14), (30, 33)), enter(1, "1")],
)
case(
    "seven_too_few",
    "Alle 7 Schritte müssen gezogen werden.",
    invalid("illegal_move", T + "0/moves"),
    marbles=[[10, 30], [], [], []],
    hands=[["7"], ["9"], ["9"], ["9"]],
    turns=[mv(0, "7", (10, 14), (30, 32))],
)
case(
    "seven_too_many",
    "Alle 7 Schritte müssen gezogen werden. (not more)",
    invalid("illegal_move", T + "0/moves/1"),
    marbles=[[10, 30], [], [], []],
    hands=[["7"], ["9"], ["9"], ["9"]],
    turns=[mv(0, "7", (10, 14), (30, 34))],
)
case(
    "seven_not_backward_on_ring",
    "Mit ihr können eine oder mehrere eigene Kugeln auf dem Spielkreis vorwärts gezogen werden.",
    invalid("illegal_move", T + "0/moves/0"),
    marbles=[[10, 30], [], [], []],
    hands=[["7"], ["9"], ["9"], ["9"]],
    turns=[mv(0, "7", (10, 7), (30, 34))],
)
case(
    "seven_partner_continuation",
    "Benutzt ein Spieler die 7 um seine letzte Kugel ins Haus zu ziehen ... so kann er die übrigen Schritte dazu verwenden, mit den Kugeln seines Teampartners zu ziehen. (spec example: 63, 0, 27-30 are captured)",
    valid(),
    marbles=[[62, "H0:2", "H0:3", "H0:4"], [63, 27], [26, 29, 30], [0, 28]],
    hands=[["7"], ["9"], ["9"], ["9"]],
    turns=[mv(0, "7", (62, "H0:1"), (26, 30))],
)
case(
    "seven_partner_before_own_home",
    "bis dahin dürfen nur die Kugeln der eigenen Farbe bewegt werden (the partner's marble only after the last own one is home)",
    invalid("illegal_move", T + "0/moves/0"),
    marbles=[[62, "H0:2", "H0:3", "H0:4"], [], [26], []],
    hands=[["7"], ["9"], ["9"], ["9"]],
    turns=[mv(0, "7", (26, 30), (62, "H0:1"))],
)
case(
    "seven_home_shuffle",
    "Mit der 7 dürfen beliebig viele Kugeln im Haus bewegt werden",
    valid(),
    marbles=[["H0:1", "H0:2", 40], [], [], []],
    hands=[["7"], ["9"], ["9"], ["9"]],
    turns=[mv(0, "7", ("H0:2", "H0:4"), ("H0:1", "H0:3"), (40, 43))],
)
case(
    "seven_home_back_and_forth",
    "Nur im Haus ist es mit der 7 erlaubt, Kugeln hin- und herzuziehen.",
    valid(),
    marbles=[["H0:3", 40], [], [], []],
    hands=[["7"], ["9"], ["9"], ["9"]],
    turns=[mv(0, "7", ("H0:3", "H0:1"), (40, 45))],
)
case(
    "seven_locked_marble",
    'vorausgesetzt, dass diese in einem der vorherigen Züge noch nicht "ingerastet" sind',
    invalid("illegal_move", T + "0/moves/0"),
    marbles=[["H0:4", "H0:3", "H0:1", 40], [], [], []],
    hands=[["7"], ["9"], ["9"], ["9"]],
    turns=[mv(0, "7", ("H0:3", "H0:2"), (40, 46))],
)
case(
    "seven_unlocked_marble",
    'Mit der 7 dürfen beliebig viele Kugeln im Haus bewegt werden – vorausgesetzt, dass diese ... noch nicht "ingerastet" sind',
    valid(),
    marbles=[["H0:4", "H0:3", "H0:1", 40], [], [], []],
    hands=[["7"], ["9"], ["9"], ["9"]],
    turns=[mv(0, "7", ("H0:1", "H0:2"), (40, 46))],
)
case(
    "seven_order_home_only",
    'Mit der 7 kann das Haus "geordnet" werden. Dies ist auch dann möglich, wenn sich ansonsten keine eigene Kugel im Spielkreis befindet.',
    valid(),
    marbles=[["H0:1", "H0:2"], [], [], []],
    hands=[["7"], ["9"], ["9"], ["9"]],
    turns=[
        mv(0, "7", ("H0:2", "H0:4"), ("H0:1", "H0:3"), ("H0:3", "H0:2"), ("H0:2", "H0:3"), ("H0:3", "H0:2"))
    ],
)
case(
    "seven_no_jump_in_home",
    "Kugeln überspringen – kann nie gelingen! (home marbles are not captured by the 7)",
    invalid("illegal_move", T + "0/moves/0"),
    marbles=[["H0:1", "H0:2", 40], [], [], []],
    hands=[["7"], ["9"], ["9"], ["9"]],
    turns=[mv(0, "7", ("H0:1", "H0:3"), (40, 45))],
)
case(
    "seven_win_needs_every_step",
    "decision 5: Alle 7 Schritte müssen gezogen werden ... muss auch hier exakt ins Haus gezogen werden (6 steps would win, 1 would be left)",
    invalid("illegal_move", T + "0/moves"),
    marbles=[[62, "H0:2", "H0:3", "H0:4"], [], HOME2, []],
    hands=[["7"], ["9"], ["9"], ["9"]],
    turns=[mv(0, "7", (62, "H0:1"))],
)
case(
    "seven_past_home_when_win_impossible",
    "Andernfalls muss auch mit der 7 am Haus vorbei gezogen werden.",
    valid(),
    marbles=[[62, "H0:2", "H0:3", "H0:4"], [], HOME2, []],
    hands=[["7"], ["9"], ["9"], ["9"]],
    turns=[mv(0, "7", (62, 5))],
)

# ---------------------------------------------------------------------------------------- the 8
Q8 = "Eine beliebige Spielkugel seiner Farbe 8 Felder vorwärts (im UZS) ziehen oder den nächsten Spieler aussetzen lassen (dieser muss dann eine Karte ungenutzt und offen ablegen)."
case(
    "eight_skip",
    Q8,
    valid(),
    marbles=[[10], [20], [], []],
    hands=[["8", "2"], ["5", "9"], ["9"], ["9"]],
    turns=[{"seat": 0, "card": "8", "skip": True}, discard(1, "5"), discard(2, "9")],
)
case(
    "eight_skipped_seat_plays",
    Q8,
    invalid("illegal_move", T + "1"),
    marbles=[[10], [20], [], []],
    hands=[["8", "2"], ["5", "9"], ["9"], ["9"]],
    turns=[{"seat": 0, "card": "8", "skip": True}, mv(1, "5", (20, 25))],
)
case(
    "eight_skip_needs_ring_marble",
    "Nur wer selbst eine Kugel im Spielkreis hat, kann die 8 einsetzen, um den nächsten Spieler aussetzen zu lassen.",
    invalid("illegal_move", T + "0"),
    marbles=[["H0:1"], [], [], []],
    hands=[["8"], ["9"], ["9"], ["9"]],
    turns=[{"seat": 0, "card": "8", "skip": True}],
)
case(
    "eight_last_card_must_move",
    "Wird die 8 als letzte Karte in der letzten Runde gespielt, so müssen die 8 Felder gezogen werden.",
    invalid("illegal_move", T + "0"),
    marbles=[[10], [], [], []],
    hands=[["8"], [], [], []],
    turns=[{"seat": 0, "card": "8", "skip": True}],
)
case(
    "eight_last_card_moves",
    "Wird die 8 als letzte Karte in der letzten Runde gespielt, so müssen die 8 Felder gezogen werden.",
    valid(),
    marbles=[[10], [], [], []],
    hands=[["8"], [], [], []],
    turns=[mv(0, "8", (10, 18))],
)

# ---------------------------------------------------------------------------------------- Trickser
QT = "Zwei beliebige Kugeln im Spielkreis (eigene, gegnerische oder die des Spielpartners in beliebiger Kombination) austauschen."
case(
    "trickser_swap",
    QT,
    valid(),
    marbles=[[10], [20], [], []],
    hands=[["trickser"], ["9"], ["9"], ["9"]],
    turns=[{"seat": 0, "card": "trickser", "swap": [10, 20]}],
)
case(
    "trickser_two_others",
    QT,
    valid(),
    marbles=[[10], [20], [30], []],
    hands=[["trickser"], ["9"], ["9"], ["9"]],
    turns=[{"seat": 0, "card": "trickser", "swap": [30, 20]}],
)
case(
    "trickser_home_marble",
    "Kugeln im Haus dürfen nicht getauscht werden.",
    invalid("illegal_move", T + "0/swap"),
    marbles=[[10], ["H1:1"], [], []],
    hands=[["trickser"], ["9"], ["9"], ["9"]],
    turns=[{"seat": 0, "card": "trickser", "swap": [10, "H1:1"]}],
)
case(
    "trickser_needs_own_marble",
    "Den Trickser darf nur einsetzen, wer selber eine Kugel im Spielkreis hat.",
    invalid("illegal_move", T + "0"),
    marbles=[["H0:1"], [20, 30], [], []],
    hands=[["trickser"], ["9"], ["9"], ["9"]],
    turns=[{"seat": 0, "card": "trickser", "swap": [20, 30]}],
)
case(
    "trickser_lapses",
    "Wenn nur eine einzige Kugel im Spielkreis ist, verfällt der Trickser ungenutzt.",
    valid(),
    marbles=[[10], [], [], []],
    hands=[["trickser"], ["9"], ["9"], ["9"]],
    turns=[discard(0, "trickser")],
)
case(
    "trickser_no_discard",
    "Der Trickser darf nicht ungenutzt abgeworfen werden, wenn andere Zugmöglichkeiten bestehen.",
    invalid("must_play", T + "0"),
    marbles=[[10], [20], [], []],
    hands=[["trickser"], ["9"], ["9"], ["9"]],
    turns=[discard(0, "trickser")],
)
case(
    "trickser_onto_start_then_home",
    "Wird eine Kugel durch den Trickser direkt auf das Startfeld der eigenen Farbe getauscht, so darf der Spieler sie in einem der nächsten Züge direkt ins Haus ziehen",
    valid(),
    marbles=[[5], [0], [], []],
    hands=[["trickser", "1"], ["9"], ["9"], ["9"]],
    turns=[
        {"seat": 0, "card": "trickser", "swap": [5, 0]},
        mv(1, "9", (5, 14)),
        discard(2, "9"),
        discard(3, "9"),
        mv(0, "1", (0, "H0:1")),
    ],
)

# ---------------------------------------------------------------------------------------- TAC
QTAC = "Den letzten Zug rückgängig machen (den des rechts vom Spieler sitzenden Gegners) und dessen ausgespielte Karte für seinen eigenen Zug verwenden."
case(
    "tac_after_capture",
    "TAC-Karte nachdem eine Kugel geworfen wurde: ... die geworfene Kugel wieder auf ihren ursprünglichen Platz im Spielkreis eingesetzt. (seat 3 moves from 10 again)",
    valid(),
    marbles=[[15], [], [], [10]],
    last=mv(3, "5", (10, 15)),
    hands=[["tac"], ["9"], ["9"], ["5"]],
    to_move=0,
    turns=[mv(0, "tac", (15, 20), **{"as": "5"}), discard(1, "9"), discard(2, "9"), mv(3, "5", (10, 15))],
)
case(
    "tac_after_capture_not_restored_twin",
    "die geworfene Kugel wieder auf ihren ursprünglichen Platz (seat 3's marble is on 10 again, not 15)",
    invalid("illegal_move", T + "3/moves/0"),
    marbles=[[15], [], [], [10]],
    last=mv(3, "5", (10, 15)),
    hands=[["tac"], ["9"], ["9"], ["5"]],
    to_move=0,
    turns=[mv(0, "tac", (15, 20), **{"as": "5"}), discard(1, "9"), discard(2, "9"), mv(3, "5", (15, 20))],
)
case(
    "tac_wrong_as",
    QTAC,
    invalid("illegal_move", T + "0/as"),
    marbles=[[15], [], [], [10]],
    last=mv(3, "5", (10, 15)),
    hands=[["tac"], ["9"], ["9"], ["5"]],
    to_move=0,
    turns=[mv(0, "tac", (15, 21), **{"as": "6"})],
)
case(
    "tac_first_card_of_deal",
    "Die TAC-Karte kann nicht als erste Karte nach dem Austeilen der Karten eingesetzt werden.",
    invalid("illegal_move", T + "0"),
    marbles=[[15], [], [], []],
    hands=[["tac", "9"], ["9"], ["9"], ["9"]],
    turns=[mv(0, "tac", (15, 20), **{"as": "5"})],
)
case(
    "tac_after_move_into_home",
    "TAC-Karte nach einem Zug ins Haus: ... die Kugel wird wieder auf ihren ursprünglichen Platz im Spielkreis zurückgesetzt.",
    valid(),
    marbles=[[20], [], [], [46]],
    last=mv(3, "3", (46, "H3:1")),
    hands=[["tac"], ["9"], ["9"], ["2"]],
    to_move=0,
    turns=[mv(0, "tac", (20, 23)), discard(1, "9"), discard(2, "9"), mv(3, "2", (46, 48))],
)
case(
    "tac_after_move_into_home_twin",
    "Mit der TAC-Karte kann der Zug ins Haus rückgängig gemacht werden (H3:1 is empty again)",
    invalid("illegal_move", T + "3/moves/0"),
    marbles=[[20], [], [], [46]],
    last=mv(3, "3", (46, "H3:1")),
    hands=[["tac"], ["9"], ["9"], ["2"]],
    to_move=0,
    turns=[mv(0, "tac", (20, 23)), discard(1, "9"), discard(2, "9"), mv(3, "2", ("H3:1", "H3:3"))],
)
case(
    "tac_after_skip",
    "TAC-Karte nach der 8: ein Spieler, der eigentlich aussetzen müsste, kann durch das Ausspielen der TAC-Karte die Funktion der 8 rückgängig machen. Nun kann er seinerseits 8 Felder ziehen",
    valid(),
    marbles=[[10], [], [], [40]],
    last={"seat": 3, "card": "8", "skip": True},
    hands=[["tac", "5"], ["9"], ["9"], ["9"]],
    to_move=0,
    turns=[mv(0, "tac", (10, 18), **{"as": "8"})],
)
case(
    "tac_after_skip_skips",
    "Nun kann er seinerseits 8 Felder ziehen oder den nächsten Spieler aussetzen lassen.",
    valid(),
    marbles=[[10], [30], [], [40]],
    last={"seat": 3, "card": "8", "skip": True},
    hands=[["tac", "5"], ["5", "9"], ["9"], ["9"]],
    to_move=0,
    turns=[{"seat": 0, "card": "tac", "as": "8", "skip": True}, discard(1, "5")],
)
case(
    "skipped_seat_may_discard_anything",
    "Ein Spieler mit einer TAC-Karte auf der Hand muss diese nach einer 8 nicht einsetzen, er kann aber auch die TAC Karte oder eine andere ungenutzt ablegen.",
    valid(),
    marbles=[[10], [], [], [40]],
    last={"seat": 3, "card": "8", "skip": True},
    hands=[["tac", "5"], ["9"], ["9"], ["9"]],
    to_move=0,
    turns=[discard(0, "tac")],
)
case(
    "skipped_seat_plays_card",
    Q8,
    invalid("illegal_move", T + "0"),
    marbles=[[10], [], [], [40]],
    last={"seat": 3, "card": "8", "skip": True},
    hands=[["tac", "5"], ["9"], ["9"], ["9"]],
    to_move=0,
    turns=[mv(0, "5", (10, 15))],
)
case(
    "tac_after_discard",
    "Folgt die TAC-Karte auf eine ungenutzt abgelegte Karte, so wird nur die Funktion dieser Karte übernommen.",
    valid(),
    marbles=[[10], [], [], []],
    last=discard(3, "9"),
    hands=[["tac"], ["9"], ["9"], ["9"]],
    to_move=0,
    turns=[mv(0, "tac", (10, 19), **{"as": "9"})],
)
case(
    "tac_needs_usable_function",
    "Die TAC-Karte darf nur verwendet werden, wenn die für den zurückgenommenen Zug verwendete Karte für einen eigenen Zug angewendet werden kann.",
    valid(),
    marbles=[[], [], [], [10]],
    last=discard(3, "5"),
    hands=[["tac"], ["9"], ["9"], ["9"]],
    to_move=0,
    turns=[discard(0, "tac")],
)
case(
    "tac_usable_not_discarded",
    "Wer kann – der muss! Auch die TAC-Karte darf nicht aufgehoben werden.",
    invalid("must_play", T + "0"),
    marbles=[[20], [], [], []],
    last=discard(3, "5"),
    hands=[["tac"], ["9"], ["9"], ["9"]],
    to_move=0,
    turns=[discard(0, "tac")],
)
case(
    "tac_after_tac_spec_example",
    "Spieler A spielt die 13 und setzt eine Kugel auf das Startfeld, Spieler B spielt die TAC-Karte ... Spieler C eine weitere TAC-Karte ... die Kugel wieder auf das Startfeld gelegt. (seat 1's marble stands fresh on 16 again)",
    valid(),
    marbles=[[], [], [], [50]],
    last=discard(0, "9"),
    hands=[["9"], ["13", "4"], ["tac", "9"], ["tac", "9"]],
    to_move=1,
    turns=[
        enter(1, "13"),
        enter(2, "tac", **{"as": "13"}),
        mv(3, "tac", (50, 63), **{"as": "13"}),
        discard(0, "9"),
        mv(1, "4", (16, 12)),
    ],
)
case(
    "tac_after_tac_fresh_restored",
    "TAC-Karte nach TAC-Karte: die Aktion von Spieler A wieder hergestellt (the marble is fresh again: no 4 into the home)",
    invalid("illegal_move", T + "4/moves/0"),
    marbles=[[], [], [], [50]],
    last=discard(0, "9"),
    hands=[["9"], ["13", "4"], ["tac", "9"], ["tac", "9"]],
    to_move=1,
    turns=[
        enter(1, "13"),
        enter(2, "tac", **{"as": "13"}),
        mv(3, "tac", (50, 63), **{"as": "13"}),
        discard(0, "9"),
        mv(1, "4", (16, "H1:4")),
    ],
)
case(
    "tac_after_tac_second_undone",
    "die Kugel von Spieler B wieder zurückgelegt (seat 2 has no marble on 32 after the second TAC)",
    invalid("illegal_move", T + "5/moves/0"),
    marbles=[[], [], [], [50]],
    last=discard(0, "9"),
    hands=[["9"], ["13", "4"], ["tac", "9"], ["tac", "9"]],
    to_move=1,
    turns=[
        enter(1, "13"),
        enter(2, "tac", **{"as": "13"}),
        mv(3, "tac", (50, 63), **{"as": "13"}),
        discard(0, "9"),
        mv(1, "4", (16, 12)),
        mv(2, "9", (32, 41)),
    ],
)
case(
    "tac_after_discarded_tac",
    "Wenn die TAC-Karte von einem Spieler ungenutzt abgelegt wird und der darauf folgende Spieler eine weitere TAC-Karte spielt, so übernimmt er damit die Funktion der Karte vor der ersten TAC-Karte. Die Funktion der Karte vor der ersten TAC-Karte wird nicht rückgängig gemacht.",
    valid(),
    marbles=[[], [30], [], [10]],
    last=mv(3, "5", (10, 15)),
    hands=[["tac"], ["tac"], ["9"], ["5"]],
    to_move=0,
    turns=[discard(0, "tac"), mv(1, "tac", (30, 35), **{"as": "5"}), discard(2, "9"), mv(3, "5", (15, 20))],
)
case(
    "tac_after_discarded_tac_no_restore",
    "Die Funktion der Karte vor der ersten TAC-Karte wird nicht rückgängig gemacht. (seat 3's marble stays on 15)",
    invalid("illegal_move", T + "3/moves/0"),
    marbles=[[], [30], [], [10]],
    last=mv(3, "5", (10, 15)),
    hands=[["tac"], ["tac"], ["9"], ["5"]],
    to_move=0,
    turns=[discard(0, "tac"), mv(1, "tac", (30, 35), **{"as": "5"}), discard(2, "9"), mv(3, "5", (10, 15))],
)
case(
    "tac_after_trickser_fresh_again",
    "TAC-Karte nach dem Trickser: ... (die Kugel also wieder auf das Startfeld zurückgelegt wird), darf sie von ihrem Besitzer anschließend natürlich nicht direkt ins Haus gezogen werden.",
    invalid("illegal_move", T + "4/moves/0"),
    marbles=[[0], [5], [40], []],
    fresh=[0],
    hands=[["trickser", "1"], ["tac"], ["9"], ["9"]],
    turns=[
        {"seat": 0, "card": "trickser", "swap": [0, 5]},
        {"seat": 1, "card": "tac", "as": "trickser", "swap": [5, 40]},
        mv(2, "9", (5, 14)),
        discard(3, "9"),
        mv(0, "1", (0, "H0:1")),
    ],
)
case(
    "tac_after_trickser",
    "Wird die TAC-Karte nach dem Trickser gespielt, wird der Tausch rückgängig gemacht und der Spieler, der die TAC-Karte ausgespielt hat, darf nun selbst zwei Kugeln tauschen.",
    valid(),
    marbles=[[0], [5], [40], []],
    fresh=[0],
    hands=[["trickser", "1"], ["tac"], ["9"], ["9"]],
    turns=[
        {"seat": 0, "card": "trickser", "swap": [0, 5]},
        {"seat": 1, "card": "tac", "as": "trickser", "swap": [5, 40]},
        mv(2, "9", (5, 14)),
        discard(3, "9"),
        mv(0, "1", (0, 1)),
    ],
)
case(
    "tac_double_function_choice",
    "Wird die TAC-Karte verwendet um den Zug einer Karte mit Doppelfunktion (1, 8, 13) rückgängig zu machen, so hat der Spieler die Wahl, welche der Funktionen er für seinen Zug verwendet. (a 1 that moved is borrowed to enter)",
    valid(),
    marbles=[[], [], [], [40]],
    last=mv(3, "1", (40, 41)),
    hands=[["tac"], ["9"], ["9"], ["9"]],
    to_move=0,
    turns=[enter(0, "tac", **{"as": "1"}), discard(1, "9"), discard(2, "9"), mv(3, "9", (40, 49))],
)
WIN = [[62, "H0:2", "H0:3", "H0:4"], [20], HOME2, []]
Q_WIN = "Die TAC-Karte muß auch eingesetzt werden um den Siegeszug des gegnerischen Teams ... rückgängig zu machen. ... Eine weitere TAC-Karte kann danach nicht gespielt werden."
case(
    "winning_move_compulsory_tac_refused",
    Q_WIN,
    invalid("must_play", T + "1"),
    marbles=WIN,
    hands=[["3"], ["tac", "5"], ["9", "tac"], ["9"]],
    turns=[mv(0, "3", (62, "H0:1")), mv(1, "5", (20, 25))],
)
case(
    "winning_move_tac_answer",
    Q_WIN + " (seat 0's marble is back on 62; seat 2 moves it past the home)",
    valid(),
    marbles=WIN,
    hands=[["3"], ["tac", "5"], ["9"], ["9"]],
    turns=[mv(0, "3", (62, "H0:1")), mv(1, "tac", (20, 23), **{"as": "3"}), mv(2, "9", (62, 7))],
)
case(
    "winning_move_no_tac_after_tac",
    Q_WIN,
    invalid("illegal_move", T + "2"),
    marbles=WIN,
    hands=[["3"], ["tac", "5"], ["tac", "9"], ["9"]],
    turns=[
        mv(0, "3", (62, "H0:1")),
        mv(1, "tac", (20, 23), **{"as": "3"}),
        mv(2, "tac", (62, "H0:1"), **{"as": "3"}),
    ],
)
case(
    "winning_move_wins",
    "Das erste Team, das alle 8 Kugeln nach Hause gebracht hat, gewinnt.",
    valid(True),
    marbles=WIN,
    hands=[["3"], ["5"], ["9"], ["9"]],
    turns=[mv(0, "3", (62, "H0:1"))],
    result={"winners": [0, 2]},
)
case(
    "winning_move_tac_cannot_use",
    "Voraussetzung ist auch hier, dass der Spieler, der die TAC-Karte ausspielt, die für den Siegeszug ausgespielte Karte selber anwenden kann. (seat 1 has no marble: the game is over)",
    valid(True),
    marbles=[[62, "H0:2", "H0:3", "H0:4"], [], HOME2, []],
    hands=[["3"], ["tac"], ["9"], ["9"]],
    turns=[mv(0, "3", (62, "H0:1"))],
    result={"winners": [0, 2]},
)
case(
    "after_game_over",
    "Das erste Team, das alle 8 Kugeln nach Hause gebracht hat, gewinnt.",
    invalid("game_already_over", T + "1"),
    marbles=WIN,
    hands=[["3"], ["5"], ["9"], ["9"]],
    turns=[mv(0, "3", (62, "H0:1")), mv(1, "5", (20, 25))],
)
case(
    "wrong_winner_claimed",
    "Das erste Team, das alle 8 Kugeln nach Hause gebracht hat, gewinnt.",
    invalid("result_mismatch", "/result"),
    marbles=WIN,
    hands=[["3"], ["5"], ["9"], ["9"]],
    turns=[mv(0, "3", (62, "H0:1"))],
    result={"winners": [1, 3]},
)
case(
    "result_claimed_too_early",
    "Das erste Team, das alle 8 Kugeln nach Hause gebracht hat, gewinnt.",
    invalid("result_mismatch", "/result"),
    marbles=WIN,
    hands=[["5", "3"], ["5"], ["9"], ["9"]],
    turns=[mv(0, "5", (62, 3))],
    result={"winners": [0, 2]},
)

# ---------------------------------------------------------------------------------------- endphase
QEND = "Ein Spieler, der alle seine Kugeln nach Hause gebracht hat, bewegt ab sofort die Kugeln seines Spielpartners"
case(
    "partner_marbles",
    QEND,
    valid(),
    marbles=[HOME0, [], [40], []],
    hands=[["5"], ["9"], ["9"], ["9"]],
    turns=[mv(0, "5", (40, 45))],
)
case(
    "partner_marbles_not_opponent",
    QEND,
    invalid("illegal_move", T + "0/moves/0"),
    marbles=[HOME0, [30], [40], []],
    hands=[["5"], ["9"], ["9"], ["9"]],
    turns=[mv(0, "5", (30, 35))],
)
case(
    "partner_marbles_enter",
    QEND + " (an opening card enters a partner marble)",
    valid(),
    marbles=[HOME0, [], [], []],
    hands=[["1"], ["9"], ["9"], ["2"]],
    turns=[enter(0, "1"), discard(1, "9"), mv(2, "9", (32, 41))],
)
case(
    "own_before_partner",
    "bis dahin dürfen nur die Kugeln der eigenen Farbe bewegt werden",
    invalid("illegal_move", T + "0/moves/0"),
    marbles=[[10], [], [40], []],
    hands=[["5"], ["9"], ["9"], ["9"]],
    turns=[mv(0, "5", (40, 45))],
)

# ---------------------------------------------------------------------------------------- master
MASTER = {"master": True}
QN = "Jeder Spieler gibt sämtliche Karten, die er auf der Hand hält, verdeckt an den Spieler zu seiner Rechten weiter. Der Spieler, der den Narr gespielt hat, muss von seinen neu erhaltenen Karten sofort eine Karte spielen"
case(
    "narr",
    QN,
    valid(),
    variant=MASTER,
    marbles=[[10], [], [], []],
    hands=[["narr", "9"], ["5", "2"], ["3"], ["6"]],
    turns=[
        {"seat": 0, "card": "narr", "then": mv(0, "5", (10, 15))},
        discard(1, "3"),
        discard(2, "6"),
        discard(3, "9"),
        mv(0, "2", (15, 17)),
    ],
)
case(
    "narr_then_old_card",
    QN,
    invalid("card_not_in_hand", T + "0/then"),
    variant=MASTER,
    marbles=[[10], [], [], []],
    hands=[["narr", "9"], ["5", "2"], ["3"], ["6"]],
    turns=[{"seat": 0, "card": "narr", "then": mv(0, "9", (10, 19))}],
)
case(
    "narr_missing_then",
    QN,
    invalid("missing_action", T + "0"),
    variant=MASTER,
    marbles=[[10], [], [], []],
    hands=[["narr", "9"], ["5", "2"], ["3"], ["6"]],
    turns=[{"seat": 0, "card": "narr"}],
)
case(
    "narr_not_discarded",
    "Der Narr kann auch eingesetzt werden, wenn sich keine eigene Kugel im Spielkreis befindet. Wer kann – der muss!",
    invalid("must_play", T + "0"),
    variant=MASTER,
    hands=[["narr", "9"], ["5", "2"], ["3"], ["6"]],
    turns=[discard(0, "narr")],
)
case(
    "narr_last_card_lapses",
    "Wird der Narr als letzte Karte von 5 Runden gespielt, so verfällt seine Funktion.",
    valid(),
    variant=MASTER,
    hands=[["narr"], [], [], []],
    turns=[discard(0, "narr")],
)
case(
    "narr_last_card_no_then",
    "Wird der Narr als letzte Karte von 5 Runden gespielt, so verfällt seine Funktion.",
    invalid("illegal_move", T + "1"),
    variant=MASTER,
    marbles=[[10], [], [], []],
    hands=[["narr", "5"], [], [], []],
    turns=[mv(0, "5", (10, 15)), {"seat": 0, "card": "narr", "then": mv(0, "5", (15, 20))}],
)
case(
    "narr_then_tac",
    "Erhält der Spieler, der den Narr ausgespielt hat, durch das Tauschen eine TAC-Karte und setzt sie unmittelbar ein, so wird nicht das Tauschen rückgängig gemacht, sondern die letzte Aktion, die vor dem Ausspielen des Narren stattgefunden hat.",
    valid(),
    variant=MASTER,
    marbles=[[15], [], [], [10]],
    last=mv(3, "5", (10, 15)),
    hands=[["narr", "9"], ["tac", "9"], ["9"], ["5"]],
    to_move=0,
    turns=[
        {"seat": 0, "card": "narr", "then": mv(0, "tac", (15, 20), **{"as": "5"})},
        discard(1, "9"),
        discard(2, "5"),
    ],
)
case(
    "tac_after_narr",
    "Die TAC-Karte nach dem Narren: ... wird nicht das Tauschen der Karten rückgängig gemacht, sondern die Aktion der Karte, die nach dem Tauschen gespielt wurde",
    valid(),
    variant=MASTER,
    marbles=[[10], [30], [], []],
    hands=[["narr", "9"], ["5", "2"], ["tac"], ["6"]],
    turns=[
        {"seat": 0, "card": "narr", "then": mv(0, "5", (10, 15))},
        mv(1, "tac", (30, 35), **{"as": "5"}),
        discard(2, "6"),
        discard(3, "9"),
        mv(0, "2", (10, 12)),
    ],
)
QE = "Für den im UZS folgenden Spieler eine Kugel vom Vorfeld auf das Startfeld legen."
case(
    "engel_enters_for_left_neighbour",
    QE
    + " ... so muss diese Kugel – gleich welcher Farbe – geworfen werden (seat 0's own marble on 16 is captured; the new one is fresh)",
    invalid("illegal_move", T + "1/moves/0"),
    variant=MASTER,
    marbles=[[16], [], [], []],
    hands=[["engel"], ["4"], ["9"], ["9"]],
    turns=[enter(0, "engel"), mv(1, "4", (16, "H1:4"))],
)
case(
    "engel_then_new_marble_moves",
    QE
    + " Der Spieler, dessen Kugel durch den Engel ins Spiel gebracht ... wurde, ist nach dieser Aktion ganz normal an der Reihe und kann auch die neu ins Spiel gebrachte Kugel bewegen.",
    valid(),
    variant=MASTER,
    marbles=[[16], [], [], []],
    hands=[["engel"], ["4"], ["9"], ["9"]],
    turns=[enter(0, "engel"), mv(1, "4", (16, 12)), discard(2, "9")],
)
case(
    "engel_moves_when_prefield_empty",
    "Hat dieser Spieler keine Kugeln mehr in seinem Vorfeld, so bewegt der Engel stattdessen eine im Spiel befindliche Kugel des betroffenen Spielers um 1 oder 13 Felder nach vorne.",
    valid(),
    variant=MASTER,
    marbles=[[], [20, 30, 40, 50], [], []],
    hands=[["engel"], ["9"], ["9"], ["9"]],
    turns=[mv(0, "engel", (20, 21))],
)
case(
    "engel_must_enter",
    "decision 14: Entering is compulsory while the prefield holds marbles.",
    invalid("illegal_move", T + "0/moves/0"),
    variant=MASTER,
    marbles=[[], [20], [], []],
    hands=[["engel"], ["9"], ["9"], ["9"]],
    turns=[mv(0, "engel", (20, 21))],
)
case(
    "engel_partner_redirect",
    "Hat der Spieler, für den der Engel eingesetzt wird, bereits alle Kugeln im Haus, so wird stattdessen eine Kugel seines Teampartners ... ins Spiel gebracht ... Der Spieler, auf den der Engel ursprünglich angewandt werden sollte, ist danach in jedem Fall am Zug.",
    valid(),
    variant=MASTER,
    marbles=[[], ["H1:1", "H1:2", "H1:3", "H1:4"], [], []],
    hands=[["engel"], ["5"], ["9"], ["9"]],
    turns=[enter(0, "engel"), mv(1, "5", (48, 53))],
)
case(
    "engel_not_discarded",
    "Der Engel muss auch dann eingesetzt werden, wenn keine eigene Kugel im Spiel ist.",
    invalid("must_play", T + "0"),
    variant=MASTER,
    hands=[["engel"], ["9"], ["9"], ["9"]],
    turns=[discard(0, "engel")],
)
case(
    "tac_after_engel",
    "Die TAC-Karte nach dem Engel: Die Aktion des Engels wird rückgängig gemacht ... legt für den im UZS folgenden Spieler eine Kugel von dessen Vorfeld auf das Startfeld.",
    valid(),
    variant=MASTER,
    hands=[["engel"], ["tac"], ["1"], ["9"]],
    turns=[enter(0, "engel"), enter(1, "tac", **{"as": "engel"}), mv(2, "1", (32, 33))],
)
QK = "Die im UZS auf eine eigene Kugel folgende Spielkugel wird direkt geworfen, die eigene Kugel auf das freigewordene Feld gesetzt."
case(
    "krieger_strike",
    QK + " (seat 1 must enter again)",
    valid(),
    variant=MASTER,
    marbles=[[10], [50], [], []],
    hands=[["krieger"], ["1"], ["9"], ["9"]],
    turns=[{"seat": 0, "card": "krieger", "strike": 10}, enter(1, "1"), discard(2, "9"), discard(3, "9")],
)
case(
    "krieger_strike_other",
    QK,
    invalid("illegal_move", T + "0/strike"),
    variant=MASTER,
    marbles=[[10], [50], [], []],
    hands=[["krieger"], ["1"], ["9"], ["9"]],
    turns=[{"seat": 0, "card": "krieger", "strike": 50}],
)
case(
    "krieger_alone",
    "Ist diese eine Kugel, die einzige Kugel auf dem Spielkreis, so wird diese durch den Krieger selbst geworfen.",
    valid(),
    variant=MASTER,
    marbles=[[10, "H0:1"], [], [], []],
    hands=[["krieger", "13"], ["9"], ["9"], ["9"]],
    turns=[
        {"seat": 0, "card": "krieger", "strike": 10},
        discard(1, "9"),
        discard(2, "9"),
        discard(3, "9"),
        enter(0, "13"),
    ],
)
case(
    "krieger_no_marble_lapses",
    "Hat ein Spieler keine Kugel im Spiel, so verfällt der Krieger.",
    valid(),
    variant=MASTER,
    hands=[["krieger"], ["9"], ["9"], ["9"]],
    turns=[discard(0, "krieger")],
)
case(
    "tac_after_krieger",
    "Die TAC-Karte nach dem Krieger: Die geworfene Kugel wird wieder eingesetzt. Der Spieler, der die TAC-Karte spielt, darf die vor einer seiner Spielkugeln liegende Kugel werfen.",
    valid(),
    variant=MASTER,
    marbles=[[10], [50], [], []],
    hands=[["krieger"], ["tac"], ["9"], ["9"]],
    turns=[
        {"seat": 0, "card": "krieger", "strike": 10},
        {"seat": 1, "card": "tac", "as": "krieger", "strike": 50},
        discard(2, "9"),
        discard(3, "9"),
    ],
)
QD = "Der Spieler, der den Teufel ausspielt, darf für den im UZS folgenden Spieler eine Karte ausspielen und die Aktion mit dessen Kugeln ausführen."
case(
    "teufel",
    QD + " Der betroffene Spieler ist anschließend nicht noch einmal selbst an der Reihe.",
    valid(),
    variant=MASTER,
    marbles=[[], [20], [], []],
    hands=[["teufel"], ["5", "9"], ["9"], ["9"]],
    turns=[
        {"seat": 0, "card": "teufel", "then": {"seat": 1, "card": "5", "moves": [[20, 25]]}},
        discard(2, "9"),
    ],
)
case(
    "teufel_victim_turn_consumed",
    QD + " Der betroffene Spieler ist anschließend nicht noch einmal selbst an der Reihe.",
    invalid("wrong_seat", T + "1"),
    variant=MASTER,
    marbles=[[], [20], [], []],
    hands=[["teufel"], ["5", "9"], ["9"], ["9"]],
    turns=[{"seat": 0, "card": "teufel", "then": {"card": "5", "moves": [[20, 25]]}}, discard(1, "9")],
)
case(
    "teufel_card_not_victims",
    QD,
    invalid("card_not_in_hand", T + "0/then"),
    variant=MASTER,
    marbles=[[], [20], [], []],
    hands=[["teufel", "3"], ["5", "9"], ["9"], ["9"]],
    turns=[{"seat": 0, "card": "teufel", "then": {"card": "3", "moves": [[20, 23]]}}],
)
case(
    "teufel_last_card_lapses",
    "Wird der Teufel als allerletzte Karte von fünf Runden gespielt, verfällt seine Wirkung.",
    valid(),
    variant=MASTER,
    hands=[["teufel"], [], [], []],
    turns=[discard(0, "teufel")],
)
case(
    "teufel_chooses_narr",
    "Wählt der Spieler, der den Teufel ausspielt, aus den Karten des nachfolgenden Spielers den Narren, so wird auch hier dessen Funktion ausgeführt und die Karten werden nach rechts getauscht. Anschließend darf der Spieler, der den Teufel ausgespielt hat, für den im UZS folgenden Spieler aus den neu erhaltenen Karten eine ausspielen",
    valid(),
    variant=MASTER,
    marbles=[[], [20], [], []],
    hands=[["teufel", "9"], ["narr", "9"], ["5", "3"], ["9"]],
    turns=[
        {"seat": 0, "card": "teufel", "then": {"card": "narr", "then": {"card": "5", "moves": [[20, 25]]}}},
        discard(2, "9"),
        discard(3, "9"),
    ],
)
case(
    "tac_after_teufel",
    "decision 13: A TAC after a Teufel undoes the card played through it.",
    valid(),
    variant=MASTER,
    marbles=[[], [20], [40], []],
    hands=[["teufel"], ["5", "9"], ["tac"], ["9"]],
    turns=[
        {"seat": 0, "card": "teufel", "then": {"card": "5", "moves": [[20, 25]]}},
        mv(2, "tac", (40, 45), **{"as": "5"}),
        discard(3, "9"),
        mv(1, "9", (20, 29)),
    ],
)
case(
    "teufel_chooses_tac",
    "Die TAC-Karte nach dem Teufel: ... dann darf der Spieler, dessen TAC-Karte ausgespielt wird, für den im UZS folgenden Spieler (der Teampartner des Spielers, der den Teufel ausgespielt hat) eine Karte wählen",
    valid(),
    variant=MASTER,
    marbles=[[], [], [40], []],
    hands=[["teufel"], ["tac"], ["5", "9"], ["9"]],
    turns=[
        {
            "seat": 0,
            "card": "teufel",
            "then": {"card": "tac", "as": "teufel", "then": {"card": "5", "moves": [[40, 45]]}},
        },
        discard(3, "9"),
    ],
)

case(
    "teufel_then_discard_refused",
    "Grundsätzlich gilt: Die allgemeinen Regeln gelten auch für die Meisterversion. (Wer kann – der muss! also for the card the devil plays for the victim)",
    invalid("must_play", T + "0/then"),
    variant=MASTER,
    marbles=[[], [20], [], []],
    hands=[["teufel"], ["5", "9"], ["9"], ["9"]],
    turns=[{"seat": 0, "card": "teufel", "then": {"card": "9", "discard": True}}],
)
case(
    "narr_then_discard",
    "Der Spieler, der den Narr gespielt hat, muss von seinen neu erhaltenen Karten sofort eine Karte spielen (discarded when none of them can be used)",
    valid(),
    variant=MASTER,
    hands=[["narr", "5"], ["9"], ["9"], ["9"]],
    turns=[
        {"seat": 0, "card": "narr", "then": discard(0, "9")},
        discard(1, "9"),
        discard(2, "9"),
        discard(3, "5"),
    ],
)
case(
    "tac_chain_of_four",
    "Es können auch drei oder alle vier TAC-Karten hintereinander gespielt werden.",
    valid(),
    marbles=[[], [], [], [50]],
    last=discard(0, "9"),
    hands=[["tac"], ["13", "tac"], ["tac", "9"], ["tac", "9"]],
    to_move=1,
    turns=[
        enter(1, "13"),
        enter(2, "tac", **{"as": "13"}),
        mv(3, "tac", (50, 63), **{"as": "13"}),
        enter(0, "tac", **{"as": "13"}),
        mv(1, "tac", (16, 29), **{"as": "13"}),
        discard(2, "9"),
        mv(3, "9", (63, 8)),
    ],
)
case(
    "tac_chain_of_four_twin",
    "Es können auch drei oder alle vier TAC-Karten hintereinander gespielt werden. (the fourth TAC restores the position after the third: seat 3 stands on 63, not 50)",
    invalid("illegal_move", T + "6/moves/0"),
    marbles=[[], [], [], [50]],
    last=discard(0, "9"),
    hands=[["tac"], ["13", "tac"], ["tac", "9"], ["tac", "9"]],
    to_move=1,
    turns=[
        enter(1, "13"),
        enter(2, "tac", **{"as": "13"}),
        mv(3, "tac", (50, 63), **{"as": "13"}),
        enter(0, "tac", **{"as": "13"}),
        mv(1, "tac", (16, 29), **{"as": "13"}),
        discard(2, "9"),
        mv(3, "9", (50, 59)),
    ],
)

case(
    "as_on_plain_card",
    "spec 3: A TAC card may also carry `as`, the borrowed function (only a TAC)",
    invalid("illegal_move", T + "0/as"),
    marbles=[[10], [], [], []],
    hands=[["5"], ["9"], ["9"], ["9"]],
    turns=[mv(0, "5", (10, 15), **{"as": "5"})],
)
case(
    "teufel_then_wrong_seat",
    "spec 2: Nested actions (`then`) may omit `seat`; it is checked if given. (the Teufel's card is the victim's)",
    invalid("wrong_seat", T + "0/then/seat"),
    variant=MASTER,
    marbles=[[], [20], [], []],
    hands=[["teufel"], ["5", "9"], ["9"], ["9"]],
    turns=[{"seat": 0, "card": "teufel", "then": {"seat": 0, "card": "5", "moves": [[20, 25]]}}],
)
case(
    "krieger_captures_own",
    "Der Krieger wirft die auf eine eigene Kugel folgende Spielkugel – egal welcher Farbe. Im ungünstigen Fall auch die eigene oder die des Spielpartners.",
    valid(),
    variant=MASTER,
    marbles=[[10, 20], [], [], []],
    hands=[["krieger", "9"], ["9"], ["9"], ["9"]],
    turns=[
        {"seat": 0, "card": "krieger", "strike": 10},
        discard(1, "9"),
        discard(2, "9"),
        discard(3, "9"),
        mv(0, "9", (20, 29)),
    ],
)
case(
    "engel_last_card_of_deal",
    "spec 4: the Engel also works as the last card of a deal (B is the next occupied seat, holding cards or not)",
    valid(),
    variant=MASTER,
    hands=[["engel"], [], [], []],
    turns=[enter(0, "engel")],
)
case(
    "2v1_partner_not_forced_to_tac",
    "Die TAC-Karte muß auch eingesetzt werden um den Siegeszug des gegnerischen Teams ... rückgängig zu machen. (not the own team's: seat 2 is seat 1's partner)",
    valid(True),
    variant={"mode": "2v1"},
    marbles=[[], ["H1:1", "H1:2", "H1:3", "H1:4"], [30, "H2:2", "H2:3", "H2:4"], []],
    hands=[["9"], ["3"], ["tac"], []],
    to_move=1,
    dealer=0,
    turns=[mv(1, "3", (30, "H2:1"))],
    result={"winners": [1, 2]},
)
case(
    "eight_skip_passes_empty_seat",
    "Beim Spiel zu dritt bleibt eine Farbe unbesetzt. (the 8 skips the next seat in play: seat 0 after seat 2)",
    valid(),
    variant={"mode": "ffa3"},
    marbles=[[10], [], [40], []],
    hands=[["5", "9"], ["9"], ["8"], []],
    to_move=2,
    dealer=1,
    turns=[{"seat": 2, "card": "8", "skip": True}, discard(0, "5"), discard(1, "9")],
)

case(
    "spec_example_master_sequence",
    "spec 4, third example: 8 skip, TAC as 8, Narr with then, Teufel for seat 0, Krieger (the skipped seat's TAC undoes the skip and uses the 8)",
    valid(),
    variant=MASTER,
    marbles=[[10], [20], [35], []],
    hands=[["8", "teufel"], ["tac", "13"], ["narr", "krieger"], ["5"]],
    turns=[
        {"seat": 0, "card": "8", "skip": True},
        {"seat": 1, "card": "tac", "as": "8", "moves": [[20, 28]]},
        {"seat": 2, "card": "narr", "then": {"card": "5", "moves": [[35, 40]]}},
        {"seat": 3, "card": "teufel", "then": {"card": "13", "enter": True}},
        {"seat": 1, "card": "krieger", "strike": 28},
    ],
)
case(
    "spec_example_master_sequence_twin",
    "spec 4, third example: after the Teufel played seat 0's card, seat 1 is next, not seat 0",
    invalid("wrong_seat", T + "4/seat"),
    variant=MASTER,
    marbles=[[10], [20], [35], []],
    hands=[["8", "teufel"], ["tac", "13"], ["narr", "krieger"], ["5"]],
    turns=[
        {"seat": 0, "card": "8", "skip": True},
        {"seat": 1, "card": "tac", "as": "8", "moves": [[20, 28]]},
        {"seat": 2, "card": "narr", "then": {"card": "5", "moves": [[35, 40]]}},
        {"seat": 3, "card": "teufel", "then": {"card": "13", "enter": True}},
        {"seat": 0, "card": "krieger", "strike": 0},
    ],
)

case(
    "setup_last_narr_refused",
    "spec 2: `last`: one action replayed first, for rules that refer to the previous action (a Narr is transparent, so its then is that action)",
    invalid("bad_setup", "/setup/last"),
    variant=MASTER,
    marbles=[[10], [], [], []],
    last={"seat": 3, "card": "narr", "then": {"card": "9", "discard": True}},
    hands=[["tac"], ["9"], ["9"], ["9"]],
    to_move=0,
    turns=[],
)
case(
    "setup_last_then_card",
    "Setzt der nachfolgende Spieler die TAC-Karte ein, wird nicht das Tauschen der Karten rückgängig gemacht, sondern die Aktion der Karte, die nach dem Tauschen gespielt wurde (written as `last`)",
    valid(),
    variant=MASTER,
    marbles=[[10], [], [], [40]],
    last=mv(3, "5", (40, 45)),
    hands=[["tac"], ["9"], ["9"], ["9"]],
    to_move=0,
    turns=[mv(0, "tac", (10, 15), **{"as": "5"}), discard(1, "9"), discard(2, "9"), mv(3, "9", (40, 49))],
)

# ---------------------------------------------------------------------------------------- setup and variants
case(
    "setup_two_marbles_one_field",
    "bad_setup: two marbles on one field",
    invalid("bad_setup", "/setup/marbles/1/0"),
    marbles=[[10], [10], [], []],
    hands=[["9"], ["9"], ["9"], ["9"]],
    turns=[],
)
case(
    "setup_fresh_without_marble",
    "bad_setup: fresh without the marble",
    invalid("bad_setup", "/setup/fresh/0"),
    marbles=[[10], [], [], []],
    fresh=[0],
    hands=[["9"], ["9"], ["9"], ["9"]],
    turns=[],
)
case(
    "setup_wrong_home",
    "bad_setup: a marble in another colour's home",
    invalid("bad_setup", "/setup/marbles/0/0"),
    marbles=[["H1:1"], [], [], []],
    hands=[["9"], ["9"], ["9"], ["9"]],
    turns=[],
)
case(
    "setup_fifth_tac_in_hands",
    "deck_mismatch (too many copies, as in Tac-Tik and Tock): the setup's hands hold 5 of the 4 TAC cards",
    invalid("deck_mismatch", "/setup/hands"),
    marbles=[[10], [], [], []],
    hands=[["tac", "tac"], ["tac"], ["tac"], ["tac"]],
    turns=[],
)
case(
    "setup_side_already_home",
    "bad_setup: a side already has every marble home (as in Tac-Tik and Tock)",
    invalid("bad_setup", "/setup/marbles"),
    marbles=[["H0:1", "H0:2", "H0:3", "H0:4"], [], ["H2:1", "H2:2", "H2:3", "H2:4"], []],
    hands=[["9"], ["9"], ["9"], ["9"]],
    turns=[],
)
case(
    "bad_variant_mode",
    "spec 4: mode is teams, ffa3, 2v1 or coop",
    invalid("bad_variant", "/variant/mode"),
    variant={"mode": "solo"},
    hands=[["9"], ["9"], ["9"], ["9"]],
    turns=[],
)
case(
    "ffa3_seat3_empty",
    "Beim Spiel zu dritt bleibt eine Farbe unbesetzt. Es werden keine Teams gebildet. Der Spieler, der als erster alle 4 Kugeln seiner Farbe nach Hause gebracht hat, gewinnt.",
    valid(True),
    variant={"mode": "ffa3"},
    marbles=[[62, "H0:2", "H0:3", "H0:4"], [], [], []],
    hands=[["3"], ["9"], ["9"], []],
    turns=[mv(0, "3", (62, "H0:1"))],
    result={"winners": [0]},
)
case(
    "ffa3_next_seat_tacs_win",
    "Die TAC-Karte muß auch eingesetzt werden um den Siegeszug ... rückgängig zu machen.",
    invalid("must_play", T + "1"),
    variant={"mode": "ffa3"},
    marbles=[[62, "H0:2", "H0:3", "H0:4"], [20], [], []],
    hands=[["3"], ["tac", "9"], ["9"], []],
    turns=[mv(0, "3", (62, "H0:1")), mv(1, "9", (20, 29))],
)
case(
    "ffa3_turn_passes_seat3",
    "Beim Spiel zu dritt bleibt eine Farbe unbesetzt.",
    valid(),
    variant={"mode": "ffa3"},
    marbles=[[], [], [40], []],
    hands=[["9"], ["9"], ["5"], []],
    turns=[discard(0, "9"), discard(1, "9"), mv(2, "5", (40, 45))],
)
case(
    "2v1_team_wins",
    "Die anderen beiden Spieler bilden ein ganz normales Team und sitzen gegenüber. (team {1,2} wins with 8 marbles)",
    valid(True),
    variant={"mode": "2v1"},
    marbles=[[], ["H1:1", "H1:2", "H1:3", "H1:4"], [30, "H2:2", "H2:3", "H2:4"], []],
    hands=[["9"], ["9"], ["3"], []],
    to_move=2,
    dealer=1,
    turns=[mv(2, "3", (30, "H2:1"))],
    result={"winners": [1, 2]},
)
case(
    "2v1_single_seat_wins",
    "Der Einzelspieler ... muss aber auch nur 4 Kugeln nach Hause bringen.",
    valid(True),
    variant={"mode": "2v1"},
    marbles=[[62, "H0:2", "H0:3", "H0:4"], [], [], []],
    hands=[["3"], ["9"], ["9"], []],
    turns=[mv(0, "3", (62, "H0:1"))],
    result={"winners": [0]},
)
case(
    "2v1_partner_marbles",
    "Die anderen beiden Spieler bilden ein ganz normales Team (seat 1's partner is seat 2)",
    valid(),
    variant={"mode": "2v1"},
    marbles=[[], ["H1:1", "H1:2", "H1:3", "H1:4"], [40], []],
    hands=[["9"], ["5"], ["9"], []],
    to_move=1,
    dealer=0,
    turns=[mv(1, "5", (40, 45))],
)
COOP = {"mode": "coop"}
LAST16 = [
    [62, "H0:2", "H0:3", "H0:4"],
    ["H1:1", "H1:2", "H1:3", "H1:4"],
    HOME2,
    ["H3:1", "H3:2", "H3:3", "H3:4"],
]
case(
    "coop_cards_used",
    "Welchem aus vier Spielern bestehenden Team gelingt es mit möglichst wenig Karten alle 16 Kugeln nach Hause zu bringen?",
    valid(True),
    variant=COOP,
    marbles=LAST16,
    hands=[["9", "3"], ["9"], ["9"], ["9"]],
    turns=[mv(0, "3", (62, "H0:1"))],
    result={"winners": [0, 1, 2, 3], "cards_used": 1},
)
case(
    "coop_cards_used_wrong",
    "mit möglichst wenig Karten",
    invalid("result_mismatch", "/result/cards_used"),
    variant=COOP,
    marbles=LAST16,
    hands=[["9", "3"], ["9"], ["9"], ["9"]],
    turns=[mv(0, "3", (62, "H0:1"))],
    result={"winners": [0, 1, 2, 3], "cards_used": 5},
)
case(
    "coop_any_colour",
    "Zusatzregel: Haben zwei gegenüberstehende Spieler alle 8 Kugeln in den jeweiligen Häusern, so dürfen sie mit ihren Karten alle verbliebenen Kugeln bewegen.",
    valid(),
    variant=COOP,
    marbles=[HOME0, [20], HOME2, [50]],
    hands=[["5", "9"], ["9"], ["9"], ["9"]],
    turns=[mv(0, "5", (50, 55))],
)
case(
    "coop_no_tac_against_own_team",
    "Es gibt keine Gegner (the compulsory TAC is against the opposing team only)",
    valid(True),
    variant=COOP,
    marbles=LAST16,
    hands=[["3"], ["tac"], ["9"], ["9"]],
    last=discard(3, "9"),
    to_move=0,
    turns=[mv(0, "3", (62, "H0:1"))],
    result={"winners": [0, 1, 2, 3], "cards_used": 1},
)

# coop free phase (spec 4, engine tac-3): `enter` names the colour where more than one can enter
COOP_FREE = [HOME0, [20], HOME2, [50]]
COOP_MASTER = {"mode": "coop", "master": True}
ANY_COLOUR = (
    "Spec 4 (coop): once two opposite seats have all 8 marbles home, both may bring in any colour; "
    "where more than one colour can enter, `enter` names it."
)
case(
    "coop_enter_names_colour",
    ANY_COLOUR,
    valid(),
    variant=COOP,
    marbles=COOP_FREE,
    hands=[["1", "9"], ["9"], ["9"], ["9"]],
    turns=[{"seat": 0, "card": "1", "enter": 3}, mv(1, "9", (20, 29))],
)
case(
    "coop_enter_true_ambiguous",
    ANY_COLOUR,
    invalid("illegal_move", T + "0"),
    variant=COOP,
    marbles=COOP_FREE,
    hands=[["1", "9"], ["9"], ["9"], ["9"]],
    turns=[enter(0, "1")],
)
case(
    "coop_enter_true_one_colour",
    ANY_COLOUR + " `enter: true` stays the form where only one colour can enter.",
    valid(),
    variant=COOP,
    marbles=[HOME0, [20, 21, 22, 23], HOME2, [50]],
    hands=[["13", "9"], ["9"], ["9"], ["9"]],
    turns=[enter(0, "13"), mv(1, "9", (23, 32))],
)
case(
    "coop_enter_colour_not_free",
    ANY_COLOUR + " Seat 1's pair is not home: it brings in its own colour only.",
    invalid("illegal_move", T + "0"),
    variant=COOP,
    marbles=COOP_FREE,
    hands=[["9"], ["1"], ["9"], ["9"]],
    turns=[{"seat": 1, "card": "1", "enter": 3}],
)
case(
    "coop_enter_colour_out_of_range",
    ANY_COLOUR + " A colour is 0-3.",
    invalid("malformed", T + "0"),
    variant=COOP,
    marbles=COOP_FREE,
    hands=[["1", "9"], ["9"], ["9"], ["9"]],
    turns=[{"seat": 0, "card": "1", "enter": 4}],
)
case(
    "teams_enter_names_own_colour",
    "`enter` may name the one colour that can enter.",
    valid(),
    hands=[["1"], ["9"], ["9"], ["9"]],
    turns=[{"seat": 0, "card": "1", "enter": 0}],
)
case(
    "coop_engel_enters_any_colour",
    ANY_COLOUR + " An Engel acting for such a seat may likewise bring in any colour.",
    valid(),
    variant=COOP_MASTER,
    marbles=COOP_FREE,
    hands=[["9"], ["9"], ["9"], ["engel", "9"]],
    turns=[{"seat": 3, "card": "engel", "enter": 1}],
)
case(
    "coop_engel_moves_any_colour",
    ANY_COLOUR + " With every prefield empty the Engel moves a marble of any colour not home.",
    valid(),
    variant=COOP_MASTER,
    marbles=[HOME0, [20, 21, 22, 23], HOME2, [50, 51, 52, 53]],
    hands=[["9"], ["9"], ["9"], ["engel", "9"]],
    turns=[{"seat": 3, "card": "engel", "moves": [[23, 24]]}],
)
case(
    "coop_engel_must_enter_some_colour",
    ANY_COLOUR + " Entering stays compulsory while a prefield it may take from holds marbles.",
    invalid("illegal_move", T + "0"),
    variant=COOP_MASTER,
    marbles=[HOME0, [20, 21, 22, 23], HOME2, [50]],
    hands=[["9"], ["9"], ["9"], ["engel", "9"]],
    turns=[{"seat": 3, "card": "engel", "moves": [[23, 24]]}],
)


def deferred_excess_case(extra: bool) -> None:
    """Five TAC cards in one cycle, the fifth dealt in a deal that does not close the cycle."""
    setup = {"hands": [["tac"], ["tac"], ["tac"], ["9"]], "dealer": 3, "deal_index": 2, "to_move": 0}
    turns0 = [discard(0, "tac"), discard(1, "tac"), discard(2, "tac"), discard(3, "9")]
    quiet = ["2", "3", "5", "6", "10"]
    hands1 = [["tac", "tac" if extra else "9", "2", "3", "5"], quiet[:], quiet[:], quiet[:]]
    gives1 = ["2", "2", "2", "2"]
    after = [h[:] for h in hands1]
    for seat in range(4):
        after[seat].remove(gives1[seat])
        after[(seat + 2) % 4].append(gives1[seat])
    turns1 = []
    order = [1, 2, 3, 0]  # dealer 0 deals the second deal; seat 1 starts
    for round_ in range(5):
        for seat in order:
            turns1.append(discard(seat, after[seat][round_]))
    hands2 = [
        ["12", "12", "12", "12", "12"],
        ["9", "9", "9", "9", "9"],
        ["4", "4", "4", "4", "4"],
        ["8", "8", "8", "8", "8"],
    ]
    doc = {
        "format": "game-record/1",
        "game": "tac",
        "players": players(None),
        "setup": setup,
        "deals": [
            {"turns": turns0},
            {"hands": hands1, "exchange": gives1, "turns": turns1},
            {"hands": hands2, "exchange": ["12", "9", "4", "8"], "turns": []},
        ],
        "comment": "spec 2: Deck-cycle errors point to the deal closing the cycle (the fifth TAC comes in deal 1, deal 2 closes the cycle)",
        "x_expect": invalid("deck_mismatch", "/deals/2/hands") if extra else valid(False),
    }
    CASES["too_many_copies_reported_at_cycle_end" if extra else "four_tacs_in_a_cycle"] = doc


# ---------------------------------------------------------------------------------------- full deals
def full_game_cases() -> None:
    sys.path.insert(0, str(ROOT))
    from rules.tac import ENGINE  # noqa: PLC0415 - the random game is only a scaffold of real deals

    def add(name: str, comment: str, doc: dict[str, Any], expect: dict[str, Any]) -> None:
        doc = copy.deepcopy(doc)
        doc["comment"] = comment
        doc["x_expect"] = expect
        CASES[name] = doc

    for mode, master in (("teams", False), ("teams", True), ("ffa3", False), ("2v1", True), ("coop", False)):
        variant = {"mode": mode, "master": master}
        game = ENGINE.random_record(variant, random.Random(7))
        expect = valid(True)
        add(f"random_{mode}_{'master' if master else 'basic'}", "a whole seeded random game", game, expect)
    base = ENGINE.random_record({}, random.Random(11))
    two = copy.deepcopy(base)
    two["players"] = [{"name": "A", "seats": [0, 2]}, {"name": "B", "seats": [1, 3]}]
    add(
        "two_players_two_colours",
        "Das Spiel zu zweit: ... jeder Spieler übernimmt hierbei ein Team, bestehend aus 2 Spielfarben.",
        two,
        valid(True),
    )
    part = copy.deepcopy(base)
    part["deals"] = part["deals"][:2]
    del part["result"]
    add("deals_partial", "Partial records are valid.", part, valid(False))
    d = copy.deepcopy(part)
    seat = 1
    d["deals"][0]["announce"][seat] = not d["deals"][0]["announce"][seat]
    add(
        "false_announcement",
        "Jeder Spieler teilt für alle hörbar mit, ob er eine Eröffnungskarte auf der Hand hält.",
        d,
        invalid("false_announcement", "/deals/0/announce/1"),
    )
    d = copy.deepcopy(part)
    hand = d["deals"][0]["hands"][2]
    d["deals"][0]["exchange"][2] = next(c for c in ("1", "2", "3", "5", "6", "9", "10") if c not in hand)
    add(
        "exchange_not_in_hand",
        "Nun tauscht jeder Spieler mit seinem Teampartner verdeckt eine Karte aus.",
        d,
        invalid("bad_exchange", "/deals/0/exchange/2"),
    )
    d = copy.deepcopy(part)
    del d["deals"][1]["exchange"]
    add(
        "exchange_missing",
        "Nun tauscht jeder Spieler mit seinem Teampartner verdeckt eine Karte aus.",
        d,
        invalid("bad_exchange", "/deals/1"),
    )
    d = copy.deepcopy(part)
    d["deals"][1]["hands"][3] = d["deals"][1]["hands"][3][:4]
    add(
        "hand_too_small",
        "teilt im UZS an jeden Spieler fünf Karten verdeckt aus",
        d,
        invalid("deck_mismatch", "/deals/1/hands/3"),
    )
    d = copy.deepcopy(part)
    d["deals"][1]["dealer"] = (d["deals"][0]["dealer"] + 2) % 4
    add(
        "wrong_dealer",
        "legt den Reststapel zum Spieler zu seiner Linken (der als Nächster austeilen wird)",
        d,
        invalid("deck_mismatch", "/deals/1/dealer"),
    )
    d = copy.deepcopy(part)
    d["deals"][0]["turns"] = d["deals"][0]["turns"][:-1]
    add(
        "deal_unfinished",
        "Nach fünf Runden sind alle auf der Hand gehaltenen Karten ausgespielt.",
        d,
        invalid("missing_action", "/deals/0/turns"),
    )
    d = copy.deepcopy(part)
    d["deals"][0]["hands"][0][0] = "joker"
    add("unknown_card_in_hand", "104 Spielkarten", d, invalid("unknown_card", "/deals/0/hands/0/0"))
    # a whole cycle with one card too many: replace a card of deal 1 by a fifth copy of tac
    cyc = copy.deepcopy(base)
    tacs = sum(h.count("tac") for deal in cyc["deals"][:5] for h in deal["hands"])
    cyc["deals"] = cyc["deals"][:5]
    del cyc["result"]
    hand = cyc["deals"][4]["hands"][0]
    for _ in range(5 - tacs):
        idx = next(i for i, c in enumerate(hand) if c != "tac")
        hand[idx] = "tac"
    add(
        "too_many_copies",
        "104 Spielkarten (... 4 TAC cards in a deck)",
        cyc,
        invalid("deck_mismatch", "/deals/4/hands"),
    )


def main() -> None:
    full_game_cases()
    deferred_excess_case(True)
    deferred_excess_case(False)
    OUT.mkdir(parents=True, exist_ok=True)
    for old in OUT.glob("*.json"):
        old.unlink()
    for name, doc in CASES.items():
        (OUT / f"{name}.json").write_text(
            json.dumps(doc, ensure_ascii=False, indent=1) + "\n", encoding="utf-8"
        )
    print(f"{len(CASES)} records written to {OUT}")


if __name__ == "__main__":
    main()
