"""Property tests over thousands of random tournaments (hypothesis).

Invariants: every active entrant sits at exactly one table or has the bye; no table is over capacity
(nor under the smallest allowed); nobody gets a second bye while an entrant who plays has fewer;
knockout brackets are consistent (every entrant once in round 1, every later table full, a winner).
"""

from __future__ import annotations

import itertools
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tournaments.pairing import (
    PairingEntrant,
    PairingRequest,
    knockout_bracket,
    knockout_next_round,
    knockout_places,
    round_robin_rounds,
    swiss_pair,
)
from tournaments.pairing.ordering import is_first_round
from tournaments.pairing.simulation import greedy_baseline, play_round

FAST = settings(max_examples=800, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@st.composite
def swiss_requests(draw):
    count = draw(st.integers(min_value=0, max_value=40))
    table_size = draw(st.integers(min_value=2, max_value=6))
    min_table_size = draw(st.one_of(st.none(), st.integers(min_value=2, max_value=table_size)))
    ids = draw(
        st.lists(st.integers(min_value=1, max_value=10_000), min_size=count, max_size=count, unique=True)
    )
    entrants = tuple(
        PairingEntrant(
            id=entrant_id,
            score=float(draw(st.integers(min_value=0, max_value=6))),
            byes=draw(st.integers(min_value=0, max_value=2)),
            club=draw(st.sampled_from(["", "A", "B"])),
            seed=draw(st.one_of(st.none(), st.integers(min_value=1, max_value=100))),
            seat_counts=tuple(draw(st.lists(st.integers(min_value=0, max_value=3), max_size=table_size))),
        )
        for entrant_id in ids
    )
    pairs = list(itertools.combinations(ids, 2))
    met = draw(st.lists(st.sampled_from(pairs), max_size=30)) if pairs else []
    return PairingRequest(
        entrants=entrants,
        table_size=table_size,
        min_table_size=min_table_size,
        round_number=draw(st.integers(min_value=1, max_value=9)),
        met_pairs=frozenset(frozenset(pair) for pair in met),
        avoid_same_club=draw(st.booleans()),
        first_round=draw(st.sampled_from(["seed", "rating", "random"])),
        random_seed=draw(st.integers(min_value=0, max_value=5)),
    )


def assert_valid_round(request, result):
    placed = [e for table in result.tables for e in table.entrant_ids] + list(result.byes)
    assert sorted(placed) == sorted(e.id for e in request.entrants)  # everyone exactly once
    smallest = request.min_table_size or request.table_size
    for table in result.tables:
        assert smallest <= len(table.entrant_ids) <= request.table_size
        assert 0 <= table.start_seat < len(table.entrant_ids)
    assert [t.number for t in result.tables] == list(range(1, len(result.tables) + 1))
    byes_of = {e.id: e.byes for e in request.entrants}
    bye_set = set(result.byes)
    playing = [byes_of[e] for e in byes_of if e not in bye_set]
    if playing:
        assert all(byes_of[e] <= min(playing) for e in bye_set)  # no second bye while another has fewer
    rematches = sum(
        frozenset(pair) in request.met_pairs
        for table in result.tables
        for pair in itertools.combinations(table.entrant_ids, 2)
    )
    assert rematches == result.rematches


@FAST
@given(swiss_requests())
def test_swiss_round_invariants(request):
    result = swiss_pair(request)
    assert_valid_round(request, result)
    if not is_first_round(request):  # never more rematched pairs than the greedy grouping
        assert result.rematches <= greedy_baseline(request, result)[0]


@settings(max_examples=100, deadline=None)
@given(
    count=st.integers(min_value=2, max_value=30),
    table_size=st.integers(min_value=2, max_value=5),
    seed=st.integers(min_value=0, max_value=1000),
)
def test_whole_swiss_tournaments_spread_byes(count, table_size, seed):
    rng = random.Random(seed)
    entrants = tuple(PairingEntrant(id=i, seed=i) for i in range(1, count + 1))
    met: set[frozenset[int]] = set()
    for round_number in range(1, 6):
        request = PairingRequest(
            entrants=entrants, table_size=table_size, round_number=round_number, met_pairs=frozenset(met)
        )
        result = swiss_pair(request)
        assert_valid_round(request, result)
        entrants = play_round(entrants, result, rng)
        byes = [e.byes for e in entrants]
        assert max(byes) - min(byes) <= 1
        for table in result.tables:
            met.update(frozenset(pair) for pair in itertools.combinations(table.entrant_ids, 2))


@settings(max_examples=40, deadline=None)
@given(count=st.integers(min_value=2, max_value=24), double=st.booleans())
def test_round_robin_of_two_every_pair_equally(count, double):
    request = PairingRequest(entrants=tuple(PairingEntrant(id=i) for i in range(1, count + 1)), table_size=2)
    results = round_robin_rounds(request, double=double)
    seen: dict[frozenset[int], int] = {}
    for result in results:
        # in a double round robin the second cycle meets again by design, and says so
        assert result.rematches == sum(frozenset(t.entrant_ids) in seen for t in result.tables)
        placed = [e for t in result.tables for e in t.entrant_ids] + list(result.byes)
        assert sorted(placed) == list(range(1, count + 1))
        for table in result.tables:
            key = frozenset(table.entrant_ids)
            seen[key] = seen.get(key, 0) + 1
    assert len(seen) == count * (count - 1) // 2
    assert set(seen.values()) == {2 if double else 1}


@settings(max_examples=1000, deadline=None)
@given(
    count=st.integers(min_value=2, max_value=70),
    shape=st.sampled_from([(2, 1), (3, 1), (4, 1), (4, 2), (6, 2), (6, 3), (6, 1), (8, 4)]),
    third_place=st.booleans(),
    placements=st.booleans(),
    seed=st.integers(min_value=0, max_value=1000),
)
def test_knockout_brackets_are_consistent(count, shape, third_place, placements, seed):
    table_size, advance = shape
    rng = random.Random(seed)
    request = PairingRequest(
        entrants=tuple(PairingEntrant(id=i, seed=i) for i in range(1, count + 1)), table_size=table_size
    )
    bracket = knockout_bracket(request, advance=advance, third_place=third_place, placements=placements)
    first = bracket.first_round
    placed = [e for t in first.tables for e in t.entrant_ids] + list(first.byes)
    assert sorted(placed) == list(range(1, count + 1))
    for table in first.tables:
        assert len(table.entrant_ids) <= table_size
        assert len(table.entrant_ids) > advance or len(bracket.rounds) == 1
    alive = set(range(1, count + 1))
    results = {}
    result = first
    for round_number in range(1, len(bracket.rounds) + 1):
        spec = {t.number: t for t in bracket.rounds[round_number - 1].tables if t.number is not None}
        assert sorted(spec) == [t.number for t in result.tables]
        finished = {}
        for table in result.tables:
            assert len(table.entrant_ids) == spec[table.number].size
            order = list(table.entrant_ids)
            rng.shuffle(order)
            finished[table.number] = order
            if spec[table.number].kind == "main":
                alive -= set(order[advance:])
        results[round_number] = finished
        if round_number == len(bracket.rounds):
            break
        result = knockout_next_round(bracket, finished, round_number=round_number)
        next_spec = {t.number: t for t in bracket.rounds[round_number].tables}
        main = [t for t in result.tables if next_spec[t.number].kind == "main"]
        for table in result.tables:  # every table after round 1 is full
            assert len(table.entrant_ids) == table_size or next_spec[table.number].kind != "main"
            assert 2 <= len(table.entrant_ids) <= table_size
        assert sorted(e for t in main for e in t.entrant_ids) == sorted(alive)
    final = bracket.rounds[-1].tables
    assert [t.kind for t in final if t.best_place == 1] == ["main"]
    places = knockout_places(bracket, results)
    assert sorted(places) == list(range(1, count + 1))  # everyone placed when it is over
    assert min(best for best, _ in places.values()) == 1
    assert max(worst for _, worst in places.values()) == count
    for best, worst in places.values():  # a shared range holds exactly as many entrants as it spans
        assert sum(1 for other in places.values() if other == (best, worst)) == worst - best + 1
