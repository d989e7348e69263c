"""The WSGI entry point freezes the loaded app's objects out of the garbage collector (issue 26: the
collector walked them on every full collection, ~3 ms per scoresheet entry) and lets its youngest
generation take GC_GEN0_THRESHOLD objects between collections, as the Celery workers do, unless
WSGI_GC_FREEZE=0."""

from __future__ import annotations

import gc
import importlib
import sys

import pytest

from config.celery import GC_GEN0_THRESHOLD


def _load_wsgi() -> tuple[int, int]:
    """The objects frozen and the youngest generation's threshold once the entry point is loaded."""
    gc.unfreeze()
    threshold = gc.get_threshold()
    gc.set_threshold(700, *threshold[1:])  # CPython's default
    sys.modules.pop("config.wsgi", None)
    try:
        importlib.import_module("config.wsgi")
        return gc.get_freeze_count(), gc.get_threshold()[0]
    finally:
        gc.unfreeze()
        gc.set_threshold(*threshold)
        sys.modules.pop("config.wsgi", None)


def test_the_loaded_app_is_frozen(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("WSGI_GC_FREEZE", raising=False)
    frozen, youngest = _load_wsgi()
    assert frozen > 10_000  # Django, the URL conf's views, the engine
    assert youngest == GC_GEN0_THRESHOLD
    assert "rules.scoresheet" in sys.modules


def test_the_freeze_can_be_turned_off(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("WSGI_GC_FREEZE", "0")
    assert _load_wsgi() == (0, 700)
