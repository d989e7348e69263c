"""What a game package exports as ``ENGINE``."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Protocol


@dataclass(frozen=True)
class ReplayOutcome:
    """How a replay ended: whether the game is over, and the derived result if it is."""

    finished: bool
    result: dict[str, Any] | None


Observer = Callable[[str, str, Any], None]
"""``observe(path, kind, state)``: called by a replay after the setup (``""``, ``"start"``), after each
deal is dealt and exchanged (``/deals/<i>``, ``"deal"``) and after each top-level action
(``/deals/<i>/turns/<j>`` or ``/deals/<i>/events/<j>``, ``"action"``). ``state`` is the live engine
state: read it at once, never keep or change it (see docs/replay-trace.md)."""


class Engine(Protocol):
    name: str
    version: str
    result_fields: frozenset[str]

    def replay(self, doc: dict[str, Any], *, observe: Observer | None = None) -> ReplayOutcome:
        """Replay a whole record whose envelope core has checked; raise RecordError at the first error.

        ``observe`` (optional) sees every step; without it the replay is unchanged."""
        ...

    def random_record(self, variant: dict[str, Any], rng: random.Random) -> dict[str, Any]:
        """One complete game with random legal choices, as a record that replays valid and complete."""
        ...
