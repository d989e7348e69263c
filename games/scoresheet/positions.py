"""The engine's position of each open sheet in the cache every worker process shares (issue 26).

`rules.scoresheet` replays a sheet's entries once per process and keeps the result; a room's entries
reach whichever worker is free, so without a shared copy about two entries in three replayed the whole
game. After each write the position after the new entries is put in the cache (`rules.scoresheet.position`:
bytes named by the rules' code and the entries' digest); before the engine works on a sheet that this
process does not hold, the position is taken from there. A missing or unusable position (a cold cache,
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


def take_up(state: Mapping[str, Any]) -> bool:
    """Make the position of `state` this process's own if another process left it in the cache; True if
    the engine needs no replay (held already, or restored)."""
    position = _position()
    key = position.position_key(state)
    if key is None:
        return False
    if position.position_cached(state):
        return True
    return bool(position.position_restore(state, _store().get(key)))


def leave(state: Mapping[str, Any]) -> None:
    """Put the position of `state` (held by this process after the engine's work) into the shared cache."""
    position = _position()
    key = position.position_key(state)
    if key is None:
        return
    try:
        blob = position.position_dump(state)
    except ValueError:  # not a scoresheet state (e.g. a stand-in engine's)
        return
    _store().set(key, blob, POSITION_SECONDS)
