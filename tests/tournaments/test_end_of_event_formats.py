"""The end of an event, the formats' part (docs/formats.md, "The end of an event"; issue 28)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.tournaments.conftest import make_tournament
from tournaments import services
from tournaments.models import Result, Round
from tournaments.services.rounds import next_round_possible, rounds_planned_derived

pytestmark = pytest.mark.django_db


def _play(organiser: Any, tournament: Any) -> Round:
    round_ = services.round_publish(actor=organiser, round=services.round_generate(actor=organiser, tournament=tournament))
    for table in round_.tables.filter(is_bye=False).order_by("number"):
        if table.results.filter(state__in=Result.FINAL_STATES).exists():
            continue
        seats = sorted(table.seats.select_related("entrant"), key=lambda s: s.entrant.seed)
        services.result_override(actor=organiser, table=table,
                                 scores={s.entrant_id: 8 if i == 0 else 4 for i, s in enumerate(seats)})
    tournament.refresh_from_db()
    return round_


def test_no_round_is_offered_after_the_final(organiser: Any, client: Any) -> None:
    # a knockout of 4 with a third-place match: semi-finals, then final + third place: 2 rounds
    tournament = make_tournament(organiser, entrants=4, format="knockout")
    assert rounds_planned_derived(tournament) == 2
    _play(organiser, tournament)
    assert next_round_possible(tournament)
    _play(organiser, tournament)
    assert not next_round_possible(tournament)
    client.force_login(organiser)
    page = client.get(f"/t/{tournament.slug}/manage/").content.decode()
    assert "Generate round 3" not in page
    assert "2 rounds planned" in page


def test_rounds_planned_are_derived_for_groups_then_knockout(organiser: Any) -> None:
    # 2 groups of 4 (3 rounds each) then a knockout of 4 (2 rounds): 5, whatever rounds_planned says
    tournament = services.tournament_create(actor=organiser, name="Stages", game="tac", format="stages",
                                            group_count=2, knockout_size=4, rounds_planned=9)
    for i in range(1, 9):
        services.entrant_register(actor=organiser, tournament=tournament, name=f"T{i}",
                                  player_names=[f"P{i}a", f"P{i}b"], seed=i, group=1 + (i - 1) % 2)
    assert rounds_planned_derived(tournament) == 5
    for _ in range(5):
        assert next_round_possible(tournament)
        _play(organiser, tournament)
    assert not next_round_possible(tournament)
    assert tournament.rounds.count() == 5


def test_swiss_stops_at_its_rounds_planned(organiser: Any) -> None:
    tournament = make_tournament(organiser, entrants=4, rounds_planned=2)
    assert rounds_planned_derived(tournament) == 2
    _play(organiser, tournament)
    _play(organiser, tournament)
    assert not next_round_possible(tournament)
