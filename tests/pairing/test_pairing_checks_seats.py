"""check_round warnings for manual edits, and balanced seats."""

from __future__ import annotations

import subprocess
import sys
from collections import Counter

import pytest

from tournaments.pairing import (
    PairingEntrant,
    PairingError,
    PairingRequest,
    assign_seats,
    check_round,
    seat_spread,
    swiss_pair,
)
from tournaments.pairing.seats import seats_recorded, start_spread
from tournaments.pairing.simulation import fake_entrants


def codes(warnings):
    return sorted(w.code for w in warnings)


def request_of(count, **kwargs):
    return PairingRequest(entrants=fake_entrants(count), table_size=kwargs.pop("table_size", 2), **kwargs)


def test_clean_round_has_no_warnings():
    assert check_round([[1, 2], [3, 4]], request_of(4)) == ()


def test_each_problem_is_named():
    request = request_of(
        6,
        met_pairs=frozenset({frozenset((1, 2))}),
        forbidden_pairs=frozenset({frozenset((3, 5))}),
    )
    warnings = check_round([[1, 2], [3, 5, 3], [99]], request)
    assert codes(warnings) == [
        "entrant_missing",  # 4
        "entrant_missing",  # 6
        "entrant_twice",  # 3
        "forbidden_pair",
        "over_capacity",
        "rematch",
        "under_capacity",  # the table of one
        "unknown_entrant",  # 99
    ]
    rematch = next(w for w in warnings if w.code == "rematch")
    assert rematch.table == 1 and set(rematch.entrant_ids) == {1, 2}


def test_byes_count_as_placed_and_second_bye_is_flagged():
    entrants = (PairingEntrant(id=1, byes=1), PairingEntrant(id=2), PairingEntrant(id=3))
    request = PairingRequest(entrants=entrants, table_size=2)
    assert codes(check_round([[2, 3]], request, byes=[1])) == ["second_bye"]
    assert check_round([[1, 3]], request, byes=[2]) == ()


def test_same_club_flagged_only_when_avoided():
    entrants = (PairingEntrant(id=1, club="Basel"), PairingEntrant(id=2, club="basel "))
    assert check_round([[1, 2]], PairingRequest(entrants=entrants, table_size=2)) == ()
    avoided = PairingRequest(entrants=entrants, table_size=2, avoid_same_club=True)
    assert codes(check_round([[1, 2]], avoided)) == ["same_club"]


def test_smaller_tables_allowed_by_min_table_size():
    request = request_of(7, table_size=4, min_table_size=3)
    assert check_round([[1, 2, 3, 4], [5, 6, 7]], request) == ()
    assert codes(check_round([[1, 2, 3, 4, 5], [6, 7]], request)) == ["over_capacity", "under_capacity"]


def test_seats_follow_the_counts():
    entrants = (
        PairingEntrant(id=1, seat_counts=(2, 0, 0)),
        PairingEntrant(id=2, seat_counts=(0, 2, 0)),
        PairingEntrant(id=3, seat_counts=(0, 0, 2)),
    )
    (table,) = assign_seats([[1, 2, 3]], PairingRequest(entrants=entrants, table_size=3))
    assert table.entrant_ids[0] != 1 and table.entrant_ids[1] != 2 and table.entrant_ids[2] != 3


def test_starting_seat_goes_to_who_started_least():
    entrants = (PairingEntrant(id=1, start_count=2), PairingEntrant(id=2, start_count=0))
    (table,) = assign_seats([[1, 2]], PairingRequest(entrants=entrants, table_size=2))
    assert table.entrant_ids[table.start_seat] == 2


def test_large_tables_use_the_matching():
    entrants = tuple(
        PairingEntrant(id=i, seat_counts=tuple(1 if p == i - 1 else 0 for p in range(10)))
        for i in range(1, 11)
    )
    (table,) = assign_seats([list(range(1, 11))], PairingRequest(entrants=entrants, table_size=10))
    assert sorted(table.entrant_ids) == list(range(1, 11))
    assert all(entrant_id != position + 1 for position, entrant_id in enumerate(table.entrant_ids))


def test_seats_balance_over_a_tournament_of_fours():
    entrants = fake_entrants(16)
    for round_number in range(1, 9):
        # the same four tables every round: only the seat assignment can balance the counts
        tables = [[1, 2, 3, 4], [5, 6, 7, 8], [9, 10, 11, 12], [13, 14, 15, 16]]
        seated = assign_seats(
            tables, PairingRequest(entrants=entrants, table_size=4, round_number=round_number)
        )
        entrants = seats_recorded(entrants, seated)
    assert seat_spread(entrants, positions=4) == 0
    assert start_spread(entrants) == 0
    assert Counter(e.start_count for e in entrants) == Counter({2: 16})


def test_unknown_entrant_at_assign_seats_is_an_error():
    with pytest.raises(PairingError):
        assign_seats([[1, 42]], request_of(2))
    with pytest.raises(PairingError):
        assign_seats([[1, 1]], request_of(2))


def test_swiss_results_pass_their_own_check():
    request = request_of(11, table_size=3, min_table_size=2)
    result = swiss_pair(request)
    assert check_round([t.entrant_ids for t in result.tables], request, byes=result.byes) == ()


def test_pairing_and_scheduling_import_no_django():
    code = (
        "import sys, tournaments.pairing, tournaments.scheduling, tournaments.pairing.simulation;"
        "bad = [m for m in sys.modules if m == 'django' or m.startswith('django.')];"
        "print(','.join(bad)); sys.exit(1 if bad else 0)"
    )
    completed = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert completed.returncode == 0, completed.stdout + completed.stderr
