"""Single elimination with standard seeding; tables of N entrants with the top K advancing."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from tournaments.pairing.values import Bracket, PairingRequest, PairingResult


def knockout_bracket(request: PairingRequest, *, advance: int = 1, third_place: bool = True) -> Bracket:
    """The whole bracket; round 1 tables from the seeds (1 v 16, 8 v 9, ...), byes to the top seeds."""
    raise NotImplementedError("knockout_bracket: algorithm lands in the next commit (issue 3)")


def knockout_next_round(
    bracket: Bracket, finished: Mapping[int, Sequence[int]], *, round_number: int | None = None
) -> PairingResult:
    """The next round from the finished one.

    ``finished``: table number of the previous knockout round -> entrant ids in finishing order
    (winner first). ``round_number``: the number of the finished round (1-based); pass it -- it is
    inferred from the table numbers only when that is unambiguous.
    """
    raise NotImplementedError("knockout_next_round: algorithm lands in the next commit (issue 3)")


def stage_knockout(
    standings: Sequence[Sequence[int]],
    *,
    qualifiers: int,
    table_size: int = 2,
    advance: int = 1,
    third_place: bool = True,
) -> Bracket:
    """Knockout of the top ``qualifiers`` of each standings list (one list for Swiss, one per group)."""
    raise NotImplementedError("stage_knockout: algorithm lands in the next commit (issue 3)")
