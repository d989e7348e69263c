"""The hottest statements are prepared once per connection on PostgreSQL (tournaments/prepared_sql.py,
issue 26 fourth pass): a record's POST leaves its reads and its INSERT among the session's prepared
statements, a second POST prepares nothing more, the query log still shows their SQL, and with
`DB_PREPARED_STATEMENTS` off (no threshold) nothing is prepared and the POST answers the same."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from tests.games.conftest import random_record, relabel
from tests.tournaments.conftest import make_tournament, published_round, seated_entrants
from tournaments import prepared_sql

pytestmark = pytest.mark.django_db


def _prepared() -> list[str]:
    with connection.cursor() as cursor:
        cursor.execute("SELECT statement FROM pg_prepared_statements WHERE NOT from_sql ORDER BY prepare_time")
        return [row[0] for row in cursor.fetchall()]


def _post(table: Any, seed: int) -> Any:
    client = APIClient()
    client.credentials(HTTP_X_REPORT_TOKEN=seated_entrants(table)[0].report_token)
    record = relabel(random_record("tac", {}, seed=seed), table)
    return client.post(f"/api/tables/{table.pk}/records/", data=json.dumps(record), content_type="application/json")


def _tables(organiser: Any) -> list[Any]:
    tournament = make_tournament(organiser, game="tac", entrants=4, name="Prepared Cup")
    return list(published_round(organiser, tournament).tables.filter(is_bye=False).order_by("number"))


def test_a_record_post_prepares_its_statements_once(organiser: Any) -> None:
    if connection.vendor != "postgresql":
        pytest.skip("prepared statements are PostgreSQL's")
    one, two = _tables(organiser)
    connection.ensure_connection()
    assert connection.connection.prepare_threshold == 0  # DB_PREPARED_STATEMENTS, on by default
    before = set(_prepared())
    with CaptureQueriesContext(connection) as first:
        assert _post(one, seed=1).status_code == 201
    prepared = [statement for statement in _prepared() if statement not in before]
    assert any('FROM "tournaments_seat" s' in statement for statement in prepared), prepared
    assert any('INSERT INTO "games_gamerecord"' in statement for statement in prepared), prepared
    assert any(' t INNER JOIN "tournaments_round" r' in statement for statement in prepared), prepared
    # the query log shows the prepared statements' SQL, as for any other
    logged = [query["sql"] for query in first.captured_queries]
    assert all(isinstance(sql, str) and sql for sql in logged), logged
    assert any('FROM "tournaments_seat" s' in sql for sql in logged)
    assert _post(two, seed=2).status_code == 201
    assert len(_prepared()) == len(before) + len(prepared)  # the second POST runs them, prepares none


def test_without_a_threshold_nothing_is_prepared(organiser: Any) -> None:
    if connection.vendor != "postgresql":
        pytest.skip("prepared statements are PostgreSQL's")
    one, _two = _tables(organiser)
    connection.ensure_connection()
    previous = connection.connection.prepare_threshold
    connection.connection.prepare_threshold = None  # DB_PREPARED_STATEMENTS=False
    try:
        before = _prepared()
        answer = _post(one, seed=3)
        assert answer.status_code == 201, answer.json()
        assert _prepared() == before
    finally:
        connection.connection.prepare_threshold = previous


def test_elsewhere_the_cursor_is_djangos(organiser: Any) -> None:
    with prepared_sql.cursor() as cursor:
        cursor.execute("SELECT %s + 1", [41])
        assert cursor.fetchone()[0] == 42


def test_lock_tournament_returns_the_row_the_orm_reads_with_its_bump(organiser: Any) -> None:
    """`lock_tournament` (prepared on PostgreSQL, its row built from its columns on every database) gives the
    tournament as the ORM reads it, `public_version` bumped by one; a missing id is NOT_FOUND."""
    from django.db import transaction

    from tournaments.errors import TournamentError
    from tournaments.models import Tournament
    from tournaments.services.locking import lock_tournament

    tournament = make_tournament(organiser, game="tac", entrants=4, name="Locked Cup")
    before = Tournament.objects.get(pk=tournament.pk)
    with transaction.atomic():
        locked = lock_tournament(tournament.pk)
    after = Tournament.objects.get(pk=tournament.pk)
    assert locked.public_version == before.public_version + 1 == after.public_version
    for field in Tournament._meta.concrete_fields:
        assert getattr(locked, field.attname) == getattr(after, field.attname), field.name
    assert locked._state.adding is False and locked._state.db == "default"
    with pytest.raises(TournamentError) as refused, transaction.atomic():
        lock_tournament(2**40)
    assert refused.value.code == "not_found"
