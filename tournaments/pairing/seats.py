"""Seat positions and the starting seat, balanced over the tournament."""

from __future__ import annotations

from collections.abc import Sequence

from tournaments.pairing.values import PairedTable, PairingEntrant, PairingRequest


def assign_seats(tables: Sequence[Sequence[int]], request: PairingRequest) -> tuple[PairedTable, ...]:
    """Seat order and starting seat balancing ``request.entrants``' seat_counts and start_count."""
    raise NotImplementedError("assign_seats: lands in the next commit (issue 3)")


def seat_spread(entrants: Sequence[PairingEntrant]) -> int:
    """Largest (max - min) over the entrants of how often each sat at each seat position."""
    raise NotImplementedError("seat_spread: lands in the next commit (issue 3)")
