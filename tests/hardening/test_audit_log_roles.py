"""An audit log the app cannot rewrite (issue 15): on PostgreSQL, the role the app runs as (set up by
`manage.py grant_app_role`) may INSERT and SELECT audit rows but not UPDATE, DELETE, TRUNCATE them nor
disable the append-only trigger; its normal writes still work."""

from __future__ import annotations

import os
import uuid
from typing import Any

import pytest
from django.core.management import call_command
from django.db import connection, transaction

from tests.tournaments.conftest import make_tournament
from tournaments.models import AuditLog


@pytest.fixture
def app_role(db: Any) -> Any:
    if connection.vendor != "postgresql":
        if os.environ.get("REQUIRE_SERVICES") == "1":
            pytest.fail("the audit-role test needs PostgreSQL (REQUIRE_SERVICES=1)")
        pytest.skip("roles need PostgreSQL")
    role = f"tournaments_app_test_{uuid.uuid4().hex[:10]}"
    with connection.cursor() as cursor:
        cursor.execute(f'CREATE ROLE "{role}" NOLOGIN')  # rolled back with the test's transaction
    call_command("grant_app_role", role, stdout=open(os.devnull, "w"))  # noqa: SIM115
    return role


def _as(role: str, sql: str, params: list[Any] | None = None) -> None:
    """Run `sql` as `role` inside a savepoint (whose rollback also undoes the SET ROLE on failure)."""
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(f'SET LOCAL ROLE "{role}"')
        cursor.execute(sql, params or [])
        cursor.execute("RESET ROLE")


@pytest.mark.parametrize("statement", [
    "UPDATE tournaments_auditlog SET action = 'rewritten'",
    "DELETE FROM tournaments_auditlog",
    "TRUNCATE tournaments_auditlog",
    "ALTER TABLE tournaments_auditlog DISABLE TRIGGER tournaments_auditlog_no_update_delete",
    "ALTER TABLE tournaments_auditlog DISABLE TRIGGER ALL",
    "DROP TRIGGER tournaments_auditlog_no_update_delete ON tournaments_auditlog",
    "DROP TABLE tournaments_auditlog",
])
def test_the_app_role_cannot_rewrite_the_audit_log(app_role: str, org: Any, statement: str) -> None:
    from psycopg import errors

    make_tournament(org, entrants=2)  # leaves audit rows
    before = AuditLog.objects.count()
    assert before > 0
    with pytest.raises(Exception) as refused:
        _as(app_role, statement)
    assert isinstance(refused.value.__cause__, errors.InsufficientPrivilege), refused.value
    assert AuditLog.objects.count() == before


def test_the_app_role_can_work(app_role: str, org: Any) -> None:
    tournament = make_tournament(org, entrants=2)
    _as(app_role, "INSERT INTO tournaments_auditlog (tournament_id, action, object_type, object_id, data, "
                  "created_at) VALUES (%s, 'test', 'x', 1, '{}', now())", [tournament.pk])
    _as(app_role, "SELECT count(*) FROM tournaments_auditlog")
    _as(app_role, "UPDATE tournaments_tournament SET name = 'Renamed' WHERE id = %s", [tournament.pk])
    _as(app_role, "DELETE FROM tournaments_forbiddenpair")
    tournament.refresh_from_db()
    assert tournament.name == "Renamed"
    assert AuditLog.objects.filter(action="test").count() == 1


def test_the_app_role_can_copy_rows_and_take_ids(app_role: str, org: Any) -> None:
    """The bulk import writes by COPY and takes record ids from the sequences (tournaments.bulk_copy)."""
    from tournaments.bulk_copy import COPY_MIN_ROWS, copy_insert
    from tournaments.services.audit import audit_entry

    tournament = make_tournament(org, entrants=2)
    entries = [audit_entry(action="copied", tournament=tournament) for _ in range(COPY_MIN_ROWS)]
    with transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(f'SET LOCAL ROLE "{app_role}"')
        copy_insert(AuditLog, entries, ids=True)
        cursor.execute("RESET ROLE")
    assert AuditLog.objects.filter(action="copied", pk__in=[entry.pk for entry in entries]).count() == COPY_MIN_ROWS
