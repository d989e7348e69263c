"""The scoresheet package: doctests hold, the modules import nothing from Django or the apps."""

from __future__ import annotations

import ast
import doctest
import importlib
from pathlib import Path

import pytest

import rules

MODULES = ["rules.scoresheet", "rules.track.options", "rules.cards.hidden", "rules.tac.options"]
ROOT = Path(rules.__file__).resolve().parent


@pytest.mark.parametrize("name", MODULES)
def test_doctests(name: str) -> None:
    result = doctest.testmod(importlib.import_module(name))
    assert result.failed == 0


def test_no_django_below_rules_scoresheet() -> None:
    files = [*(ROOT / "scoresheet").glob("*.py"), ROOT / "cards" / "hidden.py", ROOT / "tac" / "options.py"]
    for path in files:
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else (
                [node.module or ""] if isinstance(node, ast.ImportFrom) else [])
            for name in names:
                assert not name.startswith(("django", "tournaments", "games")), (path, name)
