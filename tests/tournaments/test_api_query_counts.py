"""Reads do not grow in queries with the size of the tournament (no N+1)."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from tests.tournaments.conftest import make_tournament, seated_entrants
from tournaments import services

pytestmark = pytest.mark.django_db


def _played(organiser: Any, entrants: int, name: str) -> str:
    tournament = make_tournament(organiser, entrants=entrants, name=name)
    round_ = services.round_publish(actor=organiser, round=services.round_generate(actor=organiser,
                                                                                  tournament=tournament))
    for table in round_.tables.filter(is_bye=False):
        home, away = seated_entrants(table)
        services.result_override(actor=organiser, table=table, scores={home.pk: 8, away.pk: 4})
    services.standings_recompute(tournament_id=tournament.pk)
    return tournament.slug


@pytest.mark.parametrize("path", ["rounds/", "standings/", "entrants/", "export/results.csv",
                                  "export/pairings.csv", "export/entrants.csv", "export/standings.csv"])
def test_query_count_does_not_grow_with_the_field(organiser: Any, path: str) -> None:
    small = _played(organiser, 4, "Small")
    large = _played(organiser, 20, "Large")
    counts = []
    for slug in (small, large):
        with CaptureQueriesContext(connection) as queries:
            response = APIClient().get(f"/api/tournaments/{slug}/{path}")
        assert response.status_code == 200
        counts.append(len(queries))
    assert counts[0] == counts[1], counts
