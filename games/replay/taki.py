"""TAKI, drawn from a trace snapshot (kind "taki"): discard pile, stock, direction, each seat's hand.

Records are public once submitted, so every hand is shown face up. Cards are small rectangles in
their colour with a short symbol and the colour's initial (colour is never the only cue).
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from typing import Any

from games.replay.canvas import (
    HIGHLIGHT,
    INK,
    INVALID,
    MUTED,
    Labels,
    Svg,
    banner,
    card_box,
    esc,
    num,
    seat_count,
    shorten,
    wrap,
)

WIDTH = 400.0
CARD_W, CARD_H, GAP = 24.0, 34.0, 3.0
PER_LINE = 14
TAKI_COLOURS: dict[str, str] = {"r": "#d1372b", "g": "#2e8b3e", "b": "#2a64c5", "y": "#f2c230"}
COLOURLESS = "#2b2f36"
NUMBER_CARD = re.compile(r"^(\d{1,2})([a-z])$")
ACTION_CARD = re.compile(r"^(stop|plus2|dir|plus|taki)_([a-z])$")
SYMBOLS = {"stop": "⊘", "plus2": "+2", "dir": "⇄", "plus": "+", "taki": "T"}
COLOURLESS_SYMBOLS = {"supertaki": "ST", "king": "K", "plus3": "+3", "breaker": "✂", "color": "C"}


def card_face(token: Any) -> tuple[str, str, str | None]:
    """(fill, label, colour letter or None) of a TAKI card token; unknown tokens draw as grey '?'."""
    text = str(token)
    match = NUMBER_CARD.match(text)
    if match:
        return TAKI_COLOURS.get(match.group(2), "#8a8f98"), match.group(1), match.group(2)
    match = ACTION_CARD.match(text)
    if match:
        return TAKI_COLOURS.get(match.group(2), "#8a8f98"), SYMBOLS[match.group(1)], match.group(2)
    base, _, chosen = text.partition(":")
    if base in COLOURLESS_SYMBOLS:
        fill = TAKI_COLOURS.get(chosen, COLOURLESS) if chosen else COLOURLESS
        return fill, COLOURLESS_SYMBOLS[base], chosen or None
    return "#8a8f98", "?", None


def _card(
    svg: Svg,
    x: float,
    y: float,
    token: Any,
    *,
    outline: str | None = None,
    css: str = "card",
    dashed: bool = False,
    scale: float = 1.0,
) -> None:
    fill, label, letter = card_face(token)
    w, h = CARD_W * scale, CARD_H * scale
    card_box(
        svg,
        x,
        y,
        w,
        h,
        fill=fill,
        label=label,
        title=str(token),
        outline=outline,
        css_class=css,
        dashed=dashed,
    )
    if letter:
        svg.text(
            x + 3 * scale,
            y + 8 * scale,
            letter,
            font_size=num(7 * scale),
            fill="#fff" if fill != "#f2c230" else "#000",
        )


def _played_tokens(action: Mapping[str, Any] | None) -> list[str]:
    if not isinstance(action, Mapping) or not isinstance(action.get("play"), list):
        return []
    return [str(card) for card in action["play"]]


def _base(token: str) -> str:
    """A play token as it sits in a hand: "color:g" -> "color", "supertaki:r" -> "supertaki"."""
    base, sep, _ = token.partition(":")
    return base if sep and base in COLOURLESS_SYMBOLS else token


def render(
    snapshot: Mapping[str, Any],
    *,
    highlight: Mapping[str, Any] | None = None,
    seat_names: Sequence[str] | None = None,
    labels: Mapping[str, str] | None = None,
) -> str:
    seats = seat_count(snapshot, 10)
    text = Labels(labels, seat_names, seats)
    hands = snapshot.get("hands") if isinstance(snapshot.get("hands"), list) else []
    invalid = bool(highlight and highlight.get("invalid"))
    action = highlight.get("action") if highlight and isinstance(highlight.get("action"), Mapping) else None
    played = _played_tokens(action)
    acting_seat = action.get("seat") if action else None
    winners = [w for w in snapshot.get("winners") or [] if isinstance(w, int)]
    finished = [w for w in snapshot.get("finished") or [] if isinstance(w, int)]
    to_move = snapshot.get("to_move")

    rows: list[tuple[int, list[Any]]] = []
    for seat in range(seats):
        hand = hands[seat] if seat < len(hands) and isinstance(hands[seat], list) else []
        rows.append((seat, hand))
    row_heights = [22 + max(1, math.ceil(len(hand) / PER_LINE)) * (CARD_H + GAP) for _, hand in rows]
    top_height = 118.0
    message = str(highlight.get("message") or "") if highlight else ""
    banner_lines = wrap(message, 58, 3) if invalid and message else []
    height = top_height + sum(row_heights) + 8 + (len(banner_lines) * 16 + 12 if banner_lines else 0)
    svg = Svg(WIDTH, height, title="TAKI — " + ", ".join(text.seat_names), css_class="replay-board taki")
    svg.rect(0, 0, WIDTH, height, fill="#f6f7f9", rx="12")

    # Discard pile, fanned (bottom first), the newest cards outlined when they are this step's play.
    discard = snapshot.get("discard_top") if isinstance(snapshot.get("discard_top"), list) else []
    discard = discard[-6:]
    count = snapshot.get("discard_count") if isinstance(snapshot.get("discard_count"), int) else len(discard)
    svg.text(12, 16, f"{text.get('discard')} ({count})", font_size="11", fill=MUTED)
    svg.open_group(class_="discard")
    fresh_from = len(discard) - len(played) if played and not invalid else len(discard)
    for index, token in enumerate(discard):
        outline = HIGHLIGHT if index >= fresh_from else None
        _card(
            svg,
            12 + index * 41,
            24,
            token,
            outline=outline,
            scale=1.6,
            css="card discard-card" + (" hl-action" if outline else ""),
        )
    svg.close_group()

    # Stock, direction, lead colour, pending effects.
    stock = snapshot.get("stock_count") if isinstance(snapshot.get("stock_count"), int) else 0
    stock_x = 300.0
    svg.rect(
        stock_x,
        24,
        CARD_W * 1.6,
        CARD_H * 1.6,
        fill="#48566a",
        stroke="#fff",
        stroke_width="2",
        rx="5",
        class_="stock",
        title=text.pair('stock', stock),
    )
    svg.text(
        stock_x + CARD_W * 0.8,
        24 + CARD_H * 0.95,
        stock,
        font_size="15",
        fill="#fff",
        text_anchor="middle",
        font_weight="700",
    )
    svg.text(
        stock_x + CARD_W * 0.8,
        24 + CARD_H * 1.6 + 13,
        text.get("stock"),
        font_size="10",
        fill=MUTED,
        text_anchor="middle",
    )
    direction = snapshot.get("direction", 1)
    clockwise = direction != -1
    _direction_arrow(svg, 372, 50, 16, clockwise, text.get("direction_cw" if clockwise else "direction_ccw"))
    notes: list[str] = []
    lead = snapshot.get("lead_color")
    if isinstance(lead, str) and lead:
        notes.append(text.pair('lead', lead))
    if snapshot.get("open_taki"):
        notes.append(text.pair('open_taki', snapshot.get('open_taki')))
    pending = snapshot.get("pending_draw")
    if isinstance(pending, int) and pending > 0:
        notes.append(text.get("pending_draw", n=pending))
    plus3 = snapshot.get("pending_plus3")
    if isinstance(plus3, int) and not isinstance(plus3, bool):
        notes.append(text.get("plus3", name=text.seat(plus3)))
    note_x = 12.0
    if isinstance(lead, str) and lead in TAKI_COLOURS:
        svg.rect(12, 95, 11, 11, fill=TAKI_COLOURS[lead], stroke=INK, stroke_width="0.5", class_="lead")
        note_x = 28.0
    for index, note in enumerate(notes[:3]):
        svg.text(note_x + index * 122, 104, shorten(note, 22), font_size="11", fill=INK, class_="note")
    if snapshot.get("over"):
        svg.text(
            WIDTH - 12,
            112,
            text.get("over"),
            font_size="12",
            fill=INK,
            text_anchor="end",
            font_weight="700",
            class_="over",
        )

    # Hands.
    y = top_height
    for (seat, hand), row_height in zip(rows, row_heights, strict=True):
        marker = "▶ " if to_move == seat and not snapshot.get("over") else ""
        suffix = " ★" if seat in winners else (f" ({text.get('finished')})" if seat in finished else "")
        weight = "700" if marker or suffix else "400"
        svg.open_group(class_="hand", data_seat=str(seat))
        svg.text(
            12,
            y + 14,
            f"{marker}{shorten(text.seat(seat), 30)}{suffix} · {text.get('cards', n=len(hand))}",
            font_size="12",
            fill=INK,
            font_weight=weight,
            class_="to-move" if marker else None,
        )
        wanted = [_base(t) for t in played] if invalid and acting_seat == seat else []
        for index, token in enumerate(hand):
            line, column = divmod(index, PER_LINE)
            outline = None
            if str(token) in wanted:
                wanted.remove(str(token))
                outline = INVALID
            _card(
                svg,
                12 + column * (CARD_W + GAP),
                y + 20 + line * (CARD_H + GAP),
                token,
                outline=outline,
                dashed=outline is not None,
                css="card hand-card" + (" hl-invalid" if outline else ""),
            )
        svg.close_group()
        y += row_height
    banner(svg, banner_lines, y + 4)
    return svg.finish()


def _direction_arrow(svg: Svg, x: float, y: float, r: float, clockwise: bool, title: str) -> None:
    sweep = 1 if clockwise else 0
    start_x, end_x = (x - r, x + r * 0.7) if clockwise else (x + r, x - r * 0.7)
    end_y = y + r * 0.7
    svg.open_group(class_="direction cw" if clockwise else "direction ccw")
    svg.add(f"<title>{esc(title)}</title>")
    svg.path(
        f"M{num(start_x)} {num(y)} A{num(r)} {num(r)} 0 1 {sweep} {num(end_x)} {num(end_y)}",
        fill="none",
        stroke=INK,
        stroke_width="2.5",
    )
    tip = -1 if clockwise else 1
    svg.path(f"M{num(end_x)} {num(end_y)} l{num(tip * 7)} {num(1)} l{num(tip * -1)} {num(-7)} Z", fill=INK)
    svg.close_group()
