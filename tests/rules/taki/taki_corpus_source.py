"""Source of the TAKI golden corpus in tests/rules/records/taki/ (one JSON record per case).

Regenerate with ``python -m tests.rules.taki.taki_corpus_source`` from the repository root; the
corpus test checks that the committed files equal what this module builds, so a case changes here.
Each case is a `setup` position (the stock is completed with the rest of the deck in deck order, top
first) or a full deal, a list of entries, and the expected verdict in ``x_expect``.
"""

from __future__ import annotations

import copy
import json
from collections import Counter
from pathlib import Path
from typing import Any

from rules.taki.cards import build_deck
from rules.taki.game import DEFAULT_COLORS, DEFAULT_NUMBERS

RECORDS = Path(__file__).resolve().parents[1] / "records" / "taki"
DECK = build_deck(DEFAULT_COLORS, DEFAULT_NUMBERS)
T0 = "/deals/0/turns/"


def deck_cards() -> list[str]:
    return [card for card, n in DECK.counts.items() for _ in range(n)]


def P(seat: int, *cards: str, **extra: Any) -> dict[str, Any]:
    return {"seat": seat, "play": list(cards), **extra}


def D(seat: int, **extra: Any) -> dict[str, Any]:
    return {"seat": seat, "draw": True, **extra}


def ok(complete: bool = False) -> dict[str, Any]:
    return {"valid": True, "complete": complete}


def bad(code: str, path: str) -> dict[str, Any]:
    return {"valid": False, "code": code, "path": path}


CASES: dict[str, dict[str, Any]] = {}


def setup_case(
    name: str,
    comment: str,
    expect: dict[str, Any],
    turns: list[dict[str, Any]],
    *,
    hands: list[list[str]],
    discard: list[str] | None = None,
    stock_top: list[str] | None = None,
    rest_to_discard: bool = False,
    to_move: int = 0,
    variant: dict[str, Any] | None = None,
    result: dict[str, Any] | None = None,
    **setup_extra: Any,
) -> None:
    discard = list(discard or ["3r"])
    stock_top = list(stock_top or [])
    used = Counter(card for hand in hands for card in hand) + Counter(discard) + Counter(stock_top)
    rest = list((Counter(deck_cards()) - used).elements())
    rest.sort(key=deck_cards().index)
    if rest_to_discard:
        discard = rest + discard
        stock = stock_top
        for entry in turns:
            marker = entry.get("reshuffle")
            if marker == "REST":
                entry["reshuffle"] = list(reversed(rest))
            elif marker == "REST-1":
                entry["reshuffle"] = list(reversed(rest))[1:]
            elif isinstance(marker, list) and marker[:1] == ["REST"]:
                entry["reshuffle"] = list(reversed(rest)) + marker[1:]
    else:
        stock = stock_top + rest
    seats = len(hands)
    record: dict[str, Any] = {
        "format": "game-record/1",
        "game": "taki",
        "comment": comment,
        "x_expect": expect,
        "variant": {"seats": seats, **(variant or {})},
        "players": [{"name": f"P{s}", "seats": [s]} for s in range(seats)],
        "setup": {"hands": hands, "discard": discard, "stock": stock, "to_move": to_move, **setup_extra},
        "deals": [{"turns": turns}],
    }
    if result is not None:
        record["result"] = result
    add(name, record)


def add(name: str, record: dict[str, Any]) -> None:
    assert name not in CASES, name
    CASES[name] = record


def deal_record(comment: str, expect: dict[str, Any], **deal_changes: Any) -> dict[str, Any]:
    """A fixed 3-seat deal: hands of 8 in deck order, then the lead 7g, then the stock."""
    cards = deck_cards()
    cards.remove("7g")
    hands = [cards[0:8], cards[8:16], cards[16:24]]
    stock = cards[24:]
    deal: dict[str, Any] = {"first": 1, "hands": hands, "lead": "7g", "stock": stock, "turns": []}
    deal.update(deal_changes)
    return {
        "format": "game-record/1",
        "game": "taki",
        "comment": comment,
        "x_expect": expect,
        "variant": {"seats": 3},
        "players": [
            {"name": "Ann", "seats": [0]},
            {"name": "Ben", "seats": [1]},
            {"name": "Cy", "seats": [2]},
        ],
        "deals": [deal],
    }


# ---------------------------------------------------------------- matching, drawing, seats

Q_MATCH = (
    "Die Karte, die er ausspielt, muss mit der Farbe oder dem Symbol der führenden Karte übereinstimmen."
)
H3 = [["5r", "7g", "9b"], ["3g", "4b", "8y"], ["6y", "6g", "1b"]]
setup_case("match_colour", Q_MATCH, ok(), [P(0, "5r")], hands=H3)
setup_case("match_colour_bad", Q_MATCH, bad("illegal_move", T0 + "0/play/0"), [P(0, "7g")], hands=H3)
setup_case("match_symbol", Q_MATCH + " 3g on 3r matches by symbol.", ok(), [P(1, "3g")], hands=H3, to_move=1)
setup_case(
    "match_symbol_bad", Q_MATCH, bad("illegal_move", T0 + "0/play/0"), [P(1, "8y")], hands=H3, to_move=1
)
Q_LEFT = "Das Spiel geht links weiter: seat 1 follows seat 0."
setup_case("wrong_seat", Q_LEFT, bad("wrong_seat", T0 + "1/seat"), [P(0, "5r"), P(2, "6y")], hands=H3)
setup_case(
    "card_not_in_hand",
    "wählt er eine Karte ... aus seiner Hand: 5b matches by symbol, but seat 0 does not hold it.",
    bad("card_not_in_hand", T0 + "0/play/0"),
    [P(0, "5b")],
    hands=H3,
    discard=["5y"],
)
Q_DRAW = "Wenn ein Spieler keine Karte ausspielen kann, zieht er eine Karte vom Nachziehstapel."
setup_case(
    "draw_when_unable",
    Q_DRAW + " Seats 1 and 2 hold no red and no 5.",
    ok(),
    [P(0, "5r"), D(1), D(2)],
    hands=H3,
)
setup_case(
    "draw_despite_play",
    Q_DRAW + " Rule decision 2: drawing while a card fits is must_play.",
    bad("must_play", T0 + "0/draw"),
    [D(0)],
    hands=H3,
)
Q_WAIT = "Diese Karte kann nicht gespielt werden bis zu ihrem nächsten Zug."
setup_case(
    "drawn_card_waits",
    Q_WAIT,
    bad("wrong_seat", T0 + "2/seat"),
    [P(0, "5r"), D(1), P(1, "7r")],
    hands=H3,
    stock_top=["7r"],
)
setup_case(
    "drawn_card_next_turn",
    Q_WAIT + " Seat 1 draws 7r and plays it in its next turn.",
    ok(),
    [P(0, "5r"), D(1), D(2), D(0), P(1, "7r")],
    hands=H3,
    stock_top=["7r", "4y", "4y"],
)
setup_case(
    "draw_with_play_bad",
    "Sobald die Person gespielt oder gezogen hat, ist ihr Zug beendet.",
    bad("illegal_move", T0 + "0/draw"),
    [P(0, "5r", draw=True)],
    hands=H3,
)

# ---------------------------------------------------------------- Stop, +2, direction, colour

Q_STOP = "STOPP - Der nächste Spieler wird übersprungen, er kommt nicht zum Zug."
HS = [["stop_r", "7g", "9b"], ["3g", "4b", "8y"], ["6r", "6g", "1b"]]
setup_case("stop_skips", Q_STOP, ok(), [P(0, "stop_r"), P(2, "6r")], hands=HS)
setup_case("stop_skips_bad", Q_STOP, bad("wrong_seat", T0 + "1/seat"), [P(0, "stop_r"), P(1, "3g")], hands=HS)
Q_TWO = "Rule decision 10: with two players Stop means the same seat plays again."
H2S = [["stop_r", "5r", "9b"], ["3g", "4b", "8y"]]
setup_case("stop_two_seats", Q_TWO, ok(), [P(0, "stop_r"), P(0, "5r")], hands=H2S)
setup_case("stop_two_seats_bad", Q_TWO, bad("wrong_seat", T0 + "1/seat"), [P(0, "stop_r"), D(1)], hands=H2S)

Q_PLUS2 = (
    "+2 - Der nächste Spieler muss zwei Karten vom Nachziehstapel ziehen und verliert seinen Zug. "
    "Diese Karten sind stapelbar."
)
HP2 = [
    ["plus2_r", "7g", "9b"],
    ["plus2_g", "5r", "8y", "color", "supertaki", "breaker", "plus3"],
    ["6r", "6g", "1b"],
]
STACK_TOP = ["1y", "1y", "4y", "4y", "9r"]
setup_case(
    "plus2_stack",
    Q_PLUS2 + " Seat 2 draws 4 and loses its turn; the 9r goes to seat 1 later.",
    ok(),
    [P(0, "plus2_r"), P(1, "plus2_g"), D(2), P(0, "7g"), P(1, "color:y"), P(2, "4y")],
    hands=HP2,
    stock_top=STACK_TOP,
)
setup_case(
    "plus2_stack_count_bad",
    Q_PLUS2 + " Seat 2 drew exactly 4: the fifth card 9r is not in its hand.",
    bad("card_not_in_hand", T0 + "3/play/0"),
    [P(0, "plus2_r"), P(1, "plus2_g"), D(2), P(0, "9r")],
    hands=[["plus2_r", "7g", "9b"], ["plus2_g", "5r", "8y"], ["6r", "6g", "1b"]],
    stock_top=STACK_TOP,
)
setup_case(
    "plus2_draw_loses_turn",
    Q_PLUS2,
    bad("wrong_seat", T0 + "3/seat"),
    [P(0, "plus2_r"), P(1, "plus2_g"), D(2), P(2, "6g")],
    hands=HP2,
    stock_top=STACK_TOP,
)
for card, name in [
    ("5r", "plain"),
    ("color:g", "color"),
    ("supertaki", "supertaki"),
    ("breaker", "breaker"),
    ("plus3", "plus3"),
]:
    setup_case(
        f"plus2_stack_{name}_bad",
        Q_PLUS2
        + " Only a +2 or a King may go on an active stack: FARBE ÄNDERN ... außer einem aktiven Stapel +2; "
        "Super-Taki ... außer einem aktiven +2-Stapel; +3 Brecher ... außer auf einen aktiven +2 Stapel.",
        bad("illegal_move", T0 + "1/play/0"),
        [P(0, "plus2_r"), P(1, card)],
        hands=HP2,
    )
setup_case(
    "plus2_draw_allowed",
    "Rule decision 2: against a +2 stack a seat may draw although it could add a +2.",
    ok(),
    [P(0, "plus2_r"), D(1), P(2, "6r")],
    hands=HP2,
    stock_top=["8g", "8g"],
)
Q_KING = (
    "KING - Der König ist eine Stornokarte, die auf JEDE Karte gespielt werden kann (ja, sogar auf einen aktiven "
    "+2 oder +3 Stapel). Dieser Spieler darf außerdem eine andere Karte aus seiner Hand spielen, eine beliebige Karte."
)
HK = [["plus2_r", "7g", "9b"], ["king", "5r", "8y"], ["6y", "6g", "1b"]]
setup_case("king_on_plus2", Q_KING, ok(), [P(0, "plus2_r"), P(1, "king", "8y"), P(2, "6y")], hands=HK)
setup_case(
    "king_on_plus2_bad",
    Q_KING + " Without the King, 8y is no answer.",
    bad("illegal_move", T0 + "1/play/0"),
    [P(0, "plus2_r"), P(1, "8y")],
    hands=HK,
)
setup_case(
    "king_transparent",
    Q_KING + " Rule decision 9: the King is transparent, 3r stays the lead, so 3g matches.",
    ok(),
    [P(0, "king"), P(1, "3g")],
    hands=[["king", "7g", "9b"], ["3g", "4b", "8y"], ["6y", "6g", "1b"]],
)
setup_case(
    "king_transparent_bad",
    Q_KING + " Rule decision 9: 3r stays the lead under the King, and 4b does not match it.",
    bad("illegal_move", T0 + "1/play/0"),
    [P(0, "king"), P(1, "4b")],
    hands=[["king", "7g", "9b"], ["3g", "4b", "8y"], ["6y", "6g", "1b"]],
)

Q_DIR = "DIE RICHTUNG ÄNDERN - Diese Karte ändert die Richtung des Spiels."
HD = [["dir_r", "7g", "9b"], ["3g", "4b", "8y"], ["6r", "6g", "1b"]]
setup_case("dir_reverses", Q_DIR, ok(), [P(0, "dir_r"), P(2, "6r")], hands=HD)
setup_case("dir_reverses_bad", Q_DIR, bad("wrong_seat", T0 + "1/seat"), [P(0, "dir_r"), P(1, "3g")], hands=HD)
setup_case(
    "dir_two_seats",
    Q_DIR + " Rule decision 10: with two players it does nothing.",
    ok(),
    [P(0, "dir_r"), D(1), P(0, "5r")],
    hands=[["dir_r", "5r", "9b"], ["3g", "4b", "8y"]],
)

Q_COLOR = "FARBE ÄNDERN - Sie wählen die Farbe, die der nächste Spieler erfüllen muss."
HC = [["color", "7b", "9b"], ["3g", "4b", "8y"], ["6r", "6g", "1b"]]
setup_case("color_choose", Q_COLOR, ok(), [P(0, "color:g"), P(1, "3g")], hands=HC)
setup_case(
    "color_choose_bad", Q_COLOR, bad("illegal_move", T0 + "1/play/0"), [P(0, "color:g"), P(1, "4b")], hands=HC
)
setup_case(
    "color_without_colour",
    "Spec 7: in a play list, color is written color:<c>.",
    bad("malformed", T0 + "0/play/0"),
    [P(0, "color")],
    hands=HC,
)
setup_case(
    "color_unknown_colour",
    "Spec 7: the colours are r, g, b, y.",
    bad("unknown_card", T0 + "0/play/0"),
    [P(0, "color:p")],
    hands=HC,
)

# ---------------------------------------------------------------- TAKI runs

Q_TAKI = (
    "TAKI - Wenn der Spieler eine TAKI-Karte ausspielt, spielt er auch alle Karten der gleichen Farbe aus seiner "
    "Hand aus und muss dann sagen TAKI geschlossen. Wenn er nicht ankündigt, dass das TAKI geschlossen ist, kann der "
    "nächste Spieler es weiter benutzen."
)
HT = [["taki_r", "5r", "8r", "9b"], ["7r", "4r", "8y", "1g"], ["6r", "6g", "1b", "9y"]]
setup_case(
    "run_closed",
    Q_TAKI + " Closed: seat 1 plays one red card only.",
    ok(),
    [P(0, "taki_r", "8r", "5r", close=True), P(1, "7r")],
    hands=HT,
)
setup_case(
    "run_closed_extra_bad",
    Q_TAKI + " After a closed TAKI the next seat plays one card.",
    bad("illegal_move", T0 + "1/play/1"),
    [P(0, "taki_r", "5r", "8r", close=True), P(1, "7r", "4r")],
    hands=HT,
)
setup_case(
    "run_open_continued",
    Q_TAKI + " The open TAKI: seat 1 plays all its red cards and closes.",
    ok(),
    [P(0, "taki_r", "5r", "8r"), P(1, "7r", "4r", close=True), P(2, "6r")],
    hands=HT,
)
setup_case(
    "run_open_partial_bad",
    Q_TAKI + " Rule decision 3: continuing takes every card of the colour.",
    bad("missing_action", T0 + "1/play"),
    [P(0, "taki_r", "5r", "8r"), P(1, "7r")],
    hands=HT,
)
setup_case(
    "run_incomplete_bad",
    Q_TAKI + " Rule decision 3: seat 0 still holds 8r.",
    bad("missing_action", T0 + "0/play"),
    [P(0, "taki_r", "5r")],
    hands=HT,
)
setup_case(
    "run_other_colour_bad",
    Q_TAKI,
    bad("illegal_move", T0 + "0/play/2"),
    [P(0, "taki_r", "5r", "9b")],
    hands=HT,
)
Q_OPEN_END = "Das offene TAKI kann so lange benutzt werden, bis es jemand schließt oder eine Karte einer anderen Farbe gespielt wird."
setup_case(
    "run_open_ended_by_other_colour",
    Q_OPEN_END + " 8y on 8r ends it; seat 2 follows 8y.",
    ok(),
    [P(0, "taki_r", "5r", "8r"), P(1, "8y"), P(2, "9y")],
    hands=HT,
)
setup_case(
    "run_open_ended_bad",
    Q_OPEN_END + " After 8y the red TAKI is over and 6r does not match.",
    bad("illegal_move", T0 + "2/play/0"),
    [P(0, "taki_r", "5r", "8r"), P(1, "8y"), P(2, "6r")],
    hands=HT,
)
setup_case(
    "run_open_survives_draw",
    Q_OPEN_END + " A draw neither closes it nor plays another colour.",
    ok(),
    [P(0, "taki_r", "5r", "8r"), D(1), P(2, "6r", close=True)],
    hands=[["taki_r", "5r", "8r", "9b"], ["1g", "4b", "9y"], ["6r", "6g", "1b"]],
)
Q_ALONE = (
    "Wird eine TAKI-Karte alleine ausgespielt, kann sie von diesem Spieler nicht geschlossen werden. Der nächste "
    "Spieler darf alle Karten dieser Farbe aus seiner Hand ausspielen und den TAKI schließen."
)
HA = [["taki_r", "9b", "7g"], ["7r", "4r", "8y", "1g"], ["6r", "6g", "1b", "9y"]]
setup_case("taki_alone", Q_ALONE, ok(), [P(0, "taki_r"), P(1, "7r", "4r", close=True)], hands=HA)
setup_case(
    "taki_alone_close_bad",
    Q_ALONE,
    bad("illegal_move", T0 + "0/close"),
    [P(0, "taki_r", close=True)],
    hands=HA,
)
Q_VOID = (
    "Aktionskarten, die innerhalb des TAKI-Laufs gespielt werden, werden nicht aktiviert. Ist die letzte Karte in "
    "einem TAKI-Lauf eine Aktionskarte, muss die Aktion ausgeführt werden."
)
HV = [["taki_r", "stop_r", "5r", "9b"], ["7r", "4r", "8y", "1g"], ["6r", "6g", "1b", "9y"]]
setup_case(
    "run_action_void", Q_VOID, ok(), [P(0, "taki_r", "stop_r", "5r", close=True), P(1, "7r")], hands=HV
)
setup_case(
    "run_action_void_bad",
    Q_VOID,
    bad("wrong_seat", T0 + "1/seat"),
    [P(0, "taki_r", "stop_r", "5r", close=True), P(2, "6r")],
    hands=HV,
)
setup_case("run_last_action", Q_VOID, ok(), [P(0, "taki_r", "5r", "stop_r"), P(2, "6r")], hands=HV)
setup_case(
    "run_last_action_bad",
    Q_VOID,
    bad("wrong_seat", T0 + "1/seat"),
    [P(0, "taki_r", "5r", "stop_r"), P(1, "7r")],
    hands=HV,
)
setup_case(
    "run_last_action_close_bad",
    Q_VOID + " Rule decision 4: the run closes by itself; there is nothing to close.",
    bad("illegal_move", T0 + "0/close"),
    [P(0, "taki_r", "5r", "stop_r", close=True)],
    hands=HV,
)
setup_case(
    "run_last_plus2",
    Q_VOID + " The +2 ending the run is active.",
    ok(),
    [P(0, "taki_r", "5r", "plus2_r"), D(1), P(2, "6r")],
    hands=[["taki_r", "plus2_r", "5r", "9b"], ["7r", "4r", "8y", "1g"], ["6r", "6g", "1b", "9y"]],
)
setup_case(
    "run_last_plus_draw",
    Q_VOID + " The Plus ending the run is executed: 9b cannot follow, so seat 0 draws.",
    ok(),
    [P(0, "taki_r", "5r", "plus_r", draw=True)],
    hands=[["taki_r", "plus_r", "5r", "9b"], ["7r", "4r", "8y", "1g"], ["6r", "6g", "1b", "9y"]],
)
setup_case(
    "run_last_taki",
    Q_TAKI + " A TAKI ending a run is not an action that closes it; the player may close.",
    ok(),
    [P(0, "taki_r", "5r", "taki_r", close=True)],
    hands=[["taki_r", "taki_r", "5r", "9b"], ["7r", "4r", "8y", "1g"], ["6r", "6g", "1b", "9y"]],
)

Q_SUPER = (
    "SUPER TAKI - Der Super-Taki ist ein TAKI-Joker, der automatisch die Farbe der führenden Karte annimmt und auf "
    "jede Karte außer einem aktiven +2-Stapel oder +3 gespielt werden kann."
)
HSU = [["supertaki", "5r", "8r", "9b"], ["7r", "4r", "8y", "1g"], ["6r", "6g", "1b", "9y"]]
setup_case("supertaki_run", Q_SUPER, ok(), [P(0, "supertaki", "5r", "8r", close=True), P(1, "7r")], hands=HSU)
setup_case(
    "supertaki_wrong_colour_bad",
    Q_SUPER,
    bad("illegal_move", T0 + "0/play/0"),
    [P(0, "supertaki:g", "5r", "8r")],
    hands=HSU,
)
Q_COLOURLESS_LEAD = (
    "Rule decision 8: a colourless lead takes any card, and a supertaki on it is written supertaki:c."
)
HCL = [["supertaki", "5g", "9b"], ["7r", "4r", "8y", "1g"], ["6r", "6g", "1b", "9y"]]
setup_case(
    "supertaki_colourless_lead",
    Q_COLOURLESS_LEAD,
    ok(),
    [P(0, "supertaki:g", "5g", close=True), P(1, "1g")],
    hands=HCL,
    discard=["king"],
)
setup_case(
    "supertaki_colourless_lead_bad",
    Q_COLOURLESS_LEAD,
    bad("illegal_move", T0 + "0/play/0"),
    [P(0, "supertaki", "5g")],
    hands=HCL,
    discard=["king"],
)
setup_case("colourless_lead_any", Q_COLOURLESS_LEAD, ok(), [P(0, "9b")], hands=HCL, discard=["color"])
Q_LEAD = "Rule decision 8: the action of the upturned lead is ignored (here a +2)."
setup_case(
    "upturned_plus2_ignored",
    Q_LEAD,
    ok(),
    [P(0, "5y")],
    hands=[["5y", "7g", "9b"], H3[1], H3[2]],
    discard=["plus2_y"],
)
setup_case(
    "upturned_plus2_ignored_bad",
    Q_LEAD + " So seat 0 may not draw while 5y fits.",
    bad("must_play", T0 + "0/draw"),
    [D(0)],
    hands=[["5y", "7g", "9b"], H3[1], H3[2]],
    discard=["plus2_y"],
)

# ---------------------------------------------------------------- Plus

Q_PLUS = (
    "PLUS - Das Ausspielen einer Plus-Karte zwingt die Person, eine zweite Karte aus ihrer Hand auszuspielen. Kann "
    "sie keine zweite Karte ausspielen, muss sie eine vom Nachziehstapel ziehen und ist nicht mehr am Zug."
)
HPL = [["plus_r", "5r", "9b"], ["3g", "4b", "8y"], ["6y", "6g", "1b"]]
setup_case("plus_follow", Q_PLUS, ok(), [P(0, "plus_r", "5r")], hands=HPL)
setup_case("plus_missing_bad", Q_PLUS, bad("missing_action", T0 + "0/play"), [P(0, "plus_r")], hands=HPL)
setup_case("plus_draw_bad", Q_PLUS, bad("must_play", T0 + "0/draw"), [P(0, "plus_r", draw=True)], hands=HPL)
setup_case(
    "plus_draw",
    Q_PLUS + " 9b and 7g cannot follow the Plus.",
    ok(),
    [P(0, "plus_r", draw=True), P(1, "5r")],
    hands=[["plus_r", "9b", "7g"], ["5r", "4b", "8y"], ["6y", "6g", "1b"]],
)
setup_case(
    "plus_then_stop",
    Q_PLUS + " The second card's action happens.",
    ok(),
    [P(0, "plus_r", "stop_r"), P(2, "6r")],
    hands=[["plus_r", "stop_r", "9b"], ["3g", "4b", "8y"], ["6r", "6g", "1b"]],
)
Q_PLUS_LAST = "Rule decision 6: a Plus played as the last card forces a draw, so the game goes on."
setup_case(
    "plus_last_card", Q_PLUS_LAST, ok(False), [P(0, "plus_r", draw=True)], hands=[["plus_r"], H3[1], H3[2]]
)
setup_case(
    "plus_last_card_bad",
    Q_PLUS_LAST,
    bad("missing_action", T0 + "0/play"),
    [P(0, "plus_r")],
    hands=[["plus_r"], H3[1], H3[2]],
)

# ---------------------------------------------------------------- +3 and the breaker

Q_PLUS3 = "+3 - Alle anderen Spieler am Tisch müssen drei Karten ziehen. Rule decision 7: in turn order from the next seat."
H3P = [["plus3", "5r", "9b"], ["3y", "4b", "8y"], ["6r", "6g", "1b"]]
P3_TOP = ["4r", "1y", "1y", "6y", "6y", "9y"]
setup_case(
    "plus3_draws",
    Q_PLUS3 + " Seat 1 draws 4r 1y 1y, seat 2 draws 6y 6y 9y; no one loses a turn.",
    ok(),
    [P(0, "plus3"), P(1, "4r"), P(2, "6r")],
    hands=H3P,
    stock_top=P3_TOP,
)
setup_case(
    "plus3_draw_order_bad",
    Q_PLUS3 + " 6y went to seat 2.",
    bad("card_not_in_hand", T0 + "1/play/0"),
    [P(0, "plus3"), P(1, "6y")],
    hands=H3P,
    stock_top=P3_TOP,
)
Q_BREAKER = (
    "+3 Unterbrecher - Der +3 Breaker ist eine großartige Verteidigungskarte, die eine +3 aufhebt und die Person, "
    "die die +3 gespielt hat, zwingt, stattdessen drei Karten zu ziehen. Der +3 Breaker kann gespielt werden von "
    "JEDER SPIELER."
)
HB = [["plus3", "5r", "9b"], ["3y", "4b", "8y"], ["breaker", "6g", "1b"], ["breaker", "7g", "1g"]]
setup_case(
    "breaker_out_of_turn",
    Q_BREAKER + " Seat 2 answers out of turn; seat 0 draws 5y 1y 1y; seat 1 is next.",
    ok(),
    [P(0, "plus3"), P(2, "breaker"), P(1, "3y"), D(2), P(3, "breaker"), P(0, "5y")],
    hands=HB,
    stock_top=["5y", "1y", "1y"],
)
setup_case(
    "breaker_second_answer_bad",
    Q_BREAKER + " Rule decision 7: one breaker per +3; seat 1 is to play.",
    bad("wrong_seat", T0 + "2/seat"),
    [P(0, "plus3"), P(2, "breaker"), P(3, "breaker")],
    hands=HB,
)
setup_case(
    "breaker_by_next_seat",
    Q_BREAKER + " The next seat answers out of turn, then plays its own turn.",
    ok(),
    [P(0, "plus3"), P(1, "breaker"), P(1, "3y")],
    hands=[["plus3", "5r", "9b"], ["breaker", "3y", "8y"], ["6r", "6g", "1b"]],
)
setup_case(
    "breaker_own_plus3_bad",
    Q_BREAKER + " The +3 player cannot answer its own +3; seat 1 is to play.",
    bad("wrong_seat", T0 + "1/seat"),
    [P(0, "plus3"), P(0, "breaker")],
    hands=[["plus3", "breaker", "9b"], ["3y", "4b", "8y"], ["6r", "6g", "1b"]],
)
Q_KING3 = Q_KING + " Rule decision 7: a King at the start of the next turn cancels the +3; nobody draws."
setup_case(
    "king_cancels_plus3",
    Q_KING3 + " Seat 2 then draws the stock top 4y.",
    ok(),
    [P(0, "plus3"), P(1, "king", "8y"), D(2), D(0)],
    hands=[["plus3", "5r", "9b"], ["king", "4b", "8y"], ["6r", "6g", "1b"]],
    stock_top=["4y", "1y"],
)
setup_case(
    "king_cancels_plus3_bad",
    Q_KING3 + " 4y went to seat 2, not to seat 0.",
    bad("card_not_in_hand", T0 + "3/play/0"),
    [P(0, "plus3"), P(1, "king", "8y"), D(2), P(0, "4y")],
    hands=[["plus3", "5r", "9b"], ["king", "4b", "8y"], ["6r", "6g", "1b"]],
    stock_top=["4y", "1y"],
)
Q_BREAKER_OWN = (
    "Wird der +3 Brecher im Zug einer Person gespielt, kann er auf eine beliebige Karte gespielt werden, außer auf "
    "einen aktiven +2 Stapel. Wird die Karte auf diese Weise gespielt, muss die Person, die sie gespielt hat, zur "
    "Strafe drei Karten ziehen. Der nächste Spieler folgt der führenden Karte, die unter dem +3 Brecher liegt."
)
HBO = [["breaker", "5r", "9b"], ["3g", "4b", "8y"], ["6r", "6g", "1b"]]
setup_case(
    "breaker_own_turn",
    Q_BREAKER_OWN + " Seat 0 draws 1y 1y 4y and plays 4y later.",
    ok(),
    [P(0, "breaker"), P(1, "3g")],
    hands=HBO,
    stock_top=["1y", "1y", "4y"],
)
setup_case(
    "breaker_own_turn_bad",
    Q_BREAKER_OWN,
    bad("illegal_move", T0 + "1/play/0"),
    [P(0, "breaker"), P(1, "4b")],
    hands=HBO,
)

# ---------------------------------------------------------------- last card, reshuffle, end

Q_LAST = (
    "LETZTE KARTE - Wenn die vorletzte Karte aus der Hand eines Spielers gespielt wird, muss er sagen letzte Karte. "
    "Wenn er dies nicht tut, muss er zur Strafe vier Karten ziehen."
)
HL = [["5r", "9b"], ["5g", "4b", "8y"], ["6y", "6g", "1b"]]
PEN_TOP = ["1y", "4y", "6y", "8g"]
setup_case("last_card_called", Q_LAST, ok(), [P(0, "5r", last_card=True), P(1, "5g")], hands=HL)
setup_case(
    "last_card_false_bad",
    Q_LAST + " Saying it with two cards left is false.",
    bad("illegal_move", T0 + "0/last_card"),
    [P(0, "5r", last_card=True)],
    hands=[["5r", "9b", "7g"], HL[1], HL[2]],
)
setup_case(
    "last_card_penalty",
    Q_LAST + " Rule decision 5: seat 0 draws 1y 4y 6y 8g and later plays 8g.",
    ok(),
    [P(0, "5r"), P(1, "5g"), P(2, "6g"), P(0, "8g")],
    hands=HL,
    stock_top=PEN_TOP,
)
setup_case(
    "last_card_penalty_bad",
    Q_LAST + " With the call there is no penalty, so seat 0 holds no 8g.",
    bad("card_not_in_hand", T0 + "3/play/0"),
    [P(0, "5r", last_card=True), P(1, "5g"), P(2, "6g"), P(0, "8g")],
    hands=HL,
    stock_top=PEN_TOP,
)
Q_RESHUFFLE = (
    "Spec 7: reshuffle is the discard pile minus its top card, used when a draw finds the stock empty."
)
HR = [["9b", "7g", "1g"], ["4b", "8y", "1g"], ["6y", "6g", "1b"]]
setup_case(
    "reshuffle",
    Q_RESHUFFLE,
    ok(),
    [D(0), D(1, reshuffle="REST")],
    hands=HR,
    stock_top=["4y"],
    rest_to_discard=True,
)
setup_case(
    "reshuffle_missing_bad",
    Q_RESHUFFLE,
    bad("deck_mismatch", T0 + "1"),
    [D(0), D(1)],
    hands=HR,
    stock_top=["4y"],
    rest_to_discard=True,
)
setup_case(
    "reshuffle_wrong_bad",
    Q_RESHUFFLE,
    bad("deck_mismatch", T0 + "1/reshuffle"),
    [D(0), D(1, reshuffle="REST-1")],
    hands=HR,
    stock_top=["4y"],
    rest_to_discard=True,
)
setup_case(
    "reshuffle_unused_bad",
    Q_RESHUFFLE,
    bad("deck_mismatch", T0 + "0/reshuffle"),
    [D(0, reshuffle="REST")],
    hands=HR,
    stock_top=["4y"],
    rest_to_discard=True,
)
Q_END = "BEENDIGUNG DES SPIELS - Das Spiel endet, sobald ein Spieler seine Hand geleert hat."
HE = [["5r"], ["5g", "4b", "8y"], ["6y", "6g", "1b"]]
setup_case("win", Q_END, ok(True), [P(0, "5r")], hands=HE, result={"winners": [0]})
setup_case("win_no_result", Q_END, ok(True), [P(0, "5r")], hands=HE)
setup_case(
    "win_wrong_claim",
    Q_END,
    bad("result_mismatch", "/result/winners"),
    [P(0, "5r")],
    hands=HE,
    result={"winners": [1]},
)
setup_case("after_end_bad", Q_END, bad("game_already_over", T0 + "1"), [P(0, "5r"), P(1, "5g")], hands=HE)
setup_case(
    "not_over_claim_bad",
    Q_END,
    bad("result_mismatch", "/result"),
    [P(0, "5r")],
    hands=[["5r", "9b"], HE[1], HE[2]],
    result={"winners": [0]},
)
setup_case(
    "resignation",
    "Spec 2: under another termination the claim is echoed and the record is partial.",
    ok(False),
    [P(0, "5r")],
    hands=[["5r", "9b"], HE[1], HE[2]],
    result={"winners": [1], "termination": "resignation"},
)
setup_case(
    "breaker_last_card_no_win",
    Q_BREAKER_OWN + " The breaker's three cards come before the end check.",
    bad("result_mismatch", "/result"),
    [P(0, "breaker")],
    hands=[["breaker"], HE[1], HE[2]],
    result={"winners": [0]},
)
setup_case(
    "stop_last_card_wins",
    Q_END + " A Stop as the last card wins at once.",
    ok(True),
    [P(0, "stop_r")],
    hands=[["stop_r"], HE[1], HE[2]],
    result={"winners": [0]},
)

# ---------------------------------------------------------------- tournament

Q_TOUR = (
    "TAKI-TURNIER - Jeder Spieler beginnt das Spiel auf Phase 8. Sobald ein Spieler seine Hand geleert hat, beginnt "
    "er sofort mit Phase 7 und zieht 7 Karten vom Nachziehstapel. Der erste Spieler, der Phase 1 erreicht und eine "
    "Karte geleert hat, gewinnt das Turnier."
)
TOUR = {"tournament": True}
setup_case(
    "tournament_phase_down",
    Q_TOUR + " Seat 0 empties its hand in phase 8 and draws 7 (1y 1y 3y 3y 4y 4y 5y).",
    ok(False),
    [P(0, "5r"), P(1, "5g"), P(2, "6g"), D(0)],
    hands=HE,
    variant=TOUR,
    stock_top=["1y", "1y", "3y", "3y", "4y", "4y", "5y"],
)
setup_case(
    "tournament_phase_down_bad",
    Q_TOUR + " Outside the tournament the same empty hand ends the game.",
    bad("game_already_over", T0 + "1"),
    [P(0, "5r"), P(1, "5g"), P(2, "6g"), D(0)],
    hands=HE,
    stock_top=["1y", "1y", "3y", "3y", "4y", "4y", "5y"],
)
setup_case(
    "tournament_win",
    Q_TOUR,
    ok(True),
    [P(0, "5r")],
    hands=HE,
    variant=TOUR,
    phases=[1, 3, 5],
    result={"winners": [0], "phases": [1, 3, 5]},
)
setup_case(
    "tournament_win_phases_bad",
    Q_TOUR,
    bad("result_mismatch", "/result/phases"),
    [P(0, "5r")],
    hands=HE,
    variant=TOUR,
    phases=[1, 3, 5],
    result={"winners": [0], "phases": [1, 3, 4]},
)
setup_case(
    "tournament_not_won_in_phase_2",
    Q_TOUR + " In phase 2 an empty hand draws 1 and the game goes on.",
    bad("result_mismatch", "/result"),
    [P(0, "5r")],
    hands=HE,
    variant=TOUR,
    phases=[2, 3, 5],
    result={"winners": [0], "phases": [1, 3, 5]},
)
setup_case(
    "tournament_pending_goes_on",
    Q_TOUR + " Spec 7: pending effects go on; seat 1 draws the +2.",
    ok(False),
    [P(0, "plus2_r"), D(1), P(2, "6r")],
    hands=[["plus2_r"], HE[1], ["6r", "6g", "1b"]],
    variant=TOUR,
    phases=[5, 8, 8],
)
setup_case(
    "phases_without_tournament_bad",
    "Spec 7: phases belong to the tournament.",
    bad("bad_setup", "/setup/phases"),
    [],
    hands=HE,
    phases=[8, 8, 8],
)

# ---------------------------------------------------------------- setup

setup_case(
    "setup_pending_plus2",
    Q_PLUS2,
    ok(),
    [D(0), P(1, "3y")],
    hands=H3P,
    discard=["plus2_y"],
    pending={"plus2": 4},
)
setup_case(
    "setup_pending_plus2_bad",
    "A +2 stack needs a +2 on top of the pile.",
    bad("bad_setup", "/setup/pending/plus2"),
    [],
    hands=H3P,
    pending={"plus2": 4},
)
setup_case(
    "setup_open_taki",
    Q_TAKI,
    ok(),
    [P(0, "7r", "8r", close=True)],
    hands=[["7r", "8r", "9b"], H3[1], H3[2]],
    discard=["5r"],
    pending={"open_taki": "r"},
)
setup_case(
    "setup_open_taki_bad",
    Q_TAKI + " Continuing takes every red card.",
    bad("missing_action", T0 + "0/play"),
    [P(0, "7r")],
    hands=[["7r", "8r", "9b"], H3[1], H3[2]],
    discard=["5r"],
    pending={"open_taki": "r"},
)
setup_case(
    "setup_pending_plus3",
    Q_BREAKER,
    ok(),
    [P(2, "breaker"), P(1, "3y")],
    hands=HB[:3],
    discard=["3r", "plus3"],
    pending={"plus3": 0},
    to_move=1,
)
setup_case(
    "setup_empty_hand_bad",
    "An empty hand means the game is already over.",
    bad("bad_setup", "/setup/hands/1"),
    [],
    hands=[["5r"], [], ["6y"]],
)
setup_case(
    "setup_lead_color_bad",
    "The lead colour of a 3r is red.",
    bad("bad_setup", "/setup/lead_color"),
    [],
    hands=H3,
    lead_color="g",
)
setup_case(
    "setup_color_lead",
    Q_COLOR + " A played Change Colour on top with its colour in lead_color.",
    ok(),
    [P(0, "7g")],
    hands=H3,
    discard=["3r", "color"],
    lead_color="g",
)

# ---------------------------------------------------------------- schema, variant, deal

setup_case(
    "entry_unknown_key",
    "Spec 1: unknown keys are errors.",
    bad("malformed", T0 + "0/foo"),
    [P(0, "5r", foo=1)],
    hands=H3,
)
setup_case(
    "entry_x_key", "Spec 1: keys that start with x_ are allowed.", ok(), [P(0, "5r", x_ms=1200)], hands=H3
)
setup_case(
    "entry_empty_play",
    "An entry plays at least one card or draws.",
    bad("malformed", T0 + "0/play"),
    [P(0)],
    hands=H3,
)
setup_case(
    "entry_seat_range",
    "Spec 2: a seat out of range is malformed.",
    bad("malformed", T0 + "0/seat"),
    [P(7, "5r")],
    hands=H3,
)
setup_case(
    "variant_seats_bad",
    "ANZAHL DER SPIELER: 2 - 10 Spieler",
    bad("bad_variant", "/variant/seats"),
    [],
    hands=H3,
    variant={"seats": 11},
)
setup_case(
    "variant_key_bad",
    "Spec 7 lists the variant keys.",
    bad("bad_variant", "/variant/jokers"),
    [],
    hands=H3,
    variant={"jokers": True},
)
Q_DEAL = "EINRICHTEN - Mischen Sie den Stapel und teilen Sie jedem Spieler 8 Karten aus."
add("deal_start", deal_record(Q_DEAL, ok()))
rec = deal_record(Q_DEAL, bad("deck_mismatch", "/deals/0/hands/0"))
rec["deals"][0]["stock"].append(rec["deals"][0]["hands"][0].pop())
add("deal_hand_size_bad", rec)
rec = deal_record(Q_DEAL + " The deck holds two 1r.", bad("deck_mismatch", "/deals/0/stock"))
rec["deals"][0]["stock"][0] = "1r"
add("deal_excess_bad", rec)
rec = deal_record("INHALT: 116 Karten", bad("deck_mismatch", "/deals/0/stock"))
rec["deals"][0]["stock"].pop()
add("deal_missing_bad", rec)
rec = deal_record("Rule decision 1: there is no plain 2.", bad("unknown_card", "/deals/0/hands/1/0"))
rec["deals"][0]["hands"][1][0] = "2r"
add("deal_unknown_card", rec)
rec = deal_record("Spec 2: TAKI has exactly one deal.", bad("malformed", "/deals/1"))
rec["deals"].append(rec["deals"][0])
add("deal_two_deals_bad", rec)
rec = deal_record(
    "Der jüngste Spieler beginnt: `first` names that seat.", bad("wrong_seat", "/deals/0/turns/0/seat")
)
rec["deals"][0]["turns"] = [{"seat": 0, "draw": True}]
add("deal_first_seat_bad", rec)


# ---------------------------------------------------------------- readings pinned in docs/rules/taki.md

rec = copy.deepcopy(CASES["match_colour"])
del rec["variant"]["seats"]
rec["comment"] = "Reading: without variant.seats the players' seats give the number of seats. " + Q_MATCH
add("variant_seats_default", rec)
setup_case(
    "variant_tournament_hand_size_bad",
    "Jeder Spieler beginnt das Spiel auf Phase 8, d.h. er erhält 8 Karten.",
    bad("bad_variant", "/variant/hand_size"),
    [],
    hands=H3,
    variant={"tournament": True, "hand_size": 7},
)
Q_JOKER = "Reading: a SuperTAKI on the pile is a TAKI of the lead colour (TAKI-Joker), so taki_g matches it by symbol."
setup_case(
    "supertaki_symbol",
    Q_JOKER,
    ok(),
    [P(0, "taki_g", "7g", close=True)],
    hands=[["taki_g", "7g", "9b"], H3[1], H3[2]],
    discard=["3r", "supertaki", "king"],
    lead_color="r",
)
setup_case(
    "supertaki_symbol_bad",
    Q_JOKER + " 9b matches neither red nor TAKI.",
    bad("illegal_move", T0 + "0/play/0"),
    [P(0, "9b")],
    hands=[["taki_g", "7g", "9b"], H3[1], H3[2]],
    discard=["3r", "supertaki", "king"],
    lead_color="r",
)
setup_case(
    "breaker_own_last_card",
    Q_LAST + " Reading: the call counts the cards left after the plays, before the breaker's three.",
    ok(),
    [P(0, "breaker", last_card=True)],
    hands=[["breaker", "9b"], H3[1], H3[2]],
)
setup_case(
    "plus3_king_kept",
    Q_KING3 + " Reading: a seat that does not open with its King draws the 3, and then a King "
    "cannot open its turn; nothing else fits, so it draws.",
    ok(),
    [P(0, "plus3"), D(1)],
    hands=[["plus3", "5r", "9b"], ["king", "4b", "8y"], ["6r", "6g", "1b"]],
    stock_top=["1y", "4y", "6y"],
)
setup_case(
    "plus3_reshuffle",
    Q_RESHUFFLE + " Reading: the +3 draws belong to the next entry, which carries the reshuffle.",
    ok(),
    [P(0, "plus3"), P(1, "3g", reshuffle=["REST", "3r"])],
    hands=[["plus3", "5r", "9b"], ["3g", "8y", "1g"], ["6y", "6g", "1b"]],
    stock_top=["4y", "1y"],
    rest_to_discard=True,
)
setup_case(
    "plus3_reshuffle_bad",
    Q_RESHUFFLE + " The +3 player's own entry draws nothing.",
    bad("deck_mismatch", T0 + "0/reshuffle"),
    [P(0, "plus3", reshuffle=["REST", "3r"]), D(1)],
    hands=[["plus3", "5r", "9b"], ["4b", "8y", "1g"], ["6y", "6g", "1b"]],
    stock_top=["4y", "1y"],
    rest_to_discard=True,
)
ALL_BUT_LEAD = [c for c in deck_cards()]
ALL_BUT_LEAD.remove("plus2_r")
setup_case(
    "draws_lapse",
    "Spec 7: if both piles are empty, the remaining draws lapse.",
    ok(),
    [D(0), P(1, "plus2_g")],
    hands=[ALL_BUT_LEAD[0::3], ALL_BUT_LEAD[1::3], ALL_BUT_LEAD[2::3]],
    discard=["plus2_r"],
    pending={"plus2": 2},
)
setup_case(
    "spec_example_run_and_stack",
    "Spec 7 example: a run ending in +2 with the last-card call, a +2 added, seat 3 draws 4.",
    ok(),
    [
        P(1, "taki_b", "3b", "7b", "plus2_b", last_card=True),
        P(2, "plus2_r"),
        D(3, comment="draws 4"),
    ],
    hands=[["5g", "6g"], ["taki_b", "3b", "7b", "plus2_b", "9r"], ["plus2_r", "4y"], ["1y", "8y"]],
    discard=["5b"],
    to_move=1,
)
setup_case(
    "spec_example_breaker",
    "Spec 7 example: +3, a breaker out of turn (seat 0 draws 3; seat 1 is next), then King and Change Colour.",
    ok(),
    [
        P(0, "plus3"),
        P(2, "breaker", comment="out of turn: seat 0 draws 3; seat 1 is next"),
        P(1, "king", "color:g"),
    ],
    hands=[["plus3", "5g", "6g"], ["king", "color", "9r"], ["breaker", "4y", "4b"], ["1y", "8y"]],
)
rec = copy.deepcopy(CASES["match_colour"])
rec["deals"] = []
rec["comment"] = "Spec 2: deals may be empty; the setup alone is a valid position."
add("no_deal_yet", rec)


def random_cases() -> None:
    import random

    from rules.taki import ENGINE

    for name, variant, seed in [
        ("random_2_seats", {"seats": 2}, 11),
        ("random_6_seats", {"seats": 6}, 12),
        ("random_10_seats", {"seats": 10}, 13),
        ("random_tournament_2_seats", {"seats": 2, "tournament": True}, 14),
    ]:
        record = ENGINE.random_record(variant, random.Random(seed))
        record["comment"] = f"A random complete game (python -m rules random taki, seed {seed})."
        record["x_expect"] = ok(True)
        add(name, record)


random_cases()


def write_all() -> None:
    RECORDS.mkdir(parents=True, exist_ok=True)
    for old in RECORDS.glob("*.json"):
        old.unlink()
    for name, record in CASES.items():
        text = json.dumps(record, ensure_ascii=False, separators=(",", ":"))
        (RECORDS / f"{name}.json").write_text(text + "\n", encoding="utf-8")


if __name__ == "__main__":
    write_all()
    print(f"{len(CASES)} records in {RECORDS}")
