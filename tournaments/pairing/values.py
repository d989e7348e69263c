"""The plain values that go into and come out of the pairing engine.

Frozen dataclasses only: the tournament services build them from database rows and save what comes
back. Entrant ids are ints (the Entrant primary keys). Nothing here imports Django.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class PairingError(ValueError):
    """Bad input to the pairing engine (a human-readable message; the caller turns it into a 4xx)."""


class WarningCode(StrEnum):
    """Stable codes of :class:`PairingWarning`."""

    REMATCH = "rematch"
    ENTRANT_TWICE = "entrant_twice"
    ENTRANT_MISSING = "entrant_missing"
    OVER_CAPACITY = "over_capacity"
    UNDER_CAPACITY = "under_capacity"
    UNKNOWN_ENTRANT = "unknown_entrant"
    FORBIDDEN_PAIR = "forbidden_pair"
    SAME_CLUB = "same_club"
    SECOND_BYE = "second_bye"


@dataclass(frozen=True)
class PairingEntrant:
    id: int
    score: float = 0.0  # match points so far
    rank: int = 0  # current standings position, 1 = best (0 = unranked)
    rating: float | None = None
    seed: int | None = None  # organiser's seed, 1 = strongest
    club: str = ""
    byes: int = 0  # byes received so far
    seat_counts: tuple[int, ...] = ()  # how often it sat at seat position i (0-based) so far
    start_count: int = 0  # how often it held the starting seat so far


@dataclass(frozen=True)
class PairingRequest:
    entrants: tuple[PairingEntrant, ...]  # the active (not dropped) entrants
    table_size: int  # entrants per table: 2, 3 or N
    min_table_size: int | None = None  # smallest table allowed instead of a bye (None: byes only)
    round_number: int = 1
    met_pairs: frozenset[frozenset[int]] = frozenset()  # every pair that has shared a table
    forbidden_pairs: frozenset[frozenset[int]] = frozenset()  # organiser: keep apart if possible
    avoid_same_club: bool = False
    first_round: str = "seed"  # "seed" | "rating" | "random"
    random_seed: int = 0


@dataclass(frozen=True)
class PairedTable:
    number: int  # 1-based
    entrant_ids: tuple[int, ...]  # in seat order: entrant_ids[0] sits at seat position 0
    start_seat: int = 0  # index into entrant_ids of the entrant that starts


@dataclass(frozen=True)
class PairingWarning:
    code: str  # a WarningCode value
    message: str
    entrant_ids: tuple[int, ...] = ()
    table: int | None = None


@dataclass(frozen=True)
class PairingResult:
    tables: tuple[PairedTable, ...]
    byes: tuple[int, ...]
    warnings: tuple[PairingWarning, ...] = ()
    rematches: int = 0  # pairs at the same table that had met before
    # Added fields (defaults keep the contract):
    score_spread: float = 0.0  # sum over tables of (highest - lowest score at the table)
    max_meetings: int = 0  # round robin only: most meetings of any pair over all rounds (0 elsewhere)
    min_meetings: int = 0  # round robin only: fewest meetings of any pair over all rounds
    # Round robin only: True when every pair meets floor(T/P) or ceil(T/P) times, False when an exact
    # search proved that no such schedule exists for these rounds (the spread shown is then the
    # narrowest possible), None when the search gave up without proof.
    even_possible: bool | None = None


# --- knockout ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class BracketSource:
    """Where one entrant of a later-round bracket table comes from."""

    position: int  # 1-based position of the feeder table in the previous round
    place: int  # finishing place at that feeder table (1 = winner)


@dataclass(frozen=True)
class BracketTable:
    position: int  # 1-based position in its round, top to bottom of the bracket
    number: int | None  # table number when played; None when it is a bye (everyone advances)
    size: int  # how many entrants will sit there
    entrant_ids: tuple[int, ...] = ()  # known in round 1; later rounds: see knockout_next_round
    seeds: tuple[int, ...] = ()  # round 1: the seeds of entrant_ids
    sources: tuple[BracketSource, ...] = ()  # later rounds: where the entrants come from
    kind: str = "main"  # "main" | "third_place" | "placement"
    best_place: int = 1  # the best place the entrants of this table still play for


@dataclass(frozen=True)
class BracketRound:
    number: int  # 1-based
    name: str  # "Final", "Semi-final", "Quarter-final", "Round of 16", "Round 1" ...
    tables: tuple[BracketTable, ...]


@dataclass(frozen=True)
class Bracket:
    table_size: int
    advance: int  # entrants advancing from each table (1 for tables of 2)
    third_place: bool
    seeding: tuple[int, ...]  # entrant ids in seed order (index 0 = seed 1)
    rounds: tuple[BracketRound, ...]
    first_round: PairingResult  # round 1 as a pairing (played tables and byes)
    placements: bool = False  # non-advancing entrants play on for their places
