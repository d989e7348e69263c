"""Parsing the leaderboard's query parameters (shared by the pages, the API and the exports)."""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from typing import Any

from django.utils.translation import gettext as _

from tournaments.errors import ErrorCode, TournamentError
from tournaments.rankings.selectors import LeaderboardFilter

MAX_MIN_GAMES = 10000
#: Leaderboard rows per page (the pages; the API's default).
PAGE_SIZE = 50


def _date(params: Mapping[str, Any], name: str) -> dt.date | None:
    value = str(params.get(name) or "").strip()
    if not value:
        return None
    try:
        return dt.date.fromisoformat(value)
    except ValueError as exc:
        raise TournamentError(ErrorCode.INVALID_INPUT, _("“%(name)s” must be a date (YYYY-MM-DD).") % {"name": name},
                              field=name) from exc


def _int(params: Mapping[str, Any], name: str, default: int | None, low: int, high: int) -> int | None:
    value = str(params.get(name) or "").strip()
    if not value:
        return default
    if not value.isdigit() or not low <= int(value) <= high:
        raise TournamentError(
            ErrorCode.INVALID_INPUT,
            _("“%(name)s” must be a whole number from %(low)s to %(high)s.") % {"name": name, "low": low, "high": high},
            field=name,
        )
    return int(value)


def leaderboard_filter(params: Mapping[str, Any]) -> LeaderboardFilter:
    """club (id), from, to (dates), min_games; TournamentError(invalid_input) on bad values."""
    date_from, date_to = _date(params, "from"), _date(params, "to")
    if date_from and date_to and date_from > date_to:
        # each date is valid alone (the schema's bounds); together they are not: 422 (issue 30)
        raise TournamentError(ErrorCode.INVALID_INPUT, _("“from” must not be after “to”."), field="from",
                              http_status=422)
    return LeaderboardFilter(
        club_id=_int(params, "club", None, 1, 2**62),
        date_from=date_from,
        date_to=date_to,
        min_games=_int(params, "min_games", 1, 0, MAX_MIN_GAMES) or 0,
    )


def page_number(params: Mapping[str, Any]) -> int:
    return _int(params, "page", 1, 1, 100000) or 1


def page_size(params: Mapping[str, Any]) -> int:
    return _int(params, "page_size", PAGE_SIZE, 1, 200) or PAGE_SIZE
