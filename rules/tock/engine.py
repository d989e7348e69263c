"""The Tock engine as the registry sees it."""

from __future__ import annotations

import random
from typing import Any

from rules.core.engine import Observer, ReplayOutcome
from rules.tock.randomplay import random_record
from rules.tock.replay import replay


class TockEngine:
    name = "tock"
    version = "tock-2"
    result_fields: frozenset[str] = frozenset()

    def replay(self, doc: dict[str, Any], *, observe: Observer | None = None) -> ReplayOutcome:
        return replay(doc, observe)

    def random_record(self, variant: dict[str, Any], rng: random.Random) -> dict[str, Any]:
        return random_record(variant, rng)
