"""Two players reporting conflicting results for one table at the same moment, on PostgreSQL:
exactly one succeeds, the other gets 409, and the table never has two results."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.db import IntegrityError, connection, transaction
from rest_framework.test import APIClient

from tests.services.conftest import race
from tournaments import services
from tournaments.models import Result, Tournament

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def postgres(require_services: None) -> None:
    assert connection.vendor == "postgresql"


def _scene(tables: int) -> tuple[Any, Tournament, Any]:
    organiser = get_user_model().objects.create_user("org-race")
    tournament = services.tournament_create(actor=organiser, name="Race Cup", game="tac")
    for i in range(tables * 2):
        services.entrant_register(actor=organiser, tournament=tournament, name=f"R{i}",
                                  player_names=[f"r{i}a", f"r{i}b"], seed=i + 1)
    round_ = services.round_publish(actor=organiser, round=services.round_generate(actor=organiser,
                                                                                  tournament=tournament))
    return organiser, tournament, round_


def test_conflicting_reports_through_the_api_give_one_success_and_one_409(postgres: None) -> None:
    _, _, round_ = _scene(tables=6)
    for table in round_.tables.order_by("number"):
        home, away = [s.entrant for s in table.seats.order_by("position")]

        def report(entrant: Any, scores: dict[str, int], table_id: int = table.pk) -> Any:
            return APIClient().post(f"/api/tables/{table_id}/report/", {"scores": scores, "token": entrant.report_token},
                                    format="json")

        outcomes = race([
            lambda home=home, away=away: report(home, {str(home.pk): 8, str(away.pk): 2}),
            lambda home=home, away=away: report(away, {str(home.pk): 1, str(away.pk): 8}),
        ])
        statuses = sorted(o.status_code for o in outcomes)
        assert statuses == [201, 409], [getattr(o, "content", o) for o in outcomes]
        loser = next(o for o in outcomes if o.status_code == 409)
        assert loser.json()["error"]["code"] == "result_already_reported"
        assert Result.objects.filter(table=table).count() == 1


def test_concurrent_confirm_and_override_leave_exactly_one_final_result(postgres: None) -> None:
    organiser, _, round_ = _scene(tables=4)
    for table in round_.tables.order_by("number"):
        home, away = [s.entrant for s in table.seats.order_by("position")]
        pending = services.result_report(table=table, token=home.report_token, scores={home.pk: 8, away.pk: 4})
        outcomes = race([
            lambda pending=pending, away=away: services.result_confirm(result=pending, token=away.report_token),
            lambda table=table, home=home, away=away: services.result_override(
                actor=organiser, table=table, scores={home.pk: 5, away.pk: 8}),
        ])
        assert sum(isinstance(o, Result) for o in outcomes) >= 1
        assert Result.objects.filter(table=table, state__in=Result.FINAL_STATES).count() == 1


def test_partial_unique_constraint_holds_on_postgres(postgres: None) -> None:
    _, _, round_ = _scene(tables=1)
    table = round_.tables.get()
    Result.objects.create(table=table, state="confirmed")
    with pytest.raises(IntegrityError), transaction.atomic():
        Result.objects.create(table=table, state="overridden")


def test_audit_log_rows_cannot_be_changed_even_by_sql(postgres: None) -> None:
    _scene(tables=1)
    with pytest.raises(Exception, match="append-only"), transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("UPDATE tournaments_auditlog SET action = 'forged'")
    with pytest.raises(Exception, match="append-only"), transaction.atomic(), connection.cursor() as cursor:
        cursor.execute("DELETE FROM tournaments_auditlog")
