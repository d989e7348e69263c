"""The pure replay renderers: hand-made snapshots (docs/replay-trace.md shapes) -> well-formed SVG.

No Django here: the renderers are pure, and a test proves they import nothing from Django.
"""

from __future__ import annotations

import copy
import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from typing import Any

import pytest

from games.replay import UnknownSnapshot, render_svg

NS = "{http://www.w3.org/2000/svg}"


def tac_snapshot(**overrides: Any) -> dict[str, Any]:
    snapshot: dict[str, Any] = {
        "game": "tac",
        "kind": "marbles",
        "seats": 4,
        "to_move": 1,
        "over": False,
        "winners": None,
        "hands": [["1", "7"], ["tac", "4", "13"], ["8"], []],
        "ring": 64,
        "starts": [0, 16, 32, 48],
        "teams": [[0, 2], [1, 3]],
        "active": [0, 1, 2, 3],
        "marbles": [[0, 62, "H0:4"], [18], ["H2:3", "H2:4"], []],
        "prefield": [1, 3, 2, 4],
        "fresh": [0],
        "locked": ["H0:4", "H2:3", "H2:4"],
        "home_count": [1, 0, 2, 0],
        "dealer": 3,
        "deal": 0,
        "last": {"seat": 0, "card": "13"},
    }
    snapshot.update(overrides)
    return snapshot


def tock_snapshot(seats: int) -> dict[str, Any]:
    ring = 16 * seats
    return {
        "game": "tock",
        "kind": "marbles",
        "seats": seats,
        "to_move": 0,
        "over": False,
        "winners": None,
        "hands": [["A", "K"] for _ in range(seats)],
        "ring": ring,
        "starts": [16 * k for k in range(seats)],
        "teams": [],
        "active": list(range(seats)),
        "marbles": [[16 * k + 3] for k in range(seats)],
        "prefield": [3] * seats,
        "fresh": [],
        "locked": [],
        "home_count": [0] * seats,
        "dealer": 0,
        "deal": 0,
        "last": None,
    }


def taki_snapshot(**overrides: Any) -> dict[str, Any]:
    snapshot: dict[str, Any] = {
        "game": "taki",
        "kind": "taki",
        "seats": 3,
        "to_move": 2,
        "over": False,
        "winners": None,
        "hands": [["5r", "plus2_g", "color"], ["king"], ["taki_b", "3b", "7y", "supertaki", "breaker"]],
        "discard_top": ["4r", "4g", "taki_g", "3g", "9g", "plus_g"],
        "discard_count": 14,
        "stock_count": 60,
        "direction": -1,
        "lead_color": "g",
        "open_taki": None,
        "pending_draw": 2,
        "finished": [],
    }
    snapshot.update(overrides)
    return snapshot


def zack_snapshot(**overrides: Any) -> dict[str, Any]:
    snapshot: dict[str, Any] = {
        "game": "zack",
        "kind": "zack",
        "seats": 4,
        "to_move": 2,
        "over": False,
        "winners": None,
        "hands": [[], [], [], []],
        "colours": ["red", "blue", "green", "yellow"],
        "bowl": [{"seat": 0, "card": "left"}, {"seat": 1, "card": "back"}, {"seat": 0, "card": "green"}],
        "stacks": [["red"], ["right", "yellow"], ["again"], []],
        "collected": [0, 2, 0, 5],
        "obliged": 2,
    }
    snapshot.update(overrides)
    return snapshot


def parse(svg: str) -> ET.Element:
    root = ET.fromstring(svg)
    assert root.tag == f"{NS}svg"
    assert root.get("viewBox", "").startswith("0 0 ")
    assert "width" not in root.attrib and "height" not in root.attrib  # scales to its container
    return root


def with_class(root: ET.Element, name: str) -> list[ET.Element]:
    return [el for el in root.iter() if name in (el.get("class") or "").split()]


# Marble games -------------------------------------------------------------------------------------------


def test_tac_board_draws_every_marble_fresh_and_locked() -> None:
    root = parse(render_svg(tac_snapshot()))
    marbles = with_class(root, "marble")
    board = [m for m in marbles if "prefield" not in m.get("class", "")]
    prefield = [m for m in marbles if "prefield" in m.get("class", "")]
    assert len(board) == 3 + 1 + 2 + 0
    assert len(prefield) == 1 + 3 + 2 + 4
    assert len(with_class(root, "fresh")) == 1
    assert len(with_class(root, "locked")) == 3
    assert len(with_class(root, "lock")) == 3
    # 64 ring fields + 16 home slots + 16 prefield spots, the 4 start fields marked.
    assert len(with_class(root, "start")) == 4
    fields = next(iter(with_class(root, "fields")))
    assert len(list(fields.iter(f"{NS}circle"))) == 64 + 16 + 16
    # Every seat's marbles have the seat's own colour and shape (seat 1: a square), the seat number inside.
    seat_one = [m for m in marbles if m.get("data-seat") == "1"]
    bodies = [c for m in seat_one for c in m.iter() if c.get("class") == "marble-body"]
    assert len(bodies) == len(seat_one) and {c.get("fill") for c in bodies} == {"#E69F00"}
    assert {c.tag for c in bodies} == {f"{NS}path"}
    seat_zero = [c for m in marbles if m.get("data-seat") == "0" for c in m.iter() if c.get("class") == "marble-body"]
    assert seat_zero and {c.tag for c in seat_zero} == {f"{NS}circle"}
    assert {t.text for m in seat_one for t in m.iter(f"{NS}text")} == {"1"}  # 0-based, as in records


@pytest.mark.parametrize("seats", [2, 3, 4, 5, 6])
def test_tock_boards_for_two_to_six_seats(seats: int) -> None:
    root = parse(render_svg(tock_snapshot(seats)))
    assert len(with_class(root, "start")) == seats
    board = [m for m in with_class(root, "marble") if "prefield" not in m.get("class", "")]
    assert len(board) == seats
    assert len(with_class(root, "prefield")) == 3 * seats


def test_tactik_six_seats_ring_of_96() -> None:
    snapshot = tock_snapshot(6) | {"game": "tactik", "ring": 96, "teams": [[0, 3], [1, 4], [2, 5]]}
    snapshot["marbles"] = [[95, "H5:1"], [], [], [], [], ["H5:2"]]
    root = parse(render_svg(snapshot))
    fields = next(iter(with_class(root, "fields")))
    assert len(list(fields.iter(f"{NS}circle"))) == 96 + 24 + 24
    assert len([m for m in with_class(root, "marble") if "prefield" not in m.get("class", "")]) == 3


def test_step_action_is_highlighted_with_arrows() -> None:
    action = {"seat": 0, "card": "7", "moves": [[62, "H0:1"], [26, 30]]}
    root = parse(render_svg(tac_snapshot(), highlight={"action": action, "invalid": False}))
    group = with_class(root, "hl-action")
    assert len(group) == 1
    rings = list(group[0].iter(f"{NS}circle"))
    assert len(rings) == 4  # 62, H0:1, 26, 30
    assert len(list(group[0].iter(f"{NS}line"))) == 2
    assert not with_class(root, "hl-invalid")
    assert not with_class(root, "invalid-message")


def test_invalid_action_in_red_with_the_message() -> None:
    action = {"seat": 1, "card": "5", "moves": [[18, 23]]}
    svg = render_svg(
        tac_snapshot(),
        highlight={"action": action, "invalid": True, "message": "Seat 2 cannot pass a fresh marble on 16."},
    )
    root = parse(svg)
    group = with_class(root, "hl-invalid")
    assert group and all(c.get("stroke") == "#b3261e" for c in group[0].iter(f"{NS}circle"))
    banner = with_class(root, "invalid-message")
    assert "cannot pass a fresh marble" in "".join(banner[0].itertext())
    assert with_class(root, "last-card")[0].get("class") == "last-card invalid"


def test_enter_swap_strike_and_then_are_located() -> None:
    for action, expected in [
        ({"seat": 1, "card": "13", "enter": True}, 1),
        ({"seat": 0, "card": "trickser", "swap": [62, 18]}, 2),
        ({"seat": 0, "card": "krieger", "strike": 62}, 1),
        ({"seat": 2, "card": "narr", "then": {"card": "5", "moves": [[35, 40]]}}, 2),
        ({"seat": 0, "card": "8", "skip": True}, 0),
    ]:
        root = parse(render_svg(tac_snapshot(), highlight={"action": action}))
        group = with_class(root, "hl-action")[0]
        assert len(list(group.iter(f"{NS}circle"))) == expected, action


def test_marble_text_is_escaped_and_bad_tokens_are_skipped() -> None:
    names = ['<script>alert("x")</script>', "Ann & Bob", "C", "D"]
    snapshot = tac_snapshot(marbles=[[0, "H9:9", "bogus", 999, None], [], [], []])
    svg = render_svg(snapshot, seat_names=names)
    assert "<script>" not in svg
    root = parse(svg)
    assert any("Ann & Bob" in (t.text or "") for t in root.iter(f"{NS}text"))
    board = [m for m in with_class(root, "marble") if "prefield" not in m.get("class", "")]
    assert len(board) == 1


def test_winners_and_turn_in_the_legend() -> None:
    root = parse(render_svg(tac_snapshot(over=True, winners=[0, 2], to_move=None)))
    legend = "".join(with_class(root, "legend")[0].itertext())
    assert legend.count("★") == 2
    assert with_class(root, "over")
    root = parse(render_svg(tac_snapshot()))
    assert "Seat 1" in "".join(with_class(root, "to-move")[0].itertext())  # to_move 1, 0-based


# TAKI ----------------------------------------------------------------------------------------------------


def test_taki_hands_discard_stock_direction() -> None:
    snapshot = taki_snapshot()
    root = parse(render_svg(snapshot, seat_names=["Ann", "Bob", "Cy"]))
    assert len(with_class(root, "hand-card")) == 3 + 1 + 5
    assert len(with_class(root, "discard-card")) == 6
    assert with_class(root, "direction")[0].get("class") == "direction ccw"
    assert "60" in "".join(with_class(root, "stock")[0].itertext()) or any(
        t.text == "60" for t in root.iter(f"{NS}text")
    )
    assert "Cy" in "".join(with_class(root, "to-move")[0].itertext())
    notes = " ".join("".join(n.itertext()) for n in with_class(root, "note"))
    assert "Draw 2" in notes and "g" in notes


def test_taki_played_cards_outlined_and_failed_play_in_hand() -> None:
    action = {"seat": 1, "play": ["3g", "9g", "plus_g"]}
    root = parse(render_svg(taki_snapshot(), highlight={"action": action}))
    assert len(with_class(root, "hl-action")) == 3
    failed = {"seat": 2, "play": ["supertaki:b", "3b"]}
    root = parse(render_svg(taki_snapshot(), highlight={"action": failed, "invalid": True, "message": "m"}))
    assert len(with_class(root, "hl-invalid")) == 2
    assert not with_class(root, "hl-action")
    assert with_class(root, "invalid-message")


def test_taki_big_hand_wraps_and_unknown_card_draws() -> None:
    hands = [["5r"] * 30, ["zzz<&>"], []]
    svg = render_svg(taki_snapshot(hands=hands, direction=1))
    root = parse(svg)
    assert len(with_class(root, "hand-card")) == 31
    assert with_class(root, "direction")[0].get("class") == "direction cw"
    assert "zzz&lt;&amp;&gt;" in svg


# ZACK! ---------------------------------------------------------------------------------------------------


def test_zack_bowl_stacks_colours() -> None:
    root = parse(render_svg(zack_snapshot(), seat_names=["A", "B", "C", "D"]))
    assert len(with_class(root, "bowl-card")) == 3
    assert with_class(root, "bowl-card")[-1].get("class") == "card bowl-card top"
    assert len(with_class(root, "stack-top")) == 3  # seat 3's stack is empty
    counts = ["".join(el.itertext()) for el in with_class(root, "stack-count")]
    assert counts == ["Stack: 1", "Stack: 2", "Stack: 1", "Stack: 0"]
    assert "C" in "".join(with_class(root, "obliged")[0].itertext())
    fills = [c.get("fill") for row in with_class(root, "seat-row") for c in list(row.iter(f"{NS}circle"))[:1]]
    assert fills == ["#d1372b", "#2a64c5", "#2e8b3e", "#f2c230"]


def test_zack_highlights() -> None:
    root = parse(render_svg(zack_snapshot(), highlight={"action": {"seat": 0, "event": "throw"}}))
    assert len(with_class(root, "hl-action")) == 1
    failed = {"seat": 3, "event": "throw"}
    root = parse(
        render_svg(zack_snapshot(), highlight={"action": failed, "invalid": True, "message": "empty"})
    )
    rows = with_class(root, "hl-invalid")
    assert len(rows) == 1 and rows[0].get("data-seat") == "3"


def test_zack_long_bowl_wraps() -> None:
    bowl = [{"seat": i % 4, "card": "red"} for i in range(40)]
    root = parse(render_svg(zack_snapshot(bowl=bowl)))
    assert len(with_class(root, "bowl-card")) == 40


# Dispatch and purity -------------------------------------------------------------------------------------


def test_unknown_kind_is_refused() -> None:
    with pytest.raises(UnknownSnapshot):
        render_svg({"kind": "chess"})
    with pytest.raises(UnknownSnapshot):
        render_svg([])  # type: ignore[arg-type]


def test_labels_are_translatable_and_snapshot_untouched() -> None:
    snapshot = zack_snapshot()
    before = copy.deepcopy(snapshot)
    svg = render_svg(snapshot, labels={"stack": "Stapel", "seat": "Platz {n}"})
    assert "Stapel: 1" in svg and "Platz 1" in svg
    assert snapshot == before


def test_renderers_import_no_django() -> None:
    code = "import sys, games.replay; assert not [m for m in sys.modules if m.startswith('django')]"
    subprocess.run([sys.executable, "-c", code], check=True)


def test_state_notes_skipped_banned_plus3_mirror() -> None:
    root = parse(render_svg(tac_snapshot(skipped=2)))
    assert "(skipped)" in "".join(with_class(root, "legend")[0].itertext())
    root = parse(render_svg(tock_snapshot(4) | {"banned": True}))
    assert "(banned)" in "".join(with_class(root, "to-move")[0].itertext())
    root = parse(render_svg(taki_snapshot(pending_plus3=0), seat_names=["Ann", "Bob", "Cy"]))
    assert "+3 by Ann" in " ".join("".join(n.itertext()) for n in with_class(root, "note"))
    root = parse(render_svg(zack_snapshot(mirror=True)))
    assert with_class(root, "mirror")
    root = parse(render_svg(zack_snapshot(mirror=False)))
    assert not with_class(root, "mirror")


def test_home_lane_starts_at_the_home_entry_field() -> None:
    from games.replay.marbles import Board

    board = Board(64, [0, 16, 32, 48], [2, 18, 34, 50])
    assert board.home(1, 1) == Board(64, [2, 18, 34, 50]).home(1, 1)
    assert board.home(1, 1) != Board(64, [0, 16, 32, 48]).home(1, 1)
    parse(render_svg(tock_snapshot(4) | {"home_entries": [2, 18, 34, 50]}))


# Real traces ---------------------------------------------------------------------------------------------

TRACE_CASES = [
    ("tac", {}),
    ("tac", {"master": True}),
    ("tactik", {"seats": 6}),
    ("tock", {"seats": 2}),
    ("tock", {"seats": 5}),
    ("tock", {"seats": 4, "mode": "teams", "quick_start": True}),
    ("taki", {"seats": 4}),
    ("zack", {"seats": 5}),
]


@pytest.mark.parametrize(("game", "variant"), TRACE_CASES, ids=[f"{g}-{v}" for g, v in TRACE_CASES])
def test_every_real_snapshot_renders(game: str, variant: dict[str, Any]) -> None:
    """Positions from rules.core.trace (the contract the viewer renders) draw without error, with every
    marble / card / bowl entry of the snapshot on the board."""
    import random

    from rules.core.registry import get_engine
    from rules.core.trace import trace_document

    doc = get_engine(game).random_record(dict(variant), random.Random(4))
    trace = trace_document(doc)
    assert trace.verdict.valid and trace.steps
    sampled = trace.steps[:: max(1, len(trace.steps) // 40)] + [trace.steps[-1]]
    for step in sampled:
        snap = step.snapshot
        root = parse(render_svg(snap, highlight={"action": step.action, "invalid": False}))
        if snap["kind"] == "marbles":
            marbles = with_class(root, "marble")
            on_board = [m for m in marbles if "prefield" not in m.get("class", "")]
            assert len(on_board) == sum(len(tokens) for tokens in snap["marbles"]), step.path
            assert len(marbles) - len(on_board) == sum(min(n, 4) for n in snap["prefield"]), step.path
            assert len(with_class(root, "lock")) == len(snap["locked"])
        elif snap["kind"] == "taki":
            assert len(with_class(root, "hand-card")) == sum(len(hand) for hand in snap["hands"])
            assert len(with_class(root, "discard-card")) == len(snap["discard_top"][-6:])
        else:
            assert len(with_class(root, "bowl-card")) == len(snap["bowl"])
            assert len(with_class(root, "stack-top")) == sum(1 for stack in snap["stacks"] if stack)
    assert trace.steps[-1].snapshot["over"] is True
    assert with_class(parse(render_svg(trace.steps[-1].snapshot)), "over")


@pytest.mark.parametrize("kind,most", [("marbles", 8), ("taki", 10), ("zack", 8)])
def test_seat_counts_out_of_range_are_clamped(kind: str, most: int) -> None:
    for seats, drawn in [(1000, most), (-3, 0), ("4", 0), (None, 0)]:
        svg = render_svg({"kind": kind, "game": kind, "seats": seats})
        ET.fromstring(svg)
        named = {int(n) for n in re.findall(r"Seat (\d+)", svg)}
        assert named == set(range(drawn)), (seats, sorted(named))
