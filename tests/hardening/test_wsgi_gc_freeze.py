"""The WSGI entry point freezes the loaded app's objects out of the garbage collector (issue 26: the
collector walked them on every full collection, ~3 ms per scoresheet entry), unless WSGI_GC_FREEZE=0."""

from __future__ import annotations

import gc
import importlib
import sys

import pytest


def _load_wsgi() -> int:
    gc.unfreeze()
    sys.modules.pop("config.wsgi", None)
    try:
        importlib.import_module("config.wsgi")
        return gc.get_freeze_count()
    finally:
        gc.unfreeze()
        sys.modules.pop("config.wsgi", None)


def test_the_loaded_app_is_frozen(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("WSGI_GC_FREEZE", raising=False)
    assert _load_wsgi() > 10_000  # Django, the URL conf's views, the engine
    assert "rules.scoresheet" in sys.modules


def test_the_freeze_can_be_turned_off(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("WSGI_GC_FREEZE", "0")
    assert _load_wsgi() == 0
