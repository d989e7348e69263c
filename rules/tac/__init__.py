"""TAC (basic and master edition, every variant): record verification and random play.

``ENGINE`` is what :mod:`rules.core.registry` loads for the game name ``tac``.
"""

from __future__ import annotations

import random
from typing import Any

from rules.core.engine import Observer, ReplayOutcome
from rules.tac.randomplay import random_game
from rules.tac.replay import replay_record
from rules.tac.state import TacState


class TacEngine:
    name = "tac"
    version = "tac-3"
    result_fields = frozenset({"cards_used"})

    def replay(self, doc: dict[str, Any], *, observe: Observer | None = None) -> ReplayOutcome:
        return replay_record(doc, observe)

    def random_record(self, variant: dict[str, Any], rng: random.Random) -> dict[str, Any]:
        return random_game(variant, rng)


ENGINE = TacEngine()

__all__ = ["ENGINE", "TacEngine", "TacState"]
