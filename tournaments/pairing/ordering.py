"""Shared steps of every format: checking the request, the standings order, table sizes and byes."""

from __future__ import annotations

import math
import random
from collections.abc import Iterable, Sequence

from tournaments.pairing.values import PairingEntrant, PairingError, PairingRequest

FIRST_ROUND_ORDERS = ("seed", "rating", "random")


def validate_request(request: PairingRequest) -> dict[int, PairingEntrant]:
    """Check the request and return the entrants by id; raise PairingError on bad input."""
    if not isinstance(request.table_size, int) or request.table_size < 2:
        raise PairingError(f"Tables must seat at least 2 entrants (table size {request.table_size!r}).")
    minimum = request.min_table_size
    if minimum is not None and not (2 <= minimum <= request.table_size):
        raise PairingError(
            f"The smallest table ({minimum}) must be between 2 and the table size ({request.table_size})."
        )
    if request.first_round not in FIRST_ROUND_ORDERS:
        raise PairingError(
            f"Unknown first-round order {request.first_round!r}; use one of {', '.join(FIRST_ROUND_ORDERS)}."
        )
    by_id: dict[int, PairingEntrant] = {}
    for entrant in request.entrants:
        if entrant.id in by_id:
            raise PairingError(f"Entrant {entrant.id} is listed twice.")
        if entrant.byes < 0 or entrant.start_count < 0 or any(count < 0 for count in entrant.seat_counts):
            raise PairingError(f"Entrant {entrant.id} has a negative bye, seat or start count.")
        if not math.isfinite(entrant.score):
            raise PairingError(f"Entrant {entrant.id} has a score that is not a number.")
        by_id[entrant.id] = entrant
    for pairs, what in ((request.met_pairs, "met"), (request.forbidden_pairs, "forbidden")):
        for pair in pairs:
            if len(pair) != 2:
                raise PairingError(
                    f"A {what} pair must hold exactly two different entrants, not {sorted(pair)}."
                )
    return by_id


def standings_key(entrant: PairingEntrant) -> tuple[float, float, float, float, int]:
    """Best first: score, then standings rank (0 = unranked, last), rating, seed, id."""
    return (
        -entrant.score,
        entrant.rank if entrant.rank > 0 else math.inf,
        -entrant.rating if entrant.rating is not None else math.inf,
        entrant.seed if entrant.seed is not None else math.inf,
        entrant.id,
    )


def seed_key(entrant: PairingEntrant) -> tuple[float, float, int]:
    """Best first by the organiser's seed, then rating, then id."""
    return (
        entrant.seed if entrant.seed is not None else math.inf,
        -entrant.rating if entrant.rating is not None else math.inf,
        entrant.id,
    )


def rating_key(entrant: PairingEntrant) -> tuple[float, float, int]:
    """Best first by rating, then seed, then id."""
    return (
        -entrant.rating if entrant.rating is not None else math.inf,
        entrant.seed if entrant.seed is not None else math.inf,
        entrant.id,
    )


def standings_order(entrants: Iterable[PairingEntrant]) -> list[PairingEntrant]:
    return sorted(entrants, key=standings_key)


def first_round_order(request: PairingRequest) -> list[PairingEntrant]:
    """The order of round 1: by seed, by rating, or shuffled with the request's fixed random seed."""
    if request.first_round == "rating":
        return sorted(request.entrants, key=rating_key)
    if request.first_round == "random":
        shuffled = sorted(request.entrants, key=lambda entrant: entrant.id)
        random.Random(request.random_seed).shuffle(shuffled)
        return shuffled
    return sorted(request.entrants, key=seed_key)


def is_first_round(request: PairingRequest) -> bool:
    """Round 1 (or nothing played yet): no scores, no meetings."""
    if request.round_number <= 1:
        return True
    return not request.met_pairs and all(entrant.score == 0 for entrant in request.entrants)


def table_sizes(count: int, table_size: int, min_table_size: int | None) -> tuple[list[int], int]:
    """Table sizes (largest first) and the number of byes for ``count`` entrants.

    Full tables where possible; the remainder sits out (byes) unless ``min_table_size`` lets it play at
    smaller tables, in which case the tables are made as even as possible (e.g. 10 entrants, tables of
    4, smallest 3: 4 + 3 + 3). The fewest byes win; among those, the fewest tables.
    """
    if count <= 0:
        return [], 0
    smallest = min_table_size if min_table_size is not None else table_size
    for byes in range(count + 1):
        playing = count - byes
        if playing == 0:
            return [], count
        tables = math.ceil(playing / table_size)
        if tables * smallest <= playing:
            base, extra = divmod(playing, tables)
            return [base + 1] * extra + [base] * (tables - extra), byes
    return [], count  # unreachable: byes == count returns above


def bye_candidates(ordered: Sequence[PairingEntrant]) -> list[PairingEntrant]:
    """Who gets a bye first: fewest byes so far, then the lowest-ranked (``ordered`` is best first)."""
    positions = {entrant.id: index for index, entrant in enumerate(ordered)}
    return sorted(ordered, key=lambda entrant: (entrant.byes, -positions[entrant.id]))


def pair_key(first: int, second: int) -> frozenset[int]:
    return frozenset((first, second))
