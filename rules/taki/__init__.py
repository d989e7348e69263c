"""TAKI: the 116-card shedding game with TAKI runs, and its eight-phase tournament (spec section 7)."""

from __future__ import annotations

import random
from typing import Any

from rules.core.engine import Observer, ReplayOutcome
from rules.taki.randomplay import random_record
from rules.taki.replay import replay


class TakiEngine:
    name = "taki"
    version = "taki-1"
    result_fields: frozenset[str] = frozenset({"phases"})

    def replay(self, doc: dict[str, Any], *, observe: Observer | None = None) -> ReplayOutcome:
        return replay(doc, observe)

    def random_record(self, variant: dict[str, Any], rng: random.Random) -> dict[str, Any]:
        return random_record(variant, rng)


ENGINE = TakiEngine()

__all__ = ["ENGINE", "TakiEngine"]
