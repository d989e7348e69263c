"""The ZACK! engine that rules.core drives: replay a record, or play a random one."""

from __future__ import annotations

import random
from typing import Any

from rules.core.engine import Observer, ReplayOutcome
from rules.zack.randomplay import random_record
from rules.zack.replay import replay_document


class ZackEngine:
    name = "zack"
    version = "zack-1"
    result_fields: frozenset[str] = frozenset()

    def replay(self, doc: dict[str, Any], *, observe: Observer | None = None) -> ReplayOutcome:
        return replay_document(doc, observe)[1]

    def random_record(self, variant: dict[str, Any], rng: random.Random) -> dict[str, Any]:
        return random_record(variant, rng)
