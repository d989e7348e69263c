"""Server-rendered SVG chart of a rating history (no JavaScript): the conservative rating as a line,
mu +/- sigma as a band. Pure: numbers in, markup out; only numbers and escaped text reach the SVG."""

from __future__ import annotations

from collections.abc import Sequence

from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

from tournaments.rankings.selectors import HistoryPoint

WIDTH, HEIGHT, PAD_LEFT, PAD_RIGHT, PAD_Y = 640, 220, 44, 10, 16


def history_svg(points: Sequence[HistoryPoint], *, title: str, start: float | None = None) -> SafeString:
    """An SVG (viewBox, scales to the container) of the history; `start` is the value before the first
    game (plotted as point 0). An empty history gives an empty string."""
    if not points:
        return mark_safe("")
    lows = [p.mu - p.sigma for p in points] + [p.conservative for p in points]
    highs = [p.mu + p.sigma for p in points] + [p.conservative for p in points]
    if start is not None:
        lows.append(start)
        highs.append(start)
    low, high = min(lows), max(highs)
    if high - low < 1e-9:
        low, high = low - 1, high + 1
    count = len(points) + (1 if start is not None else 0)
    span_x = WIDTH - PAD_LEFT - PAD_RIGHT

    def x(i: int) -> float:
        return PAD_LEFT + (span_x * i / (count - 1) if count > 1 else span_x / 2)

    def y(value: float) -> float:
        return PAD_Y + (HEIGHT - 2 * PAD_Y) * (high - value) / (high - low)

    offset = 1 if start is not None else 0
    line = [(x(0), y(start))] if start is not None else []
    line += [(x(i + offset), y(p.conservative)) for i, p in enumerate(points)]
    upper = [(x(i + offset), y(p.mu + p.sigma)) for i, p in enumerate(points)]
    lower = [(x(i + offset), y(p.mu - p.sigma)) for i, p in enumerate(points)]
    band = " ".join(f"{a:.1f},{b:.1f}" for a, b in upper + lower[::-1])
    path = " ".join(f"{a:.1f},{b:.1f}" for a, b in line)
    ticks = []
    for value in (high, (high + low) / 2, low):
        ticks.append(
            f'<text x="{PAD_LEFT - 4}" y="{y(value) + 4:.1f}" text-anchor="end" font-size="11" '
            f'fill="#555">{value:.1f}</text>'
            f'<line x1="{PAD_LEFT}" x2="{WIDTH - PAD_RIGHT}" y1="{y(value):.1f}" y2="{y(value):.1f}" '
            f'stroke="#ddd" stroke-width="1"/>'
        )
    dots = "".join(
        f'<circle cx="{a:.1f}" cy="{b:.1f}" r="2.5" fill="#1f5fa8"><title>{escape(str(p.played_on))}: '
        f"{p.conservative:.2f}</title></circle>"
        for (a, b), p in zip(line[offset:], points, strict=True)
    ) if len(points) <= 200 else ""
    return mark_safe(  # noqa: S308 - numbers and escaped text only
        f'<svg class="rating-chart" viewBox="0 0 {WIDTH} {HEIGHT}" role="img" '
        f'aria-label="{escape(title)}" preserveAspectRatio="none" xmlns="http://www.w3.org/2000/svg">'
        f"<title>{escape(title)}</title>{''.join(ticks)}"
        f'<polygon points="{band}" fill="#1f5fa8" fill-opacity="0.12" stroke="none"/>'
        f'<polyline points="{path}" fill="none" stroke="#1f5fa8" stroke-width="2"/>{dots}</svg>'
    )
