"""Round robin schedules: Berger tables for 2 per table, even meetings for 3 or N per table."""

from __future__ import annotations

from tournaments.pairing.values import PairingRequest, PairingResult


def round_robin_rounds(request: PairingRequest, *, double: bool = False) -> tuple[PairingResult, ...]:
    """All rounds of a (double) round robin of ``request.entrants`` at tables of ``request.table_size``."""
    raise NotImplementedError("round_robin_rounds: algorithm lands in the next commit (issue 3)")
