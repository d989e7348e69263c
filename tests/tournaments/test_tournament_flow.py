"""The organiser's main path through the services: create, register, pair, publish, report, confirm."""

from __future__ import annotations

from typing import Any

import pytest

from tests.tournaments.conftest import first_table, published_round, seated_entrants, user_for_entrant
from tournaments import services
from tournaments.models import AuditLog, Result, Round, StandingRow, Tournament


@pytest.mark.django_db
def test_swiss_round_is_reported_confirmed_and_standings_follow(organiser: Any, tac: Tournament,
                                                                django_capture_on_commit_callbacks: Any) -> None:
    round_ = published_round(organiser, tac)
    assert round_.status == Round.Status.PUBLISHED
    assert round_.tables.filter(is_bye=False).count() == 2
    table = first_table(round_)
    home, away = seated_entrants(table)
    home_user = user_for_entrant(home, "home")
    away_user = user_for_entrant(away, "away")
    with django_capture_on_commit_callbacks(execute=True):
        report = services.result_report(table=table, actor=home_user, scores={home.pk: 8, away.pk: 5})
        assert report.state == Result.State.REPORTED
        confirmed = services.result_confirm(result=report, actor=away_user)
    assert confirmed.state == Result.State.CONFIRMED
    tac.refresh_from_db()
    assert tac.results_version == 1
    assert tac.standings_version == 1
    top = StandingRow.objects.get(tournament=tac, entrant=home)
    assert top.values["match_points"] == 2.0
    assert top.values["marble_difference"] == 3.0
    assert StandingRow.objects.get(tournament=tac, entrant=away).values["match_points"] == 0.0
    actions = list(AuditLog.objects.filter(tournament=tac).values_list("action", flat=True))
    assert "result_reported" in actions and "result_confirmed" in actions
