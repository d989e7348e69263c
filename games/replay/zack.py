"""ZACK!, drawn from a trace snapshot (kind "zack"): the bowl, each seat's stack, the colour order.

The bowl lists its cards bottom first (left to right, line by line), each marked with its thrower;
the top card decides who is obliged. Each seat row shows the colour it holds now, its stack's top
card and size, and the cards it has collected.
"""

from __future__ import annotations

import math
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
    seat_count,
    shorten,
    text_on,
    wrap,
)

WIDTH = 400.0
CARD_W, CARD_H, GAP = 24.0, 32.0, 3.0
PER_LINE = 14
ZACK_COLOURS: dict[str, str] = {
    "red": "#d1372b",
    "blue": "#2a64c5",
    "yellow": "#f2c230",
    "green": "#2e8b3e",
    "orange": "#f08a24",
    "violet": "#7b4fb3",
}
SYMBOLS: dict[str, str] = {
    "right": "→",
    "right2": "⇉",
    "left": "←",
    "left2": "⇇",
    "again": "↻",
    "back": "↩",
    "stop_choose": "S?",
    "stop_swap": "S⇄",
    "stop_mirror": "S⇋",
}


def card_face(token: Any) -> tuple[str, str]:
    """(fill, label) of a ZACK! card token: colour circles filled, the others white with a symbol."""
    text = str(token)
    if text in ZACK_COLOURS:
        return ZACK_COLOURS[text], text[:1].upper()
    return "#ffffff", SYMBOLS.get(text, "?")


def _card(
    svg: Svg,
    x: float,
    y: float,
    token: Any,
    *,
    outline: str | None,
    css: str,
    corner: str = "",
    dashed: bool = False,
) -> None:
    fill, label = card_face(token)
    card_box(
        svg,
        x,
        y,
        CARD_W,
        CARD_H,
        fill=fill,
        label=label,
        title=str(token),
        outline=outline,
        css_class=css,
        dashed=dashed,
    )
    if corner:
        svg.text(x + CARD_W - 3, y + CARD_H - 3, corner, font_size="7", fill=text_on(fill), text_anchor="end")


def render(
    snapshot: Mapping[str, Any],
    *,
    highlight: Mapping[str, Any] | None = None,
    seat_names: Sequence[str] | None = None,
    labels: Mapping[str, str] | None = None,
) -> str:
    seats = seat_count(snapshot, 8)
    text = Labels(labels, seat_names, seats)
    invalid = bool(highlight and highlight.get("invalid"))
    action = highlight.get("action") if highlight and isinstance(highlight.get("action"), Mapping) else None
    acting_seat = action.get("seat") if action else None
    colours = snapshot.get("colours") if isinstance(snapshot.get("colours"), list) else []
    stacks = snapshot.get("stacks") if isinstance(snapshot.get("stacks"), list) else []
    collected = snapshot.get("collected") if isinstance(snapshot.get("collected"), list) else []
    bowl = [entry for entry in snapshot.get("bowl") or [] if isinstance(entry, Mapping)]
    obliged = snapshot.get("obliged")
    winners = [w for w in snapshot.get("winners") or [] if isinstance(w, int)]

    bowl_lines = max(1, math.ceil(len(bowl) / PER_LINE))
    bowl_height = 30 + bowl_lines * (CARD_H + GAP) + 8
    row_height = CARD_H + 14
    message = str(highlight.get("message") or "") if highlight else ""
    banner_lines = wrap(message, 58, 3) if invalid and message else []
    height = bowl_height + seats * row_height + 10 + (len(banner_lines) * 16 + 12 if banner_lines else 0)
    svg = Svg(WIDTH, height, title="ZACK! — " + ", ".join(text.seat_names), css_class="replay-board zack")
    svg.rect(0, 0, WIDTH, height, fill="#f6f7f9", rx="12")

    # The bowl, bottom first; the top card outlined (it decides who is obliged).
    svg.rect(6, 6, WIDTH - 12, bowl_height - 8, fill="#e9e2d0", stroke="#c9bc9b", rx="14", class_="bowl")
    svg.text(16, 22, f"{text.get('bowl')} ({len(bowl)})", font_size="11", fill=MUTED)
    highlight_top = action is not None and not invalid and action.get("event") == "throw"
    svg.open_group(class_="bowl-cards")
    if not bowl:
        svg.text(
            WIDTH / 2, 30 + CARD_H / 2, text.get("empty"), font_size="11", fill=MUTED, text_anchor="middle"
        )
    for index, entry in enumerate(bowl):
        line, column = divmod(index, PER_LINE)
        is_top = index == len(bowl) - 1
        thrower = entry.get("seat")
        outline = HIGHLIGHT if is_top and highlight_top else None
        _card(
            svg,
            16 + column * (CARD_W + GAP),
            30 + line * (CARD_H + GAP),
            entry.get("card"),
            outline=outline,
            css="card bowl-card" + (" top" if is_top else "") + (" hl-action" if outline else ""),
            corner=str(thrower) if isinstance(thrower, int) else "",
        )
    svg.close_group()

    # One row per seat: colour held, name, stack (top card + count), collected.
    y = bowl_height + 4
    for seat in range(seats):
        colour_name = colours[seat] if seat < len(colours) else None
        fill = ZACK_COLOURS.get(str(colour_name), "#cccccc")
        stack = stacks[seat] if seat < len(stacks) and isinstance(stacks[seat], list) else []
        got = collected[seat] if seat < len(collected) and isinstance(collected[seat], int) else 0
        is_acting = invalid and acting_seat == seat
        svg.open_group(class_="seat-row" + (" hl-invalid" if is_acting else ""), data_seat=str(seat))
        if is_acting:
            svg.rect(
                8,
                y - 2,
                WIDTH - 16,
                row_height - 4,
                fill="none",
                stroke=INVALID,
                stroke_width="2",
                stroke_dasharray="4 2",
                rx="6",
            )
        svg.circle(
            24,
            y + CARD_H / 2,
            11,
            fill=fill,
            stroke=INK,
            stroke_width="0.8",
            title=text.pair('colours', colour_name),
        )
        svg.text(
            24,
            y + CARD_H / 2 + 4,
            seat,
            font_size="11",
            text_anchor="middle",
            fill=text_on(fill),
            font_weight="700",
        )
        marker = "▶ " if obliged == seat and not snapshot.get("over") else ""
        suffix = " ★" if seat in winners else ""
        svg.text(
            42,
            y + 12,
            f"{marker}{shorten(text.seat(seat), 26)}{suffix}",
            font_size="12",
            fill=INK,
            font_weight="700" if marker or suffix else "400",
            class_="obliged" if marker else None,
        )
        svg.text(42, y + 28, text.pair('collected', got), font_size="10", fill=MUTED)
        if stack:
            _card(
                svg,
                WIDTH - 110,
                y,
                stack[0],
                outline=INVALID if is_acting else None,
                dashed=is_acting,
                css="card stack-top",
            )
        else:
            svg.rect(
                WIDTH - 110, y, CARD_W, CARD_H, fill="none", stroke=MUTED, stroke_dasharray="3 2", rx="3"
            )
        svg.text(
            WIDTH - 80,
            y + 20,
            text.pair('stack', len(stack)),
            font_size="11",
            fill=INK,
            class_="stack-count",
        )
        svg.close_group()
        y += row_height
    if snapshot.get("mirror"):
        svg.text(
            WIDTH / 2, 22, text.get("mirror"), font_size="11", fill=INK, text_anchor="middle", class_="mirror"
        )
    if snapshot.get("over"):
        svg.text(
            WIDTH - 16,
            22,
            text.get("over"),
            font_size="12",
            fill=INK,
            text_anchor="end",
            font_weight="700",
            class_="over",
        )
    banner(svg, banner_lines, y + 2)
    return svg.finish()
