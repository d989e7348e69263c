"""Seat positions and the starting seat, balanced over the tournament.

Each table is an assignment problem: seating entrant e at position p costs how often e already sat
at p, and the cheapest assignment is taken (every permutation for tables up to 6, a blossom matching
over the complete bipartite entrants x seats graph above that). Because each extra sitting at the
same seat costs more than the last, the counts stay as even as the pairings allow. The starting seat
goes to the entrant at the table who started least often (ties: the one who has played most, then
the lower seat). For Tock the turn order A1 B1 A2 B2 is the game's own: the seat position is simply
the order of the entrants at the table.
"""

from __future__ import annotations

import dataclasses
import itertools
from collections.abc import Iterable, Sequence

import networkx as nx  # type: ignore[import-untyped]

from tournaments.pairing.values import PairedTable, PairingEntrant, PairingError, PairingRequest

BRUTE_FORCE_LIMIT = 6


def assign_seats(tables: Sequence[Sequence[int]], request: PairingRequest) -> tuple[PairedTable, ...]:
    """Seat order and starting seat balancing ``request.entrants``' seat_counts and start_count.

    ``tables`` are entrant ids per table, numbered 1, 2, ... in the given order.
    """
    by_id = {entrant.id: entrant for entrant in request.entrants}
    seated: list[PairedTable] = []
    for number, table in enumerate(tables, start=1):
        entrants: list[PairingEntrant] = []
        for entrant_id in table:
            if entrant_id not in by_id:
                raise PairingError(f"Table {number}: entrant {entrant_id} is not in this round.")
            entrants.append(by_id[entrant_id])
        if len({entrant.id for entrant in entrants}) != len(entrants):
            raise PairingError(f"Table {number} lists an entrant twice.")
        order = _seat_order(entrants)
        seated.append(
            PairedTable(number=number, entrant_ids=tuple(e.id for e in order), start_seat=_start_seat(order))
        )
    return tuple(seated)


def _count(entrant: PairingEntrant, position: int) -> int:
    return entrant.seat_counts[position] if position < len(entrant.seat_counts) else 0


def _seat_order(entrants: Sequence[PairingEntrant]) -> list[PairingEntrant]:
    if len(entrants) <= BRUTE_FORCE_LIMIT:
        best = list(entrants)
        best_cost = sum(_count(entrant, position) for position, entrant in enumerate(best))
        for order in itertools.permutations(entrants):
            cost = sum(_count(entrant, position) for position, entrant in enumerate(order))
            if cost < best_cost:
                best, best_cost = list(order), cost
        return best
    graph = nx.Graph()
    for index, entrant in enumerate(entrants):
        for position in range(len(entrants)):
            graph.add_edge(("entrant", index), ("seat", position), weight=_count(entrant, position))
    seating: list[PairingEntrant | None] = [None] * len(entrants)
    for first, second in nx.min_weight_matching(graph):
        entrant_node, seat_node = (first, second) if first[0] == "entrant" else (second, first)
        seating[seat_node[1]] = entrants[entrant_node[1]]
    return [entrant for entrant in seating if entrant is not None]


def _start_seat(order: Sequence[PairingEntrant]) -> int:
    if not order:
        return 0
    return min(
        range(len(order)),
        key=lambda seat: (order[seat].start_count, -sum(order[seat].seat_counts), seat),
    )


def seat_spread(entrants: Sequence[PairingEntrant], positions: int | None = None) -> int:
    """Largest (max - min) over the entrants of how often each sat at each seat position.

    ``positions``: how many seat positions to compare (default: the longest ``seat_counts``).
    0 means every entrant sat at every position equally often.
    """
    width = positions if positions is not None else max((len(e.seat_counts) for e in entrants), default=0)
    if width == 0:
        return 0
    return max(
        (max(_count(e, p) for p in range(width)) - min(_count(e, p) for p in range(width)) for e in entrants),
        default=0,
    )


def start_spread(entrants: Sequence[PairingEntrant]) -> int:
    """Most minus fewest starting seats held by any two entrants."""
    counts = [entrant.start_count for entrant in entrants]
    return max(counts) - min(counts) if counts else 0


def seats_recorded(
    entrants: Iterable[PairingEntrant], tables: Iterable[PairedTable]
) -> tuple[PairingEntrant, ...]:
    """The entrants with the seats and starts of ``tables`` added (for simulations and tests)."""
    updated = {entrant.id: entrant for entrant in entrants}
    for table in tables:
        for position, entrant_id in enumerate(table.entrant_ids):
            entrant = updated[entrant_id]
            counts = list(entrant.seat_counts) + [0] * max(0, position + 1 - len(entrant.seat_counts))
            counts[position] += 1
            updated[entrant_id] = dataclasses.replace(
                entrant,
                seat_counts=tuple(counts),
                start_count=entrant.start_count + (1 if position == table.start_seat else 0),
            )
    return tuple(updated.values())
