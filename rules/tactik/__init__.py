"""Tac-Tik, as the French rule sheet plays it (4 or 6 players in teams of two), on the shared ring.

``ENGINE`` is what :mod:`rules.core.registry` loads.
"""

from __future__ import annotations

import random
from typing import Any

from rules.core.engine import Observer, ReplayOutcome
from rules.tactik.actions import Action
from rules.tactik.game import Variant, parse_variant
from rules.tactik.randomplay import random_record
from rules.tactik.replay import replay_record
from rules.tactik.state import State


class TacTikEngine:
    name = "tactik"
    version = "tactik-1"
    result_fields: frozenset[str] = frozenset()

    def replay(self, doc: dict[str, Any], *, observe: Observer | None = None) -> ReplayOutcome:
        return replay_record(doc, observe)

    def random_record(self, variant: dict[str, Any], rng: random.Random) -> dict[str, Any]:
        return random_record(variant, rng)


ENGINE = TacTikEngine()

__all__ = ["ENGINE", "Action", "State", "TacTikEngine", "Variant", "parse_variant"]
