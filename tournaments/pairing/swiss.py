"""Swiss pairing for tables of 2 (blossom matching) and of 3 or N (grouping + local search)."""

from __future__ import annotations

from tournaments.pairing.values import PairingRequest, PairingResult


def swiss_pair(request: PairingRequest) -> PairingResult:
    """Pair one Swiss round of ``request.entrants`` at tables of ``request.table_size``."""
    raise NotImplementedError("swiss_pair: algorithm lands in the next commit (issue 3)")
