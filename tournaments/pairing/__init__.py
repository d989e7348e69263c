"""Pairing engine: Swiss, round robin and knockout for tables of 2, 3 or N entrants.

Pure Python on the plain dataclasses of :mod:`tournaments.pairing.values`; the tournament services
load rows, call these functions and save the outcome. No Django import here.

Public API (the contract in the pairing brief; fields and functions may be added, never removed):

* :func:`swiss_pair` -- one Swiss round.
* :func:`round_robin_rounds` -- all rounds of a (double) round robin.
* :func:`knockout_bracket`, :func:`knockout_next_round` -- single elimination, top K per table,
  third place and optional placement tables; :func:`knockout_places` -- the final places.
* :func:`stage_knockout` -- the knockout stage after groups or Swiss, from the standings order.
* :func:`group_knockout_seeding` -- the seeding after groups with teams of one group kept apart.
* :func:`check_round` -- warnings for a manually edited round.
* :func:`assign_seats` -- seat order and starting seat, balanced over the tournament.

Errors in the input raise :class:`PairingError` (a ``ValueError``) with a human message.
"""

from tournaments.pairing.checks import check_round
from tournaments.pairing.knockout import (
    bracket_shape,
    group_knockout_seeding,
    knockout_bracket,
    knockout_next_round,
    knockout_places,
    stage_knockout,
)
from tournaments.pairing.round_robin import round_robin_rounds
from tournaments.pairing.seats import assign_seats, seat_spread
from tournaments.pairing.swiss import swiss_pair
from tournaments.pairing.values import (
    Bracket,
    BracketRound,
    BracketSource,
    BracketTable,
    PairedTable,
    PairingEntrant,
    PairingError,
    PairingRequest,
    PairingResult,
    PairingWarning,
    WarningCode,
)

__all__ = [
    "bracket_shape",
    "Bracket",
    "BracketRound",
    "BracketSource",
    "BracketTable",
    "PairedTable",
    "PairingEntrant",
    "PairingError",
    "PairingRequest",
    "PairingResult",
    "PairingWarning",
    "WarningCode",
    "assign_seats",
    "check_round",
    "group_knockout_seeding",
    "knockout_bracket",
    "knockout_next_round",
    "knockout_places",
    "round_robin_rounds",
    "seat_spread",
    "stage_knockout",
    "swiss_pair",
]
