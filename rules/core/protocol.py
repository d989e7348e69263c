"""The Game/State protocol every engine's position implements (after OpenSpiel and python-chess)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol, Self


class State(Protocol):
    def legal_actions(self) -> Sequence[Any]:
        """Every action the player to act may take now."""
        ...

    def apply(self, action: Any) -> None:
        """Check and perform an action; raise RecordError if it is not legal."""
        ...

    def is_terminal(self) -> bool: ...

    def outcome(self) -> dict[str, Any] | None:
        """The derived result once the game is over, else None."""
        ...

    def clone(self) -> Self: ...
