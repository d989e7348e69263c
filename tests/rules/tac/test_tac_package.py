"""The TAC package: registered under its name, doctests hold, engine metadata."""

from __future__ import annotations

import doctest
import importlib

import pytest

from rules.core.registry import get_engine

MODULES = ["rules.tac.cards", "rules.tac.game", "rules.tac.actions", "rules.tac.state", "rules.tac.replay"]


@pytest.mark.parametrize("name", MODULES)
def test_tac_doctests(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name))
    assert result.failed == 0


def test_tac_engine_registered() -> None:
    engine = get_engine("tac")
    assert engine.name == "tac"
    assert engine.version.startswith("tac-")
    assert engine.result_fields == frozenset({"cards_used"})
