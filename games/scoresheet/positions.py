"""The engine's position of each open sheet in the cache every worker process shares (issue 26).

`rules.scoresheet` replays a sheet's entries once per process and keeps the result; a room's entries
reach whichever worker is free, so without a shared copy about two entries in three replayed the whole
game. After each write the position after the new entries is put in the cache under the sheet's id
and the rules' code (`rules.scoresheet.position`: bytes checked against the state's digest and entry
count); before the engine works on a sheet that this process does not hold, the position is taken from
there. A missing or unusable position (a cold cache,
Redis down, other code) only costs the replay it saves: the engine replays and the answer is the same.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import Any

from django.conf import settings
from django.core.cache import caches

logger = logging.getLogger(__name__)

POSITION_SECONDS = 6 * 3600  # a game is played in an hour or two; a sheet left longer is replayed once


def _store() -> Any:
    return caches[getattr(settings, "SCORESHEET_POSITION_CACHE", "default")]


def _position() -> Any:
    from rules.scoresheet import position

    return position


def _key(sheet_id: int) -> str:
    return f"scoresheet:position:{_position().code()}:{sheet_id}"


def take_up(sheet_id: int, state: Mapping[str, Any]) -> bool:
    """Make the position of `state` this process's own if another process left it in the cache; True if
    the engine needs no replay (held already, or restored). A position of another state of the sheet (an
    older one, after an undo on another process) is refused by `position_restore`."""
    position = _position()
    if not isinstance(state.get("digest"), str) or position.position_cached(state):
        return position.position_cached(state)
    return bool(position.position_restore(state, _store().get(_key(sheet_id))))


def leave(sheet_id: int, state: Mapping[str, Any]) -> None:
    """Put the position of `state` (held by this process after the engine's work) into the shared cache,
    in place of the sheet's previous one: one position per sheet, a few kilobytes to a few tens."""
    position = _position()
    if not isinstance(state.get("digest"), str):
        return  # not a scoresheet state (e.g. a stand-in engine's)
    try:
        blob = position.position_dump(state)
    except ValueError:
        return
    _store().set(_key(sheet_id), blob, POSITION_SECONDS)
