"""What a game package exports as ``ENGINE``."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, Protocol


@dataclass(frozen=True)
class ReplayOutcome:
    """How a replay ended: whether the game is over, and the derived result if it is."""

    finished: bool
    result: dict[str, Any] | None


class Engine(Protocol):
    name: str
    version: str
    result_fields: frozenset[str]

    def replay(self, doc: dict[str, Any]) -> ReplayOutcome:
        """Replay a whole record whose envelope core has checked; raise RecordError at the first error."""
        ...

    def random_record(self, variant: dict[str, Any], rng: random.Random) -> dict[str, Any]:
        """One complete game with random legal choices, as a record that replays valid and complete."""
        ...
