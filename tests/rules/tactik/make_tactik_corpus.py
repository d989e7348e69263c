"""Write the Tac-Tik golden corpus (tests/rules/records/tactik/*.json).

Every file states its expected verdict in ``x_expect``, written here by hand from the rule text and
the spec, never read back from the engine; ``test_tactik_corpus.py`` replays the files and compares.
Run ``python tests/rules/tactik/make_tactik_corpus.py`` after editing a case, and commit the files.
"""

from __future__ import annotations

import copy
import json
import random
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[3]
OUT = ROOT / "tests" / "rules" / "records" / "tactik"
sys.path.insert(0, str(ROOT))

from rules.tactik import ENGINE  # noqa: E402

PLAYERS4 = [{"name": f"P{s}", "seats": [s]} for s in range(4)]
PLAYERS6 = [{"name": f"P{s}", "seats": [s]} for s in range(6)]
CASES: dict[str, dict[str, Any]] = {}

# Rule quotes (French rule sheet, seed 001).
Q_PIEU = "LE PIEU: Un pieu ne peut pas : rentrer dans sa base, être mangé, être dépassé, être permuté (sauf par son propriétaire)"
Q_BLOCK = "Il bloque donc tous les pions (mais ne les empêche pas de permuter), même ceux de son propriétaire prêts à rentrer dans la base ou à démarrer."
Q_START = "AVANCER OU DÉMARRER 1 et 10: soit de démarrer un pion (voir LE PIEU), soit de déplacer un pion"
Q_EAT_START = "un pion se trouvant dans la case de démarrage où un pieu démarre, sera également mangé."
Q_EAT = "Pour manger un pion, un joueur doit terminer son déplacement juste sur ce pion, sauf dans le cas de la carte 7x1"
Q_PASS = (
    "DÉPASSER: Un pion peut en dépasser un autre sauf si ce dernier est un pieu ou se trouve dans sa base."
)
Q_BACK = "RECULER -4: Elle ne permet pas directement à un pion de rentrer dans sa base. - elle peut servir à reculer un pieu qui pourra rentrer dans sa base le tour suivant - elle peut servir à un pion ou un pieu, à manger un autre pion se trouvant 4 cases derrière lui"
Q_PERM = "PERMUTER: permuter un de ses pions ou son propre pieu avec un autre pion, les 2 se trouvant déjà sur le plateau en dehors des bases."
Q_7 = "AVANCER 7x1: déplacer un ou plusieurs de ses pions d'une case jusqu'à un total de 7 cases - elle mange tous les pions sur son passage - sa valeur doit être utilisée entièrement - la valeur de cette carte ne se partage jamais entre des pions de couleur différente"
Q_BASE = "RENTRER DANS SA BASE: Un pion rentre dans sa base en passant par la case de démarrage avec une carte AVANCER. Un pion dans sa base ne peut pas : en ressortir, être mangé, être dépassé, être permuté"
Q_EXACT = "Si la valeur de la carte est supérieur au nombre nécessaire pour rentrer dans sa base, le pion devra la dépasser pour refaire un autre tour"
Q_DEEP = "Chaque pion devra donc, le cas échéant, être poussé au maximum pour que les autres puissent être rentrés."
Q_MUST = "OBLIGATION DE JOUER: Un joueur est toujours obligé de jouer son tour quand il le peut, même s'il doit porter préjudice à lui même. S'il ne peut, en aucun cas, jouer une carte, il en jette une face visible et passe son tour"
Q_PARTNER = "Quand un joueur a rentré tous ses propres pions dans sa base, il joue les tours suivants avec ceux de son partenaire."
Q_WIN = "BUT: Être la première équipe à rentrer les 4 pions des 2 partenaires, dans leur base respective."
Q_EXCHANGE = "Chaque joueur regarde ses cartes et en choisit une qu'il passe, face cachée, à son partenaire. Cet échange est obligatoire et se fera suite à chaque nouvelle distribution de cartes."
Q_DEAL = "Un joueur mélange les 48 cartes, et distribue une par une 4 cartes à chaque joueur. ... le joueur à gauche de celui qui a distribué commence."
Q_SIX = "RÈGLE POUR 4 OU 6 JOUEURS « EN ÉQUIPE » (2 ou 3 équipes de 2 partenaires)"

VALID_PARTIAL = {"valid": True, "complete": False}
VALID_COMPLETE = {"valid": True, "complete": True}


def bad(code: str, path: str) -> dict[str, Any]:
    return {"valid": False, "code": code, "path": path}


def case(name: str, comment: str, expect: dict[str, Any], doc: dict[str, Any]) -> None:
    assert name not in CASES, name
    CASES[name] = {"format": "game-record/1", "game": "tactik", "comment": comment, "x_expect": expect, **doc}


def position(
    name: str,
    comment: str,
    expect: dict[str, Any],
    *,
    marbles: list[list[Any]] | None = None,
    fresh: list[int] | None = None,
    hands: list[list[str]],
    turns: list[dict[str, Any]],
    dealer: int = 3,
    variant: dict[str, Any] | None = None,
    result: dict[str, Any] | None = None,
    setup_extra: dict[str, Any] | None = None,
) -> None:
    n = len(hands)
    setup: dict[str, Any] = {"dealer": dealer, "hands": hands}
    if marbles is not None:
        setup["marbles"] = marbles
    if fresh:
        setup["fresh"] = fresh
    if setup_extra:
        setup.update(setup_extra)
    doc: dict[str, Any] = {
        "players": PLAYERS4 if n == 4 else PLAYERS6,
        "setup": setup,
        "deals": [{"turns": turns}],
    }
    if variant is not None:
        doc = {"variant": variant, **doc}
    if result is not None:
        doc["result"] = result
    case(name, comment, expect, doc)


T0 = "/deals/0/turns/0"


def t(seat: int, card: str, **action: Any) -> dict[str, Any]:
    return {"seat": seat, "card": card, **action}


def build_positions() -> None:
    # --- entering as a pieu -------------------------------------------------------------------
    position(
        "enter_with_1",
        Q_START,
        VALID_PARTIAL,
        hands=[["1"], ["2"], ["3"], ["5"]],
        turns=[t(0, "1", enter=True)],
    )
    position(
        "enter_with_10",
        Q_START,
        VALID_PARTIAL,
        hands=[["10"], ["2"], ["3"], ["5"]],
        turns=[t(0, "10", enter=True)],
    )
    position(
        "enter_with_2_illegal",
        Q_START,
        bad("illegal_move", T0),
        hands=[["2"], ["2"], ["3"], ["5"]],
        turns=[t(0, "2", enter=True)],
    )
    position(
        "enter_all_on_board_illegal",
        Q_START + " (a marble must be waiting in the prefield)",
        bad("illegal_move", T0),
        marbles=[[5, 9, 20, "H0:4"], [], [], []],
        hands=[["1"], ["2"], ["3"], ["5"]],
        turns=[t(0, "1", enter=True)],
    )
    position(
        "enter_captures_on_start",
        Q_EAT_START + " Seat 1's marble on 0 is captured, so seat 1 has nothing to move and discards.",
        VALID_PARTIAL,
        marbles=[[], [0], [], []],
        hands=[["10"], ["-4"], ["3"], ["5"]],
        turns=[t(0, "10", enter=True), t(1, "-4", discard=True)],
    )
    position(
        "enter_captures_then_captured_marble_moves_illegal",
        Q_EAT_START + " The captured marble is gone: seat 1 cannot move it from 0.",
        bad("illegal_move", "/deals/0/turns/1"),
        marbles=[[], [0], [], []],
        hands=[["10"], ["-4"], ["3"], ["5"]],
        turns=[t(0, "10", enter=True), t(1, "-4", moves=[[0, 60]])],
    )
    position(
        "enter_captures_own_ordinary_marble",
        Q_EAT_START + " (whatever its colour: the sheet names no exception)",
        VALID_PARTIAL,
        marbles=[[0], [], [], []],
        hands=[["1"], ["2"], ["3"], ["5"]],
        turns=[t(0, "1", enter=True)],
    )
    position(
        "enter_onto_own_pieu_illegal",
        Q_BLOCK,
        bad("illegal_move", T0),
        marbles=[[0], [], [], []],
        fresh=[0],
        hands=[["1"], ["2"], ["3"], ["5"]],
        turns=[t(0, "1", enter=True)],
    )
    # --- the pieu -----------------------------------------------------------------------------
    position(
        "pass_ordinary_marble",
        Q_PASS,
        VALID_PARTIAL,
        marbles=[[14], [16], [], []],
        hands=[["3"], ["2"], ["3"], ["5"]],
        turns=[t(0, "3", moves=[[14, 17]])],
    )
    position(
        "pass_pieu_illegal",
        Q_PIEU,
        bad("illegal_move", T0),
        marbles=[[14], [16], [], []],
        fresh=[1],
        hands=[["3"], ["2"], ["3"], ["5"]],
        turns=[t(0, "3", moves=[[14, 17]])],
    )
    position(
        "capture_ordinary_marble",
        Q_EAT + " Seat 1's only marble is captured: it has nothing left to move and discards.",
        VALID_PARTIAL,
        marbles=[[14], [16], [], []],
        hands=[["2"], ["-4"], ["3"], ["5"]],
        turns=[t(0, "2", moves=[[14, 16]]), t(1, "-4", discard=True)],
    )
    position(
        "capture_pieu_illegal",
        Q_PIEU,
        bad("illegal_move", T0),
        marbles=[[14], [16], [], []],
        fresh=[1],
        hands=[["2"], ["-4"], ["3"], ["5"]],
        turns=[t(0, "2", moves=[[14, 16]])],
    )
    position(
        "own_pieu_blocks_base_entry_illegal",
        Q_BLOCK,
        bad("illegal_move", T0),
        marbles=[[62, 0], [], [], []],
        fresh=[0],
        hands=[["3"], ["2"], ["3"], ["5"]],
        turns=[t(0, "3", moves=[[62, "H0:1"]])],
    )
    position(
        "base_entry_past_own_ordinary_marble",
        Q_BASE + " / " + Q_PASS,
        VALID_PARTIAL,
        marbles=[[62, 0], [], [], []],
        hands=[["3"], ["2"], ["3"], ["5"]],
        turns=[t(0, "3", moves=[[62, "H0:1"]])],
    )
    position(
        "pieu_enters_base_illegal",
        Q_PIEU,
        bad("illegal_move", T0),
        marbles=[[0], [], [], []],
        fresh=[0],
        hands=[["1"], ["2"], ["3"], ["5"]],
        turns=[t(0, "1", moves=[[0, "H0:1"]])],
    )
    position(
        "pieu_moves_on_ring",
        "Dès que le joueur déplace ou permute son pieu, il devient un pion ordinaire",
        VALID_PARTIAL,
        marbles=[[0], [], [], []],
        fresh=[0],
        hands=[["1"], ["2"], ["3"], ["5"]],
        turns=[t(0, "1", moves=[[0, 1]])],
    )
    # --- the -4 -------------------------------------------------------------------------------
    discards = [t(1, "2", discard=True), t(2, "2", discard=True), t(3, "2", discard=True)]
    position(
        "back4_pieu_then_enters_base",
        Q_BACK,
        VALID_PARTIAL,
        marbles=[[0], [], [], []],
        fresh=[0],
        hands=[["-4", "5"], ["2", "3"], ["2", "3"], ["2", "3"]],
        turns=[t(0, "-4", moves=[[0, 60]]), *discards, t(0, "5", moves=[[60, "H0:1"]])],
    )
    position(
        "back4_into_base_illegal",
        Q_BACK,
        bad("illegal_move", T0),
        marbles=[[2], [], [], []],
        hands=[["-4"], ["2"], ["3"], ["5"]],
        turns=[t(0, "-4", moves=[[2, "H0:2"]])],
    )
    position(
        "back4_passes_start_field",
        Q_BACK + " (it may pass the start field along the ring)",
        VALID_PARTIAL,
        marbles=[[2], [], [], []],
        hands=[["-4"], ["2"], ["3"], ["5"]],
        turns=[t(0, "-4", moves=[[2, 62]])],
    )
    position(
        "back4_captures_behind",
        Q_BACK,
        VALID_PARTIAL,
        marbles=[[20], [16], [], []],
        hands=[["-4"], ["2"], ["3"], ["5"]],
        turns=[t(0, "-4", moves=[[20, 16]])],
    )
    position(
        "back4_onto_pieu_illegal",
        Q_BACK + " / " + Q_PIEU,
        bad("illegal_move", T0),
        marbles=[[20], [16], [], []],
        fresh=[1],
        hands=[["-4"], ["2"], ["3"], ["5"]],
        turns=[t(0, "-4", moves=[[20, 16]])],
    )
    position(
        "back4_past_pieu_illegal",
        Q_PIEU + " (not even backward)",
        bad("illegal_move", T0),
        marbles=[[18], [16], [], []],
        fresh=[1],
        hands=[["-4"], ["2"], ["3"], ["5"]],
        turns=[t(0, "-4", moves=[[18, 14]])],
    )
    position(
        "back4_wrong_distance_illegal",
        "RECULER -4: déplacer un pion dans le sens contraire des aiguilles d'une montre de 4 cases",
        bad("illegal_move", T0),
        marbles=[[20], [], [], []],
        hands=[["-4"], ["2"], ["3"], ["5"]],
        turns=[t(0, "-4", moves=[[20, 17]])],
    )
    position(
        "back4_from_base_illegal",
        Q_BASE,
        bad("illegal_move", T0),
        marbles=[["H0:4"], [], [], []],
        hands=[["-4"], ["2"], ["3"], ["5"]],
        turns=[t(0, "-4", moves=[["H0:4", 60]])],
    )
    # --- the permuter -------------------------------------------------------------------------
    position(
        "permute_own_with_other",
        Q_PERM,
        VALID_PARTIAL,
        marbles=[[5], [30], [], []],
        hands=[["permuter"], ["2"], ["3"], ["5"]],
        turns=[t(0, "permuter", swap=[5, 30])],
    )
    position(
        "permute_other_order_accepted",
        Q_PERM + " (the two fields may be written in either order)",
        VALID_PARTIAL,
        marbles=[[5], [30], [], []],
        hands=[["permuter"], ["2"], ["3"], ["5"]],
        turns=[t(0, "permuter", swap=[30, 5])],
    )
    position(
        "permute_two_own_marbles",
        "Ex 1 : permuter un de ses pions avec un autre de ses pions (une façon de jouer l'excuse!)",
        VALID_PARTIAL,
        marbles=[[5, 9], [], [], []],
        hands=[["permuter"], ["2"], ["3"], ["5"]],
        turns=[t(0, "permuter", swap=[5, 9])],
    )
    position(
        "permute_other_pieu_illegal",
        Q_PIEU,
        bad("illegal_move", T0),
        marbles=[[5], [16], [], []],
        fresh=[1],
        hands=[["permuter"], ["2"], ["3"], ["5"]],
        turns=[t(0, "permuter", swap=[5, 16])],
    )
    position(
        "permute_two_foreign_illegal",
        Q_PERM,
        bad("illegal_move", T0),
        marbles=[[5], [30], [40], []],
        hands=[["permuter"], ["2"], ["3"], ["5"]],
        turns=[t(0, "permuter", swap=[30, 40])],
    )
    position(
        "permute_base_marble_illegal",
        Q_PERM + " / " + Q_BASE,
        bad("illegal_move", T0),
        marbles=[[5], ["H1:1"], [], []],
        hands=[["permuter"], ["2"], ["3"], ["5"]],
        turns=[t(0, "permuter", swap=[5, "H1:1"])],
    )
    position(
        "permute_empty_field_illegal",
        Q_PERM + " (two marbles already on the board)",
        bad("illegal_move", T0),
        marbles=[[5], [], [], []],
        hands=[["permuter"], ["2"], ["3"], ["5"]],
        turns=[t(0, "permuter", swap=[5, 30])],
    )
    d1 = [t(2, "2", discard=True), t(3, "2", discard=True), t(0, "2", discard=True)]
    position(
        "permute_own_pieu_then_enter_base",
        "Ex 2 : permuter son propre pieu qui devient alors un pion avec un autre de ses pions (le pieu qui devient un pion qui se trouve dans la case de démarrage pourra éventuellement rentrer dans sa base le tour suivant)",
        VALID_PARTIAL,
        marbles=[[], [16, 45], [], []],
        fresh=[1],
        dealer=0,
        hands=[["2", "3"], ["permuter", "1"], ["2", "3"], ["2", "3"]],
        turns=[t(1, "permuter", swap=[16, 45]), *d1, t(1, "1", moves=[[16, "H1:1"]])],
    )
    position(
        "permute_pieu_moved_marble_is_ordinary",
        "Dès que le joueur déplace ou permute son pieu, il devient un pion ordinaire: the swapped marble on 45 may be captured.",
        VALID_PARTIAL,
        marbles=[[], [16, 45], [43], []],
        fresh=[1],
        dealer=0,
        hands=[["2", "3"], ["permuter", "1"], ["2", "3"], ["2", "3"]],
        turns=[t(1, "permuter", swap=[16, 45]), t(2, "2", moves=[[43, 45]])],
    )
    # --- the 7x1 ------------------------------------------------------------------------------
    position(
        "seven_split_captures_path",
        Q_7 + " (spec example: marbles on 10, 11, 61, 62, 63 and 0 are captured)",
        VALID_PARTIAL,
        marbles=[[9, 60], [10, 62], [11], [63, 0]],
        hands=[["7x1"], ["2"], ["3"], ["5"]],
        turns=[t(0, "7x1", moves=[[9, 11], [60, "H0:1"]])],
    )
    position(
        "seven_split_captured_marble_gone_illegal",
        Q_7 + " Seat 1's marble on 10 was passed and captured; it cannot move from 10.",
        bad("illegal_move", "/deals/0/turns/1"),
        marbles=[[9, 40], [10], [], []],
        hands=[["7x1"], ["2"], ["3"], ["5"]],
        turns=[t(0, "7x1", moves=[[9, 13], [40, 43]]), t(1, "2", moves=[[10, 12]])],
    )
    others_discard = [t(1, "2", discard=True), t(2, "2", discard=True), t(3, "2", discard=True)]
    position(
        "seven_split_captures_own_marble",
        Q_7
        + " (tous les pions: the seat's own marble on 11 is captured too; its other marble goes on from 16)",
        VALID_PARTIAL,
        marbles=[[9, 11], [], [], []],
        hands=[["7x1", "2"], ["2", "3"], ["2", "3"], ["2", "3"]],
        turns=[t(0, "7x1", moves=[[9, 16]]), *others_discard, t(0, "2", moves=[[16, 18]])],
    )
    position(
        "seven_split_own_marble_gone_illegal",
        Q_7 + " The own marble passed on 11 was captured: it cannot move afterwards.",
        bad("illegal_move", "/deals/0/turns/4"),
        marbles=[[9, 11], [], [], []],
        hands=[["7x1", "2"], ["2", "3"], ["2", "3"], ["2", "3"]],
        turns=[t(0, "7x1", moves=[[9, 16]]), *others_discard, t(0, "2", moves=[[11, 13]])],
    )
    position(
        "seven_split_short_illegal",
        Q_7,
        bad("illegal_move", T0),
        marbles=[[9, 60], [], [], []],
        hands=[["7x1"], ["2"], ["3"], ["5"]],
        turns=[t(0, "7x1", moves=[[9, 11], [60, 63]])],
    )
    position(
        "seven_split_long_illegal",
        Q_7,
        bad("illegal_move", "/deals/0/turns/0/moves/1"),
        marbles=[[9, 40], [], [], []],
        hands=[["7x1"], ["2"], ["3"], ["5"]],
        turns=[t(0, "7x1", moves=[[9, 13], [40, 44]])],
    )
    position(
        "seven_split_two_colours_illegal",
        Q_7,
        bad("illegal_move", "/deals/0/turns/0/moves/1"),
        marbles=[[9], [], [30], []],
        hands=[["7x1"], ["2"], ["3"], ["5"]],
        turns=[t(0, "7x1", moves=[[9, 12], [30, 34]])],
    )
    position(
        "seven_split_past_pieu_illegal",
        Q_BLOCK + " (the 7x1 included)",
        bad("illegal_move", "/deals/0/turns/0/moves/0"),
        marbles=[[12], [16], [], []],
        fresh=[1],
        hands=[["7x1"], ["2"], ["3"], ["5"]],
        turns=[t(0, "7x1", moves=[[12, 19]])],
    )
    position(
        "seven_split_pushes_base_marbles",
        "Ex 2 : avancer un ou plusieurs pions dans sa base pour faire de la place aux autres pions",
        VALID_PARTIAL,
        marbles=[[62, "H0:1", "H0:2"], [], [], []],
        hands=[["7x1"], ["2"], ["3"], ["5"]],
        turns=[t(0, "7x1", moves=[["H0:2", "H0:4"], ["H0:1", "H0:3"], [62, "H0:1"]])],
    )
    position(
        "seven_split_rest_after_last_home_illegal",
        Q_7 + " After the last own marble is in, the remaining 4 steps have nowhere to go.",
        bad("illegal_move", "/deals/0/turns/0/moves"),
        marbles=[[62, "H0:2", "H0:3", "H0:4"], [], [40], []],
        hands=[["7x1"], ["2"], ["3"], ["5"]],
        turns=[t(0, "7x1", moves=[[62, "H0:1"]])],
    )
    position(
        "seven_split_not_into_partner_illegal",
        Q_7 + " The 4 steps left may not go to the partner's marble on 40.",
        bad("illegal_move", "/deals/0/turns/0/moves/1"),
        marbles=[[62, "H0:2", "H0:3", "H0:4"], [], [40], []],
        hands=[["7x1"], ["2"], ["3"], ["5"]],
        turns=[t(0, "7x1", moves=[[62, "H0:1"], [40, 44]])],
    )
    position(
        "seven_split_past_base_marble_illegal",
        Q_BASE,
        bad("illegal_move", "/deals/0/turns/0/moves/0"),
        marbles=[[62, "H0:1"], [], [], []],
        hands=[["7x1"], ["2"], ["3"], ["5"]],
        turns=[t(0, "7x1", moves=[[62, "H0:3"], ["H0:1", "H0:2"]])],
    )
    # --- the base -----------------------------------------------------------------------------
    position(
        "base_exact_entry",
        Q_BASE,
        VALID_PARTIAL,
        marbles=[[62], [], [], []],
        hands=[["6"], ["2"], ["3"], ["5"]],
        turns=[t(0, "6", moves=[[62, "H0:4"]])],
    )
    position(
        "base_too_long_goes_round",
        Q_EXACT,
        VALID_PARTIAL,
        marbles=[[62], [], [], []],
        hands=[["8"], ["2"], ["3"], ["5"]],
        turns=[t(0, "8", moves=[[62, 6]])],
    )
    position(
        "base_too_long_illegal",
        Q_EXACT,
        bad("illegal_move", T0),
        marbles=[[62], [], [], []],
        hands=[["8"], ["2"], ["3"], ["5"]],
        turns=[t(0, "8", moves=[[62, "H0:4"]])],
    )
    position(
        "base_pass_base_marble_illegal",
        Q_BASE + " / " + Q_DEEP,
        bad("illegal_move", T0),
        marbles=[[63, "H0:1"], [], [], []],
        hands=[["3"], ["2"], ["3"], ["5"]],
        turns=[t(0, "3", moves=[[63, "H0:2"]])],
    )
    position(
        "base_push_deep",
        Q_DEEP,
        VALID_PARTIAL,
        marbles=[[63, "H0:1"], [], [], []],
        hands=[["3"], ["2"], ["3"], ["5"]],
        turns=[t(0, "3", moves=[["H0:1", "H0:4"]])],
    )
    position(
        "base_push_compulsory",
        Q_DEEP + " / " + Q_MUST + " Pushing the base marble deeper is seat 0's only play.",
        VALID_PARTIAL,
        marbles=[["H0:1"], [], [], []],
        hands=[["2", "12"], ["2", "3"], ["2", "3"], ["2", "3"]],
        turns=[t(0, "2", moves=[["H0:1", "H0:3"]])],
    )
    position(
        "base_push_compulsory_discard_must_play",
        Q_DEEP + " / " + Q_MUST + " Discarding while the base marble can be pushed deeper is refused.",
        bad("must_play", T0),
        marbles=[["H0:1"], [], [], []],
        hands=[["2", "12"], ["2", "3"], ["2", "3"], ["2", "3"]],
        turns=[t(0, "12", discard=True)],
    )
    position(
        "base_land_on_base_marble_illegal",
        Q_BASE,
        bad("illegal_move", T0),
        marbles=[[63, "H0:2"], [], [], []],
        hands=[["3"], ["2"], ["3"], ["5"]],
        turns=[t(0, "3", moves=[[63, "H0:2"]])],
    )
    position(
        "base_foreign_home_illegal",
        Q_BASE + " (a marble enters only its own base, through its own start field)",
        bad("illegal_move", T0),
        marbles=[[14], [], [], []],
        hands=[["3"], ["2"], ["3"], ["5"]],
        turns=[t(0, "3", moves=[[14, "H1:1"]])],
    )
    position(
        "base_leave_illegal",
        Q_BASE,
        bad("illegal_move", T0),
        marbles=[["H0:2"], [], [], []],
        hands=[["3"], ["2"], ["3"], ["5"]],
        turns=[t(0, "3", moves=[["H0:2", 1]])],
    )
    position(
        "base_entry_optional",
        Q_BASE + " (entering is a choice: the 3 may also carry the marble past its base)",
        VALID_PARTIAL,
        marbles=[[62], [], [], []],
        hands=[["3"], ["2"], ["3"], ["5"]],
        turns=[t(0, "3", moves=[[62, 1]])],
    )
    position(
        "base_entry_not_deepest",
        Q_DEEP + " (read as a consequence of no passing in the base, not as a duty to stop deepest)",
        VALID_PARTIAL,
        marbles=[[63], [], [], []],
        hands=[["2"], ["2"], ["3"], ["5"]],
        turns=[t(0, "2", moves=[[63, "H0:1"]])],
    )
    position(
        "back4_pieu_captures_behind",
        Q_BACK + " (un pion ou un pieu)",
        VALID_PARTIAL,
        marbles=[[0], [], [], [60]],
        fresh=[0],
        hands=[["-4"], ["2"], ["3"], ["5"]],
        turns=[t(0, "-4", moves=[[0, 60]])],
    )
    position(
        "turn_after_deal_end",
        "d) jusqu'à ce que tous les joueurs aient joué leurs 4 cartes: nobody acts once every hand is empty.",
        bad("wrong_seat", "/deals/0/turns/4"),
        hands=[["2"], ["2"], ["3"], ["5"]],
        turns=[
            t(0, "2", discard=True),
            t(1, "2", discard=True),
            t(2, "3", discard=True),
            t(3, "5", discard=True),
            t(0, "2", discard=True),
        ],
    )
    # --- must play ----------------------------------------------------------------------------
    position(
        "discard_when_nothing_plays",
        Q_MUST,
        VALID_PARTIAL,
        hands=[["2", "permuter"], ["2", "3"], ["2", "3"], ["2", "3"]],
        turns=[t(0, "permuter", discard=True)],
    )
    position(
        "discard_despite_move_must_play",
        Q_MUST,
        bad("must_play", T0),
        marbles=[[5], [], [], []],
        hands=[["2", "permuter"], ["2", "3"], ["2", "3"], ["2", "3"]],
        turns=[t(0, "permuter", discard=True)],
    )
    position(
        "discard_despite_harmful_move_must_play",
        Q_MUST + " (the only move captures the partner's marble, and still must be played)",
        bad("must_play", T0),
        marbles=[[5], [], [7], []],
        hands=[["2", "9"], ["2", "3"], ["2", "3"], ["2", "3"]],
        turns=[t(0, "9", discard=True)],
    )
    position(
        "harmful_capture_of_partner",
        Q_MUST,
        VALID_PARTIAL,
        marbles=[[5], [], [7], []],
        hands=[["2", "9"], ["2", "3"], ["2", "3"], ["2", "3"]],
        turns=[t(0, "2", moves=[[5, 7]])],
    )
    position(
        "discard_despite_start_must_play",
        "Ex 1 : si le joueur n'a pas de pion sur le plateau, il doit alors, s'il le peut, jouer une carte 1 ou 10",
        bad("must_play", T0),
        hands=[["2", "10"], ["2", "3"], ["2", "3"], ["2", "3"]],
        turns=[t(0, "2", discard=True)],
    )
    position(
        "discard_blocked_by_pieu",
        Q_BLOCK + " Every move of seat 0 is blocked, so it discards.",
        VALID_PARTIAL,
        marbles=[[12, 14], [16], [], []],
        fresh=[1],
        hands=[["5", "6"], ["2", "3"], ["2", "3"], ["2", "3"]],
        turns=[t(0, "6", discard=True)],
    )
    # --- partner phase and the win ------------------------------------------------------------
    home0 = ["H0:1", "H0:2", "H0:3", "H0:4"]
    position(
        "partner_phase_moves_partner",
        Q_PARTNER,
        VALID_PARTIAL,
        marbles=[home0, [], [40], []],
        hands=[["2"], ["2"], ["3"], ["5"]],
        turns=[t(0, "2", moves=[[40, 42]])],
    )
    position(
        "partner_phase_enters_partner",
        Q_PARTNER,
        VALID_PARTIAL,
        marbles=[home0, [], [40], []],
        hands=[["1"], ["2"], ["3"], ["5"]],
        turns=[t(0, "1", enter=True)],
    )
    position(
        "partner_marble_too_early_illegal",
        Q_PARTNER + " Seat 0 still has a marble out, so it moves its own colour.",
        bad("illegal_move", T0),
        marbles=[[5, "H0:2", "H0:3", "H0:4"], [], [40], []],
        hands=[["2"], ["2"], ["3"], ["5"]],
        turns=[t(0, "2", moves=[[40, 42]])],
    )
    position(
        "partner_phase_from_next_turn",
        Q_PARTNER + " (les tours suivants: the switch takes effect at the seat's next turn)",
        VALID_PARTIAL,
        marbles=[[62, "H0:2", "H0:3", "H0:4"], [], [40], []],
        hands=[["3", "2"], ["2", "3"], ["2", "3"], ["2", "3"]],
        turns=[
            t(0, "3", moves=[[62, "H0:1"]]),
            t(1, "2", discard=True),
            t(2, "2", moves=[[40, 42]]),
            t(3, "2", discard=True),
            t(0, "2", moves=[[42, 44]]),
        ],
    )
    position(
        "partner_phase_own_colour_after_home_illegal",
        Q_PARTNER + " Seat 0 now moves seat 2's colour; seat 0's own marbles are all in.",
        bad("illegal_move", "/deals/0/turns/4"),
        marbles=[[62, "H0:2", "H0:3", "H0:4"], [], [40], []],
        hands=[["3", "-4"], ["2", "3"], ["2", "3"], ["2", "3"]],
        turns=[
            t(0, "3", moves=[[62, "H0:1"]]),
            t(1, "2", discard=True),
            t(2, "2", moves=[[40, 42]]),
            t(3, "2", discard=True),
            t(0, "-4", moves=[["H0:4", 60]]),
        ],
    )
    position(
        "partner_phase_swaps_partner_pieu",
        Q_PARTNER
        + " / "
        + Q_PERM
        + " In the partner phase the pieu of the colour the seat moves counts as its own.",
        VALID_PARTIAL,
        marbles=[home0, [10], [32], []],
        fresh=[2],
        hands=[["permuter"], ["2"], ["3"], ["5"]],
        turns=[t(0, "permuter", swap=[32, 10])],
    )
    position(
        "partner_phase_swaps_foreign_pieu_illegal",
        Q_PIEU + " Seat 1's pieu is not seat 0's, nor its partner's.",
        bad("illegal_move", T0),
        marbles=[home0, [16], [40], []],
        fresh=[1],
        hands=[["permuter"], ["2"], ["3"], ["5"]],
        turns=[t(0, "permuter", swap=[40, 16])],
    )
    win_marbles: list[list[Any]] = [[63, "H0:2", "H0:3", "H0:4"], [5], ["H2:1", "H2:2", "H2:3", "H2:4"], []]
    position(
        "team_win",
        Q_WIN,
        VALID_COMPLETE,
        marbles=win_marbles,
        hands=[["2", "3"], ["2", "3"], ["2", "3"], ["2", "3"]],
        turns=[t(0, "2", moves=[[63, "H0:1"]])],
        result={"winners": [0, 2]},
    )
    position(
        "team_win_no_result_is_complete",
        Q_WIN + " (a team with all 8 marbles home wins at once; the rest of the deal is not played)",
        VALID_COMPLETE,
        marbles=win_marbles,
        hands=[["2", "3"], ["2", "3"], ["2", "3"], ["2", "3"]],
        turns=[t(0, "2", moves=[[63, "H0:1"]])],
    )
    position(
        "team_win_then_turn_game_over",
        Q_WIN,
        bad("game_already_over", "/deals/0/turns/1"),
        marbles=win_marbles,
        hands=[["2", "3"], ["2", "3"], ["2", "3"], ["2", "3"]],
        turns=[t(0, "2", moves=[[63, "H0:1"]]), t(1, "2", moves=[[5, 7]])],
    )
    position(
        "team_win_wrong_winners",
        Q_WIN,
        bad("result_mismatch", "/result"),
        marbles=win_marbles,
        hands=[["2", "3"], ["2", "3"], ["2", "3"], ["2", "3"]],
        turns=[t(0, "2", moves=[[63, "H0:1"]])],
        result={"winners": [1, 3]},
    )
    position(
        "result_claimed_game_not_over",
        Q_WIN + " Only seat 0's colour is home: its partner's marbles are not.",
        bad("result_mismatch", "/result"),
        marbles=[[63, "H0:2", "H0:3", "H0:4"], [5], ["H2:1", "H2:2", "H2:3"], []],
        hands=[["2", "3"], ["2", "3"], ["2", "3"], ["2", "3"]],
        turns=[t(0, "2", moves=[[63, "H0:1"]])],
        result={"winners": [0, 2]},
    )
    position(
        "result_resignation_echoed",
        "A claim under another termination is not checked against the rules (spec section 2).",
        VALID_PARTIAL,
        marbles=[[5], [], [], []],
        hands=[["2"], ["2"], ["3"], ["5"]],
        turns=[t(0, "2", moves=[[5, 7]])],
        result={"winners": [1, 3], "termination": "resignation"},
    )
    # --- six players --------------------------------------------------------------------------
    six_hands = [["2"], ["2"], ["3"], ["3"], ["5"], ["5"]]
    position(
        "six_seats_move",
        Q_SIX + " (R = 96, seat k starts on 16k)",
        VALID_PARTIAL,
        variant={"seats": 6},
        dealer=5,
        marbles=[[94], [], [], [], [], []],
        hands=six_hands,
        turns=[t(0, "2", moves=[[94, 0]])],
    )
    position(
        "six_seats_team_win",
        Q_SIX + " / " + Q_WIN + " (partners sit opposite: seats 0 and 3)",
        VALID_COMPLETE,
        variant={"seats": 6},
        dealer=5,
        marbles=[[95, "H0:2", "H0:3", "H0:4"], [], [], ["H3:1", "H3:2", "H3:3", "H3:4"], [], []],
        hands=six_hands,
        turns=[t(0, "2", moves=[[95, "H0:1"]])],
        result={"winners": [0, 3]},
    )
    position(
        "six_seats_wrong_team",
        Q_SIX + " Seats 0 and 2 are not partners.",
        bad("result_mismatch", "/result"),
        variant={"seats": 6},
        dealer=5,
        marbles=[[95, "H0:2", "H0:3", "H0:4"], [], [], ["H3:1", "H3:2", "H3:3", "H3:4"], [], []],
        hands=six_hands,
        turns=[t(0, "2", moves=[[95, "H0:1"]])],
        result={"winners": [0, 2]},
    )
    position(
        "six_seats_teams_variant",
        Q_SIX + " With variant teams [[0,1],[2,3],[4,5]] seat 0's partner is seat 1.",
        VALID_COMPLETE,
        variant={"seats": 6, "teams": [[0, 1], [2, 3], [4, 5]]},
        dealer=5,
        marbles=[[95, "H0:2", "H0:3", "H0:4"], ["H1:1", "H1:2", "H1:3", "H1:4"], [], [], [], []],
        hands=six_hands,
        turns=[t(0, "2", moves=[[95, "H0:1"]])],
        result={"winners": [0, 1]},
    )
    # --- seats, cards, schema -----------------------------------------------------------------
    position(
        "wrong_seat",
        "d) Puis, c'est au joueur suivant (celui de gauche) de jouer une carte",
        bad("wrong_seat", T0),
        marbles=[[5], [20], [], []],
        hands=[["2"], ["2"], ["3"], ["5"]],
        turns=[t(1, "2", moves=[[20, 22]])],
    )
    position(
        "card_not_in_hand",
        "Il joue une carte face visible au centre du plateau",
        bad("card_not_in_hand", T0),
        marbles=[[5], [], [], []],
        hands=[["2"], ["2"], ["3"], ["5"]],
        turns=[t(0, "3", moves=[[5, 8]])],
    )
    position(
        "unknown_card",
        "The 48 cards: 1 2 3 -4 5 6 7x1 8 9 10 12 permuter (spec section 5).",
        bad("unknown_card", "/deals/0/turns/0/card"),
        marbles=[[5], [], [], []],
        hands=[["2"], ["2"], ["3"], ["5"]],
        turns=[t(0, "4", moves=[[5, 9]])],
    )
    position(
        "two_action_keys_malformed",
        "An action has exactly one of enter, moves, swap, discard (spec section 3).",
        bad("malformed", T0),
        marbles=[[5], [], [], []],
        hands=[["1"], ["2"], ["3"], ["5"]],
        turns=[t(0, "1", enter=True, moves=[[5, 6]])],
    )
    position(
        "unknown_turn_key_malformed",
        "Unknown keys are errors, except comment and x_* (spec section 1).",
        bad("malformed", "/deals/0/turns/0/as"),
        marbles=[[5], [], [], []],
        hands=[["2"], ["2"], ["3"], ["5"]],
        turns=[t(0, "2", moves=[[5, 7]], **{"as": "2"})],
    )
    position(
        "x_key_and_comment_accepted",
        "Unknown keys are errors, except comment and x_* (spec section 1).",
        VALID_PARTIAL,
        marbles=[[5], [], [], []],
        hands=[["2"], ["2"], ["3"], ["5"]],
        turns=[t(0, "2", moves=[[5, 7]], comment="fine", x_clock=12)],
    )
    position(
        "several_segments_single_card_illegal",
        "Only the 7x1 may have more than one segment (spec section 3).",
        bad("illegal_move", T0),
        marbles=[[5, 20], [], [], []],
        hands=[["3"], ["2"], ["3"], ["5"]],
        turns=[t(0, "3", moves=[[5, 6], [20, 22]])],
    )
    position(
        "bad_position_token_malformed",
        "Home fields are H<seat>:<slot> with slot 1..4 (spec section 3).",
        bad("malformed", "/deals/0/turns/0/moves/0/1"),
        marbles=[[62], [], [], []],
        hands=[["8"], ["2"], ["3"], ["5"]],
        turns=[t(0, "8", moves=[[62, "H0:6"]])],
    )
    # --- setup errors -------------------------------------------------------------------------
    position(
        "setup_two_marbles_one_field",
        "An impossible setup is bad_setup (spec section 2).",
        bad("bad_setup", "/setup/marbles/1/0"),
        marbles=[[5], [5], [], []],
        hands=[["2"], ["2"], ["3"], ["5"]],
        turns=[],
    )
    position(
        "setup_five_marbles",
        "Chaque joueur prend les 4 pions correspondant à sa couleur",
        bad("bad_setup", "/setup/marbles/0"),
        marbles=[[1, 2, 3, 4, 5], [], [], []],
        hands=[["2"], ["2"], ["3"], ["5"]],
        turns=[],
    )
    position(
        "setup_fresh_without_marble",
        "fresh without the marble is bad_setup (spec section 2).",
        bad("bad_setup", "/setup/fresh/0"),
        marbles=[[5], [], [], []],
        fresh=[0],
        hands=[["2"], ["2"], ["3"], ["5"]],
        turns=[],
    )
    position(
        "setup_foreign_base",
        "A marble enters only its own base.",
        bad("bad_setup", "/setup/marbles/0/0"),
        marbles=[["H1:1"], [], [], []],
        hands=[["2"], ["2"], ["3"], ["5"]],
        turns=[],
    )
    position(
        "setup_hand_sizes_impossible",
        Q_DEAL + " One card per turn, clockwise from the dealer's left.",
        bad("bad_setup", "/setup/hands"),
        hands=[["2"], ["2", "3"], ["3"], ["5"]],
        turns=[],
    )
    position(
        "setup_mid_round",
        Q_DEAL + " Dealer 3: seat 0 has played this round, so seat 1 is to move.",
        VALID_PARTIAL,
        marbles=[[5], [20], [], []],
        hands=[["2"], ["2", "3"], ["3", "5"], ["5", "6"]],
        turns=[t(1, "2", moves=[[20, 22]])],
        setup_extra={"to_move": 1},
    )
    position(
        "setup_to_move_inconsistent",
        Q_DEAL,
        bad("bad_setup", "/setup/to_move"),
        marbles=[[5], [20], [], []],
        hands=[["2"], ["2", "3"], ["3", "5"], ["5", "6"]],
        turns=[],
        setup_extra={"to_move": 2},
    )
    position(
        "setup_fifth_copy",
        "48 cards, 4 of each (spec section 5).",
        bad("deck_mismatch", "/setup/hands/3/1"),
        hands=[["2", "2"], ["2", "3"], ["3", "5"], ["2", "2"]],
        turns=[],
    )
    position(
        "setup_last_applied",
        "setup.last is replayed first, without hand checks (spec section 2): seat 3's marble stands on 8 afterwards.",
        VALID_PARTIAL,
        dealer=2,
        marbles=[[], [], [], [5]],
        hands=[["2", "3"], ["2", "3"], ["2", "3"], ["2"]],
        turns=[
            t(0, "2", discard=True),
            t(1, "2", discard=True),
            t(2, "2", discard=True),
            t(3, "2", moves=[[8, 10]]),
        ],
        setup_extra={"last": t(3, "3", moves=[[5, 8]]), "to_move": 0},
    )
    position(
        "setup_last_illegal",
        "setup.last is replayed first, without hand checks (spec section 2); a pieu cannot enter its base.",
        bad("illegal_move", "/setup/last"),
        dealer=2,
        marbles=[[0], [], [], []],
        fresh=[0],
        hands=[["2"], ["2"], ["3"], ["5"]],
        turns=[],
        setup_extra={"last": t(0, "1", moves=[[0, "H0:1"]])},
    )
    next_hands = [["1", "3", "5", "6"], ["8", "9", "10", "12"], ["1", "3", "5", "6"], ["8", "9", "10", "12"]]
    four_discards = [
        t(0, "2", discard=True),
        t(1, "2", discard=True),
        t(2, "3", discard=True),
        t(3, "5", discard=True),
    ]
    position(
        "setup_then_next_deal",
        Q_DEAL
        + " The setup's deal is the last of its cycle (deal_index 2), so the next deal opens a new one.",
        VALID_PARTIAL,
        hands=[["2"], ["2"], ["3"], ["5"]],
        turns=four_discards,
        setup_extra={"deal_index": 2},
    )
    CASES["setup_then_next_deal"]["deals"].append(
        {
            "dealer": 0,
            "hands": next_hands,
            "exchange": ["1", "8", "3", "9"],
            "turns": [t(1, "10", enter=True)],
        }
    )
    position(
        "setup_cycle_excess",
        "A cycle begun before the setup is checked only for excess copies (spec section 2): with deal_index 1 the next deal is in the same cycle, and the setup's four 2s leave none.",
        bad("deck_mismatch", "/deals/1/hands/0"),
        hands=[["2"], ["2"], ["2"], ["2"]],
        turns=[
            t(0, "2", discard=True),
            t(1, "2", discard=True),
            t(2, "2", discard=True),
            t(3, "2", discard=True),
        ],
        setup_extra={"deal_index": 1},
    )
    CASES["setup_cycle_excess"]["deals"].append(
        {
            "dealer": 0,
            "hands": [["2", "3", "5", "6"], *next_hands[1:]],
            "exchange": ["2", "8", "3", "9"],
            "turns": [],
        }
    )
    position(
        "setup_deal_unfinished_then_next",
        "A deal that stops with cards left while another deal follows is missing_action (spec section 2).",
        bad("missing_action", "/deals/0/turns"),
        hands=[["2"], ["2"], ["3"], ["5"]],
        turns=four_discards[:3],
        setup_extra={"deal_index": 2},
    )
    CASES["setup_deal_unfinished_then_next"]["deals"].append(
        {"dealer": 0, "hands": next_hands, "exchange": ["1", "8", "3", "9"], "turns": []}
    )
    # --- variants -----------------------------------------------------------------------------
    position(
        "variant_five_seats",
        Q_SIX,
        bad("bad_variant", "/variant/seats"),
        variant={"seats": 5},
        hands=[["2"], ["2"], ["3"], ["5"]],
        turns=[],
    )
    position(
        "variant_unknown_key",
        "A variant key that is unknown is bad_variant (spec section 2).",
        bad("bad_variant", "/variant/master"),
        variant={"master": True},
        hands=[["2"], ["2"], ["3"], ["5"]],
        turns=[],
    )
    position(
        "variant_bad_teams",
        "2 ou 3 équipes de 2 partenaires",
        bad("bad_variant", "/variant/teams/1/0"),
        variant={"teams": [[0, 1], [1, 2]]},
        hands=[["2"], ["2"], ["3"], ["5"]],
        turns=[],
    )
    position(
        "variant_deal_sizes_fixed",
        Q_DEAL + " deal_sizes is [4,4,4] with 4 seats (spec section 5); another schedule is bad_variant.",
        bad("bad_variant", "/variant/deal_sizes"),
        variant={"deal_sizes": [5, 5, 5]},
        hands=[["2"], ["2"], ["3"], ["5"]],
        turns=[],
    )
    position(
        "variant_deal_sizes_default_accepted",
        Q_DEAL,
        VALID_PARTIAL,
        variant={"seats": 4, "deal_sizes": [4, 4, 4]},
        hands=[["2"], ["2"], ["3"], ["5"]],
        turns=[t(0, "2", discard=True)],
    )
    position(
        "variant_small_ring",
        "ring_fields_per_seat is a param (spec section 5): 10 fields per seat gives R = 40.",
        VALID_PARTIAL,
        variant={"ring_fields_per_seat": 10},
        marbles=[[38], [], [], []],
        hands=[["3"], ["2"], ["3"], ["5"]],
        turns=[t(0, "3", moves=[[38, "H0:1"]])],
    )


def build_deals() -> None:
    """Cases over whole deals, cut from a seeded random game (the cut keeps the expected verdict)."""
    game = ENGINE.random_record({}, random.Random(7))
    head = {k: game[k] for k in ("variant", "players")}
    two = copy.deepcopy(game["deals"][:2])
    case("deals_two_full", Q_DEAL + " / " + Q_EXCHANGE, VALID_PARTIAL, {**head, "deals": copy.deepcopy(two)})
    full3 = copy.deepcopy(game["deals"][:4])
    case(
        "deals_new_cycle",
        "f) Lorsque toutes les 48 cartes se trouvent au milieu du plateau, le nouveau distributeur les reprend, les mélange",
        VALID_PARTIAL,
        {**head, "deals": full3},
    )

    d = copy.deepcopy(two)
    del d[0]["exchange"]
    case("exchange_missing", Q_EXCHANGE, bad("bad_exchange", "/deals/0/exchange"), {**head, "deals": d})

    d = copy.deepcopy(two)
    d[1]["exchange"][2] = None
    case("exchange_null", Q_EXCHANGE, bad("bad_exchange", "/deals/1/exchange/2"), {**head, "deals": d})

    d = copy.deepcopy(two)
    hand = d[0]["hands"][1]
    absent = next(
        c for c in ("1", "2", "3", "-4", "5", "6", "7x1", "8", "9", "10", "12", "permuter") if c not in hand
    )
    d[0]["exchange"][1] = absent
    case(
        "exchange_not_dealt",
        "b) Il ne faut pas regarder la carte reçue avant de donner la sienne: the card given comes from the dealt hand.",
        bad("bad_exchange", "/deals/0/exchange/1"),
        {**head, "deals": d},
    )

    d = copy.deepcopy(two)
    d[1]["dealer"] = (d[0]["dealer"] + 2) % 4
    case(
        "dealer_wrong",
        "e) le nouveau distributeur: the deal passes to the left (clockwise).",
        bad("deck_mismatch", "/deals/1/dealer"),
        {**head, "deals": d},
    )

    d = copy.deepcopy(two)
    d[0]["hands"][2] = d[0]["hands"][2][:3]
    case("hand_of_three", Q_DEAL, bad("deck_mismatch", "/deals/0/hands/2"), {**head, "deals": d})

    d = copy.deepcopy(two)
    first_card = d[0]["hands"][0][0]
    d[1]["hands"][3] = [first_card] * 4
    case(
        "fifth_copy_in_cycle",
        "Un joueur mélange les 48 cartes (4 of each).",
        bad("deck_mismatch", "/deals/1/hands/3"),
        {**head, "deals": d},
    )

    d = copy.deepcopy(two)
    d[0]["turns"] = d[0]["turns"][:-1]
    case(
        "deal_stops_early",
        "d) jusqu'à ce que tous les joueurs aient joué leurs 4 cartes.",
        bad("missing_action", "/deals/0/turns"),
        {**head, "deals": d},
    )

    d = copy.deepcopy(two)
    del d[0]["dealer"]
    case(
        "first_dealer_missing",
        "dealer is required in deals[0] (spec section 2).",
        bad("malformed", "/deals/0"),
        {**head, "deals": d},
    )

    d = copy.deepcopy(two)
    d[1]["turns"] = d[1]["turns"][:5]
    case(
        "deal_in_progress", "Partial records are valid (spec section 1).", VALID_PARTIAL, {**head, "deals": d}
    )

    for seed, variant in ((3, {}), (5, {"seats": 6})):
        g = ENGINE.random_record(variant, random.Random(seed))
        name = f"random_game_{variant.get('seats', 4)}_seats"
        case(
            name,
            Q_WIN + " A whole seeded random game.",
            VALID_COMPLETE,
            {k: g[k] for k in g if k not in ("format", "game")},
        )


def main() -> None:
    build_positions()
    build_deals()
    OUT.mkdir(parents=True, exist_ok=True)
    for old in OUT.glob("*.json"):
        old.unlink()
    for name, doc in CASES.items():
        (OUT / f"{name}.json").write_text(
            json.dumps(doc, ensure_ascii=False, indent=1) + "\n", encoding="utf-8"
        )
    print(f"wrote {len(CASES)} records to {OUT}")


if __name__ == "__main__":
    main()
