"""The games known to the rules package, imported lazily by name."""

from __future__ import annotations

import importlib
from typing import cast

from rules.core.engine import Engine

GAMES: dict[str, str] = {
    "tac": "rules.tac",
    "tactik": "rules.tactik",
    "tock": "rules.tock",
    "taki": "rules.taki",
    "zack": "rules.zack",
}

_loaded: dict[str, Engine] = {}


def available(name: str) -> bool:
    """True if `name` is a known game whose engine can be imported."""
    try:
        get_engine(name)
    except LookupError:
        return False
    return True


def get_engine(name: str) -> Engine:
    """The engine of a game; LookupError for an unknown game or one not built yet."""
    if name in _loaded:
        return _loaded[name]
    module_name = GAMES.get(name)
    if module_name is None:
        raise LookupError(f"Unknown game {name!r}.")
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as exc:
        if exc.name is not None and module_name.startswith(exc.name):
            raise LookupError(f"The {name} engine is not available.") from exc
        raise
    engine = getattr(module, "ENGINE", None)
    if engine is None:
        raise LookupError(f"The {name} engine is not available.")
    _loaded[name] = cast(Engine, engine)
    return _loaded[name]


def engine_versions() -> dict[str, str]:
    """Versions of every available engine (stored with verdicts in the app)."""
    return {name: get_engine(name).version for name in GAMES if available(name)}
