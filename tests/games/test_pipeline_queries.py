"""Submitting, verifying and settling a record costs at most 15 queries (issue 14), whatever the game."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from games.models import GameRecord
from tests.games.conftest import one_table_tournament, random_record, relabel
from tests.tournaments.conftest import seated_entrants

pytestmark = pytest.mark.django_db

MAX_QUERIES_PER_RECORD = 15


@pytest.mark.parametrize(("game", "variant"), [("taki", {"seats": 2}), ("tac", {})])
def test_submit_verify_and_settle_take_at_most_15_queries(
    organiser: Any, django_capture_on_commit_callbacks: Any, game: str, variant: dict[str, Any]
) -> None:
    tournament, table = one_table_tournament(organiser, game, variant, name=f"Pipeline {game}")
    record = relabel(random_record(game, variant, seed=1), table)
    client = APIClient()
    token = seated_entrants(table)[0].report_token
    with CaptureQueriesContext(connection) as queries, django_capture_on_commit_callbacks(execute=True):
        response = client.post(f"/api/tables/{table.pk}/records/", data=json.dumps(record),
                               content_type="application/json", HTTP_X_REPORT_TOKEN=token)
    assert response.status_code == 201, response.content
    stored = GameRecord.objects.get(pk=response.json()["id"])
    assert stored.status == GameRecord.Status.VALID and stored.settlement == GameRecord.Settlement.SETTLED
    counted = [q["sql"] for q in queries if not q["sql"].startswith(("SAVEPOINT", "RELEASE SAVEPOINT"))]
    assert len(counted) <= MAX_QUERIES_PER_RECORD, "\n".join(counted)
