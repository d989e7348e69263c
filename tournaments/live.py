"""Live pages (issue 30): the tournament, standings, round and bracket pages refresh themselves while the
tournament runs, and the hall display (`/t/<slug>/hall/`) cycles pairings, standings and the bracket.

The refresh is a conditional GET of the page itself every `LIVE_REFRESH_SECONDS` (static/js/live.js):
the page's ETag (tournaments/page_cache.py, keyed on the tournament's versions) answers 304 before
anything is rendered while nothing changed, so a wall of projectors costs one cache read each per poll.
A 200 replaces the page's `<main>`; the polling stops when the answer no longer carries `data-live`
(the tournament is finished) and pauses while the tab is hidden. Without JavaScript the pages are as
before (reload by hand). No query: liveness is read from the tournament row the view loaded.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings

from tournaments.models import Tournament


def live_seconds(tournament: Any) -> int | None:
    """Seconds between refreshes while the tournament runs (a round may be open); None once it is over
    or before it started (nothing changes by itself then)."""
    if getattr(tournament, "status", None) != Tournament.Status.RUNNING:
        return None
    return max(1, int(getattr(settings, "LIVE_REFRESH_SECONDS", 20)))


def hall_seconds() -> int:
    """Seconds each panel of the hall display stays on screen."""
    return max(2, int(getattr(settings, "HALL_PANEL_SECONDS", 15)))
