"""Bulk writes at 400 entrants cost a fixed number of queries, not one or more per entrant (issue 29:
`POST .../entrants/drop-absent/` on 400 entrants ran past gunicorn's 30 s timeout under load, a query per
entrant for its open tables, an INSERT per audit row and a lazy load of each entrant's players)."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from tournaments import services
from tournaments.models import AuditLog, Entrant

pytestmark = pytest.mark.django_db


def _tournament(organiser: Any, entrants: int, checked_in: int) -> Any:
    tournament = services.tournament_create(actor=organiser, name=f"Bulk {entrants}", game="taki",
                                            checkin_required=True)
    services.entrants_import_csv(actor=organiser, tournament=tournament,
                                 csv_text="name\n" + "\n".join(f"E{i:04d}" for i in range(entrants)) + "\n")
    for entrant in tournament.entrants.order_by("pk")[:checked_in]:
        services.entrant_check_in(actor=organiser, entrant=entrant)
    return tournament


def _drop_absent_queries(organiser: Any, entrants: int) -> tuple[int, Any]:
    tournament = _tournament(organiser, entrants, checked_in=entrants // 4)
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.get_or_create(user=organiser)[0].key}")
    with CaptureQueriesContext(connection) as queries:
        response = client.post(f"/api/tournaments/{tournament.slug}/entrants/drop-absent/")
    assert response.status_code == 200, response.content
    assert len(response.json()) == entrants - entrants // 4
    assert all(row["players"] for row in response.json())
    return len(queries), tournament


def test_drop_absent_at_400_entrants_costs_what_it_costs_at_40(organiser: Any) -> None:
    small, _ = _drop_absent_queries(organiser, 40)
    large, tournament = _drop_absent_queries(organiser, 400)
    # (the same statements; SQLite splits the audit rows' INSERT into batches of its variable limit)
    assert large <= small + 4, f"40 entrants: {small} queries, 400 entrants: {large}"
    assert large <= 20
    assert Entrant.objects.filter(tournament=tournament, status="dropped").count() == 300
    assert AuditLog.objects.filter(tournament=tournament, action="entrant_dropped").count() == 300


def test_the_import_answer_loads_no_player_lazily(organiser: Any) -> None:
    """The import checks and writes each row in a savepoint (9 queries a row: pinned here, so that it does
    not grow); its answer adds two queries for every entrant's players, not one per entrant."""
    counts = []
    for size in (40, 400):
        tournament = services.tournament_create(actor=organiser, name=f"Imp {size}", game="taki")
        client = APIClient()
        client.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.get_or_create(user=organiser)[0].key}")
        csv_text = "name\n" + "\n".join(f"I{i:04d}" for i in range(size)) + "\n"
        with CaptureQueriesContext(connection) as queries:
            response = client.post(f"/api/tournaments/{tournament.slug}/entrants/import/", {"csv": csv_text},
                                   format="json")
        assert response.status_code == 201
        counts.append(len(queries))
    per_row = (counts[1] - counts[0]) / 360
    assert per_row <= 9, counts  # the rows' own checks and inserts only
