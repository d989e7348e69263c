"""The Tac-Tik package: registry entry, doctests, and no Django below rules/."""

from __future__ import annotations

import doctest
import subprocess
import sys
from pathlib import Path

import pytest

import rules.tactik.cards
import rules.tactik.game
from rules.core.registry import get_engine
from rules.tactik import ENGINE

ROOT = Path(__file__).resolve().parents[3]


def test_registry_loads_the_engine() -> None:
    engine = get_engine("tactik")
    assert engine is ENGINE
    assert (engine.name, engine.version, engine.result_fields) == ("tactik", "tactik-1", frozenset())


@pytest.mark.parametrize("module", [rules.tactik.cards, rules.tactik.game])
def test_doctests(module: object) -> None:
    failed, tried = doctest.testmod(module)  # type: ignore[arg-type]
    assert tried > 0 and failed == 0


def test_no_django_import() -> None:
    code = (
        "import sys, random; import rules.tactik as t; "
        "t.ENGINE.random_record({}, random.Random(0)); "
        "assert not any(m == 'django' or m.startswith('django.') for m in sys.modules), 'django imported'"
    )
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
