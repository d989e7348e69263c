"""A tamper-evident audit log and one open result per table (issue 29), on PostgreSQL.

Each audit row is chained to the previous one of its tournament by a hash the database computes, with a
time the database sets; `manage.py audit_verify` recomputes every chain and names the rows where it breaks.
The app role's own inserts cannot choose the time nor break the chain; a superuser who edits, removes or
slips in a row (triggers off) is caught. The database refuses a pending result beside a final one.
"""

from __future__ import annotations

import io
import os
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from django.core.management import call_command
from django.db import IntegrityError, connection, transaction
from django.utils import timezone

from tests.hardening.test_audit_log_roles import _as, app_role  # noqa: F401 - the fixture
from tests.tournaments.conftest import make_tournament, published_round
from tournaments import services
from tournaments.models import AuditLog, Result


@pytest.fixture
def postgres(db: Any) -> None:
    if connection.vendor != "postgresql":
        if os.environ.get("REQUIRE_SERVICES") == "1":
            pytest.fail("the audit chain needs PostgreSQL (REQUIRE_SERVICES=1)")
        pytest.skip("the audit chain is kept on PostgreSQL")


def _verify(*args: str) -> tuple[int, str]:
    err = io.StringIO()
    try:
        call_command("audit_verify", *args, stdout=io.StringIO(), stderr=err)
    except SystemExit as exit_:
        return int(exit_.code or 0), err.getvalue()
    return 0, err.getvalue()


def _busy_tournament(org: Any) -> Any:
    tournament = make_tournament(org, entrants=6)
    round_ = published_round(org, tournament)
    for table in round_.tables.filter(is_bye=False):
        home, away = [s.entrant for s in table.seats.order_by("position")]
        services.result_override(actor=org, table=table, scores={home.pk: 8, away.pk: 3})
    return tournament


def _tamper(sql: str, params: list[Any]) -> None:
    with transaction.atomic(), connection.cursor() as cursor:  # as the superuser, triggers off
        cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")  # (deferred foreign-key checks first)
        cursor.execute("ALTER TABLE tournaments_auditlog DISABLE TRIGGER USER")
        cursor.execute(sql, params)
        cursor.execute("ALTER TABLE tournaments_auditlog ENABLE TRIGGER USER")


def test_rows_are_chained_per_tournament_and_the_chain_verifies(postgres: None, org: Any) -> None:
    first, second = _busy_tournament(org), _busy_tournament(org)
    for tournament in (first, second):
        rows = list(AuditLog.objects.filter(tournament=tournament).order_by("chain_seq"))
        assert [r.chain_seq for r in rows] == list(range(1, len(rows) + 1))
        assert rows[0].prev_hash == "" and all(len(r.row_hash) == 64 for r in rows)
        assert all(b.prev_hash == a.row_hash for a, b in zip(rows, rows[1:], strict=False))
    assert _verify() == (0, "")
    assert _verify("--tournament", first.slug) == (0, "")


def test_the_database_sets_the_time(postgres: None, org: Any, app_role: str) -> None:  # noqa: F811
    tournament = make_tournament(org, entrants=2)
    forged = datetime(2001, 1, 1, tzinfo=UTC)
    _as(app_role, "INSERT INTO tournaments_auditlog (tournament_id, action, object_type, object_id, data, "
                  "created_at, prev_hash, row_hash, chain_seq) VALUES (%s, 'forged', 'x', 1, '{}', %s, 'a', 'b', 99)",
        [tournament.pk, forged])
    row = AuditLog.objects.get(action="forged")
    assert abs(row.created_at - timezone.now()) < timedelta(minutes=5)  # the database's clock, not the writer's
    assert row.chain_seq == AuditLog.objects.filter(tournament=tournament).count()  # chained, not 99
    assert _verify() == (0, "")


@pytest.mark.parametrize("tampering", ["edit", "delete", "insert", "backdate"])
def test_tampering_by_a_superuser_breaks_the_chain(postgres: None, org: Any, tampering: str) -> None:
    tournament = _busy_tournament(org)
    rows = list(AuditLog.objects.filter(tournament=tournament).order_by("chain_seq"))
    victim = rows[len(rows) // 2]
    if tampering == "edit":
        _tamper("UPDATE tournaments_auditlog SET data = '{\"scores\": \"forged\"}' WHERE id = %s", [victim.pk])
    elif tampering == "delete":
        _tamper("DELETE FROM tournaments_auditlog WHERE id = %s", [victim.pk])
    elif tampering == "backdate":
        _tamper("UPDATE tournaments_auditlog SET created_at = created_at - interval '1 day' WHERE id = %s",
                [victim.pk])
    else:
        _tamper("INSERT INTO tournaments_auditlog (tournament_id, action, object_type, data, created_at, "
                "chain_seq, prev_hash, row_hash) SELECT tournament_id, 'forged', 'x', '{}', created_at, "
                "chain_seq + 1000, row_hash, row_hash FROM tournaments_auditlog WHERE id = %s", [victim.pk])
    status, report = _verify()
    assert status == 1, report
    assert f"tournament {tournament.pk} row" in report
    assert _verify("--tournament", tournament.slug)[0] == 1


def test_the_database_refuses_a_pending_result_beside_a_final_one(postgres: None, org: Any) -> None:
    tournament = make_tournament(org, entrants=2)
    table = published_round(org, tournament).tables.filter(is_bye=False).first()
    Result.objects.create(table=table, state="confirmed")
    with pytest.raises(IntegrityError), transaction.atomic():
        Result.objects.create(table=table, state="reported")
