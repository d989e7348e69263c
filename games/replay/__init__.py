"""Replay rendering: a trace snapshot (see docs/replay-trace.md) -> a standalone SVG string.

Pure Python (no Django, no ORM): the web views call it per step, the tests with hand-made snapshots.

`highlight` marks an action on the board: `{"action": <raw record action>, "invalid": bool,
"message": str}`. For a normal step it is that step's action (drawn in ink); for the failing action of
an invalid record it is `Trace.failed_action` with `invalid: True` and the verdict's message (drawn in
red, with the message under the board). `seat_names` labels the seats (default "Seat 1"...);
`labels` overrides the few English words drawn in the SVG (the views pass translated ones).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from games.replay import marbles, taki, zack
from games.replay.canvas import DEFAULT_LABELS

RENDERERS = {"marbles": marbles.render, "taki": taki.render, "zack": zack.render}


class UnknownSnapshot(ValueError):
    """The snapshot has no kind this package can draw."""


def render_svg(
    snapshot: Mapping[str, Any],
    *,
    highlight: Mapping[str, Any] | None = None,
    seat_names: Sequence[str] | None = None,
    labels: Mapping[str, str] | None = None,
) -> str:
    """The SVG of one position; raises UnknownSnapshot for a snapshot of an unknown kind."""
    if not isinstance(snapshot, Mapping):
        raise UnknownSnapshot("A snapshot is a JSON object.")
    renderer = RENDERERS.get(str(snapshot.get("kind")))
    if renderer is None:
        raise UnknownSnapshot(f"No renderer for snapshot kind {snapshot.get('kind')!r}.")
    return renderer(snapshot, highlight=highlight, seat_names=seat_names, labels=labels)


__all__ = ["DEFAULT_LABELS", "RENDERERS", "UnknownSnapshot", "render_svg"]
