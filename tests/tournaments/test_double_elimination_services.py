"""Double elimination through the services, the standings and the bracket page (docs/formats.md)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.tournaments.conftest import make_tournament
from tournaments import services
from tournaments.errors import TournamentError
from tournaments.models import Result, Round, StandingRow
from tournaments.services.rounds import next_round_possible, rounds_planned_derived

pytestmark = pytest.mark.django_db


def _play_round(organiser: Any, tournament: Any, upsets: list[frozenset[int]] | None = None) -> Round:
    """The better seed wins 8:4, except at a pair listed in ``upsets`` (each listed once per upset)."""
    upsets = upsets if upsets is not None else []
    round_ = services.round_publish(actor=organiser, round=services.round_generate(actor=organiser, tournament=tournament))
    for table in round_.tables.filter(is_bye=False).order_by("number"):
        if table.results.filter(state__in=Result.FINAL_STATES).exists():
            continue
        seats = sorted(table.seats.select_related("entrant"), key=lambda s: s.entrant.seed)
        pair = frozenset(s.entrant.seed for s in seats)
        if pair in upsets:
            upsets.remove(pair)
            seats.reverse()
        services.result_override(actor=organiser, table=table,
                                 scores={s.entrant_id: 8 if i == 0 else 4 for i, s in enumerate(seats)})
    tournament.refresh_from_db()
    return round_


def _places(tournament: Any) -> dict[int, tuple[int, bool]]:
    return {row.entrant.seed: (row.rank, row.shared_rank)
            for row in StandingRow.objects.filter(tournament=tournament).select_related("entrant")}


def test_six_entrant_double_elimination_is_played_round_by_round(organiser: Any, client: Any) -> None:
    # the pure hand-worked case (test_six_entrants_by_hand) through the services: rounds hold every
    # ready table: 1: W1-2 (4 v 5), W1-4 (3 v 6); 2: W2-1 (1 v 4), W2-2 (2 v 3); 3: W3-1, L2-1 (5 v 3),
    # L2-2 (6 v 4); 4: L3-1 (3 v 4); 5: L4-1 (3 v 2); 6: GF (1 v 2) -- 1 wins, no reset.
    tournament = make_tournament(organiser, entrants=6, format="knockout", knockout_style="double")
    assert rounds_planned_derived(tournament) == 7  # with the reset: at most 7
    sizes = []
    while next_round_possible(tournament):
        sizes.append(_play_round(organiser, tournament).tables.filter(is_bye=False).count())
    assert sizes == [2, 2, 3, 1, 1, 1]
    with pytest.raises(TournamentError):
        services.round_generate(actor=organiser, tournament=tournament)
    services.standings_recompute(tournament_id=tournament.pk)
    assert _places(tournament) == {1: (1, False), 2: (2, False), 3: (3, False), 4: (4, False),
                                   5: (5, True), 6: (5, True)}
    page = client.get(f"/t/{tournament.slug}/bracket/").content.decode()
    assert "Winners&#x27; bracket" in page or "Winners' bracket" in page
    assert "Losers&#x27; bracket" in page or "Losers' bracket" in page
    assert "Grand final" in page


def test_double_elimination_reset_through_the_services(organiser: Any) -> None:
    # 4 entrants, 3 beats 2 in W1 (W2: 1 beats 3); 2 comes back through the losers' bracket (beats
    # 4, then 3) and beats 1 in the final and in the reset: 2, 1, 3, 4
    tournament = make_tournament(organiser, entrants=4, format="knockout", knockout_style="double")
    upsets = [frozenset({2, 3}), frozenset({1, 2}), frozenset({1, 2})]
    while next_round_possible(tournament):
        _play_round(organiser, tournament, upsets)
    services.standings_recompute(tournament_id=tournament.pk)
    assert _places(tournament) == {2: (1, False), 1: (2, False), 3: (3, False), 4: (4, False)}
    assert tournament.rounds.count() == 5  # W1, W2 + L1, L2, GF, GF2


def test_double_elimination_as_the_knockout_after_groups(organiser: Any) -> None:
    tournament = services.tournament_create(actor=organiser, name="DE Stages", game="tac", format="stages",
                                            group_count=2, knockout_size=4, knockout_style="double")
    for i in range(1, 9):
        services.entrant_register(actor=organiser, tournament=tournament, name=f"T{i}",
                                  player_names=[f"P{i}a", f"P{i}b"], seed=i, group=1 + (i - 1) % 2)
    while next_round_possible(tournament):
        _play_round(organiser, tournament)
    services.standings_recompute(tournament_id=tournament.pk)
    places = _places(tournament)
    assert places[1] == (1, False) and places[2] == (2, False)
    assert sorted(rank for rank, _ in places.values())[:4] == [1, 2, 3, 4]


def test_double_elimination_needs_tables_of_two(organiser: Any) -> None:
    with pytest.raises(TournamentError):
        services.tournament_create(actor=organiser, name="X", game="taki", format="knockout",
                                   knockout_style="double")
    with pytest.raises(TournamentError):
        services.tournament_create(actor=organiser, name="X", game="tac", format="swiss", knockout_style="double")


def _finish(organiser: Any, table: Any) -> None:
    seats = sorted(table.seats.select_related("entrant"), key=lambda s: s.entrant.seed)
    services.result_override(actor=organiser, table=table,
                             scores={s.entrant_id: 8 if i == 0 else 4 for i, s in enumerate(seats)})


def test_rolling_double_elimination_starts_a_table_when_both_feeders_are_done(organiser: Any, client: Any) -> None:
    # 6 entrants, rolling: round 1 is W1-2 (4 v 5) and W1-4 (3 v 6). Once 4 v 5 is over, W2-1 (1 v 4)
    # may start while 3 v 6 is still played: the next round holds just that table, marked "May start"
    tournament = make_tournament(organiser, entrants=6, format="knockout", knockout_style="double",
                                 rolling_rounds=True)
    round_1 = services.round_publish(actor=organiser, round=services.round_generate(actor=organiser, tournament=tournament))
    table_45 = round_1.tables.get(bracket_key="W1-2")
    _finish(organiser, table_45)
    tournament.refresh_from_db()
    round_2 = services.round_publish(actor=organiser, round=services.round_generate(actor=organiser, tournament=tournament))
    assert [(t.bracket_key, sorted(s.entrant.seed for s in t.seats.all())) for t in round_2.tables.all()] == [
        ("W2-1", [1, 4])
    ]
    from tournaments.services.release import tables_released

    released = tables_released(tournament)
    assert released[round_2.tables.get().pk] == "playing"
    assert released[round_1.tables.get(bracket_key="W1-4").pk] == "playing"
    # a third round cannot be drawn while two rounds are open (one round ahead at most)
    with pytest.raises(TournamentError):
        services.round_generate(actor=organiser, tournament=tournament)
    _finish(organiser, round_1.tables.get(bracket_key="W1-4"))
    tournament.refresh_from_db()
    round_3 = services.round_publish(actor=organiser, round=services.round_generate(actor=organiser, tournament=tournament))
    assert [t.bracket_key for t in round_3.tables.all()] == ["W2-2"]
    # play everything out: the same places as round by round
    for table in round_2.tables.all():
        _finish(organiser, table)
    while next_round_possible(tournament):
        tournament.refresh_from_db()
        for round_ in tournament.rounds.filter(status="published"):
            for table in round_.tables.filter(is_bye=False):
                if not table.results.filter(state__in=Result.FINAL_STATES).exists():
                    _finish(organiser, table)
        tournament.refresh_from_db()
        if not next_round_possible(tournament):
            break
        services.round_publish(actor=organiser, round=services.round_generate(actor=organiser, tournament=tournament))
    services.standings_recompute(tournament_id=tournament.pk)
    assert _places(tournament) == {1: (1, False), 2: (2, False), 3: (3, False), 4: (4, False),
                                   5: (5, True), 6: (5, True)}


def test_simulate_tournament_plays_a_double_elimination() -> None:
    import io
    import json

    from django.core.management import call_command

    out = io.StringIO()
    call_command("simulate_tournament", "--game", "tac", "--format", "knockout", "--entrants", "12",
                 "--double-elimination", "--json", stdout=out)
    figures = json.loads(out.getvalue().strip().splitlines()[-1])
    # 12 in a bracket of 16: L round 1 all byes; out in L2 (4) share 9-12, L3 and L4 (2 each) 7-8 and
    # 5-6, then 4, 3, 2, 1
    assert [row["rank"] for row in figures["final_ranking"]] == [1, 2, 3, 4, 5, 5, 7, 7, 9, 9, 9, 9]
