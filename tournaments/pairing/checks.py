"""Warnings for a manually edited round: the organiser may save it anyway, but sees what is off."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from tournaments.pairing.costs import PairCosts
from tournaments.pairing.ordering import validate_request
from tournaments.pairing.values import PairingRequest, PairingWarning, WarningCode


def check_round(
    tables: Sequence[Sequence[int]], request: PairingRequest, *, byes: Sequence[int] = ()
) -> tuple[PairingWarning, ...]:
    """Rematch, entrant twice, entrant missing (neither at a table nor bye), over/under capacity,
    unknown entrant, forbidden or same-club pair, and a second bye while another has none.

    ``tables``: entrant ids per table, numbered 1, 2, ... ``byes``: the entrants given a bye.
    An empty tuple means the round is clean.
    """
    by_id = validate_request(request)
    costs = PairCosts(request)
    warnings: list[PairingWarning] = []
    smallest = request.min_table_size if request.min_table_size is not None else request.table_size

    seen = Counter(entrant_id for table in tables for entrant_id in table)
    seen.update(byes)
    for entrant_id, times in sorted(seen.items()):
        if entrant_id not in by_id:
            warnings.append(
                PairingWarning(
                    WarningCode.UNKNOWN_ENTRANT.value,
                    f"Entrant {entrant_id} is not an active entrant of this round.",
                    (entrant_id,),
                )
            )
        if times > 1:
            warnings.append(
                PairingWarning(
                    WarningCode.ENTRANT_TWICE.value,
                    f"Entrant {entrant_id} is placed {times} times.",
                    (entrant_id,),
                )
            )
    for entrant in request.entrants:
        if entrant.id not in seen:
            warnings.append(
                PairingWarning(
                    WarningCode.ENTRANT_MISSING.value,
                    f"Entrant {entrant.id} is neither at a table nor given a bye.",
                    (entrant.id,),
                )
            )

    for number, table in enumerate(tables, start=1):
        if len(table) > request.table_size:
            warnings.append(
                PairingWarning(
                    WarningCode.OVER_CAPACITY.value,
                    f"Table {number} seats {len(table)} entrants; at most {request.table_size} fit.",
                    tuple(table),
                    number,
                )
            )
        elif len(table) < smallest:
            warnings.append(
                PairingWarning(
                    WarningCode.UNDER_CAPACITY.value,
                    f"Table {number} seats {len(table)} entrants; it needs at least {smallest}.",
                    tuple(table),
                    number,
                )
            )
        known = [entrant_id for entrant_id in dict.fromkeys(table) if entrant_id in by_id]
        for index, first in enumerate(known):
            for second in known[index + 1 :]:
                if costs.is_rematch(first, second):
                    warnings.append(
                        PairingWarning(
                            WarningCode.REMATCH.value,
                            f"Entrants {first} and {second} have met before (table {number}).",
                            (first, second),
                            number,
                        )
                    )
                if frozenset((first, second)) in request.forbidden_pairs:
                    warnings.append(
                        PairingWarning(
                            WarningCode.FORBIDDEN_PAIR.value,
                            f"Entrants {first} and {second} are to be kept apart (table {number}).",
                            (first, second),
                            number,
                        )
                    )
                elif costs.is_conflict(first, second):
                    warnings.append(
                        PairingWarning(
                            WarningCode.SAME_CLUB.value,
                            f"Entrants {first} and {second} are from the same club (table {number}).",
                            (first, second),
                            number,
                        )
                    )

    bye_set = {entrant_id for entrant_id in byes if entrant_id in by_id}
    playing_byes = [
        by_id[entrant_id].byes for entrant_id in seen if entrant_id in by_id and entrant_id not in bye_set
    ]
    fewest_playing = min(playing_byes, default=None)
    for entrant_id in sorted(bye_set):
        if fewest_playing is not None and by_id[entrant_id].byes > fewest_playing:
            warnings.append(
                PairingWarning(
                    WarningCode.SECOND_BYE.value,
                    f"Entrant {entrant_id} gets another bye while an entrant who plays has had fewer.",
                    (entrant_id,),
                )
            )
    return tuple(warnings)
