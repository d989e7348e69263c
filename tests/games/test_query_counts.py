"""Submitting and verifying a record costs the same number of queries whatever the table size (no N+1)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from tests.games.conftest import one_table_tournament, random_record, relabel
from tests.tournaments.conftest import seated_entrants

pytestmark = pytest.mark.django_db


def _queries(organiser: Any, seats: int, capture: Any) -> int:
    tournament, table = one_table_tournament(organiser, "taki", {"seats": seats}, name=f"Q{seats}")
    record = relabel(random_record("taki", {"seats": seats}, seed=1), table)
    client = APIClient()
    token = seated_entrants(table)[0].report_token
    with CaptureQueriesContext(connection) as queries, capture(execute=True):
        response = client.post(f"/api/tables/{table.pk}/records/", data=json.dumps(record),
                               content_type="application/json", HTTP_X_REPORT_TOKEN=token)
    assert response.status_code == 201
    with CaptureQueriesContext(connection) as reads:
        listing = client.get(f"/api/tournaments/{tournament.slug}/records/")
    assert listing.status_code == 200 and listing.json()["count"] == 1 and len(listing.json()["results"]) == 1
    return len(queries) + len(reads)


def test_submission_queries_do_not_grow_with_the_table(organiser: Any, django_capture_on_commit_callbacks: Any) -> None:
    small = _queries(organiser, 3, django_capture_on_commit_callbacks)
    large = _queries(organiser, 8, django_capture_on_commit_callbacks)
    assert large <= small + 2, (small, large)
