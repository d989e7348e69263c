"""Places of no-shows and of entrants who left (docs/formats.md, Final places rules 7 and 9; issue 28)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.tournaments.conftest import make_tournament
from tournaments import services
from tournaments.models import Entrant, Result, StandingRow
from tournaments.standings.final_ranking import StagePlace, final_ranking

pytestmark = pytest.mark.django_db


def _finish_open_tables(organiser: Any, round_: Any) -> None:
    """The better seed wins 8:4 at every table without a final result."""
    for table in round_.tables.filter(is_bye=False).order_by("number"):
        if table.results.filter(state__in=Result.FINAL_STATES).exists():
            continue
        seats = sorted(table.seats.select_related("entrant"), key=lambda s: s.entrant.seed)
        services.result_override(actor=organiser, table=table,
                                 scores={s.entrant_id: 8 if i == 0 else 4 for i, s in enumerate(seats)})


def test_no_show_ranks_last_and_leaving_by_forfeit_is_not_playing_on(organiser: Any) -> None:
    # Swiss of 8 with check-in, 3 rounds. Seed 8 never checks in: never paired, it ranks last,
    # below the two entrants who played and dropped (before: 7th, above them).
    # Round 1 (7 play, seed 7 has the bye as the lowest): 1-4, 2-5, 3-6 -- the better seed wins.
    # Seed 3 won its only game and leaves before round 2. In round 2 seed 6 (lost round 1) is paired,
    # then leaves: its table is forfeited by its drop. Before the fix 6 "played" round 2, so 3 (2
    # points) was moved below 6 (0 points); now both last played round 1 and keep their results'
    # order: 3 above 6, both below everyone who played on, the no-show below both.
    tournament = make_tournament(organiser, entrants=8, rounds_planned=3, checkin_required=True)
    by_seed = {e.seed: e for e in Entrant.objects.filter(tournament=tournament)}
    for seed in range(1, 8):
        services.entrant_check_in(actor=organiser, entrant=by_seed[seed])
    round_1 = services.round_publish(actor=organiser, round=services.round_generate(actor=organiser, tournament=tournament))
    _finish_open_tables(organiser, round_1)
    services.entrant_drop(actor=organiser, entrant=by_seed[3])
    round_2 = services.round_publish(actor=organiser, round=services.round_generate(actor=organiser, tournament=tournament))
    assert round_2.tables.filter(seats__entrant=by_seed[6]).exists()
    services.entrant_drop(actor=organiser, entrant=by_seed[6])  # forfeits its round-2 table
    assert Result.objects.filter(table__round=round_2, closed_by_drop=by_seed[6]).exists()
    _finish_open_tables(organiser, round_2)
    round_3 = services.round_publish(actor=organiser, round=services.round_generate(actor=organiser, tournament=tournament))
    _finish_open_tables(organiser, round_3)
    services.standings_recompute(tournament_id=tournament.pk)
    seeds = [
        (row.entrant.seed, row.rank, row.shared_rank)
        for row in StandingRow.objects.filter(tournament=tournament).select_related("entrant").order_by("rank")
    ]
    assert seeds[-1] == (8, 8, False)  # the no-show, alone last
    assert [seed for seed, *_ in seeds[-3:]] == [3, 6, 8]


def test_never_paired_rank_last_together() -> None:
    # pure: entrants 4 and 5 were never paired; 3 dropped after round 1 -> 1, 2, 3, then 4-5 shared
    stage = [StagePlace(e, rank, (float(rank),)) for e, rank in [(4, 1), (1, 1), (5, 3), (2, 4), (3, 5)]]
    rows = final_ranking(stage=stage, last_round={1: 3, 2: 3, 3: 1}, dropped={3}, never_paired={4, 5})
    assert [(r.entrant_id, r.rank, r.shared_rank) for r in rows] == [(1, 1, False), (2, 2, False), (3, 3, False),
                                                                      (4, 4, True), (5, 4, True)]


def test_standings_page_says_how_a_bye_counted_and_the_bye_rule_is_a_setting(organiser: Any, client: Any) -> None:
    # 5 entrants: a bye each round. The page lists, per column shown, how the bye entered it.
    tournament = make_tournament(organiser, entrants=5, rounds_planned=2,
                                 tiebreak_order=["match_points", "buchholz", "median_buchholz"])
    for _ in range(2):
        round_ = services.round_publish(actor=organiser, round=services.round_generate(actor=organiser, tournament=tournament))
        _finish_open_tables(organiser, round_)
    services.standings_recompute(tournament_id=tournament.pk)
    page = client.get(f"/t/{tournament.slug}/standings/").content.decode()
    assert "How a bye counts" in page
    assert "a game against itself" in page
    services.tournament_update(actor=organiser, tournament=tournament, bye_tiebreak="virtual_opponent")
    page = client.get(f"/t/{tournament.slug}/standings/").content.decode()
    assert "virtual opponent" in page
    from rest_framework.test import APIClient

    api = APIClient()
    api.force_authenticate(organiser)
    bad = api.patch(f"/api/tournaments/{tournament.slug}/", {"bye_tiebreak": "ignore"}, format="json")
    assert bad.status_code == 400
    assert api.get(f"/api/tournaments/{tournament.slug}/").json()["bye_tiebreak"] == "virtual_opponent"


def test_stage_event_games_played_count_the_stage_before_the_knockout(organiser: Any) -> None:
    # groups then a knockout: GP and Pts count the same (group) games; the knockout's are on the bracket
    tournament = services.tournament_create(actor=organiser, name="Stages", game="tac", format="stages",
                                            group_count=2, knockout_size=4)
    for i in range(1, 9):
        services.entrant_register(actor=organiser, tournament=tournament, name=f"T{i}",
                                  player_names=[f"P{i}a", f"P{i}b"], seed=i, group=1 + (i - 1) % 2)
    while True:
        round_ = services.round_publish(actor=organiser, round=services.round_generate(actor=organiser, tournament=tournament))
        _finish_open_tables(organiser, round_)
        if round_.stage == "knockout":
            break
    services.standings_recompute(tournament_id=tournament.pk)
    for row in StandingRow.objects.filter(tournament=tournament):
        assert row.games_played == 3  # a group of 4: three games, whatever the knockout added
        assert row.values["match_points"] <= 6
