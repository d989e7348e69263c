"""A tiny SVG writer shared by the replay renderers: escaping, the seat palette, card shapes.

Pure Python, no Django: every text that reaches the SVG goes through `esc` (records are user input).
Sizes are in viewBox units; the SVG scales to its container (no fixed pixel width).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any
from xml.sax.saxutils import escape, quoteattr

# Okabe-Ito, a palette that stays distinguishable for the common colour-vision deficiencies.
# Colour is never the only cue: every marble carries its seat number (black or white, whichever has the
# higher WCAG contrast on the fill: at least 5.2:1) and each seat has its own marble shape
# (SEAT_SHAPES); every marble is outlined in INK (at least 12:1 against the board).
SEAT_COLOURS: tuple[str, ...] = (
    "#0072B2",  # blue
    "#E69F00",  # orange
    "#009E73",  # bluish green
    "#CC79A7",  # reddish purple
    "#D55E00",  # vermilion
    "#56B4E9",  # sky blue
    "#F0E442",  # yellow
    "#7F7F7F",  # grey
)
HIGHLIGHT = "#1d2430"
INVALID = "#b3261e"
INK = "#1d2430"
MUTED = "#5b6575"
LINE = "#b9c1cc"
BOARD = "#f3ead8"
# The outline of the holes a player counts along (ring fields, home slots, prefield spots): 4.1:1 against
# the board and 4.9:1 against a hole's white fill (WCAG 1.4.11 asks 3:1).
HOLE_LINE = "#7a6f5c"
# A seat's marble shape: (corners, rotation in degrees); 0 corners is a circle. Seats told apart by
# shape as well as by colour and number (1.4.1 Use of Color).
SEAT_SHAPES: tuple[tuple[int, float], ...] = (
    (0, 0),  # circle
    (4, 45),  # square
    (4, 0),  # diamond
    (3, 0),  # triangle
    (6, 0),  # hexagon
    (3, 180),  # triangle pointing down
    (5, 0),  # pentagon
    (8, 22.5),  # octagon
)

DEFAULT_LABELS: dict[str, str] = {
    "seat": "Seat {n}",
    "to_move": "to move",
    "over": "Game over",
    "winners": "Winners: {names}",
    "stock": "Stock",
    "discard": "Discard pile",
    "direction_cw": "clockwise",
    "direction_ccw": "counter-clockwise",
    "lead": "Lead colour",
    "open_taki": "Open TAKI",
    "pending_draw": "Draw {n}",
    "bowl": "Bowl",
    "stack": "Stack",
    "collected": "Collected",
    "obliged": "obliged",
    "colours": "Colour order",
    "empty": "empty",
    "prefield": "Prefield",
    "last_card": "Card played",
    "invalid": "Invalid action",
    "cards": "Cards: {n}",
    "finished": "Out",
    "skipped": "skipped",
    "banned": "banned",
    "mirror": "Mirrored",
    "plus3": "+3 by {name}",
    "label_value": "{label}: {value}",
}


def esc(value: Any) -> str:
    """Text content, escaped for XML."""
    return escape(str(value))


def attr(value: Any) -> str:
    """A quoted, escaped attribute value (including the quotes)."""
    return quoteattr(str(value))


def num(value: float) -> str:
    """A coordinate with at most two decimals and no trailing zeros."""
    text = f"{value:.2f}".rstrip("0").rstrip(".")
    return "0" if text == "-0" else text


def seat_colour(seat: int) -> str:
    return SEAT_COLOURS[seat % len(SEAT_COLOURS)]


def relative_luminance(colour: str) -> float:
    """WCAG 2.1 relative luminance of a #rrggbb (or #rgb) colour."""
    if len(colour) == 4:
        colour = "#" + "".join(c * 2 for c in colour[1:])
    channels = [int(colour[i : i + 2], 16) / 255 for i in (1, 3, 5)]
    linear = [c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in channels]
    return 0.2126 * linear[0] + 0.7152 * linear[1] + 0.0722 * linear[2]


def contrast(first: str, second: str) -> float:
    """WCAG 2.1 contrast ratio of two #rrggbb colours (1 to 21)."""
    lighter, darker = sorted((relative_luminance(first), relative_luminance(second)), reverse=True)
    return (lighter + 0.05) / (darker + 0.05)


def text_on(fill: str) -> str:
    """Black or white, whichever has the higher WCAG contrast on a #rrggbb fill."""
    try:
        on_black = contrast(fill, "#000000")
        on_white = contrast(fill, "#ffffff")
    except (ValueError, IndexError):
        return "#000"
    return "#000" if on_black >= on_white else "#fff"


def seat_shape(seat: int) -> tuple[int, float]:
    return SEAT_SHAPES[seat % len(SEAT_SHAPES)]


def shape_path(x: float, y: float, radius: float, corners: int, rotation: float) -> str:
    """The path of a regular polygon around (x, y) whose area is about a circle's of `radius`."""
    import math

    area_scale = math.sqrt(math.pi / (corners / 2 * math.sin(2 * math.pi / corners)))
    outer = radius * area_scale
    points = []
    for k in range(corners):
        angle = math.radians(rotation) + 2 * math.pi * k / corners
        points.append(f"{num(x + outer * math.sin(angle))} {num(y - outer * math.cos(angle))}")
    return "M" + " L".join(points) + " Z"


def seat_count(snapshot: Mapping[str, Any], most: int) -> int:
    """The snapshot's number of seats, 0 when absent, at most `most` (the board has room for no more)."""
    seats = snapshot.get("seats")
    return max(0, min(seats, most)) if isinstance(seats, int) else 0


class Labels:
    """English defaults overridable by a mapping of translated templates (the view passes gettext'd ones)."""

    def __init__(self, overrides: Mapping[str, str] | None, seat_names: Sequence[str] | None, seats: int):
        self._texts = {**DEFAULT_LABELS, **(overrides or {})}
        names = list(seat_names or [])
        self.seat_names = [
            str(names[s]) if s < len(names) and names[s] else self.get("seat", n=s) for s in range(seats)
        ]

    def get(self, key: str, **values: Any) -> str:
        template = self._texts.get(key, DEFAULT_LABELS.get(key, key))
        try:
            return template.format(**values)
        except (KeyError, IndexError, ValueError):
            return template

    def pair(self, key: str, value: Any) -> str:
        """A label and its value ("Stack: 3"; French puts a space before the colon)."""
        return self.get("label_value", label=self.get(key), value=value)

    def seat(self, seat: Any) -> str:
        if isinstance(seat, int) and 0 <= seat < len(self.seat_names):
            return self.seat_names[seat]
        return self.get("seat", n=seat if isinstance(seat, int) else "?")


def shorten(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: max(1, limit - 1)] + "…"


class Svg:
    """Collects elements; `finish()` wraps them in the <svg> root with a viewBox."""

    def __init__(self, width: float, height: float, *, title: str, css_class: str) -> None:
        self.width = width
        self.height = height
        self.title = title
        self.css_class = css_class
        self.parts: list[str] = []

    def add(self, element: str) -> None:
        self.parts.append(element)

    def circle(self, x: float, y: float, r: float, *, title: str | None = None, **style: Any) -> None:
        body = f"<title>{esc(title)}</title>" if title else ""
        self.add(self._element("circle", {"cx": num(x), "cy": num(y), "r": num(r), **style}, body))

    def rect(self, x: float, y: float, w: float, h: float, *, title: str | None = None, **style: Any) -> None:
        body = f"<title>{esc(title)}</title>" if title else ""
        attrs = {"x": num(x), "y": num(y), "width": num(w), "height": num(h), **style}
        self.add(self._element("rect", attrs, body))

    def line(self, x1: float, y1: float, x2: float, y2: float, **style: Any) -> None:
        attrs = {"x1": num(x1), "y1": num(y1), "x2": num(x2), "y2": num(y2), **style}
        self.add(self._element("line", attrs, ""))

    def path(self, d: str, *, title: str | None = None, **style: Any) -> None:
        body = f"<title>{esc(title)}</title>" if title else ""
        self.add(self._element("path", {"d": d, **style}, body))

    def text(self, x: float, y: float, content: Any, **style: Any) -> None:
        self.add(self._element("text", {"x": num(x), "y": num(y), **style}, esc(content)))

    def open_group(self, **attrs: Any) -> None:
        self.add("<g" + self._attrs(attrs) + ">")

    def close_group(self) -> None:
        self.add("</g>")

    @staticmethod
    def _attrs(attrs: Mapping[str, Any]) -> str:
        return "".join(
            f" {key.rstrip('_').replace('_', '-')}={attr(value)}"
            for key, value in attrs.items()
            if value is not None
        )

    def _element(self, tag: str, attrs: Mapping[str, Any], body: str) -> str:
        if body:
            return f"<{tag}{self._attrs(attrs)}>{body}</{tag}>"
        return f"<{tag}{self._attrs(attrs)}/>"

    def finish(self) -> str:
        head = (
            f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {num(self.width)} {num(self.height)}"'
            f' class={attr(self.css_class)} role="img" font-family="system-ui, sans-serif">'
            f"<title>{esc(self.title)}</title>"
        )
        return head + "".join(self.parts) + "</svg>"


def card_box(
    svg: Svg,
    x: float,
    y: float,
    w: float,
    h: float,
    *,
    fill: str,
    label: str,
    title: str,
    outline: str | None = None,
    css_class: str | None = None,
    dashed: bool = False,
) -> None:
    """One card: a rounded rectangle with a short label, and a tooltip naming the card."""
    svg.open_group(class_=css_class)
    svg.rect(
        x,
        y,
        w,
        h,
        title=title,
        rx=num(min(w, h) * 0.15),
        fill=fill,
        stroke=outline or "#4a5361",
        stroke_width=num(2.2 if outline else 0.7),
        stroke_dasharray="3 2" if dashed else None,
    )
    size = min(h * 0.42, w * (1.5 / max(len(label), 1)) * 0.9)
    svg.text(
        x + w / 2,
        y + h / 2 + size * 0.35,
        label,
        font_size=num(size),
        text_anchor="middle",
        fill=text_on(fill),
        font_weight="700",
    )
    svg.close_group()


def wrap(message: str, width: int, max_lines: int) -> list[str]:
    words, lines, current = message.split(), [], ""
    for word in words:
        if current and len(current) + 1 + len(word) > width:
            lines.append(current)
            current = word
        else:
            current = f"{current} {word}".strip()
    if current:
        lines.append(current)
    if len(lines) > max_lines:
        lines = lines[:max_lines]
        lines[-1] = shorten(lines[-1] + " …", width)
    return [shorten(line, width + 2) for line in lines]


def banner(svg: Svg, lines: list[str], top: float) -> None:
    if not lines:
        return
    svg.open_group(class_="invalid-message")
    svg.rect(4, top, svg.width - 8, len(lines) * 16 + 6, fill="#fdecea", stroke=INVALID, rx="6")
    for index, line in enumerate(lines):
        svg.text(12, top + 15 + index * 16, line, font_size="12", fill=INVALID)
    svg.close_group()
