"""Swiss rules that only show on particular fields: the bye that would force a rematch, the second-bye
warning, and fields of more than one block (over 48 entrants) whose blocks cannot be paired alone."""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterator
from typing import Any

import pytest

from tournaments.pairing import PairingEntrant, PairingRequest, swiss, swiss_pair
from tournaments.pairing.costs import PairCosts
from tournaments.pairing.ordering import bye_candidates, standings_order, table_sizes
from tournaments.pairing.swiss import fewest_rematch_tables, finish_round, match_pairs, rematch_free_tables
from tournaments.pairing.values import PairingResult, PairingWarning


def pairs(*pairs: tuple[int, int]) -> frozenset[frozenset[int]]:
    return frozenset(frozenset(pair) for pair in pairs)


# Six entrants played three rounds, then entrant 6 withdrew; nobody has had a bye yet.
#   r1: 1-2 3-4 5-6   r2: 1-3 2-5 4-6   r3: 1-4 2-6 3-5
FIVE_MET = pairs((1, 2), (3, 4), (1, 3), (2, 5), (1, 4), (3, 5))
FIVE = tuple(PairingEntrant(id=i, score=float(6 - i), rank=i) for i in range(1, 6))


def test_a_due_bye_that_forces_a_rematch_passes_to_the_next_candidate() -> None:
    # The bye is due to 5 (lowest ranked), but then 1, who has met 2, 3 and 4, must meet one of them
    # again. With the bye on 4 instead: 1-5 and 2-3, no rematch.
    result = swiss_pair(PairingRequest(entrants=FIVE, table_size=2, round_number=4, met_pairs=FIVE_MET))
    assert result.byes == (4,)
    assert sorted(sorted(table.entrant_ids) for table in result.tables) == [[1, 5], [2, 3]]
    assert result.rematches == 0
    assert result.warnings == ()


def test_the_due_bye_stands_when_every_candidate_forces_a_rematch_alike() -> None:
    # Everybody has met everybody: every bye leaves two rematches, so the due bye (5) stands.
    everyone = pairs(*((a, b) for a in range(1, 6) for b in range(a + 1, 6)))
    result = swiss_pair(PairingRequest(entrants=FIVE, table_size=2, round_number=5, met_pairs=everyone))
    assert result.byes == (5,)
    assert result.rematches == 2


def test_warnings_name_the_entrants_and_the_table() -> None:
    entrants = tuple(PairingEntrant(id=i, club="Kugelblitz" if i in (3, 4) else "") for i in range(1, 7))
    request = PairingRequest(entrants=entrants, table_size=2, round_number=2, met_pairs=pairs((1, 2)),
                             forbidden_pairs=pairs((5, 6)), avoid_same_club=True)
    result = finish_round([[1, 2], [3, 4], [5, 6]], [], request, PairCosts(request))
    assert result.warnings == (
        PairingWarning("rematch", "Entrants 1 and 2 meet again at table 1: no pairing without it.", (1, 2), 1),
        PairingWarning("same_club", "Entrants 3 and 4 (same club) meet at table 2.", (3, 4), 2),
        PairingWarning("forbidden_pair", "Entrants 5 and 6 (kept apart) meet at table 3.", (5, 6), 3),
    )
    assert result.rematches == 1


def second_byes(result) -> list[PairingWarning]:
    return [w for w in result.warnings if w.code == "second_bye"]


def test_three_entrants_get_a_bye_each_then_the_fourth_round_warns_of_a_second_bye() -> None:
    byes = {1: 0, 2: 0, 3: 0}
    met: set[frozenset[int]] = set()
    holders = []
    for number in range(1, 5):
        entrants = tuple(PairingEntrant(id=i, rank=i, byes=byes[i]) for i in (1, 2, 3))
        result = swiss_pair(PairingRequest(entrants=entrants, table_size=2, round_number=number,
                                           met_pairs=frozenset(met)))
        (holder,) = result.byes
        holders.append(holder)
        if number < 4:
            assert second_byes(result) == [], number
        else:
            assert second_byes(result) == [
                PairingWarning("second_bye", f"Entrant {holder} gets another bye: every entrant has had one.",
                               (holder,)),
            ]
        byes[holder] += 1
        met |= {frozenset(t.entrant_ids) for t in result.tables}
    assert sorted(holders[:3]) == [1, 2, 3]


def test_an_odd_field_after_drops_warns_only_when_everyone_left_has_had_a_bye() -> None:
    # 5 entrants, byes in rounds 1 and 2 to 5 and 4; 1 and 2 drop: 3 has had none and takes the bye
    left = (PairingEntrant(id=3, rank=1), PairingEntrant(id=4, rank=2, byes=1), PairingEntrant(id=5, rank=3, byes=1))
    result = swiss_pair(PairingRequest(entrants=left, table_size=2, round_number=3))
    assert result.byes == (3,) and second_byes(result) == []
    # ... had 3 dropped instead, 4 and 5 and a new odd one out who has had a bye: warned
    left = (PairingEntrant(id=1, rank=1, byes=1), *left[1:])
    result = swiss_pair(PairingRequest(entrants=left, table_size=2, round_number=3))
    assert [w.entrant_ids for w in second_byes(result)] == [result.byes]


def test_tables_of_four_warn_of_a_second_bye_only_when_everyone_has_had_one() -> None:
    def pair(byes_of_first: int) -> Any:
        entrants = tuple(PairingEntrant(id=i, rank=i, byes=byes_of_first if i == 1 else 1) for i in range(1, 6))
        return swiss_pair(PairingRequest(entrants=entrants, table_size=4, round_number=6))

    fair = pair(0)
    assert fair.byes == (1,) and second_byes(fair) == []
    forced = pair(1)
    assert [w.entrant_ids for w in second_byes(forced)] == [forced.byes] and len(forced.byes) == 1


def test_finish_round_names_each_bye_holder_who_has_had_a_bye() -> None:
    entrants = (PairingEntrant(id=1, byes=1), PairingEntrant(id=2, byes=2), PairingEntrant(id=3))
    request = PairingRequest(entrants=entrants, table_size=2, round_number=3)
    costs = PairCosts(request)
    assert finish_round([[1, 2]], [3], request, costs).warnings == ()
    assert [w.entrant_ids for w in finish_round([[1, 3]], [2], request, costs).warnings] == [(2,)]


# Fields of more than one block: 48 entrants on 1 point, 24 on 0 (blocks 1-48 and 49-72).
def field(met: frozenset[frozenset[int]]) -> tuple[list[int], PairCosts]:
    entrants = tuple(PairingEntrant(id=i, score=1.0 if i <= 48 else 0.0, rank=i) for i in range(1, 73))
    request = PairingRequest(entrants=entrants, table_size=2, round_number=5, met_pairs=met)
    return [entrant.id for entrant in entrants], PairCosts(request)


def met_all_but_each_other(trio: tuple[int, int, int], others: range) -> frozenset[frozenset[int]]:
    return pairs(*((a, b) for a in trio for b in others if b not in trio))


def check(tables: list[list[int]], costs: PairCosts) -> tuple[int, int]:
    assert sorted(entrant for table in tables for entrant in table) == list(range(1, 73))
    rematches = sum(costs.is_rematch(a, b) for a, b in tables)
    floats = sum(costs.scores[a] != costs.scores[b] for a, b in tables)
    return rematches, floats


def test_a_block_without_a_rematch_free_pairing_is_merged_with_the_next_block_only() -> None:
    # Three blocks: 48 entrants on 2 points, 48 on 1, 24 on 0. 1, 2 and 3 have met every other
    # entrant of the first block: only two of them can pair with each other, so the first block has
    # no rematch-free pairing alone and takes in the second; the third is paired on its own.
    entrants = tuple(PairingEntrant(id=i, score=2.0 if i <= 48 else 1.0 if i <= 96 else 0.0, rank=i)
                     for i in range(1, 121))
    request = PairingRequest(entrants=entrants, table_size=2, round_number=5,
                             met_pairs=met_all_but_each_other((1, 2, 3), range(1, 49)))
    costs = PairCosts(request)
    tables = match_pairs([e.id for e in entrants], costs)
    assert sorted(entrant for table in tables for entrant in table) == list(range(1, 121))
    assert sum(costs.is_rematch(a, b) for a, b in tables) == 0
    # one of the trio and one more 2-point entrant float down to the 1-point group; nobody else moves
    assert sum(costs.scores[a] != costs.scores[b] for a, b in tables) == 2
    assert all(costs.scores[a] == costs.scores[b] == 0.0 for a, b in tables if a > 96 or b > 96)


def test_a_last_block_without_a_rematch_free_pairing_reopens_the_block_before_it() -> None:
    ids, costs = field(met_all_but_each_other((70, 71, 72), range(49, 73)))
    tables = match_pairs(ids, costs)
    assert check(tables, costs) == (0, 2)


def test_a_rematch_only_when_the_whole_field_has_no_pairing_without_one() -> None:
    # 70, 71 and 72 have met everybody but each other: one of them must meet somebody again, once
    ids, costs = field(met_all_but_each_other((70, 71, 72), range(1, 73)))
    tables = match_pairs(ids, costs)
    rematches, _ = check(tables, costs)
    assert rematches == 1


def blocks_of(scores: list[float]) -> list[tuple[int, int]]:
    from tournaments.pairing.swiss import _blocks

    entrants = tuple(PairingEntrant(id=i, score=score) for i, score in enumerate(scores, start=1))
    request = PairingRequest(entrants=entrants, table_size=2, round_number=3)
    return [(block[0], block[-1]) for block in _blocks([e.id for e in entrants], PairCosts(request))]


def test_blocks_hold_48_to_80_entrants_and_end_between_score_groups() -> None:
    # an even block of at least 48 ends where the score changes
    assert blocks_of([1.0] * 48 + [0.0] * 24) == [(1, 48), (49, 72)]
    assert blocks_of([1.0] * 50 + [0.0] * 30) == [(1, 50), (51, 80)]
    # an odd count at the score change: the block runs on to the next even count that ends a group
    assert blocks_of([2.0] * 49 + [1.0] * 3 + [0.0] * 28) == [(1, 52), (53, 80)]
    # one score group: blocks of 80; a rest of fewer than 24 joins the block before it
    assert blocks_of([0.0] * 130) == [(1, 80), (81, 130)]
    assert blocks_of([0.0] * 100) == [(1, 100)]
    assert blocks_of([0.0] * 104) == [(1, 80), (81, 104)]
    assert blocks_of([0.0] * 46) == [(1, 46)]


def test_tables_are_listed_in_standings_order_and_seated_best_first() -> None:
    # ids run against the standings: 4 leads, then 3, 2, 1
    entrants = tuple(PairingEntrant(id=i, score=float(i)) for i in (4, 3, 2, 1))
    request = PairingRequest(entrants=entrants, table_size=2, round_number=2)
    assert match_pairs([4, 3, 2, 1], PairCosts(request)) == [[4, 3], [2, 1]]
    result = swiss_pair(request)
    assert [(t.number, t.entrant_ids) for t in result.tables] == [(1, (4, 3)), (2, (2, 1))]


def test_tables_of_three_cut_down_to_tables_of_two_are_still_grouped_in_standings_order() -> None:
    # Four entrants, tables of 3 with tables of 2 allowed: two tables of 2. Round 1 was drawn
    # everywhere (1-3, 2-4). Tables of 3 or N are formed by grouping neighbours in the standings
    # (1-2, 3-4), not by the minimum-cost matching of tables-of-2 Swiss (which would give 1-4, 2-3).
    entrants = tuple(PairingEntrant(id=i, rank=i, score=1.0) for i in range(1, 5))
    result = swiss_pair(PairingRequest(entrants=entrants, table_size=3, min_table_size=2, round_number=2,
                                       met_pairs=pairs((1, 3), (2, 4))))
    assert sorted(sorted(t.entrant_ids) for t in result.tables) == [[1, 2], [3, 4]]
    assert result.byes == ()


def test_the_only_entrant_without_a_bye_gets_it_even_when_ranked_first() -> None:
    # everyone but the leader has had a bye: the bye goes to the leader, nobody gets a second one
    entrants = tuple(PairingEntrant(id=i, score=float(6 - i), rank=i, byes=0 if i == 1 else 1) for i in range(1, 6))
    result = swiss_pair(PairingRequest(entrants=entrants, table_size=2, round_number=5))
    assert result.byes == (1,)
    assert not [w for w in result.warnings if w.code == "second_bye"]


# ---- tables of 3 or N: before a rematch is accepted, other fair byes, smaller tables, an exact search


def ranked(count: int) -> tuple[PairingEntrant, ...]:
    """Entrants 1..count in standings order (1 leads: count - 1 points, the last 0); no byes yet."""
    return tuple(PairingEntrant(id=i, score=float(count - i), rank=i) for i in range(1, count + 1))


def grouped(result: PairingResult) -> list[list[int]]:
    return sorted(sorted(table.entrant_ids) for table in result.tables)


def test_tables_of_three_pass_a_bye_that_forces_a_rematch_to_another_entrant_without_a_bye() -> None:
    # Seven entrants at tables of 3 (two tables, one bye); 1, 2 and 3 have shared a table. The bye is
    # due to 7, then 6, 5, 4 (nobody has had one): with any of them out, 1, 2 and 3 are three of six
    # entrants at two tables, so two of them meet again. With 3 out, 1 and 2 go to different tables.
    # The closest scores (6 5 4 3 2 1 0 points for 1..7): 1 4 5 | 2 6 7, squared differences
    # 9 + 16 + 1 and 16 + 25 + 1 = 68 (1 4 6 | 2 5 7: 76, 1 6 7 | 2 4 5: 76, the rest 80).
    met = pairs((1, 2), (1, 3), (2, 3))
    result = swiss_pair(PairingRequest(entrants=ranked(7), table_size=3, round_number=3, met_pairs=met))
    assert result.byes == (3,)
    assert grouped(result) == [[1, 4, 5], [2, 6, 7]]
    assert (result.rematches, result.warnings) == (0, ())
    # Eight entrants, two byes; only 8 has had none: 8 sits out in any case, and the other bye (due
    # to 7) passes among those with one bye, as above, to 3: the same tables (3's is a second bye).
    entrants = tuple(PairingEntrant(id=i, score=float(8 - i), rank=i, byes=int(i != 8)) for i in range(1, 9))
    eight = swiss_pair(PairingRequest(entrants=entrants, table_size=3, round_number=4, met_pairs=met))
    assert (eight.byes, grouped(eight), eight.rematches) == ((8, 3), [[1, 4, 5], [2, 6, 7]], 0)
    assert [(warning.code, warning.entrant_ids) for warning in eight.warnings] == [("second_bye", (3,))]


def test_tables_of_three_take_the_bye_with_the_fewest_rematches_and_the_due_one_on_a_tie() -> None:
    # Round 1 seated 1 4 5 and 2 3 6; 7 joined late. Nobody has had a bye, so it is due to 7, then 6,
    # 5, ... With 7 out the six others are the two earlier tables: two tables of 3 from them repeat
    # at least two pairs. With 6 out (or 5, 4, ... 1) one earlier table stays whole among the six
    # players, but only one pair of it need meet again (e.g. 1 4 2 | 5 3 7): 1 rematch. Of those, 6's
    # bye is the first: the due order decides among equals.
    met = pairs((1, 4), (1, 5), (4, 5), (2, 3), (2, 6), (3, 6))
    result = swiss_pair(PairingRequest(entrants=ranked(7), table_size=3, round_number=2, met_pairs=met))
    assert result.byes == (6,)
    assert result.rematches == 1
    assert [warning.code for warning in result.warnings] == ["rematch"]
    # and when 7 has had a bye already, the bye is due to 6: every option leaves one rematch, 6 keeps it
    entrants = tuple(PairingEntrant(id=e.id, score=e.score, rank=e.rank, byes=int(e.id == 7))
                     for e in ranked(7))
    again = swiss_pair(PairingRequest(entrants=entrants, table_size=3, round_number=2, met_pairs=met))
    assert (again.byes, again.rematches) == ((6,), 1)


def test_smaller_tables_where_allowed_rather_than_a_rematch() -> None:
    # Twelve entrants, tables of 4, tables of 3 allowed: three full tables. 1, 2, 3 and 4 shared a
    # table in an earlier round; three tables cannot keep four of them apart, four tables can:
    # 12 = 3 + 3 + 3 + 3, each with one of 1..4. (No bye either way.)
    met = pairs(*itertools.combinations((1, 2, 3, 4), 2))
    result = swiss_pair(PairingRequest(entrants=ranked(12), table_size=4, min_table_size=3, round_number=2,
                                       met_pairs=met))
    assert sorted(len(table.entrant_ids) for table in result.tables) == [3, 3, 3, 3]
    assert [len({1, 2, 3, 4} & set(table.entrant_ids)) for table in result.tables] == [1, 1, 1, 1]
    assert (result.byes, result.rematches) == ((), 0)
    # Sixteen entrants, four tables of 4; 1 to 5 have all met each other: five tables (4 3 3 3 3)
    # part them, four cannot.
    met5 = pairs(*itertools.combinations((1, 2, 3, 4, 5), 2))
    sixteen = swiss_pair(PairingRequest(entrants=ranked(16), table_size=4, min_table_size=3, round_number=4,
                                        met_pairs=met5))
    assert sorted(len(table.entrant_ids) for table in sixteen.tables) == [3, 3, 3, 3, 4]
    assert [len({1, 2, 3, 4, 5} & set(table.entrant_ids)) for table in sixteen.tables] == [1, 1, 1, 1, 1]
    assert (sixteen.byes, sixteen.rematches) == ((), 0)
    # without tables of 3 the rematch stays (one pair of them meets again)
    strict = swiss_pair(PairingRequest(entrants=ranked(12), table_size=4, round_number=2, met_pairs=met))
    assert len(strict.tables) == 3 and strict.rematches == 1


def test_a_rematch_free_grouping_the_local_search_misses_is_found_by_the_exact_search() -> None:
    # Eight entrants at two tables of 4 (3 3 3 2 1 1 1 0 points); met: 3-4, 4-5, 5-8, 6-7, 7-8. Swapping
    # pairs between the score-ordered tables 1 2 3 4 | 5 6 7 8 gets stuck at one rematch; the one
    # grouping without a rematch, 1 3 5 7 | 2 4 6 8, is found by the exhaustive search.
    scores = [3, 3, 3, 2, 1, 1, 1, 0]
    entrants = tuple(PairingEntrant(id=i, score=float(s), rank=i) for i, s in enumerate(scores, start=1))
    result = swiss_pair(PairingRequest(entrants=entrants, table_size=4, round_number=3,
                                       met_pairs=pairs((3, 4), (4, 5), (5, 8), (6, 7), (7, 8))))
    assert grouped(result) == [[1, 3, 5, 7], [2, 4, 6, 8]]
    assert (result.byes, result.rematches) == ((), 0)


def test_rematch_free_tables_searches_in_order_skips_met_pairs_and_stops_at_its_node_limit() -> None:
    def costs(met: frozenset[frozenset[int]]) -> PairCosts:
        return PairCosts(PairingRequest(entrants=ranked(7), table_size=3, met_pairs=met))

    # nobody has met: the first try works, 1 2 3 then 4 5 6: two tables tried
    assert rematch_free_tables([1, 2, 3, 4, 5, 6], [3, 3], costs(frozenset())) == [[1, 2, 3], [4, 5, 6]]
    nobody = costs(frozenset())
    assert rematch_free_tables([1, 2, 3, 4, 5, 6], [3, 3], nobody, node_limit=2) == [[1, 2, 3], [4, 5, 6]]
    assert rematch_free_tables([1, 2, 3, 4, 5, 6], [3, 3], nobody, node_limit=1) is None
    # larger tables first: 4 then 3
    assert rematch_free_tables([1, 2, 3, 4, 5, 6, 7], [3, 4], costs(frozenset())) == [[1, 2, 3, 4], [5, 6, 7]]
    # 1 has met 4, 2 has met 3: 1 2 3 (2-3) is skipped and the search goes on to 1 2 5, then 3 4 6
    met = pairs((1, 4), (2, 3))
    assert rematch_free_tables([1, 2, 3, 4, 5, 6], [3, 3], costs(met)) == [[1, 2, 5], [3, 4, 6]]
    # 1, 2 and 3 have all met: two tables of 3 cannot part them
    assert rematch_free_tables([1, 2, 3, 4, 5, 6], [3, 3], costs(pairs((1, 2), (1, 3), (2, 3)))) is None



def test_a_rematch_anywhere_at_the_table_counts_and_moves_the_bye() -> None:
    # Five entrants at one table of 4 (one bye); 1 and 3 have met. The bye is due to 5, then 4: either
    # way 1 and 3 (first and third in the standings) sit at the one table. With 3 out: 1 2 4 5.
    request = PairingRequest(entrants=ranked(5), table_size=4, round_number=2, met_pairs=pairs((1, 3)))
    result = swiss_pair(request)
    assert (result.byes, grouped(result), result.rematches) == ((3,), [[1, 2, 4, 5]], 0)


def test_tables_of_two_are_listed_by_their_best_entrant() -> None:
    # 1 has met 2 and 3, so 1 plays 4 and 2 plays 3: table 1 is 1-4 (it holds the leader), table 2 is
    # 2-3, although 3 ranks above 4.
    met = pairs((1, 2), (1, 3))
    result = swiss_pair(PairingRequest(entrants=ranked(4), table_size=2, round_number=3, met_pairs=met))
    assert [table.entrant_ids for table in result.tables] == [(1, 4), (2, 3)]


# ---- tables of 3 or N: when a rematch cannot be avoided, the fewest rematches, then the closest scores
# The rule: among all groupings (and fair byes), the fewest rematched pairs; among those the smallest
# sum of squared score differences; the due bye unless another fair bye leaves fewer rematches.


def test_five_at_tables_of_three_and_two_keep_the_one_rematch_they_must() -> None:
    # The mutation-testing find. Points 1, 3, 0, 0, 4 for entrants 1..5; met 1-3 1-4 1-5 2-3 2-5 3-5.
    # Not met: 1-2, 2-4, 3-4, 4-5. No table of 3 is free of rematches (no three of them pairwise
    # unmet: 4's unmet partners 2, 3 and 5 have all met each other), so at least 1 rematch. With
    # exactly 1 the table of 2 is an unmet pair and its three others hold one met pair:
    #   1 2 | 3 4 5 (3-5): 1      2 4 | 1 3 5 (1-3 1-5 3-5): 3
    #   3 4 | 1 2 5 (1-5 2-5): 2  4 5 | 1 2 3 (1-3 2-3): 2
    # so 5 3 4 / 2 1 is the only grouping with one rematch (the greedy order gave 5 2 1 / 3 4: 2).
    entrants = tuple(PairingEntrant(id=i, score=float(s)) for i, s in enumerate((1, 3, 0, 0, 4), start=1))
    met = pairs((1, 3), (1, 4), (1, 5), (2, 3), (2, 5), (3, 5))
    result = swiss_pair(PairingRequest(entrants=entrants, table_size=3, min_table_size=2, round_number=4,
                                       met_pairs=met))
    assert (grouped(result), result.byes, result.rematches) == ([[1, 2], [3, 4, 5]], (), 1)
    assert [(w.code, set(w.entrant_ids)) for w in result.warnings] == [("rematch", {3, 5})]


def test_nine_at_tables_of_three_keep_one_rematch_at_the_closest_scores() -> None:
    # Entrants 1..9 on 8..0 points (so a score difference is the difference of the ids). Met: 1-8 2-7
    # 2-8 3-5 3-8 3-9 4-5 4-8 5-8 5-9 6-7 7-8 8-9. 8 has met everyone but 6, so 8's table holds a
    # rematch: at least 1. With exactly 1 it is 6 8 x (x met 8, not 6: 1 2 3 4 5 or 9) and the other
    # six make two tables without a rematch. Squared differences, the best split of the six:
    #   x=5: 5 6 8 (1+9+4=14), 1 2 3 (6), 4 7 9 (9+25+4=38): 58
    #   x=9: 6 8 9 (14), 5 avoids 3 and 4, 2 avoids 7: 1 2 5 | 3 4 7 (26+26): 66
    #   x=4: 3 5 9 have all met: no split.  x=3: 3 6 8 (38) + 1 2 5 | 4 7 9 (26+38): 102
    #   x=2: 2 6 8 alone is 56, x=1: 1 6 8 alone is 78, and the other six add at least 38.
    # The greedy start ends at 1 3 4 | 2 5 6 | 7 8 9 with two rematches (7-8, 8-9).
    met = pairs((1, 8), (2, 7), (2, 8), (3, 5), (3, 8), (3, 9), (4, 5), (4, 8), (5, 8), (5, 9), (6, 7),
                (7, 8), (8, 9))
    result = swiss_pair(PairingRequest(entrants=ranked(9), table_size=3, round_number=5, met_pairs=met))
    assert (grouped(result), result.byes, result.rematches) == ([[1, 2, 3], [4, 7, 9], [5, 6, 8]], (), 1)
    assert result.score_spread == 2 + 5 + 3  # highest minus lowest at each table


def test_eight_at_tables_of_four_keep_the_one_rematch_they_must() -> None:
    # Entrants 1..8 on 7..0 points, met 1-3 1-5 2-3 3-7 4-5 5-6 5-8. 5 has not met 2, 3 and 7 only,
    # and 2 3 7 hold two met pairs, so 5's table holds a rematch. With exactly 1 it is 5, two
    # companions of 2 3 7 that have not met (2 and 7) and one entrant 5 has met; the other table must
    # be clean, and it holds 3, so not 1 (1-3): the fourth is 1, and 3 4 6 8 have never met.
    # The greedy start ends at 1 2 4 6 | 3 5 7 8 with two rematches (3-7, 5-8).
    met = pairs((1, 3), (1, 5), (2, 3), (3, 7), (4, 5), (5, 6), (5, 8))
    result = swiss_pair(PairingRequest(entrants=ranked(8), table_size=4, round_number=3, met_pairs=met))
    assert (grouped(result), result.rematches) == ([[1, 2, 5, 7], [3, 4, 6, 8]], 1)


def test_eight_at_tables_of_four_with_a_rematch_either_way_take_the_closest_scores() -> None:
    # Entrants 1..8 on 7..0 points, met 2-6 3-5 4-5 4-6 5-6 7-8. 4 5 6 have all met: two tables
    # cannot part them, so one pair of them meets again; the other met pairs (2-6, 3-5, 7-8) part:
    #   4 5 together: 2 4 5 7 | 1 3 6 8 (52+116=168), 2 4 5 8 | 1 3 6 7 (75+91=166)
    #   4 6 together: 3 4 6 7 | 1 2 5 8 (40+120=160), 3 4 6 8 | 1 2 5 7 (59+91=150)
    #   5 6 together: 2 3 4 7 | 1 5 6 8 (56+104=160), 2 3 4 8 | 1 5 6 7 (83+83=166)
    # (1 2 3 4 | 5 6 7 8 and 1 3 4 6 | 2 5 7 8 put 7 and 8 together). 150 is the least; the local
    # search stopped at 160.
    met = pairs((2, 6), (3, 5), (4, 5), (4, 6), (5, 6), (7, 8))
    result = swiss_pair(PairingRequest(entrants=ranked(8), table_size=4, round_number=3, met_pairs=met))
    assert (grouped(result), result.rematches) == ([[1, 2, 5, 7], [3, 4, 6, 8]], 1)
    assert [set(w.entrant_ids) for w in result.warnings] == [{4, 6}]


def test_nine_at_tables_of_four_keep_the_due_bye_when_no_other_bye_has_fewer_rematches() -> None:
    # Entrants 1..9 on 8..0 points, one bye, due to 9. Met: 2-5 2-7 2-9 3-4 3-6 3-7 3-8 4-7 5-6 5-9.
    # With 9 out, 3 has not met 1, 2 and 5 only, and 2-5 met: 3's table holds a rematch. With exactly
    # 1: 3 1 2 5 leaves 4 6 7 8 (4-7); 3 1 2 y (y = 4, 6 or 8, not 7: 2-7) leaves 4-7 or 5-6 together;
    # 3 1 5 y (y = 4, 7 or 8, not 6: 5-6) leaves a clean table only for y = 7: 1 3 5 7 | 2 4 6 8.
    # No other fair bye avoids a rematch either (checked below by enumeration), so the bye stays with
    # 9; the local search alone found one rematch only with 7 out, and the bye went to 7.
    met = pairs((2, 5), (2, 7), (2, 9), (3, 4), (3, 6), (3, 7), (3, 8), (4, 7), (5, 6), (5, 9))
    request = PairingRequest(entrants=ranked(9), table_size=4, round_number=3, met_pairs=met)
    result = swiss_pair(request)
    assert (result.byes, grouped(result), result.rematches) == ((9,), [[1, 3, 5, 7], [2, 4, 6, 8]], 1)
    costs = PairCosts(request)
    for bye in range(1, 10):
        playing = [entrant for entrant in range(1, 10) if entrant != bye]
        assert min(_rematched(tables, costs) for tables in _groupings(playing, [4, 4])) >= 1, bye


def test_fewest_rematch_tables_search_under_their_caps_and_their_seat_limit() -> None:
    entrants = tuple(PairingEntrant(id=i, score=float(s)) for i, s in enumerate((1, 3, 0, 0, 4), start=1))
    request = PairingRequest(entrants=entrants, table_size=3, min_table_size=2,
                             met_pairs=pairs((1, 3), (1, 4), (1, 5), (2, 3), (2, 5), (3, 5)))
    costs = PairCosts(request)
    playing, start = [5, 2, 1, 3, 4], [[5, 2, 1], [3, 4]]  # standings order; the greedy tables: 2 rematches
    found, seats, finished = fewest_rematch_tables(playing, [3, 2], costs, start, most_rematches=2)
    assert (found, finished) == ([[5, 3, 4], [2, 1]], True)
    # every seat it tried counts: one fewer and it stops, with what it had (if anything) and unproven
    _, short, unfinished = fewest_rematch_tables(playing, [3, 2], costs, start, most_rematches=2,
                                                 seat_limit=seats - 1)
    assert (short, unfinished) == (seats - 1, False)
    assert fewest_rematch_tables(playing, [3, 2], costs, start, most_rematches=2, seat_limit=0) == (None, 0, False)
    # nothing without a rematch exists: proven, None
    none, _, proven = fewest_rematch_tables(playing, [3, 2], costs, start, most_rematches=0)
    assert (none, proven) == (None, True)
    # starting from the best grouping there is nothing better to find
    assert fewest_rematch_tables(playing, [3, 2], costs, [[5, 3, 4], [2, 1]], most_rematches=1)[::2] == (None, True)
    # at most 1 rematch, from a start with 2: the cap alone bounds the search
    assert fewest_rematch_tables(playing, [3, 2], costs, start, most_rematches=1)[0] == [[5, 3, 4], [2, 1]]


def test_fewest_rematch_tables_weigh_any_rematch_above_the_widest_score_differences() -> None:
    # Tables of 2 and 2; 1 and 2 (1 point) met, 3 and 4 (0 points) did not. 1 2 | 3 4 keeps the score
    # groups but repeats 1-2; 1 3 | 2 4 has no rematch but both tables a point apart (every pair at the
    # widest difference there is): the rematch still weighs more.
    entrants = tuple(PairingEntrant(id=i, score=1.0 if i < 3 else 0.0) for i in range(1, 5))
    costs = PairCosts(PairingRequest(entrants=entrants, table_size=3, min_table_size=2, met_pairs=pairs((1, 2))))
    found, _, finished = fewest_rematch_tables([1, 2, 3, 4], [2, 2], costs, [[1, 2], [3, 4]], most_rematches=1)
    assert (found, finished) == ([[1, 3], [2, 4]], True)
    # the same a point apart on either side of zero (the engine takes any finite score as given)
    entrants = tuple(PairingEntrant(id=i, score=0.5 if i < 3 else -0.5) for i in range(1, 5))
    costs = PairCosts(PairingRequest(entrants=entrants, table_size=3, min_table_size=2, met_pairs=pairs((1, 2))))
    found, _, _ = fewest_rematch_tables([1, 2, 3, 4], [2, 2], costs, [[1, 2], [3, 4]], most_rematches=1)
    assert found == [[1, 3], [2, 4]]
    # ... and above club clashes at every table: equal points, clubs B A B A, met 1-2 and 2-3; the
    # only grouping without a rematch, 1 3 | 2 4, seats both club pairs together.
    entrants = tuple(PairingEntrant(id=i, club="BA"[i % 2 == 0]) for i in range(1, 5))
    costs = PairCosts(PairingRequest(entrants=entrants, table_size=3, min_table_size=2, avoid_same_club=True,
                                     met_pairs=pairs((1, 2), (2, 3))))
    found, _, _ = fewest_rematch_tables([1, 2, 3, 4], [2, 2], costs, [[1, 2], [3, 4]], most_rematches=1)
    assert found == [[1, 3], [2, 4]]


def test_fewest_rematch_tables_keep_the_first_of_equal_groupings_larger_tables_first() -> None:
    # Five entrants on equal points at tables of 3 and 2; 1, 2 and 3 have all met: one of their pairs
    # meets again in any grouping (1 2 4 | 3 5 or 1 2 | 3 4 5 alike). The search seats the leader at
    # the larger table first and its companions in standings order, and keeps the first it finds.
    entrants = tuple(PairingEntrant(id=i, rank=i) for i in range(1, 6))
    costs = PairCosts(PairingRequest(entrants=entrants, table_size=3, min_table_size=2,
                                     met_pairs=pairs((1, 2), (1, 3), (2, 3))))
    found, _, _ = fewest_rematch_tables([1, 2, 3, 4, 5], [3, 2], costs, [[1, 2, 3], [4, 5]], most_rematches=1)
    assert found == [[1, 2, 4], [3, 5]]


def test_fewest_rematch_tables_part_clubs_between_groupings_of_equal_rematches_and_scores() -> None:
    # Equal points, tables of 2 and 2, 1-2 met; 1 and 3 share a club (the others have their own):
    # 1 3 | 2 4 clashes where 1 4 | 2 3 does not, so the search, which finds 1 3 | 2 4 first, goes on.
    entrants = tuple(PairingEntrant(id=i, club="A" if i in (1, 3) else str(i)) for i in range(1, 5))
    costs = PairCosts(PairingRequest(entrants=entrants, table_size=3, min_table_size=2, avoid_same_club=True,
                                     met_pairs=pairs((1, 2))))
    found, _, _ = fewest_rematch_tables([1, 2, 3, 4], [2, 2], costs, [[1, 2], [3, 4]], most_rematches=1)
    assert found == [[1, 4], [2, 3]]


def test_fewest_rematch_tables_count_every_seat_tried() -> None:
    # Six entrants on equal points at two tables of 3; 1-2 and 4-5 met; the start 1 2 3 | 4 5 6 has
    # both (bound: 2 rematches). Seats tried, in order (a seat that reaches the bound is dropped):
    #   1: 2 (1 rematch), 3 -> 1 2 3 | 4: 5 (2: dropped)                           seats 1-3
    #   1 2: 4 -> 1 2 4 | 3: 5, 6 -> found, 1 rematch (the bound)                  seats 4-6
    #   1 2: 5, 6 (each 1 rematch: dropped)                                        seats 7-8
    #   1: 3, 4 -> 1 3 4 | 2: 5, 6 -> found, no rematch (the bound: 0)             seats 9-12
    #   1 3: 5, 6; 1: 4, 5 (nothing under 0)                                       seats 13-16
    costs = PairCosts(PairingRequest(entrants=tuple(PairingEntrant(id=i) for i in range(1, 7)), table_size=3,
                                     met_pairs=pairs((1, 2), (4, 5))))
    start = [[1, 2, 3], [4, 5, 6]]
    assert fewest_rematch_tables(list(range(1, 7)), [3, 3], costs, start, most_rematches=2) == (
        [[1, 3, 4], [2, 5, 6]], 16, True)
    assert fewest_rematch_tables(list(range(1, 7)), [3, 3], costs, start, most_rematches=2, seat_limit=16)[2]
    assert fewest_rematch_tables(list(range(1, 7)), [3, 3], costs, start, most_rematches=2, seat_limit=15) == (
        [[1, 3, 4], [2, 5, 6]], 15, False)


def test_a_rematch_free_regrouping_takes_the_closest_scores() -> None:
    # Nine entrants on 8..0 points at tables of 3; met 1-3 1-4 1-6 1-8 1-9 2-5 2-6 3-9 4-5 4-8. The
    # local search keeps a rematch; the rematch-free search's first grouping, improved by swaps, has
    # squared differences of 102 (1 2 7 | 3 4 6 | 5 8 9); the least of every rematch-free grouping
    # (enumerated here) is 76: 1 5 7 | 2 3 4 | 6 8 9.
    met = pairs((1, 3), (1, 4), (1, 6), (1, 8), (1, 9), (2, 5), (2, 6), (3, 9), (4, 5), (4, 8))
    request = PairingRequest(entrants=ranked(9), table_size=3, round_number=3, met_pairs=met)
    result = swiss_pair(request)
    costs = PairCosts(request)
    clean = [t for t in _groupings(list(range(1, 10)), [3, 3, 3]) if not _rematched(t, costs)]
    assert min(_squares(t, costs) for t in clean) == 7600
    assert (grouped(result), result.rematches) == ([[1, 5, 7], [2, 3, 4], [6, 8, 9]], 0)


def test_a_later_bye_option_without_a_rematch_takes_the_closest_scores() -> None:
    # Ten entrants on 9..0 points at tables of 3, one bye, due to 10. With 10 out no grouping is
    # rematch-free; with 9 out (the next fair bye) some are, and of those the tables take the least
    # sum of squared differences (both checked by enumerating every grouping).
    met = pairs((1, 3), (1, 8), (1, 10), (2, 3), (2, 9), (2, 10), (3, 8), (3, 10), (4, 6), (4, 9), (5, 6), (5, 7),
                (5, 9), (6, 9), (7, 8), (7, 9), (8, 9))
    request = PairingRequest(entrants=ranked(10), table_size=3, round_number=4, met_pairs=met)
    result = swiss_pair(request)
    costs = PairCosts(request)
    assert min(_rematched(t, costs) for t in _groupings(list(range(1, 10)), [3, 3, 3])) == 1
    without_nine = [t for t in _groupings([1, 2, 3, 4, 5, 6, 7, 8, 10], [3, 3, 3]) if not _rematched(t, costs)]
    assert (result.byes, result.rematches) == ((9,), 0)
    assert _squares([list(t.entrant_ids) for t in result.tables], costs) == min(map(
        lambda t: _squares(t, costs), without_nine))


def test_the_fewest_rematch_search_keeps_to_its_budget_per_round(monkeypatch: pytest.MonkeyPatch) -> None:
    # Without seats to try, the five entrants above keep what the local search found (2 rematches):
    # the search is bounded, and a field it cannot finish is never made worse than before.
    entrants = tuple(PairingEntrant(id=i, score=float(s)) for i, s in enumerate((1, 3, 0, 0, 4), start=1))
    request = PairingRequest(entrants=entrants, table_size=3, min_table_size=2, round_number=4,
                             met_pairs=pairs((1, 3), (1, 4), (1, 5), (2, 3), (2, 5), (3, 5)))
    monkeypatch.setattr(swiss, "FEWEST_SEARCH_SEATS", 0)
    assert (grouped(swiss_pair(request)), swiss_pair(request).rematches) == ([[1, 2, 5], [3, 4]], 2)


def _groupings(playing: list[int], sizes: list[int]) -> Iterator[list[list[int]]]:
    """Every grouping of ``playing`` at tables of ``sizes`` (each once), by plain enumeration."""
    if not playing:
        yield []
        return
    first, rest = playing[0], playing[1:]
    for size in sorted(set(sizes)):
        after = list(sizes)
        after.remove(size)
        for companions in itertools.combinations(rest, size - 1):
            for tail in _groupings([e for e in rest if e not in companions], after):
                yield [[first, *companions], *tail]


def _rematched(tables: list[list[int]], costs: PairCosts) -> int:
    return sum(costs.is_rematch(a, b) for table in tables for a, b in itertools.combinations(table, 2))


def _squares(tables: list[list[int]], costs: PairCosts) -> int:
    return sum(round((costs.scores[a] - costs.scores[b]) ** 2 * 100)
               for table in tables for a, b in itertools.combinations(table, 2))


@pytest.mark.parametrize("seed", range(6))
def test_small_fields_at_tables_of_three_or_four_match_an_enumeration_of_every_grouping(seed: int) -> None:
    # Random fields of 5-9 entrants, half the pairs met, some byes already: the result has as few
    # rematches as the best grouping of any fair bye option (the options of the module, due first);
    # the bye is that of the first option that reaches it; and when a rematch is left, the tables
    # have the smallest sum of squared score differences among that option's fewest-rematch groupings.
    rng = random.Random(seed)
    for _ in range(25):
        count, size = rng.randint(5, 9), rng.choice((3, 4))
        smallest = rng.choice((None, size - 1))
        entrants = tuple(PairingEntrant(id=i, score=float(rng.randrange(4)), rank=i, byes=rng.randrange(2))
                         for i in range(1, count + 1))
        met = pairs(*(p for p in itertools.combinations(range(1, count + 1), 2) if rng.random() < 0.5))
        request = PairingRequest(entrants=entrants, table_size=size, min_table_size=smallest, round_number=3,
                                 met_pairs=met)
        result = swiss_pair(request)
        costs = PairCosts(request)
        ordered = standings_order(entrants)
        sizes, bye_count = table_sizes(count, size, smallest)
        options = swiss._bye_and_size_options(bye_candidates(ordered), bye_count, sizes, request)
        fewest = []
        for option_byes, option_sizes in options:
            playing = [e.id for e in ordered if e.id not in option_byes]
            fewest.append(min((_rematched(t, costs), _squares(t, costs)) for t in _groupings(playing, option_sizes)))
        least = min(rematches for rematches, _ in fewest)
        chosen = next(index for index, (rematches, _) in enumerate(fewest) if rematches == least)
        tables = [list(table.entrant_ids) for table in result.tables]
        context = (count, size, smallest, sorted(map(sorted, met)), [e.score for e in entrants])
        assert result.rematches == least, context
        if least:
            assert sorted(result.byes) == sorted(options[chosen][0]), context
            assert sorted(len(table) for table in tables) == sorted(options[chosen][1]), context
            assert _squares(tables, costs) == fewest[chosen][1], context
