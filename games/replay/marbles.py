"""The marble board of TAC, Tac-Tik and Tock, drawn from a trace snapshot (kind "marbles").

The ring's R fields lie on a circle, field 0 at the bottom, numbered clockwise (the playing direction).
Each seat's start field S_k is ringed in its colour; its 4 home slots run inward from it; its prefield
is a 2x2 cluster outside the ring just before the start. Marbles are drawn in the seat colour and the
seat's own shape (circle, square, diamond, triangle, ...: canvas.SEAT_SHAPES), outlined in ink, with
the seat number (0-based, as in records and verdict messages) inside in black or white, whichever
contrasts more; holes are outlined in HOLE_LINE (4.1:1 against the board); a fresh marble (pieu, protected) has a dashed outer ring, a locked
home marble a padlock. The step's action is highlighted (from/to rings and an arrow), the failing
action of an invalid record in red.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from typing import Any

from games.replay.canvas import (
    BOARD,
    HIGHLIGHT,
    HOLE_LINE,
    INK,
    INVALID,
    LINE,
    MUTED,
    Labels,
    Svg,
    banner,
    card_box,
    num,
    seat_colour,
    seat_count,
    seat_shape,
    shape_path,
    shorten,
    text_on,
    wrap,
)

SIZE = 400.0
CENTRE = SIZE / 2
RADIUS = 150.0
HOME_TOKEN = re.compile(r"^H(\d{1,2}):([1-4])$")


def _int_list(value: Any) -> list[int]:
    return (
        [v for v in value if isinstance(v, int) and not isinstance(v, bool)]
        if isinstance(value, list)
        else []
    )


class Board:
    """Geometry of one ring: where a field, a home slot or a prefield spot is drawn."""

    def __init__(self, ring: int, starts: Sequence[int], home_entries: Sequence[int] | None = None) -> None:
        self.ring = max(ring, 4)
        self.starts = list(starts)
        entries = list(home_entries or [])
        self.home_entries = entries if len(entries) == len(self.starts) else list(self.starts)
        spacing = 2 * math.pi * RADIUS / self.ring
        self.field_r = max(2.5, min(7.0, spacing * 0.36))
        self.home_step = min(self.field_r * 2.6, (RADIUS - 45) / 4.5)

    def angle(self, field: float) -> float:
        return math.pi + 2 * math.pi * field / self.ring

    def point(self, field: float, radius: float = RADIUS) -> tuple[float, float]:
        theta = self.angle(field)
        return CENTRE + radius * math.sin(theta), CENTRE - radius * math.cos(theta)

    def start_of(self, seat: int) -> int:
        if 0 <= seat < len(self.starts):
            return self.starts[seat]
        return seat * self.ring // max(len(self.starts), 1)

    def home(self, seat: int, slot: int) -> tuple[float, float]:
        """Home slots run inward from the seat's home entry field (its start field unless the game says otherwise)."""
        entry = self.home_entries[seat] if 0 <= seat < len(self.home_entries) else self.start_of(seat)
        return self.point(entry, RADIUS - slot * self.home_step)

    def prefield(self, seat: int, spot: int) -> tuple[float, float]:
        step_angle = (self.field_r * 2.4) / (RADIUS + 25)
        field_step = step_angle * self.ring / (2 * math.pi)
        column, row = spot % 2, spot // 2
        field = self.start_of(seat) - (1.2 + column) * field_step
        return self.point(field, RADIUS + self.field_r * 2.6 + row * self.field_r * 2.3)

    def locate(self, token: Any) -> tuple[float, float] | None:
        """Where a position token (ring field int or "H<seat>:<slot>") is drawn; None if unreadable."""
        if isinstance(token, bool):
            return None
        if isinstance(token, str) and token.isdigit():
            token = int(token)
        if isinstance(token, int):
            return self.point(token % self.ring) if 0 <= token < self.ring else None
        if isinstance(token, str):
            match = HOME_TOKEN.match(token)
            if match and int(match.group(1)) < len(self.starts):
                return self.home(int(match.group(1)), int(match.group(2)))
        return None


def _action_fields(
    action: Mapping[str, Any], board: Board, seats: int
) -> tuple[list[Any], list[tuple[Any, Any]]]:
    """The positions an action touches and the (from, to) arrows it draws, following `then`."""
    touched: list[Any] = []
    arrows: list[tuple[Any, Any]] = []
    seat = action.get("seat")
    inner = action
    depth = 0
    while isinstance(inner, Mapping) and depth < 4:
        moves = inner.get("moves")
        if isinstance(moves, list):
            for segment in moves:
                if isinstance(segment, list) and len(segment) == 2:
                    touched.extend(segment)
                    arrows.append((segment[0], segment[1]))
        swap = inner.get("swap")
        if isinstance(swap, list) and len(swap) == 2:
            touched.extend(swap)
            arrows.append((swap[0], swap[1]))
            arrows.append((swap[1], swap[0]))
        strike = inner.get("strike")
        if strike is not None:
            touched.append(strike)
        if inner.get("enter") is True:
            enter_seat = inner.get("seat", seat)
            if action.get("card") == "engel" and isinstance(seat, int) and seats:
                enter_seat = (seat + 1) % seats
            if isinstance(enter_seat, int):
                touched.append(board.start_of(enter_seat))
        inner = inner.get("then")
        depth += 1
    return touched, arrows


def _padlock(svg: Svg, x: float, y: float, size: float) -> None:
    body_w, body_h = size * 1.1, size * 0.8
    svg.open_group(class_="lock")
    svg.path(
        f"M{num(x - size * 0.35)} {num(y)} v{num(-size * 0.35)} a{num(size * 0.35)} {num(size * 0.35)} 0 0 1 "
        f"{num(size * 0.7)} 0 v{num(size * 0.35)}",
        fill="none",
        stroke=INK,
        stroke_width=num(size * 0.18),
    )
    svg.rect(x - body_w / 2, y, body_w, body_h, fill=INK, rx=num(size * 0.12))
    svg.close_group()


def _card_label(card: str) -> str:
    return {"trickser": "⇄", "narr": "N", "engel": "E", "krieger": "K", "teufel": "T", "permuter": "⇄"}.get(
        card, card.upper() if card in ("tac",) else card
    )


def render(
    snapshot: Mapping[str, Any],
    *,
    highlight: Mapping[str, Any] | None = None,
    seat_names: Sequence[str] | None = None,
    labels: Mapping[str, str] | None = None,
) -> str:
    seats = seat_count(snapshot, 8)
    ring = snapshot.get("ring") if isinstance(snapshot.get("ring"), int) else 16 * max(seats, 1)
    starts = _int_list(snapshot.get("starts")) or [k * int(ring) // max(seats, 1) for k in range(seats)]
    board = Board(int(ring), starts, _int_list(snapshot.get("home_entries")))
    text = Labels(labels, seat_names, seats)
    active = set(_int_list(snapshot.get("active"))) if snapshot.get("active") else set(range(seats))
    winners = _int_list(snapshot.get("winners"))
    to_move = snapshot.get("to_move")
    invalid = bool(highlight and highlight.get("invalid"))
    message = str(highlight.get("message") or "") if highlight else ""

    legend_rows = (seats + 1) // 2
    banner_lines = wrap(message, 58, 3) if invalid and message else []
    height = SIZE + legend_rows * 20 + 6 + (len(banner_lines) * 16 + 14 if banner_lines else 0)
    game = str(snapshot.get("game", "")).upper()
    svg = Svg(SIZE, height, title=f"{game} — " + ", ".join(text.seat_names), css_class="replay-board marbles")
    svg.rect(0, 0, SIZE, SIZE, fill=BOARD, rx="16")
    svg.circle(CENTRE, CENTRE, RADIUS, fill="none", stroke=LINE, stroke_width="1")

    # Ring fields, the start fields in their seat colour.
    start_owner = {start: seat for seat, start in enumerate(starts)}
    svg.open_group(class_="fields")
    for field in range(board.ring):
        x, y = board.point(field)
        owner = start_owner.get(field)
        if owner is not None:
            svg.circle(
                x,
                y,
                board.field_r * 1.15,
                fill="#fff",
                stroke=seat_colour(owner),
                stroke_width=num(board.field_r * 0.55),
                class_="start",
                title=f"{field}",
                data_pos=str(field),
            )
        else:
            svg.circle(
                x, y, board.field_r * 0.8, fill="#fff", stroke=HOLE_LINE, stroke_width="1", title=f"{field}",
                data_pos=str(field),
            )
    # Home slots and prefield spots.
    for seat in range(seats):
        colour = seat_colour(seat)
        for slot in range(1, 5):
            x, y = board.home(seat, slot)
            svg.circle(
                x,
                y,
                board.field_r * 0.85,
                fill=_tint(colour),
                stroke=HOLE_LINE,
                stroke_width="1.2",
                title=f"H{seat}:{slot}",
                data_pos=f"H{seat}:{slot}",
            )
        if seat in active:
            for spot in range(4):
                x, y = board.prefield(seat, spot)
                svg.circle(
                    x,
                    y,
                    board.field_r * 0.8,
                    fill="none",
                    stroke=HOLE_LINE,
                    stroke_width="1",
                    stroke_dasharray="2 1.5",
                    data_pos=f"P{seat}",
                )
    svg.close_group()
    # The start fields' coloured rings get a dark edge (the colour alone may not stand out from the board).
    svg.open_group(class_="start-edges")
    for field in start_owner:
        if 0 <= field < board.ring:
            x, y = board.point(field)
            svg.circle(x, y, board.field_r * 1.45, fill="none", stroke=HOLE_LINE, stroke_width="0.9")
    svg.close_group()

    # Highlight of the step's action (or of the failing action).
    action = highlight.get("action") if highlight else None
    if isinstance(action, Mapping):
        touched, arrows = _action_fields(action, board, seats)
        colour = INVALID if invalid else HIGHLIGHT
        svg.open_group(class_="hl-invalid" if invalid else "hl-action")
        for source, target in arrows:
            start, end = board.locate(source), board.locate(target)
            if start and end and start != end:
                _arrow(svg, start, end, colour, board.field_r)
        for token in touched:
            point = board.locate(token)
            if point:
                svg.circle(
                    point[0],
                    point[1],
                    board.field_r * 1.9,
                    fill="none",
                    stroke=colour,
                    stroke_width=num(board.field_r * 0.4),
                    stroke_dasharray="4 2" if invalid else None,
                )
        svg.close_group()

    # Marbles.
    fresh = set(_int_list(snapshot.get("fresh")))
    locked = {str(t) for t in snapshot.get("locked") or [] if isinstance(t, str | int)}
    marbles = snapshot.get("marbles") if isinstance(snapshot.get("marbles"), list) else []
    prefield = snapshot.get("prefield") if isinstance(snapshot.get("prefield"), list) else []
    marble_r = board.field_r * 1.2
    svg.open_group(class_="marbles")
    for seat in range(seats):
        colour = seat_colour(seat)
        name = text.seat(seat)
        tokens = marbles[seat] if seat < len(marbles) and isinstance(marbles[seat], list) else []
        for token in tokens:
            point = board.locate(token)
            if point is None:
                continue
            is_fresh = isinstance(token, int) and token in fresh
            is_locked = str(token) in locked
            classes = "marble" + (" fresh" if is_fresh else "") + (" locked" if is_locked else "")
            _marble(svg, point, marble_r, seat, colour, f"{name}: {token}", classes, dashed_ring=is_fresh,
                    pos=str(token))
            if is_locked:
                _padlock(svg, point[0] + marble_r * 0.9, point[1] - marble_r * 0.9, marble_r * 0.75)
        count = prefield[seat] if seat < len(prefield) and isinstance(prefield[seat], int) else 0
        for spot in range(min(max(count, 0), 4)):
            point = board.prefield(seat, spot)
            _marble(
                svg,
                point,
                marble_r * 0.9,
                seat,
                colour,
                f"{name}: {text.pair('prefield', count)}",
                "marble prefield",
                dashed_ring=False,
                pos=f"P{seat}",
            )
        if count > 4:
            x, y = board.prefield(seat, 3)
            svg.text(
                x, y + marble_r * 2.2, count, font_size=num(marble_r * 1.4), text_anchor="middle", fill=INK
            )
    svg.close_group()

    # The card in the middle: the last card played, or the failing card in red.
    last = snapshot.get("last") if isinstance(snapshot.get("last"), Mapping) else None
    card_seat, card, card_as = None, None, None
    if invalid and isinstance(action, Mapping) and isinstance(action.get("card"), str):
        card_seat, card, card_as = action.get("seat"), action["card"], action.get("as")
    elif last and isinstance(last.get("card"), str):
        card_seat, card, card_as = last.get("seat"), last["card"], last.get("as")
    if card is not None:
        outline = INVALID if invalid else (seat_colour(card_seat) if isinstance(card_seat, int) else INK)
        label = _card_label(card) + (f"={_card_label(str(card_as))}" if isinstance(card_as, str) else "")
        card_box(
            svg,
            CENTRE - 24,
            CENTRE - 34,
            48,
            68,
            fill="#fff",
            label=shorten(label, 8),
            title=text.pair('last_card', card) + (f" ({card_as})" if card_as else ""),
            outline=outline,
            css_class="last-card" + (" invalid" if invalid else ""),
            dashed=invalid,
        )
        if isinstance(card_seat, int):
            svg.text(
                CENTRE,
                CENTRE + 48,
                shorten(text.seat(card_seat), 18),
                font_size="10",
                text_anchor="middle",
                fill=MUTED,
            )
    if snapshot.get("over"):
        svg.text(
            CENTRE,
            CENTRE - 44,
            text.get("over"),
            font_size="13",
            text_anchor="middle",
            fill=INK,
            font_weight="700",
            class_="over",
        )

    # Legend: seat colours and names, whose turn, winners.
    svg.open_group(class_="legend")
    for seat in range(seats):
        x = 14 + (seat % 2) * (SIZE / 2)
        y = SIZE + 16 + (seat // 2) * 20
        colour = seat_colour(seat)
        _body(svg, x, y - 4, 7.0, seat, colour, stroke_width="0.8")
        svg.text(
            x, y - 0.6, seat, font_size="9.5", text_anchor="middle", fill=text_on(colour), font_weight="700"
        )
        prefix = "▶ " if to_move == seat and not snapshot.get("over") else ""
        suffix = " ★" if seat in winners else ""
        if snapshot.get("skipped") == seat:
            suffix += f" ({text.get('skipped')})"
        elif snapshot.get("banned") is True and prefix:
            suffix += f" ({text.get('banned')})"
        weight = "700" if prefix or suffix else "400"
        svg.text(
            x + 11,
            y,
            prefix + shorten(text.seat(seat), 24) + suffix,
            font_size="12",
            fill=INK,
            font_weight=weight,
            class_="to-move" if prefix else None,
        )
    svg.close_group()
    banner(svg, banner_lines, SIZE + legend_rows * 20 + 10)
    return svg.finish()


def _marble(
    svg: Svg,
    point: tuple[float, float],
    radius: float,
    seat: int,
    colour: str,
    title: str,
    classes: str,
    *,
    dashed_ring: bool,
    pos: str | None = None,
) -> None:
    """One marble; `pos` (data-pos) is its position as the engine's options name it (a ring field, "H<seat>:<slot>",
    "P<seat>" in a prefield), so the scoresheet's board_pick.js can match a tapped marble to the move taps."""
    x, y = point
    svg.open_group(class_=classes, data_seat=str(seat), data_pos=pos)
    if dashed_ring:
        svg.circle(
            x,
            y,
            radius * 1.45,
            fill="none",
            stroke=INK,
            stroke_width=num(radius * 0.28),
            stroke_dasharray=f"{num(radius * 0.5)} {num(radius * 0.3)}",
        )
    _body(svg, x, y, radius, seat, colour, stroke_width=num(radius * 0.15), title=title)
    svg.text(
        x,
        y + radius * 0.48,
        seat,
        font_size=num(radius * 1.35),
        text_anchor="middle",
        fill=text_on(colour),
        font_weight="700",
    )
    svg.close_group()


def _arrow(
    svg: Svg, start: tuple[float, float], end: tuple[float, float], colour: str, field_r: float
) -> None:
    (x1, y1), (x2, y2) = start, end
    length = math.hypot(x2 - x1, y2 - y1)
    ux, uy = (x2 - x1) / length, (y2 - y1) / length
    tip_x, tip_y = x2 - ux * field_r * 1.9, y2 - uy * field_r * 1.9
    svg.line(
        x1,
        y1,
        tip_x,
        tip_y,
        stroke=colour,
        stroke_width=num(field_r * 0.4),
        stroke_linecap="round",
        opacity="0.8",
    )
    head = field_r * 1.3
    left = (tip_x - ux * head - uy * head * 0.6, tip_y - uy * head + ux * head * 0.6)
    right = (tip_x - ux * head + uy * head * 0.6, tip_y - uy * head - ux * head * 0.6)
    svg.path(
        f"M{num(tip_x)} {num(tip_y)} L{num(left[0])} {num(left[1])} L{num(right[0])} {num(right[1])} Z",
        fill=colour,
        opacity="0.9",
    )


def _body(
    svg: Svg, x: float, y: float, radius: float, seat: int, colour: str, *, stroke_width: str, title: str | None = None
) -> None:
    """A marble's body in its seat's shape (canvas.SEAT_SHAPES), filled with the seat colour, outlined in ink."""
    corners, rotation = seat_shape(seat)
    if corners == 0:
        svg.circle(x, y, radius, fill=colour, stroke=INK, stroke_width=stroke_width, class_="marble-body", title=title)
        return
    if corners == 3:  # a triangle's digit needs more room: a little larger, centred on its middle
        radius *= 1.18
        y += radius * (0.12 if rotation == 0 else -0.12)
    svg.path(shape_path(x, y, radius, corners, rotation), fill=colour, stroke=INK, stroke_width=stroke_width,
             stroke_linejoin="round", class_="marble-body", title=title)


def _tint(colour: str, share: float = 0.35) -> str:
    """`colour` mixed with white (a home slot's fill: the seat colour, light enough for a marble on it)."""
    try:
        channels = [int(colour[i : i + 2], 16) for i in (1, 3, 5)]
    except (ValueError, IndexError):
        return "#fff"
    return "#" + "".join(f"{round(255 - (255 - c) * share):02x}" for c in channels)
