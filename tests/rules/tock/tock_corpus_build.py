"""Writes the Tock golden corpus in tests/rules/records/tock/ (run: python tests/rules/tock/tock_corpus_build.py).

Every expected verdict below is written by hand from the rule text, never computed by the engine; the
corpus test replays the files and compares. Each rule has a valid record and at least one invalid twin.
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[3]
OUT = ROOT / "tests" / "rules" / "records" / "tock"

Json = dict[str, Any]


def valid(complete: bool = False) -> Json:
    return {"valid": True, "complete": complete}


def invalid(code: str, path: str) -> Json:
    return {"valid": False, "code": code, "path": path}


def players(n: int) -> list[Json]:
    return [{"name": f"P{s}", "seats": [s]} for s in range(n)]


def setup(
    marbles: list[list[Any]],
    hands: list[list[str]],
    *,
    dealer: int = 3,
    fresh: list[int] | None = None,
    to_move: int | None = None,
    deal_index: int | None = None,
    last: Json | None = None,
) -> Json:
    out: Json = {"marbles": marbles, "hands": hands, "dealer": dealer}
    if fresh is not None:
        out["fresh"] = fresh
    if to_move is not None:
        out["to_move"] = to_move
    if deal_index is not None:
        out["deal_index"] = deal_index
    if last is not None:
        out["last"] = last
    return out


def mv(seat: int, card: str, *segments: list[Any]) -> Json:
    return {"seat": seat, "card": card, "moves": [list(s) for s in segments]}


def enter(seat: int, card: str) -> Json:
    return {"seat": seat, "card": card, "enter": True}


def swap(seat: int, a: Any, b: Any) -> Json:
    return {"seat": seat, "card": "J", "swap": [a, b]}


def discard(seat: int, card: str) -> Json:
    return {"seat": seat, "card": card, "discard": True}


CORPUS: dict[str, Json] = {}


def record(
    name: str,
    comment: str,
    expect: Json,
    *,
    turns: list[Json] | None = None,
    setup_: Json | None = None,
    variant: Json | None = None,
    deals: list[Json] | None = None,
    result: Json | None = None,
    n: int = 4,
) -> None:
    assert name not in CORPUS, name
    doc: Json = {"format": "game-record/1", "game": "tock"}
    if variant is not None:
        doc["variant"] = variant
    doc["players"] = players(n)
    if setup_ is not None:
        doc["setup"] = setup_
    doc["deals"] = deals if deals is not None else [{"turns": turns or []}]
    if result is not None:
        doc["result"] = result
    doc["comment"] = comment
    doc["x_expect"] = expect
    CORPUS[name] = doc


E4: list[list[Any]] = [[], [], [], []]
NO: list[str] = []
T0 = "/deals/0/turns/0"
T1 = "/deals/0/turns/1"
T2 = "/deals/0/turns/2"
T3 = "/deals/0/turns/3"


def cards_rules() -> None:
    q_enter = "As: Bringe eine Spielfigur aus dem Startbereich auf das Startfeld, oder ziehe eine Spielfigur um ein Feld weiter."
    record("enter_ace_valid", q_enter, valid(), setup_=setup(E4, [["A"], NO, NO, NO]), turns=[enter(0, "A")])
    record(
        "enter_with_five_invalid",
        q_enter + " Only A and K bring a marble in.",
        invalid("illegal_move", T0),
        setup_=setup(E4, [["5"], NO, NO, NO]),
        turns=[enter(0, "5")],
    )
    q_king = "König: Bringe eine Figur aus dem Startbereich auf das Startfeld, oder ziehe eine Figur um 13 Felder weiter."
    record(
        "king_moves_13_valid",
        q_king,
        valid(),
        setup_=setup([[3], [], [], []], [["K"], NO, NO, NO]),
        turns=[mv(0, "K", [3, 16])],
    )
    record(
        "king_moves_12_invalid",
        q_king,
        invalid("illegal_move", T0),
        setup_=setup([[3], [], [], []], [["K"], NO, NO, NO]),
        turns=[mv(0, "K", [3, 15])],
    )
    record(
        "ace_moves_1_valid",
        q_enter,
        valid(),
        setup_=setup([[3, 5, 7, 9], [], [], []], [["A"], NO, NO, NO]),
        turns=[mv(0, "A", [3, 4])],
    )
    record(
        "ace_enter_all_out_invalid",
        q_enter + " No marble is left in the start area.",
        invalid("illegal_move", T0),
        setup_=setup([[3, 5, 7, 9], [], [], []], [["A"], NO, NO, NO]),
        turns=[enter(0, "A")],
    )
    q_queen = "Dame: Ziehe eine Figur 12 Felder weiter"
    record(
        "queen_moves_12_valid",
        q_queen,
        valid(),
        setup_=setup([[3], [], [], []], [["Q"], NO, NO, NO]),
        turns=[mv(0, "Q", [3, 15])],
    )
    record(
        "queen_moves_13_invalid",
        q_queen,
        invalid("illegal_move", T0),
        setup_=setup([[3], [], [], []], [["Q"], NO, NO, NO]),
        turns=[mv(0, "Q", [3, 16])],
    )
    q_plain = "Die in der Liste nicht genannten Karten erlauben, eine Figur um so viele Felder zu bewegen, wie der Wert der Karte angibt."
    record(
        "nine_moves_9_valid",
        q_plain,
        valid(),
        setup_=setup([[40], [], [], []], [["9"], NO, NO, NO]),
        turns=[mv(0, "9", [40, 49])],
    )
    record(
        "nine_two_segments_invalid",
        q_plain + " Only the 7 may have more than one segment.",
        invalid("illegal_move", T0),
        setup_=setup([[40, 20], [], [], []], [["9"], NO, NO, NO]),
        turns=[mv(0, "9", [40, 45], [20, 24])],
    )
    record(
        "nine_backward_invalid",
        q_plain + " Solange nichts anderes gesagt wird, erfolgen Bewegungen immer im Uhrzeigersinn.",
        invalid("illegal_move", T0),
        setup_=setup([[40], [], [], []], [["9"], NO, NO, NO]),
        turns=[mv(0, "9", [40, 31])],
    )
    record(
        "move_other_colour_invalid",
        "Seat s plays colour s (spec section 2); a ffa seat never moves another colour.",
        invalid("illegal_move", "/deals/0/turns/0/moves/0"),
        setup_=setup([[40], [20], [], []], [["5"], NO, NO, NO]),
        turns=[mv(0, "5", [20, 25])],
    )
    record(
        "unknown_card_invalid",
        "Ranks only: A 2…10 J Q K (spec section 6).",
        invalid("unknown_card", "/deals/0/turns/0/card"),
        setup_=setup([[40], [], [], []], [["5"], NO, NO, NO]),
        turns=[mv(0, "11", [40, 51])],
    )


def four_rules() -> None:
    q = (
        "4: Ziehe eine Spielfigur vier Felder rückwärts, gegen den Uhrzeigersinn. Es ist nicht erlaubt, rückwärts in "
        "den Zielbereich zu ziehen. Und es ist nicht erlaubt, rückwärts aus dem Zielbereich hinaus zu ziehen"
    )
    record(
        "four_back_past_own_start_valid",
        q + " (2 -> 62 passes the start field on the ring)",
        valid(),
        setup_=setup([[2], [], [], []], [["4"], NO, NO, NO]),
        turns=[mv(0, "4", [2, 62])],
    )
    record(
        "four_back_into_goal_invalid",
        q,
        invalid("illegal_move", "/deals/0/turns/0/moves/0"),
        setup_=setup([[2], [], [], []], [["4"], NO, NO, NO]),
        turns=[mv(0, "4", [2, "H0:2"])],
    )
    record(
        "four_forward_invalid",
        q,
        invalid("illegal_move", "/deals/0/turns/0/moves/0"),
        setup_=setup([[20], [], [], []], [["4"], NO, NO, NO]),
        turns=[mv(0, "4", [20, 24])],
    )
    record(
        "four_out_of_goal_invalid",
        q + " Daheim ist Daheim!",
        invalid("illegal_move", "/deals/0/turns/0/moves/0"),
        setup_=setup([["H0:3", 20], [], [], []], [["4"], NO, NO, NO]),
        turns=[mv(0, "4", ["H0:3", 63])],
    )
    record(
        "four_goal_marble_only_discard_valid",
        q + " A goal marble cannot move back, so the 4 is discarded.",
        valid(),
        setup_=setup([["H0:3"], [], [], []], [["4"], NO, NO, NO]),
        turns=[discard(0, "4")],
    )
    record(
        "four_goal_marble_down_slots_invalid",
        q + " Not even inside the goal.",
        invalid("illegal_move", "/deals/0/turns/0/moves/0"),
        setup_=setup([["H0:4"], [], [], []], [["4"], NO, NO, NO]),
        turns=[mv(0, "4", ["H0:4", "H0:1"])],
    )
    trick = (
        "Rule decision 3: once a marble has left its start field it may enter the goal, so the 4-back trick works. "
        "Sobald eine Figur das Startfeld verlässt, endet der Schutz"
    )
    record(
        "four_back_trick_valid",
        trick,
        valid(),
        setup_=setup([[0], [], [], []], [["4", "5"], NO, NO, NO], fresh=[0]),
        turns=[mv(0, "4", [0, 60]), mv(0, "5", [60, "H0:1"])],
    )
    record(
        "protected_enters_goal_invalid",
        "Rule decision 3: protected marbles cannot enter the goal. "
        "Jeder Spieler … muss [Figuren] um das Feld herumführen und dann ins Ziel führen",
        invalid("illegal_move", "/deals/0/turns/0/moves/0"),
        setup_=setup([[0], [], [], []], [["3"], NO, NO, NO], fresh=[0]),
        turns=[mv(0, "3", [0, "H0:3"])],
    )
    record(
        "unprotected_on_start_enters_goal_valid",
        "A marble that came round and stands on its start field unprotected "
        "enters the goal from there (spec: the goal is entered from S_k).",
        valid(),
        setup_=setup([[0], [], [], []], [["3"], NO, NO, NO]),
        turns=[mv(0, "3", [0, "H0:3"])],
    )


def protection_rules() -> None:
    q = (
        "Startfeld: Auf diesem Feld ist sie zunächst geschützt. Sie kann nicht geschlagen, nicht überholt und nicht "
        "ausgetauscht (siehe Bube) werden."
    )
    record(
        "pass_unprotected_start_valid",
        q + " An unprotected marble on a start field may be passed.",
        valid(),
        setup_=setup([[0], [], [], [62]], [NO, NO, NO, ["5"]], dealer=2),
        turns=[mv(3, "5", [62, 3])],
    )
    record(
        "pass_protected_invalid",
        q,
        invalid("illegal_move", "/deals/0/turns/0/moves/0"),
        setup_=setup([[0], [], [], [62]], [NO, NO, NO, ["5"]], dealer=2, fresh=[0]),
        turns=[mv(3, "5", [62, 3])],
    )
    record(
        "capture_unprotected_on_start_valid",
        q + " Landing captures an unprotected marble, even on a start field.",
        valid(),
        setup_=setup([[0], [], [], [62]], [NO, NO, NO, ["2"]], dealer=2),
        turns=[mv(3, "2", [62, 0])],
    )
    record(
        "capture_protected_invalid",
        q,
        invalid("illegal_move", "/deals/0/turns/0/moves/0"),
        setup_=setup([[0], [], [], [62]], [NO, NO, NO, ["2"]], dealer=2, fresh=[0]),
        turns=[mv(3, "2", [62, 0])],
    )
    record(
        "pass_protected_backward_invalid",
        q + " Spec: no passing a protected marble in either direction.",
        invalid("illegal_move", "/deals/0/turns/0/moves/0"),
        setup_=setup([[], [18, 16], [], []], [NO, ["4"], NO, NO], dealer=0, fresh=[1]),
        turns=[mv(1, "4", [18, 14])],
    )
    record(
        "pass_unprotected_backward_valid",
        q + " Without protection the 4 passes the start field.",
        valid(),
        setup_=setup([[], [18, 16], [], []], [NO, ["4"], NO, NO], dealer=0),
        turns=[mv(1, "4", [18, 14])],
    )
    ends = (
        q
        + " Sobald eine Figur das Startfeld verlässt, endet der Schutz, auch wenn sie wieder dorthin zurückkehrt!"
    )
    record(
        "protection_ends_for_good_valid",
        ends + " (0 -> 1 -> 4 -> 0, then captured)",
        valid(),
        setup_=setup(
            [[0], [], [], [50]], [["A", "3", "4"], NO, NO, ["5", "5", "2", "2"]], dealer=3, fresh=[0]
        ),
        turns=[
            mv(0, "A", [0, 1]),
            mv(3, "5", [50, 55]),
            mv(0, "3", [1, 4]),
            mv(3, "5", [55, 60]),
            mv(0, "4", [4, 0]),
            mv(3, "2", [60, 62]),
            mv(3, "2", [62, 0]),
        ],
    )
    record(
        "protection_never_left_invalid",
        ends + " Twin: the marble never left its start field.",
        invalid("illegal_move", "/deals/0/turns/1/moves/0"),
        setup_=setup([[0], [], [], [60]], [NO, NO, NO, ["2", "2"]], dealer=2, fresh=[0]),
        turns=[mv(3, "2", [60, 62]), mv(3, "2", [62, 0])],
    )
    record(
        "enter_captures_unprotected_valid",
        "Wenn das Startfeld eines Spielers von einer anderen Figur besetzt ist und "
        "sie eine Startkarte ausspielt, so wird ebenfalls geschlagen.",
        valid(),
        setup_=setup([[], [0, 20, 30, 40], [], []], [["K"], ["K"], NO, NO], dealer=3),
        turns=[enter(0, "K"), enter(1, "K")],
    )
    record(
        "enter_captures_twin_invalid",
        "Twin of enter_captures_unprotected: without the capture seat 1 still has all "
        "4 marbles out and cannot enter.",
        invalid("illegal_move", "/deals/0/turns/1/enter"),
        setup_=setup([[], [1, 20, 30, 40], [], []], [["K"], ["K"], NO, NO], dealer=3),
        turns=[enter(0, "K"), enter(1, "K")],
    )
    record(
        "enter_onto_protected_invalid",
        "Spec section 6: enter is impossible onto a protected marble.",
        invalid("illegal_move", "/deals/0/turns/0/enter"),
        setup_=setup([[0], [], [], []], [["A"], NO, NO, NO], fresh=[0]),
        turns=[enter(0, "A")],
    )
    record(
        "enter_captures_own_valid",
        "Alle Figuren, die auf dem Spielkreis stehen, können geschlagen werden, auch eigene. "
        "(entering onto one's own unprotected marble captures it)",
        valid(),
        setup_=setup([[0], [], [], []], [["A"], NO, NO, NO]),
        turns=[enter(0, "A")],
    )
    record(
        "quick_start_protected_swap_invalid",
        "Rule decision 7: quick-start marbles are protected; "
        "Schnellstart-Variante, bei der bereits eine Figur zu Spielbeginn auf dem Startfeld steht.",
        invalid("illegal_move", "/deals/0/turns/0/swap"),
        variant={"quick_start": True},
        deals=[
            {
                "dealer": 0,
                "hands": [
                    ["2", "3", "5", "6", "8"],
                    ["J", "2", "3", "5", "6"],
                    ["A", "2", "3", "5", "6"],
                    ["K", "8", "9", "9", "9"],
                ],
                "turns": [swap(1, 16, 32)],
            }
        ],
    )
    record(
        "quick_start_first_move_valid",
        "Schnellstart: one marble already on the start field; it may move at once.",
        valid(),
        variant={"quick_start": True},
        deals=[
            {
                "dealer": 0,
                "hands": [
                    ["2", "3", "5", "6", "8"],
                    ["J", "2", "3", "5", "6"],
                    ["A", "2", "3", "5", "6"],
                    ["K", "8", "9", "9", "9"],
                ],
                "turns": [mv(1, "5", [16, 21])],
            }
        ],
    )


def capture_rules() -> None:
    q = (
        "Wenn eine Figur auf ein Feld gezogen wird, auf dem bereits eine andere Figur steht, so wird diese Figur geschlagen "
        "und zurück in ihren Startbereich gestellt. Alle Figuren, die auf dem Spielkreis stehen, können geschlagen werden, "
        "auch eigene oder die der Teampartnerin."
    )
    record(
        "capture_own_then_enter_valid",
        q + " (the captured own marble can enter again)",
        valid(),
        setup_=setup([[5, 8, 20, 30], [], [], []], [["3", "A"], NO, NO, NO]),
        turns=[mv(0, "3", [5, 8]), enter(0, "A")],
    )
    record(
        "no_capture_then_enter_invalid",
        q + " Twin: nothing captured, all 4 marbles out, no enter.",
        invalid("illegal_move", "/deals/0/turns/1/enter"),
        setup_=setup([[5, 9, 20, 30], [], [], []], [["3", "A"], NO, NO, NO]),
        turns=[mv(0, "3", [5, 8]), enter(0, "A")],
    )
    record(
        "capture_opponent_valid",
        q,
        valid(),
        setup_=setup([[5], [8], [], []], [["3"], ["A"], NO, NO]),
        turns=[mv(0, "3", [5, 8]), enter(1, "A")],
    )
    record(
        "captured_marble_moved_invalid",
        q + " The captured marble is back in the start area.",
        invalid("illegal_move", "/deals/0/turns/1/moves/0"),
        setup_=setup([[5], [8], [], []], [["3"], ["A"], NO, NO]),
        turns=[mv(0, "3", [5, 8]), mv(1, "A", [8, 9])],
    )
    p = (
        "Normalerweise ist es kein Problem, an anderen Figuren vorbei zu ziehen. Das besetzte Feld wird einfach wie ein "
        "leeres Feld gezählt."
    )
    record(
        "pass_marble_no_capture_valid",
        p,
        valid(),
        setup_=setup([[5], [10], [], []], [["8"], ["A"], NO, NO]),
        turns=[mv(0, "8", [5, 13]), mv(1, "A", [10, 11])],
    )
    record(
        "passed_marble_not_captured_invalid",
        p + " Twin: the passed marble is still there, so seat 1 may not enter a fifth marble.",
        invalid("illegal_move", "/deals/0/turns/1/enter"),
        setup_=setup([[5], [10, 20, 30, 40], [], []], [["8"], ["A"], NO, NO]),
        turns=[mv(0, "8", [5, 13]), enter(1, "A")],
    )


def goal_rules() -> None:
    q = (
        "Der Zielbereich: Sie werden von dem Feld aus betreten, das sich direkt vor dem Zielbereich befindet. Um in den "
        "Zielbereich zu kommen, darf die ausgespielte Karte nicht zu groß sein. Man muss immer so weit ziehen, wie es die "
        "Karte vorschreibt."
    )
    record(
        "exact_goal_entry_valid",
        q + " (62 -> 63, 0, H0:1..H0:4 = 6)",
        valid(),
        setup_=setup([[62], [], [], []], [["6"], NO, NO, NO]),
        turns=[mv(0, "6", [62, "H0:4"])],
    )
    record(
        "goal_entry_too_far_invalid",
        q + " 8 from 62 cannot stop in the goal.",
        invalid("illegal_move", "/deals/0/turns/0/moves/0"),
        setup_=setup([[62], [], [], []], [["8"], NO, NO, NO]),
        turns=[mv(0, "8", [62, "H0:4"])],
    )
    record(
        "goal_too_far_continues_on_ring_valid",
        q + " Ist das zu viel, kann man den Zielbereich nicht betreten und muss auf dem Kreis weiterziehen.",
        valid(),
        setup_=setup([[62], [], [], []], [["8"], NO, NO, NO]),
        turns=[mv(0, "8", [62, 6])],
    )
    record(
        "goal_choice_ring_valid",
        q + " A card that fits may also pass the goal on the ring.",
        valid(),
        setup_=setup([[62], [], [], []], [["5"], NO, NO, NO]),
        turns=[mv(0, "5", [62, 3])],
    )
    j = "Im Ziel kann nicht übersprungen werden. (rule decision 4: goal marbles move only forward, without jumping)"
    record(
        "goal_jump_invalid",
        j,
        invalid("illegal_move", "/deals/0/turns/0/moves/0"),
        setup_=setup([["H0:1", "H0:2"], [], [], []], [["2"], NO, NO, NO]),
        turns=[mv(0, "2", ["H0:1", "H0:3"])],
    )
    record(
        "goal_forward_no_jump_valid",
        j,
        valid(),
        setup_=setup([["H0:1", "H0:2"], [], [], []], [["2"], NO, NO, NO]),
        turns=[mv(0, "2", ["H0:2", "H0:4"])],
    )
    record(
        "goal_entry_jump_invalid",
        j + " Entering the goal past an occupied goal field is jumping.",
        invalid("illegal_move", "/deals/0/turns/0/moves/0"),
        setup_=setup([[62, "H0:1"], [], [], []], [["5"], NO, NO, NO]),
        turns=[mv(0, "5", [62, "H0:3"])],
    )
    record(
        "goal_field_occupied_invalid",
        "No capture in the goal: landing on an occupied goal field is impossible.",
        invalid("illegal_move", "/deals/0/turns/0/moves/0"),
        setup_=setup([[62, "H0:3"], [], [], []], [["5"], NO, NO, NO]),
        turns=[mv(0, "5", [62, "H0:3"])],
    )
    record(
        "other_goal_invalid",
        "Only the own goal (the marble's colour) can be entered.",
        invalid("illegal_move", "/deals/0/turns/0/moves/0"),
        setup_=setup([[14], [], [], []], [["3"], NO, NO, NO]),
        turns=[mv(0, "3", [14, "H1:1"])],
    )


def seven_rules() -> None:
    q = (
        "7 Standardverhalten: Mit der 7 spielt man sieben Bewegungen um je ein Feld. Das kann mit einer einzelnen Figur "
        "geschehen, oder auf mehrere Figuren verteilt werden. Alle sieben Bewegungen müssen ausgeführt werden, auch wenn "
        "es wehtut."
    )
    record(
        "seven_split_valid",
        q,
        valid(),
        setup_=setup([[10, 20], [], [], []], [["7"], NO, NO, NO]),
        turns=[mv(0, "7", [10, 13], [20, 24])],
    )
    record(
        "seven_split_six_invalid",
        q,
        invalid("illegal_move", "/deals/0/turns/0/moves"),
        setup_=setup([[10, 20], [], [], []], [["7"], NO, NO, NO]),
        turns=[mv(0, "7", [10, 13], [20, 23])],
    )
    record(
        "seven_split_eight_invalid",
        q,
        invalid("illegal_move", "/deals/0/turns/0/moves/1"),
        setup_=setup([[10, 20], [], [], []], [["7"], NO, NO, NO]),
        turns=[mv(0, "7", [10, 13], [20, 25])],
    )
    record(
        "seven_single_marble_valid",
        q,
        valid(),
        setup_=setup([[10], [], [], []], [["7"], NO, NO, NO]),
        turns=[mv(0, "7", [10, 17])],
    )
    c = q + (
        " Weil sieben Einzelschritte ausgeführt werden, schlägt eine Figur, die mehrere dieser Schritte macht, alle "
        "Figuren, die auf ihrem Weg stehen."
    )
    record(
        "seven_captures_passed_valid",
        c,
        valid(),
        setup_=setup([[10], [12, 20, 30, 40], [], []], [["7"], ["K"], NO, NO]),
        turns=[mv(0, "7", [10, 17]), enter(1, "K")],
    )
    record(
        "seven_passed_marble_gone_invalid",
        c,
        invalid("illegal_move", "/deals/0/turns/1/moves/0"),
        setup_=setup([[10], [12, 20, 30, 40], [], []], [["7"], ["K"], NO, NO]),
        turns=[mv(0, "7", [10, 17]), mv(1, "K", [12, 25])],
    )
    record(
        "seven_captures_own_valid",
        c + " Own marbles on the way are captured too.",
        valid(),
        setup_=setup([[10, 12, 30, 40], [], [], []], [["7", "A"], NO, NO, NO]),
        turns=[mv(0, "7", [10, 17]), enter(0, "A")],
    )
    record(
        "seven_past_protected_invalid",
        "Three exceptions to passing: (1) das Startfeld … (2) die Sieben … "
        "A protected marble stops even the 7.",
        invalid("illegal_move", "/deals/0/turns/0/moves/0"),
        setup_=setup([[12], [16], [], []], [["7"], NO, NO, NO], fresh=[1]),
        turns=[mv(0, "7", [12, 19])],
    )
    record(
        "seven_segment_order_valid",
        q + " Segments apply in order: 12 moves away before 10 passes its field.",
        valid(),
        setup_=setup([[10, 12], [], [], []], [["7"], NO, NO, NO]),
        turns=[mv(0, "7", [12, 15], [10, 14])],
    )
    record(
        "seven_moves_captured_marble_invalid",
        q + " Segments apply in order; a marble captured by an earlier segment cannot move.",
        invalid("illegal_move", "/deals/0/turns/0/moves/1"),
        setup_=setup([[10, 12], [], [], []], [["7"], NO, NO, NO]),
        turns=[mv(0, "7", [10, 14], [12, 15])],
    )
    record(
        "seven_split_into_goal_valid",
        q + " Steps may go into the goal and on inside it.",
        valid(),
        setup_=setup([[62, "H0:1"], [], [], []], [["7"], NO, NO, NO]),
        turns=[mv(0, "7", ["H0:1", "H0:4"], [62, "H0:2"])],
    )
    single = (
        "Option 1-7, nur eine Figur: Die Einzelschritte der 7 können nicht mehr auf mehrere Figuren verteilt werden. "
        "Dafür bekommt man die Möglichkeit, überzählige Züge der 7 verfallen zu lassen. (rule decision 6)"
    )
    record(
        "seven_single_lapse_valid",
        single,
        valid(),
        variant={"seven": "single"},
        setup_=setup([[10, 20], [], [], []], [["7"], NO, NO, NO]),
        turns=[mv(0, "7", [10, 14])],
    )
    record(
        "seven_single_split_invalid",
        single,
        invalid("illegal_move", "/deals/0/turns/0/moves/1"),
        variant={"seven": "single"},
        setup_=setup([[10, 20], [], [], []], [["7"], NO, NO, NO]),
        turns=[mv(0, "7", [10, 13], [20, 24])],
    )
    record(
        "seven_split_lapse_invalid",
        q + " Without the option the rest cannot lapse.",
        invalid("illegal_move", "/deals/0/turns/0/moves"),
        setup_=setup([[10, 20], [], [], []], [["7"], NO, NO, NO]),
        turns=[mv(0, "7", [10, 14])],
    )
    record(
        "seven_single_captures_valid",
        single + " Rule decision 6: it still captures every marble it passes.",
        valid(),
        variant={"seven": "single"},
        setup_=setup([[10], [12, 20, 30, 40], [], []], [["7"], ["K"], NO, NO]),
        turns=[mv(0, "7", [10, 15]), enter(1, "K")],
    )
    record(
        "seven_single_captures_invalid",
        single + " Twin: the passed marble is gone and cannot move.",
        invalid("illegal_move", "/deals/0/turns/1/moves/0"),
        variant={"seven": "single"},
        setup_=setup([[10], [12, 20, 30, 40], [], []], [["7"], ["K"], NO, NO]),
        turns=[mv(0, "7", [10, 15]), mv(1, "K", [12, 25])],
    )


def ten_rules() -> None:
    q = (
        "10: Man zieht eine Figur um zehn Felder weiter. Zusätzlich bekommt der nächste Spieler ein Bewegungsverbot und muss "
        "darum eine Karte ungenutzt abwerfen."
    )
    record(
        "ten_ban_discard_valid",
        q,
        valid(),
        setup_=setup([[5], [20], [], []], [["10"], ["5", "6"], NO, NO]),
        turns=[mv(0, "10", [5, 15]), discard(1, "5")],
    )
    record(
        "ten_banned_moves_invalid",
        q,
        invalid("illegal_move", T1),
        setup_=setup([[5], [20], [], []], [["10"], ["5", "6"], NO, NO]),
        turns=[mv(0, "10", [5, 15]), mv(1, "5", [20, 25])],
    )
    d = (
        q
        + " Dieses Bewegungsverbot entsteht selbst dann, wenn die 10 nicht genutzt werden konnte, sondern selbst abgeworfen wurde."
    )
    record(
        "ten_discarded_bans_valid",
        d,
        valid(),
        setup_=setup([[], [20], [], []], [["10"], ["5"], NO, NO]),
        turns=[discard(0, "10"), discard(1, "5")],
    )
    record(
        "ten_discarded_bans_invalid",
        d,
        invalid("illegal_move", T1),
        setup_=setup([[], [20], [], []], [["10"], ["5"], NO, NO]),
        turns=[discard(0, "10"), mv(1, "5", [20, 25])],
    )
    chain = "Rule decision 5: bans chain. A 10 discarded under a ban bans again."
    record(
        "ten_ban_chain_valid",
        chain,
        valid(),
        setup_=setup([[5], [20], [36], []], [["10"], ["10", "3"], ["5"], NO]),
        turns=[mv(0, "10", [5, 15]), discard(1, "10"), discard(2, "5")],
    )
    record(
        "ten_ban_chain_invalid",
        chain,
        invalid("illegal_move", T2),
        setup_=setup([[5], [20], [36], []], [["10"], ["10", "3"], ["5"], NO]),
        turns=[mv(0, "10", [5, 15]), discard(1, "10"), mv(2, "5", [36, 41])],
    )
    record(
        "ten_ban_not_chained_by_other_valid",
        chain + " A banned seat discarding another card does not ban.",
        valid(),
        setup_=setup([[5], [20], [36], []], [["10"], ["10", "3"], ["5"], NO]),
        turns=[mv(0, "10", [5, 15]), discard(1, "3"), mv(2, "5", [36, 41])],
    )
    nb = (
        q + " Das Bewegungsverbot entsteht nicht, wenn der nächste Spieler keine Karte mehr auf der Hand hat."
    )
    deal2 = {
        "hands": [["5", "6", "8", "9"], ["2", "3", "5", "6"], ["2", "3", "5", "6"], ["2", "3", "5", "6"]]
    }
    record(
        "ten_last_card_no_ban_valid",
        nb + " (the next deal's first seat plays normally)",
        valid(),
        setup_=setup([[20], [], [], [40]], [NO, NO, NO, ["10"]], dealer=2, to_move=3),
        deals=[{"turns": [mv(3, "10", [40, 50])]}, deal2 | {"turns": [mv(0, "5", [20, 25])]}],
    )
    record(
        "ten_ban_needs_next_to_hold_cards_invalid",
        nb + " Twin: seat 0 still holds cards, so it is banned.",
        invalid("illegal_move", T1),
        setup_=setup([[20], [], [], [40]], [["5"], NO, NO, ["10"]], dealer=2, to_move=3),
        turns=[mv(3, "10", [40, 50]), mv(0, "5", [20, 25])],
    )
    record(
        "ten_only_seat_with_cards_no_self_ban_valid",
        nb + " When no other seat holds cards, no one is banned: the player who played the 10 plays on.",
        valid(),
        setup_=setup([[5], [], [], []], [["10", "5"], NO, NO, NO], dealer=3),
        turns=[mv(0, "10", [5, 15]), mv(0, "5", [15, 20])],
    )
    record(
        "ten_ban_skips_to_next_holder_invalid",
        nb + " The next player is the next seat that still holds cards.",
        invalid("illegal_move", T1),
        setup_=setup([[5], [], [30], []], [["10"], NO, ["5"], NO], dealer=3),
        turns=[mv(0, "10", [5, 15]), mv(2, "5", [30, 35])],
    )
    record(
        "ten_ban_after_setup_last_invalid",
        q + " setup.last: the previous action was a 10.",
        invalid("illegal_move", T0),
        setup_=setup([[10], [5], [], []], [NO, ["5"], NO, NO], dealer=3, last=mv(0, "10", [10, 20])),
        turns=[mv(1, "5", [5, 10])],
    )
    record(
        "ten_ban_after_setup_last_valid",
        q + " setup.last: the previous action was a 10.",
        valid(),
        setup_=setup([[10], [5], [], []], [NO, ["5"], NO, NO], dealer=3, last=mv(0, "10", [10, 20])),
        turns=[discard(1, "5")],
    )


def jack_rules() -> None:
    q = (
        "Bube: Vertausche eine eigene Spielfigur mit einer beliebigen anderen Figur. Beide Figuren müssen im Spielkreis "
        "stehen. Figuren mit Startfeld-Schutz können nicht getauscht werden."
    )
    record(
        "jack_swap_valid",
        q,
        valid(),
        setup_=setup([[10], [40], [], []], [["J"], ["5"], NO, NO]),
        turns=[swap(0, 10, 40), mv(1, "5", [10, 15])],
    )
    record(
        "jack_swap_twin_invalid",
        q + " Twin: after the swap seat 1's marble is on 10, not 40.",
        invalid("illegal_move", "/deals/0/turns/1/moves/0"),
        setup_=setup([[10], [40], [], []], [["J"], ["5"], NO, NO]),
        turns=[swap(0, 10, 40), mv(1, "5", [40, 45])],
    )
    record(
        "jack_two_opponents_invalid",
        q + " One of them must be the seat's own.",
        invalid("illegal_move", "/deals/0/turns/0/swap"),
        setup_=setup([[10], [40], [50], []], [["J"], NO, NO, NO]),
        turns=[swap(0, 40, 50)],
    )
    record(
        "jack_protected_invalid",
        q,
        invalid("illegal_move", "/deals/0/turns/0/swap"),
        setup_=setup([[10], [16], [], []], [["J"], NO, NO, NO], fresh=[1]),
        turns=[swap(0, 10, 16)],
    )
    record(
        "jack_unprotected_on_start_valid",
        q + " An unprotected marble on a start field can be swapped.",
        valid(),
        setup_=setup([[10], [16], [], []], [["J"], NO, NO, NO]),
        turns=[swap(0, 10, 16)],
    )
    record(
        "jack_goal_invalid",
        q,
        invalid("illegal_move", "/deals/0/turns/0/swap"),
        setup_=setup([[10, "H0:1"], [], [], []], [["J"], NO, NO, NO]),
        turns=[swap(0, 10, "H0:1")],
    )
    own = q + " Es ist erlaubt, zwei Figuren eigener Farbe zu tauschen."
    record(
        "jack_own_two_valid",
        own,
        valid(),
        setup_=setup([[10, 20], [], [], []], [["J"], NO, NO, NO]),
        turns=[swap(0, 20, 10)],
    )
    record(
        "jack_no_own_marble_discard_valid",
        q + " Without an own ring marble the J cannot be played.",
        valid(),
        setup_=setup([["H0:4"], [40], [50], []], [["J"], NO, NO, NO]),
        turns=[discard(0, "J")],
    )
    record(
        "jack_discard_when_playable_must_play",
        q + " Solange man eine Karte spielen kann, … muss man es tun.",
        invalid("must_play", T0),
        setup_=setup([[10], [40], [], []], [["J"], NO, NO, NO]),
        turns=[discard(0, "J")],
    )
    record(
        "jack_moves_invalid",
        q + " The J swaps; it does not move.",
        invalid("illegal_move", "/deals/0/turns/0/moves"),
        setup_=setup([[10], [40], [], []], [["J"], NO, NO, NO]),
        turns=[mv(0, "J", [10, 21])],
    )


def must_play_rules() -> None:
    q = (
        "Solange man eine Karte spielen kann, die einen erlaubten Zug ermöglicht, muss man es tun, auch wenn dieser Zug "
        "unangenehme Folgen hat. Wenn gar kein Zug möglich ist, dann muss eine Karte ungenutzt abgeworfen werden."
    )
    record(
        "blockade_all_in_start_valid",
        q + " (1) Alle Figuren sind im Startbereich, und man hat weder As noch König.",
        valid(),
        setup_=setup(E4, [["5", "Q"], NO, NO, NO]),
        turns=[discard(0, "Q")],
    )
    record(
        "blockade_all_in_start_ace_must_play",
        q + " Twin: an A in hand enters.",
        invalid("must_play", T0),
        setup_=setup(E4, [["5", "A"], NO, NO, NO]),
        turns=[discard(0, "5")],
    )
    b2 = q + " (2) Man steht im Stau hinter einem bockigen Pöppel, der sein Startfeld nicht verlassen will."
    record(
        "blockade_behind_protected_valid",
        b2,
        valid(),
        setup_=setup([[14], [16], [], []], [["8", "2"], NO, NO, NO], fresh=[1]),
        turns=[discard(0, "8")],
    )
    record(
        "blockade_behind_protected_must_play",
        b2 + " Twin: a 1 (A) still moves 14 -> 15.",
        invalid("must_play", T0),
        setup_=setup([[14], [16], [], []], [["8", "A"], NO, NO, NO], fresh=[1]),
        turns=[discard(0, "8")],
    )
    record(
        "blockade_own_protected_blocks_goal_valid",
        b2 + " The own protected marble on the start field also blocks the way into the own goal.",
        valid(),
        setup_=setup([[62, 0], [], [], []], [["3"], NO, NO, NO], fresh=[0]),
        turns=[mv(0, "3", [0, 3])],
    )
    record(
        "blockade_own_protected_blocks_goal_invalid",
        b2,
        invalid("illegal_move", "/deals/0/turns/0/moves/0"),
        setup_=setup([[62, 0], [], [], []], [["3"], NO, NO, NO], fresh=[0]),
        turns=[mv(0, "3", [62, "H0:1"])],
    )
    record(
        "must_play_painful_capture_own",
        q + " Wenn man keine andere Karte mehr auf der Hand hat, kann man sogar "
        "gezwungen sein, eine eigene Figur zu schlagen.",
        invalid("must_play", T0),
        setup_=setup([[10, 13, "H0:4", "H0:3"], [16], [], []], [["3"], NO, NO, NO], fresh=[1]),
        turns=[discard(0, "3")],
    )
    record(
        "must_play_painful_capture_own_valid",
        q + " (13 -> 16 would land on a protected marble)",
        valid(),
        setup_=setup([[10, 13, "H0:4", "H0:3"], [16], [], []], [["3"], NO, NO, NO], fresh=[1]),
        turns=[mv(0, "3", [10, 13])],
    )


def deal_rules() -> None:
    q = (
        "Die genaue Anzahl hängt von der Anzahl der Mitspieler ab und variiert auch von Runde zu Runde, so dass die 52 "
        "Karten des Stapels sich gleichmäßig und vollständig verteilen lassen. Beispielsweise würden bei zwei Spielern beim "
        "ersten und zweiten Geben je 5 Karten ausgeteilt, und in den vier nächsten Runden jeweils 4 Karten."
    )
    two = [["2", "3", "5", "6", "8"], ["2", "3", "5", "6", "8"]]
    record(
        "two_players_deal_five_valid",
        q,
        valid(),
        variant={"seats": 2},
        n=2,
        deals=[{"dealer": 1, "hands": two, "turns": [discard(0, "2")]}],
    )
    record(
        "two_players_deal_four_invalid",
        q,
        invalid("deck_mismatch", "/deals/0/hands/0"),
        variant={"seats": 2},
        n=2,
        deals=[{"dealer": 1, "hands": [["2", "3", "5", "6"], ["2", "3", "5", "6"]], "turns": []}],
    )
    third = [["9", "9", "9", "9"], ["10", "10", "10", "10"]]
    record(
        "two_players_third_deal_four_valid",
        q + " (setup in the second deal; the third deal gives 4)",
        valid(),
        variant={"seats": 2},
        n=2,
        setup_=setup([[], []], [NO, NO], dealer=0, deal_index=1),
        deals=[{"turns": []}, {"hands": third, "turns": [discard(0, "9")]}],
    )
    record(
        "two_players_third_deal_five_invalid",
        q,
        invalid("deck_mismatch", "/deals/1/hands/0"),
        variant={"seats": 2},
        n=2,
        setup_=setup([[], []], [NO, NO], dealer=0, deal_index=1),
        deals=[
            {"turns": []},
            {"hands": [["9", "9", "9", "9", "A"], ["10", "10", "10", "10", "A"]], "turns": []},
        ],
    )
    four = [
        ["2", "3", "5", "6", "8"],
        ["2", "3", "5", "6", "8"],
        ["2", "3", "5", "6", "8"],
        ["2", "3", "5", "6", "8"],
    ]
    record(
        "fifth_copy_in_cycle_invalid",
        "52 cards, 4 of each rank (spec section 6): a fifth 2 in one deal.",
        invalid("deck_mismatch", "/deals/0/hands/3/1"),
        deals=[{"dealer": 3, "hands": [four[0], four[1], four[2], ["2", "2", "9", "9", "9"]], "turns": []}],
    )
    record(
        "dealer_starts_next_valid",
        "Der Spieler, der auf den Geber folgt, ist als erstes an der Reihe.",
        valid(),
        deals=[
            {
                "dealer": 1,
                "hands": [
                    ["9", "9", "9", "9", "10"],
                    ["8", "8", "8", "8", "10"],
                    ["7", "7", "7", "7", "10"],
                    ["6", "6", "6", "6", "10"],
                ],
                "turns": [discard(2, "7")],
            }
        ],
    )
    record(
        "dealer_starts_wrong_seat_invalid",
        "Der Spieler, der auf den Geber folgt, ist als erstes an der Reihe.",
        invalid("wrong_seat", T0),
        deals=[
            {
                "dealer": 1,
                "hands": [
                    ["9", "9", "9", "9", "10"],
                    ["8", "8", "8", "8", "10"],
                    ["7", "7", "7", "7", "10"],
                    ["6", "6", "6", "6", "10"],
                ],
                "turns": [discard(1, "8")],
            }
        ],
    )
    d = "Nachdem alle verteilten Karten ausgespielt wurden, wechselt die Rolle des Gebers zum nächsten Spieler"
    deal_a = {"hands": [["9"], ["8"], ["7"], ["6"]]}
    record(
        "dealer_rotates_valid",
        d,
        valid(),
        setup_=setup(E4, [["9"], ["8"], ["7"], ["6"]], dealer=3),
        deals=[
            {"turns": [discard(0, "9"), discard(1, "8"), discard(2, "7"), discard(3, "6")]},
            {
                "dealer": 0,
                "hands": [
                    ["Q", "Q", "Q", "Q"],
                    ["J", "J", "J", "J"],
                    ["10", "10", "10", "10"],
                    ["9", "9", "9", "5"],
                ],
                "turns": [discard(1, "J")],
            },
        ],
    )
    record(
        "dealer_rotates_wrong_dealer_invalid",
        d,
        invalid("deck_mismatch", "/deals/1/dealer"),
        setup_=setup(E4, [["9"], ["8"], ["7"], ["6"]], dealer=3),
        deals=[
            {"turns": [discard(0, "9"), discard(1, "8"), discard(2, "7"), discard(3, "6")]},
            {
                "dealer": 1,
                "hands": [
                    ["Q", "Q", "Q", "Q"],
                    ["J", "J", "J", "J"],
                    ["10", "10", "10", "10"],
                    ["9", "9", "9", "5"],
                ],
                "turns": [],
            },
        ],
    )
    record(
        "deal_unfinished_missing_action",
        "Danach ist der nächste Spieler an der Reihe, so lange, bis alle Karten "
        "ausgespielt sind. (a deal that stops with cards left while another deal follows)",
        invalid("missing_action", "/deals/0/turns"),
        setup_=setup(E4, [["9"], ["8"], ["7"], ["6"]], dealer=3),
        deals=[{"turns": [discard(0, "9"), discard(1, "8"), discard(2, "7")]}, deal_a | {"turns": []}],
    )
    record(
        "card_not_in_hand_invalid",
        "A seat plays a card of its hand.",
        invalid("card_not_in_hand", T0),
        setup_=setup([[10], [], [], []], [["5"], NO, NO, NO]),
        turns=[mv(0, "6", [10, 16])],
    )
    record(
        "turn_order_skips_empty_hands_valid",
        "Play goes clockwise; seats without cards are passed over.",
        valid(),
        setup_=setup([[10], [], [30], []], [["5"], NO, ["5"], NO], dealer=3),
        turns=[mv(0, "5", [10, 15]), mv(2, "5", [30, 35])],
    )
    record(
        "turn_order_wrong_seat_invalid",
        "Play goes clockwise.",
        invalid("wrong_seat", T0),
        setup_=setup([[10], [], [30], []], [["5"], NO, ["5"], NO], dealer=3),
        turns=[mv(2, "5", [30, 35])],
    )


def team_rules() -> None:
    v = {"mode": "teams"}
    x = (
        "Im Teamspiel tauschen die Spieler eines Teams nach dem Geben eine Karte miteinander. Die Karten werden verdeckt "
        "ausgewählt und dann getauscht."
    )
    hands = [
        ["A", "2", "3", "5", "6"],
        ["K", "2", "3", "5", "6"],
        ["Q", "2", "3", "5", "6"],
        ["J", "8", "9", "9", "9"],
    ]
    record(
        "team_exchange_valid",
        x + " (seat 2 gives Q to seat 0; seat 0 gives A to seat 2, who enters with it)",
        valid(),
        variant=v,
        deals=[
            {
                "dealer": 3,
                "hands": hands,
                "exchange": ["A", "K", "Q", "J"],
                "turns": [discard(0, "Q"), discard(1, "J"), enter(2, "A")],
            }
        ],
    )
    record(
        "team_exchange_card_gone_invalid",
        x + " Twin: seat 0 gave its A away.",
        invalid("card_not_in_hand", T0),
        variant=v,
        deals=[{"dealer": 3, "hands": hands, "exchange": ["A", "K", "Q", "J"], "turns": [enter(0, "A")]}],
    )
    record(
        "team_exchange_missing_invalid",
        x,
        invalid("bad_exchange", "/deals/0"),
        variant=v,
        deals=[{"dealer": 3, "hands": hands, "turns": []}],
    )
    record(
        "team_exchange_not_dealt_invalid",
        x,
        invalid("bad_exchange", "/deals/0/exchange/1"),
        variant=v,
        deals=[{"dealer": 3, "hands": hands, "exchange": ["A", "A", "Q", "J"], "turns": []}],
    )
    record(
        "ffa_exchange_invalid",
        "Exchange applies in teams mode only (spec section 6).",
        invalid("bad_exchange", "/deals/0/exchange"),
        deals=[{"dealer": 3, "hands": hands, "exchange": ["A", "K", "Q", "J"], "turns": []}],
    )
    rem = "Sobald ein Spieler eines Teams alle eigenen Figuren im Ziel hat, spielen beide Teammitglieder mit der Farbe des verbleibenden Spielers weiter."
    home0 = ["H0:1", "H0:2", "H0:3", "H0:4"]
    record(
        "team_finished_plays_partner_valid",
        rem,
        valid(),
        variant=v,
        setup_=setup([home0, [], [40], []], [["5"], NO, ["5"], NO]),
        turns=[mv(0, "5", [40, 45]), mv(2, "5", [45, 50])],
    )
    record(
        "team_unfinished_plays_partner_invalid",
        rem + " Before that, a seat moves only its own colour.",
        invalid("illegal_move", "/deals/0/turns/0/moves/0"),
        variant=v,
        setup_=setup([["H0:1", "H0:2", "H0:3", 20], [], [40], []], [["5"], NO, NO, NO]),
        turns=[mv(0, "5", [40, 45])],
    )
    record(
        "team_partner_finished_plays_own_valid",
        rem + " The finished seat plays the remaining colour.",
        valid(),
        variant=v,
        setup_=setup([[20], [], ["H2:1", "H2:2", "H2:3", "H2:4"], []], [NO, NO, ["5"], NO], dealer=1),
        turns=[mv(2, "5", [20, 25])],
    )
    last = (
        "Rule: the switch happens from the next action. Seat 0 brings its last marble home; its next action moves "
        "colour 2."
    )
    record(
        "team_switch_next_action_valid",
        last,
        valid(),
        variant=v,
        setup_=setup([["H0:2", "H0:3", "H0:4", 62], [], [40], []], [["3", "A"], NO, NO, NO]),
        turns=[mv(0, "3", [62, "H0:1"]), mv(0, "A", [40, 41])],
    )
    record(
        "team_switch_next_action_own_invalid",
        last + " Twin: its colour has nothing left to move; A would enter colour 2.",
        invalid("illegal_move", "/deals/0/turns/1/moves/0"),
        variant=v,
        setup_=setup([["H0:2", "H0:3", "H0:4", 62], [], [40], []], [["3", "A"], NO, NO, NO]),
        turns=[mv(0, "3", [62, "H0:1"]), mv(0, "A", ["H0:1", "H0:2"])],
    )
    s7 = (
        "Es gibt eine Einschränkung im Teamspiel: Man kann die 7 nicht verwenden, um mit einem Teil der Schritte seine "
        "letzte Figur ins Ziel zu bringen und den Rest der Schritte mit den Figuren der Partnerin zu machen."
    )
    record(
        "team_seven_no_split_to_partner_invalid",
        s7,
        invalid("illegal_move", "/deals/0/turns/0/moves/1"),
        variant=v,
        setup_=setup([["H0:2", "H0:3", "H0:4", 62], [], [40], []], [["7"], NO, NO, NO]),
        turns=[mv(0, "7", [62, "H0:1"], [40, 44])],
    )
    record(
        "team_seven_past_goal_valid",
        s7 + " The 7 moves the last marble on past the goal instead.",
        valid(),
        variant=v,
        setup_=setup([["H0:2", "H0:3", "H0:4", 62], [], [40], []], [["7"], NO, NO, NO]),
        turns=[mv(0, "7", [62, 5])],
    )
    win = "Im Teamspiel gewinnt dasjenige Team, das als erstes alle Figuren seiner Mitglieder auf ihre jeweiligen Zielfelder gebracht hat."
    home2 = ["H2:2", "H2:3", "H2:4"]
    record(
        "team_win_valid",
        win,
        valid(True),
        variant=v,
        setup_=setup([home0, [], home2 + [31], []], [["2"], NO, NO, NO]),
        turns=[mv(0, "2", [31, "H2:1"])],
        result={"winners": [0, 2]},
    )
    record(
        "team_win_wrong_winner_invalid",
        win,
        invalid("result_mismatch", "/result"),
        variant=v,
        setup_=setup([home0, [], home2 + [31], []], [["2"], NO, NO, NO]),
        turns=[mv(0, "2", [31, "H2:1"])],
        result={"winners": [0]},
    )
    record(
        "team_not_won_after_one_colour_invalid",
        win + " One member's marbles are not enough.",
        invalid("result_mismatch", "/result"),
        variant=v,
        setup_=setup([["H0:2", "H0:3", "H0:4", 62], [], [40], []], [["3"], NO, NO, NO]),
        turns=[mv(0, "3", [62, "H0:1"])],
        result={"winners": [0, 2]},
    )
    six = {"seats": 6, "mode": "teams"}
    record(
        "six_teams_opposite_valid",
        "Rule decision 8: six-player teams sit opposite ({0,3} {1,4} {2,5}). " + rem,
        valid(),
        variant=six,
        n=6,
        setup_=setup([home0, [], [], [50], [], []], [["5"], NO, NO, NO, NO, NO], dealer=5),
        turns=[mv(0, "5", [50, 55])],
    )
    record(
        "six_teams_neighbour_not_partner_invalid",
        "Rule decision 8: six-player teams sit opposite. Seat 2 is no partner of seat 0.",
        invalid("illegal_move", "/deals/0/turns/0/moves/0"),
        variant=six,
        n=6,
        setup_=setup([home0, [], [40], [], [], []], [["5"], NO, NO, NO, NO, NO], dealer=5),
        turns=[mv(0, "5", [40, 45])],
    )


def end_rules() -> None:
    q = "Im Einzelspiel (keine Teams) ist der Spieler Sieger, der als erster alle vier Figuren auf seine Zielfelder gebracht hat."
    home = ["H1:2", "H1:3", "H1:4"]
    record(
        "ffa_win_valid",
        q,
        valid(True),
        setup_=setup([[], home + [14], [], []], [NO, ["3"], NO, NO], dealer=0),
        turns=[mv(1, "3", [14, "H1:1"])],
        result={"winners": [1]},
    )
    record(
        "ffa_win_wrong_winner_invalid",
        q,
        invalid("result_mismatch", "/result"),
        setup_=setup([[], home + [14], [], []], [NO, ["3"], NO, NO], dealer=0),
        turns=[mv(1, "3", [14, "H1:1"])],
        result={"winners": [0]},
    )
    record(
        "ffa_action_after_win_invalid",
        q,
        invalid("game_already_over", T1),
        setup_=setup([[30], home + [14], [], []], [["5"], ["3"], NO, NO], dealer=0),
        turns=[mv(1, "3", [14, "H1:1"]), mv(0, "5", [30, 35])],
    )
    record(
        "ffa_win_claim_unfinished_invalid",
        q,
        invalid("result_mismatch", "/result"),
        setup_=setup([[], home + [10], [], []], [NO, ["3"], NO, NO], dealer=0),
        turns=[mv(1, "3", [10, 13])],
        result={"winners": [1]},
    )
    record(
        "ffa_resignation_partial_valid",
        "Under another termination the actions are checked and the claim echoed.",
        valid(False),
        setup_=setup([[], home + [10], [], []], [NO, ["3"], NO, NO], dealer=0),
        turns=[mv(1, "3", [10, 13])],
        result={"winners": [1], "termination": "resignation"},
    )


def variant_and_setup_rules() -> None:
    record(
        "variant_seven_seats_invalid",
        "Tock ist ein Spiel für zwei bis sechs Spieler.",
        invalid("bad_variant", "/variant/seats"),
        variant={"seats": 7},
        n=4,
        deals=[],
    )
    record(
        "variant_teams_five_invalid",
        "2 vs 2 needs four players, 2 vs 2 vs 2 six.",
        invalid("bad_variant", "/variant/mode"),
        variant={"seats": 5, "mode": "teams"},
        n=5,
        deals=[],
    )
    record(
        "variant_unknown_key_invalid",
        "Unknown variant keys are bad_variant.",
        invalid("bad_variant", "/variant/jokers"),
        variant={"jokers": 2},
        deals=[],
    )
    record(
        "variant_five_players_valid",
        "Five players: deal_sizes [5,5] (rule decision 2).",
        valid(),
        variant={"seats": 5},
        n=5,
        deals=[
            {
                "dealer": 4,
                "hands": [["2", "3", "5", "6", "8"]] * 4 + [["9", "9", "9", "9", "10"]],
                "turns": [discard(0, "2")],
            }
        ],
    )
    record(
        "setup_two_on_one_field_invalid",
        "An impossible setup: two marbles on one field.",
        invalid("bad_setup", "/setup/marbles/1/0"),
        setup_=setup([[10], [10], [], []], [NO, NO, NO, NO]),
    )
    record(
        "setup_five_marbles_invalid",
        "An impossible setup: more than 4 marbles of a colour.",
        invalid("bad_setup", "/setup/marbles/0"),
        setup_=setup([[1, 2, 3, 4, 5], [], [], []], [NO, NO, NO, NO]),
    )
    record(
        "setup_fresh_without_marble_invalid",
        "An impossible setup: fresh without the marble.",
        invalid("bad_setup", "/setup/fresh/0"),
        setup_=setup([[], [], [], []], [NO, NO, NO, NO], fresh=[0]),
    )
    record(
        "setup_foreign_goal_invalid",
        "An impossible setup: a marble in another colour's goal.",
        invalid("bad_setup", "/setup/marbles/0/0"),
        setup_=setup([["H1:1"], [], [], []], [NO, NO, NO, NO]),
    )
    record(
        "setup_bad_token_malformed",
        "Position tokens are ring integers or H<seat>:<slot>.",
        invalid("malformed", "/setup/marbles/0/0"),
        setup_=setup([["H9:1"], [], [], []], [NO, NO, NO, NO]),
    )
    record(
        "turn_two_action_keys_malformed",
        "Each action has exactly one action key.",
        invalid("malformed", T0),
        setup_=setup([[10], [], [], []], [["A"], NO, NO, NO]),
        turns=[{"seat": 0, "card": "A", "enter": True, "moves": [[10, 11]]}],
    )
    record(
        "turn_unknown_key_malformed",
        "Unknown keys are malformed (TAC's `as` is not a Tock key).",
        invalid("malformed", "/deals/0/turns/0/as"),
        setup_=setup([[10], [], [], []], [["A"], NO, NO, NO]),
        turns=[{"seat": 0, "card": "A", "as": "A", "moves": [[10, 11]]}],
    )
    record(
        "turn_comment_and_x_key_valid",
        "`comment` and x_ keys are allowed on any object.",
        valid(),
        setup_=setup([[10], [], [], []], [["A"], NO, NO, NO]),
        turns=[{"seat": 0, "card": "A", "moves": [[10, 11]], "comment": "one step", "x_clock": 12}],
    )


def extra_rules() -> None:
    record(
        "deal_unfinished_next_deal_malformed_missing_action",
        "The unfinished deal is the first error, before the following deal is read.",
        invalid("missing_action", "/deals/0/turns"),
        setup_=setup(E4, [["9"], ["8"], ["7"], ["6"]], dealer=3),
        deals=[{"turns": [discard(0, "9")]}, {"hands": "none", "turns": []}],
    )
    six = [
        ["2", "3", "5", "6"],
        ["2", "3", "5", "6"],
        ["2", "3", "5", "6"],
        ["2", "3", "5", "6"],
        ["8", "8", "8", "8"],
        ["9", "9", "9", "9"],
    ]
    record(
        "six_players_deal_four_valid",
        "Rule decision 2: six players get 4 + 4 cards (4 cards undealt).",
        valid(),
        variant={"seats": 6},
        n=6,
        deals=[{"dealer": 5, "hands": six, "turns": [discard(0, "2")]}],
    )
    record(
        "six_players_deal_five_invalid",
        "Rule decision 2: six players get 4 cards per deal.",
        invalid("deck_mismatch", "/deals/0/hands/0"),
        variant={"seats": 6},
        n=6,
        deals=[{"dealer": 5, "hands": [h + ["10"] for h in six], "turns": []}],
    )
    three = [["2", "3", "5", "6", "8"], ["2", "3", "5", "6", "8"], ["2", "3", "5", "6", "8"]]
    record(
        "three_players_deal_five_valid",
        "Rule decision 2: three players get 5, 4, 4, 4 (1 card undealt).",
        valid(),
        variant={"seats": 3},
        n=3,
        deals=[{"dealer": 2, "hands": three, "turns": [discard(0, "2")]}],
    )
    home0 = ["H0:1", "H0:2", "H0:3", "H0:4"]
    record(
        "setup_game_over_turn_invalid",
        "A setup whose game is already won is bad_setup (as in TAC and Tac-Tik), turns or not.",
        invalid("bad_setup", "/setup/marbles"),
        setup_=setup([home0, [10], [], []], [NO, ["5"], NO, NO], dealer=0),
        turns=[mv(1, "5", [10, 15])],
    )
    record(
        "setup_game_over_no_turns_invalid",
        "A setup whose game is already won is bad_setup even with no turn (no result without play).",
        invalid("bad_setup", "/setup/marbles"),
        setup_=setup([home0, [10], [], []], [NO, ["5"], NO, NO], dealer=0),
        turns=[],
        result={"winners": [0]},
    )
    rem = (
        "Sobald ein Spieler eines Teams alle eigenen Figuren im Ziel hat, spielen beide Teammitglieder mit der Farbe "
        "des verbleibenden Spielers weiter. (A and K enter the partner's colour on the partner's start field.)"
    )
    record(
        "team_finished_enters_partner_colour_valid",
        rem,
        valid(),
        variant={"mode": "teams"},
        setup_=setup([home0, [], [], []], [["A"], NO, ["K"], NO]),
        turns=[enter(0, "A"), mv(2, "K", [32, 45])],
    )
    record(
        "team_finished_enters_partner_colour_invalid",
        rem + " Twin: the entered marble stands on 32, not 0.",
        invalid("illegal_move", "/deals/0/turns/1/moves/0"),
        variant={"mode": "teams"},
        setup_=setup([home0, [], [], []], [["A"], NO, ["K"], NO]),
        turns=[enter(0, "A"), mv(2, "K", [0, 13])],
    )
    q = "Bube: Vertausche eine eigene Spielfigur mit einer beliebigen anderen Figur."
    record(
        "jack_alone_on_ring_discard_valid",
        q + " With no other marble on the ring the J has no use.",
        valid(),
        setup_=setup([[10, "H0:4"], [], [], []], [["J"], NO, NO, NO]),
        turns=[discard(0, "J")],
    )
    record(
        "jack_other_unprotected_must_play",
        q + " Twin: an unprotected marble of another colour can be swapped.",
        invalid("must_play", T0),
        setup_=setup([[10], [], [45], []], [["J"], NO, NO, NO]),
        turns=[discard(0, "J")],
    )
    record(
        "jack_only_protected_other_discard_valid",
        q + " Figuren mit Startfeld-Schutz können nicht getauscht werden.",
        valid(),
        setup_=setup([[10], [16], [], []], [["J"], NO, NO, NO], fresh=[1]),
        turns=[discard(0, "J")],
    )


def setup_dealer_rules() -> None:
    q = "Spec 2: deals[0] continues the running deal; its dealer is the one in setup (checked when given)."
    record(
        "setup_deal_dealer_given_valid",
        q,
        valid(),
        setup_=setup([[10], [], [], []], [["5"], NO, NO, NO], dealer=3),
        deals=[{"dealer": 3, "turns": [mv(0, "5", [10, 15])]}],
    )
    record(
        "setup_deal_dealer_wrong_invalid",
        q,
        invalid("deck_mismatch", "/deals/0/dealer"),
        setup_=setup([[10], [], [], []], [["5"], NO, NO, NO], dealer=3),
        deals=[{"dealer": 2, "turns": [mv(0, "5", [10, 15])]}],
    )
    record(
        "setup_deal_hands_malformed",
        q + " It holds no hands.",
        invalid("malformed", "/deals/0/hands"),
        setup_=setup([[10], [], [], []], [["5"], NO, NO, NO], dealer=3),
        deals=[{"hands": [["5"], [], [], []], "turns": []}],
    )


def board_param_rules() -> None:
    q = (
        "Spec 6: ring_fields_per_seat (param, 16) and home_entry_offset (param, 0: the goal is entered from "
        "S_k+offset). Rule decision 1 reads the text's board as 16 fields per seat, goal entered from the start field."
    )
    off = {"home_entry_offset": 3}
    record(
        "offset_goal_entered_from_offset_valid",
        q + " With offset 3, 1 -> 2, 3, H0:1, H0:2, H0:3.",
        valid(),
        variant=off,
        setup_=setup([[1], [], [], []], [["5"], NO, NO, NO]),
        turns=[mv(0, "5", [1, "H0:3"])],
    )
    record(
        "offset_goal_not_from_start_invalid",
        q + " With offset 3 the start field is no longer the entry.",
        invalid("illegal_move", "/deals/0/turns/0/moves/0"),
        variant=off,
        setup_=setup([[62], [], [], []], [["5"], NO, NO, NO]),
        turns=[mv(0, "5", [62, "H0:3"])],
    )
    record(
        "offset_protected_marble_never_branches_invalid",
        q + " A protected marble's path never branches "
        "(spec 3), even when the entry lies ahead of its start field.",
        invalid("illegal_move", "/deals/0/turns/0/moves/0"),
        variant=off,
        setup_=setup([[0], [], [], []], [["5"], NO, NO, NO], fresh=[0]),
        turns=[mv(0, "5", [0, "H0:1"])],
    )
    small = {"ring_fields_per_seat": 12}
    record(
        "small_ring_start_fields_valid",
        q + " With 12 fields per seat seat 1 starts on 12.",
        valid(),
        variant=small,
        setup_=setup([[10], [12], [], []], [["3"], NO, NO, NO]),
        turns=[mv(0, "3", [10, 13])],
    )
    record(
        "small_ring_start_fields_invalid",
        q + " With 12 fields per seat seat 1's protected marble on 12 blocks.",
        invalid("illegal_move", "/deals/0/turns/0/moves/0"),
        variant=small,
        setup_=setup([[10], [12], [], []], [["3"], NO, NO, NO], fresh=[1]),
        turns=[mv(0, "3", [10, 13])],
    )
    record(
        "small_ring_field_off_board_malformed",
        q + " With 12 fields per seat and 4 seats the ring is 0..47.",
        invalid("malformed", "/setup/marbles/0/0"),
        variant=small,
        setup_=setup([[50], [], [], []], [["3"], NO, NO, NO]),
    )


def random_games() -> None:
    from rules.tock import ENGINE

    for name, variant, seed in [
        ("random_ffa2_complete_valid", {"seats": 2}, 11),
        ("random_ffa3_single_seven_complete_valid", {"seats": 3, "seven": "single"}, 12),
        ("random_teams4_complete_valid", {"mode": "teams"}, 13),
        ("random_teams6_quick_start_complete_valid", {"seats": 6, "mode": "teams", "quick_start": True}, 14),
    ]:
        doc = ENGINE.random_record(variant, random.Random(seed))
        doc["comment"] = "A seeded random game played to the end (must validate as complete)."
        doc["x_expect"] = valid(True)
        CORPUS[name] = doc
    # twins of the first: a wrong winner, and a dealt card changed into a fifth copy
    base = CORPUS["random_ffa2_complete_valid"]
    wrong = json.loads(json.dumps(base))
    wrong["result"]["winners"] = [1 - base["result"]["winners"][0]]
    wrong["comment"] = "Twin of random_ffa2_complete_valid claiming the loser as winner."
    wrong["x_expect"] = invalid("result_mismatch", "/result")
    CORPUS["random_ffa2_wrong_winner_invalid"] = wrong


def main() -> int:
    sys.path.insert(0, str(ROOT))
    for build in (
        cards_rules,
        four_rules,
        protection_rules,
        capture_rules,
        goal_rules,
        seven_rules,
        ten_rules,
        jack_rules,
        must_play_rules,
        deal_rules,
        team_rules,
        end_rules,
        variant_and_setup_rules,
        extra_rules,
        setup_dealer_rules,
        board_param_rules,
        random_games,
    ):
        build()
    OUT.mkdir(parents=True, exist_ok=True)
    for old in OUT.glob("*.json"):
        old.unlink()
    for name, doc in CORPUS.items():
        (OUT / f"{name}.json").write_text(
            json.dumps(doc, ensure_ascii=False, indent=1) + "\n", encoding="utf-8"
        )
    print(f"wrote {len(CORPUS)} records to {OUT}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
