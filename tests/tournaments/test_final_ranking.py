"""Final places (tournaments/standings/final_ranking.py): hand-worked examples, no database."""

from __future__ import annotations

from tournaments.pairing import PairingRequest, knockout_bracket
from tournaments.pairing.simulation import fake_entrants
from tournaments.standings.compute import StandingEntry
from tournaments.standings.final_ranking import (
    Placed,
    StagePlace,
    bracket_places,
    bracket_resolve,
    final_ranking,
    group_place_key,
)


def bracket(count, *, size=2, advance=1, third_place=True, placements=False):
    return knockout_bracket(
        PairingRequest(entrants=fake_entrants(count), table_size=size),
        advance=advance, third_place=third_place, placements=placements,
    )


def play(br, winner=min):
    """Results of the whole bracket, the lowest id (the best seed) always first."""
    results = {}
    for number in range(1, len(br.rounds) + 1):
        resolved = bracket_resolve(br, results)[number - 1]
        results[number] = {
            t.number: tuple(sorted(t.entrant_ids, key=lambda e: (e != winner(t.entrant_ids), e)))
            for t in resolved.tables if t.number is not None
        }
    return results


def ranks(rows):
    return {row.entrant_id: (row.rank, row.shared_rank, row.decided_by) for row in rows}


def stage_of(ids):
    return [StagePlace(e, i, (float(i),)) for i, e in enumerate(ids, start=1)]


def test_eight_team_knockout_with_third_place():
    # Seeds 1..8; in round 1: 1v8, 4v5, 2v7, 3v6. Upsets: 5 beats 4, 6 beats 3; semis 1v5 (5 wins)
    # and 2v6 (2 wins); final 5 beats 2; third place 1 beats 6.
    br = bracket(8)
    results = {
        1: {1: (1, 8), 2: (5, 4), 3: (2, 7), 4: (6, 3)},
        2: {1: (5, 1), 2: (2, 6)},
        3: {1: (5, 2), 2: (1, 6)},
    }
    places = bracket_places(br, results)
    rows = final_ranking(stage=stage_of(range(1, 9)), knockout=places)
    assert [r.entrant_id for r in rows][:4] == [5, 2, 1, 6]
    got = ranks(rows)
    assert got[5] == (1, False, "knockout") and got[2] == (2, False, "knockout")
    assert got[1] == (3, False, "knockout") and got[6] == (4, False, "knockout")
    # the quarter-final losers share 5-8
    assert {got[e] for e in (8, 4, 7, 3)} == {(5, True, "knockout")}


def test_shared_places_ordered_by_the_stage_before_when_asked():
    br = bracket(8)
    results = play(br)
    places = bracket_places(br, results)
    # stage order: 8 best, then 7, 6, 5 ... (a Swiss where the seeds were reversed in points)
    stage = [StagePlace(e, 9 - e, (float(9 - e),)) for e in range(1, 9)]
    rows = ranks(final_ranking(stage=stage, knockout=places, order_shared_by_standings=True))
    assert [rows[e] for e in (8, 7, 6, 5)] == [
        (5, False, "standings"), (6, False, "standings"), (7, False, "standings"), (8, False, "standings")
    ]
    assert rows[1] == (1, False, "knockout")


def test_semi_final_losers_share_third_without_a_third_place_match():
    br = bracket(4, third_place=False)
    places = bracket_places(br, {1: {1: (1, 4), 2: (3, 2)}, 2: {1: (3, 1)}})
    got = ranks(final_ranking(stage=stage_of([1, 2, 3, 4]), knockout=places))
    assert got == {3: (1, False, "knockout"), 1: (2, False, "knockout"),
                   2: (3, True, "knockout"), 4: (3, True, "knockout")}


def test_placement_matches_decide_every_place():
    br = bracket(8, placements=True)
    got = ranks(final_ranking(stage=stage_of(range(1, 9)), knockout=bracket_places(br, play(br))))
    assert [got[e][0] for e in range(1, 9)] == [1, 2, 3, 4, 5, 6, 7, 8]
    assert all(not got[e][1] for e in range(1, 9))
    assert [got[e][2] for e in range(1, 9)] == ["knockout"] * 4 + ["placement"] * 4


def test_while_playing_the_semi_finalists_share_1_to_4():
    br = bracket(8)
    places = bracket_places(br, {1: {1: (1, 8), 2: (4, 5), 3: (2, 7), 4: (3, 6)}})
    assert {(places[e].best, places[e].worst) for e in (1, 2, 3, 4)} == {(1, 4)}
    assert {(places[e].best, places[e].worst) for e in (5, 6, 7, 8)} == {(5, 8)}


def test_before_any_result_everybody_shares_the_whole_range():
    br = bracket(8, placements=True)
    places = bracket_places(br, {})
    assert {(p.best, p.worst) for p in places.values()} == {(1, 8)}


def test_n_player_knockout_table_places():
    # 8 TAKI players, tables of 4, top 2 advance: round 1 two tables, final table of 4 and (placements)
    # a table of the four who went out, for places 5-8.
    br = bracket(8, size=4, advance=2, placements=True)
    results = play(br)
    got = ranks(final_ranking(stage=stage_of(range(1, 9)), knockout=bracket_places(br, results)))
    final_table = results[2][1]
    consolation = results[2][2]
    assert [got[e][0] for e in final_table] == [1, 2, 3, 4]
    assert [got[e][0] for e in consolation] == [5, 6, 7, 8]
    assert {got[e][2] for e in consolation} == {"placement"}


def test_n_player_knockout_consolation_table_never_ranks_above_a_finalist():
    # the TAKI case: the consolation table (the "third-place" table of N-player brackets)
    # plays for 5-8, below the four finalists, and says so
    br = bracket(8, size=4, advance=2)
    results = play(br)
    got = ranks(final_ranking(stage=stage_of(range(1, 9)), knockout=bracket_places(br, results)))
    assert [got[e][0] for e in results[2][1]] == [1, 2, 3, 4]
    assert [got[e] for e in results[2][2]] == [
        (5, False, "placement"), (6, False, "placement"), (7, False, "placement"), (8, False, "placement")
    ]


def test_n_player_knockout_without_consolation_shares_the_places_of_each_round():
    br = bracket(8, size=4, advance=2, third_place=False)
    results = play(br)
    got = ranks(final_ranking(stage=stage_of(range(1, 9)), knockout=bracket_places(br, results)))
    assert [got[e][0] for e in results[2][1]] == [1, 2, 3, 4]
    # third at a round-1 table: 5-6 shared; fourth: 7-8 shared; no consolation winner above a finalist
    thirds = [order[2] for order in results[1].values()]
    fourths = [order[3] for order in results[1].values()]
    assert {got[e] for e in thirds} == {(5, True, "knockout")}
    assert {got[e] for e in fourths} == {(7, True, "knockout")}


def test_entrants_out_before_the_knockout_rank_below_in_stage_order():
    stage = stage_of([10, 11, 12, 13, 14, 15])  # 10..13 qualified
    knockout = {10: Placed(10, 1, 1, "knockout"), 12: Placed(12, 2, 2, "knockout"),
                11: Placed(11, 3, 4, "knockout"), 13: Placed(13, 3, 4, "knockout")}
    rows = final_ranking(stage=stage, knockout=knockout)
    assert [(r.entrant_id, r.rank, r.shared_rank, r.decided_by) for r in rows] == [
        (10, 1, False, "knockout"), (12, 2, False, "knockout"), (11, 3, True, "knockout"),
        (13, 3, True, "knockout"), (14, 5, False, "standings"), (15, 6, False, "standings"),
    ]


def test_group_places_are_shared_across_groups_unless_ordered():
    # two groups of three; places in the group 1, 2, 3; order keys from the cross-group rule
    stage = [StagePlace(1, 1, (1, -2.0)), StagePlace(2, 2, (2, -1.0)), StagePlace(3, 3, (3, -0.5)),
             StagePlace(4, 1, (1, -1.5)), StagePlace(5, 2, (2, -1.5)), StagePlace(6, 3, (3, -0.5))]
    got = ranks(final_ranking(stage=stage))
    assert got[1] == got[4] == (1, True, "standings")
    assert got[2] == got[5] == (3, True, "standings")
    ordered = ranks(final_ranking(stage=stage, order_shared_by_standings=True))
    assert [ordered[e][0] for e in (1, 4, 5, 2)] == [1, 2, 3, 4]
    assert ordered[3] == ordered[6] == (5, True, "standings")  # equal keys stay shared


def test_group_place_key_is_points_per_game_then_tiebreaks():
    many = StandingEntry(1, 2, False, 4, {"match_points": 4.0, "buchholz": 9.0})
    few = StandingEntry(2, 2, False, 2, {"match_points": 3.0, "buchholz": 1.0})
    order = ["match_points", "buchholz"]
    assert group_place_key(few, 2, order) < group_place_key(many, 2, order)  # 1.5 per game beats 1.0
    assert group_place_key(many, 1, order) < group_place_key(few, 2, order)  # the group place first


def test_dropped_entrant_ranks_below_everyone_who_played_on():
    # Swiss order 1..5; entrant 2 dropped after round 3, everybody else played 5 rounds.
    last = {1: 5, 2: 3, 3: 5, 4: 5, 5: 5}
    rows = final_ranking(stage=stage_of([1, 2, 3, 4, 5]), dropped={2}, last_round=last)
    assert [(r.entrant_id, r.rank) for r in rows] == [(1, 1), (3, 2), (4, 3), (5, 4), (2, 5)]
    kept = final_ranking(stage=stage_of([1, 2, 3, 4, 5]), dropped={2}, last_round=last, dropped_rank_last=False)
    assert [r.entrant_id for r in kept] == [1, 2, 3, 4, 5]


def test_two_dropped_entrants_keep_the_later_dropper_above():
    # 1 dropped after round 2, 2 after round 4 (of 5): 2 played on longer than 1.
    last = {1: 2, 2: 4, 3: 5, 4: 5}
    rows = final_ranking(stage=stage_of([1, 2, 3, 4]), dropped={1, 2}, last_round=last)
    assert [r.entrant_id for r in rows] == [3, 4, 2, 1]
    assert [r.rank for r in rows] == [1, 2, 3, 4]


def test_dropped_entrant_never_shares_a_place_with_one_who_played_on():
    stage = [StagePlace(1, 1, (1.0,)), StagePlace(2, 1, (1.0,)), StagePlace(3, 3, (3.0,))]
    rows = final_ranking(stage=stage, dropped={1}, last_round={1: 2, 2: 3, 3: 3})
    assert [(r.entrant_id, r.rank, r.shared_rank) for r in rows] == [(2, 1, False), (3, 2, False), (1, 3, False)]


def test_dropped_knockout_entrant_stays_level_with_those_out_in_the_same_round():
    knockout = {1: Placed(1, 1, 1, "knockout"), 2: Placed(2, 2, 2, "knockout"),
                3: Placed(3, 3, 4, "knockout"), 4: Placed(4, 3, 4, "knockout")}
    last = {1: 2, 2: 2, 3: 1, 4: 1}
    rows = final_ranking(stage=stage_of([1, 2, 3, 4]), knockout=knockout, dropped={4}, last_round=last)
    assert ranks(rows)[4] == (3, True, "knockout")




def test_random_fields_keep_the_ranking_rules():
    """Seeded random fields: ranks are competition ranks, no dropped entrant is above or level with
    one who played a later round, and the others keep their order."""
    import random

    rng = random.Random(13)
    for _ in range(200):
        n = rng.randint(2, 30)
        stage = [StagePlace(e, rng.randint(1, n), ()) for e in range(1, n + 1)]
        stage = [StagePlace(p.entrant_id, p.place, (float(p.place),)) for p in stage]
        last = {e: rng.randint(1, 5) for e in range(1, n + 1)}
        dropped = {e for e in range(1, n + 1) if rng.random() < 0.3}
        rows = final_ranking(stage=stage, dropped=dropped, last_round=last,
                             order_shared_by_standings=rng.random() < 0.5)
        rank = {r.entrant_id: r.rank for r in rows}
        assert sorted(rank) == list(range(1, n + 1))
        for r in rows:
            assert r.rank == 1 + sum(1 for other in rows if other.rank < r.rank)
            assert r.shared_rank == (sum(1 for other in rows if other.rank == r.rank) > 1)
        for d in dropped:
            assert all(rank[o] < rank[d] for o in rank if last[o] > last[d])
        kept = [r.entrant_id for r in rows if r.entrant_id not in dropped]
        place = {p.entrant_id: p.place for p in stage}
        assert [place[e] for e in kept] == sorted(place[e] for e in kept)


def test_best_of_groups_fills_the_knockout_with_the_best_next_placed():
    from tournaments.standings.final_ranking import best_of_groups

    a = [(1, (1.0, -2.0)), (2, (2.0, -1.0)), (3, (3.0, -0.5))]
    b = [(4, (1.0, -2.0)), (5, (2.0, -1.5)), (6, (3.0, -0.5))]
    c = [(7, (1.0, -2.0)), (8, (2.0, -1.5)), (9, (3.0, -0.4))]
    assert best_of_groups([a, b, c], 6) == [1, 4, 7, 2, 5, 8]  # a multiple: no cross-group choice
    assert best_of_groups([a, b, c], 4) == [1, 4, 7, 5]  # the best runner-up: 5 (tie with 8: earlier group)
    assert best_of_groups([a, b, c], 8) == [1, 4, 7, 2, 5, 8, 3, 6]
    import pytest

    with pytest.raises(ValueError, match="Group 1 has 3 entrants; 4"):
        best_of_groups([a, b, c], 10)


def test_every_bracket_shape_ends_in_a_complete_ranking():
    """Fields of 2 to 20 at tables of 2, 3 and 4, with and without third place and placements: once
    played out (best seed first), every entrant has a place, the ranks are competition ranks, the
    best seed is first and no entrant ranks above one that beat it at its last table."""
    import pytest

    from tournaments.pairing import PairingError

    for size, advance in ((2, 1), (3, 1), (4, 2), (4, 1)):
        for count in range(2, 21):
            for third_place in (True, False):
                for placements in (True, False):
                    try:
                        br = bracket(count, size=size, advance=advance, third_place=third_place,
                                     placements=placements)
                    except PairingError:
                        continue
                    results = play(br)
                    rows = final_ranking(stage=stage_of(range(1, count + 1)), knockout=bracket_places(br, results))
                    rank = {r.entrant_id: r.rank for r in rows}
                    assert sorted(rank) == list(range(1, count + 1)), (size, count)
                    assert rank[1] == 1
                    for r in rows:
                        assert r.rank == 1 + sum(1 for o in rows if o.rank < r.rank), (size, count)
                    # seeds always win, so a better seed never ranks below a worse one; but with 2 or
                    # more advancing, byes for the top seeds put the pairs that come through the
                    # played first-round tables at one later table, whose lower finishing places
                    # then rank them among other seeds (17 at tables of 4, 2 advancing: seeds 15
                    # and 16 come through the one played table and are 3rd and 4th at one round-2
                    # table): there the finalists alone are in seed order, above everybody
                    ordered = [r.entrant_id for r in rows]
                    assert all(rank[a] <= rank[b] for a, b in zip(ordered, ordered[1:], strict=False))
                    in_order = size if advance > 1 and br.first_round.byes else count
                    assert [rank[e] for e in range(1, in_order + 1)] == sorted(rank.values())[:in_order], (
                        size, count
                    )
    with pytest.raises(PairingError):
        bracket(4, size=3, advance=2)
