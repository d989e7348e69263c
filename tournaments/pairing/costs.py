"""What a pairing costs, in the order of the issue: rematch >> score difference >> same club or
forbidden pair >> seat balance.

Two forms of the same order: a lexicographic tuple for the local search of tables of 3 or N, and an
integer edge weight for the blossom matching of tables of 2 (weights far enough apart that a whole
round of the lesser cost never outweighs one unit of the greater).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from tournaments.pairing.values import PairingEntrant, PairingRequest

REMATCH_WEIGHT = 10**15
SCORE_WEIGHT = 10**6  # per 1/100 of a squared point of score difference
CONFLICT_WEIGHT = 10**3  # same club (when avoided) or a pair the organiser keeps apart
SEAT_WEIGHT = 1


@dataclass(frozen=True)
class TableCost:
    """Lexicographic cost of one table (or a sum of tables): compare with ``<``."""

    rematches: int = 0
    score: float = 0.0  # sum over pairs of squared score difference
    conflicts: int = 0  # same-club (when avoided) and forbidden pairs

    def __add__(self, other: TableCost) -> TableCost:
        return TableCost(
            self.rematches + other.rematches, self.score + other.score, self.conflicts + other.conflicts
        )

    def __sub__(self, other: TableCost) -> TableCost:
        return TableCost(
            self.rematches - other.rematches, self.score - other.score, self.conflicts - other.conflicts
        )

    def key(self) -> tuple[int, float, int]:
        return (self.rematches, round(self.score, 9), self.conflicts)

    def __lt__(self, other: TableCost) -> bool:
        return self.key() < other.key()


@dataclass
class PairCosts:
    """The per-pair facts of one request, looked up fast."""

    request: PairingRequest
    scores: dict[int, float] = field(init=False)
    clubs: dict[int, str] = field(init=False)
    seat_preference: dict[int, int] = field(init=False)

    def __post_init__(self) -> None:
        self.scores = {entrant.id: entrant.score for entrant in self.request.entrants}
        self.clubs = {entrant.id: entrant.club.strip().casefold() for entrant in self.request.entrants}
        self.seat_preference = {entrant.id: _seat_preference(entrant) for entrant in self.request.entrants}

    def is_rematch(self, first: int, second: int) -> bool:
        return frozenset((first, second)) in self.request.met_pairs

    def is_conflict(self, first: int, second: int) -> bool:
        if frozenset((first, second)) in self.request.forbidden_pairs:
            return True
        if self.request.avoid_same_club:
            club = self.clubs.get(first, "")
            return bool(club) and club == self.clubs.get(second, "")
        return False

    def table(self, entrant_ids: Sequence[int]) -> TableCost:
        rematches = 0
        score = 0.0
        conflicts = 0
        for index, first in enumerate(entrant_ids):
            for second in entrant_ids[index + 1 :]:
                if self.is_rematch(first, second):
                    rematches += 1
                difference = self.scores[first] - self.scores[second]
                score += difference * difference
                if self.is_conflict(first, second):
                    conflicts += 1
        return TableCost(rematches, score, conflicts)

    def edge_weight(self, first: int, second: int) -> int:
        """Integer cost of seating ``first`` and ``second`` at one table of 2 (for the matching)."""
        difference = self.scores[first] - self.scores[second]
        weight = SCORE_WEIGHT * round(difference * difference * 100)
        if self.is_rematch(first, second):
            weight += REMATCH_WEIGHT
        if self.is_conflict(first, second):
            weight += CONFLICT_WEIGHT
        weight += SEAT_WEIGHT * self.seat_clash(first, second)
        return weight

    def seat_clash(self, first: int, second: int) -> int:
        """0 when both can get the seat they are owed, more when both lean to the same seat."""
        left, right = self.seat_preference[first], self.seat_preference[second]
        if left == 0 or right == 0 or (left > 0) != (right > 0):
            return 0
        return 2 if min(abs(left), abs(right)) >= 2 else 1


def _seat_preference(entrant: PairingEntrant) -> int:
    """Tables of 2: > 0 when the entrant sat more often at seat 0 (so is owed seat 1), < 0 the other way."""
    counts = entrant.seat_counts
    first = counts[0] if counts else 0
    second = counts[1] if len(counts) > 1 else 0
    return first - second
