"""Warnings for a manually edited round."""

from __future__ import annotations

from collections.abc import Sequence

from tournaments.pairing.values import PairingRequest, PairingWarning


def check_round(tables: Sequence[Sequence[int]], request: PairingRequest) -> tuple[PairingWarning, ...]:
    """Rematch, entrant twice, entrant missing (neither at a table nor bye), over capacity, ..."""
    raise NotImplementedError("check_round: lands in the next commit (issue 3)")
