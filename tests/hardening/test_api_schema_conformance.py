"""Schema conformance (issue 15): schemathesis drives every operation of /api/schema/ through the WSGI app
against a seeded database (a tournament with a published round and results, an organiser's token) with
all of its checks; any failure fails the test. Bounded by SCHEMATHESIS_MAX_EXAMPLES per operation."""

from __future__ import annotations

import os
from typing import Any

import pytest
import schemathesis
from hypothesis import HealthCheck, settings

from tests.tournaments.conftest import make_tournament, published_round, seated_entrants

MAX_EXAMPLES = int(os.environ.get("SCHEMATHESIS_MAX_EXAMPLES", "12"))


@pytest.fixture
def api_schema(db: Any) -> Any:
    from config.wsgi import application

    return schemathesis.openapi.from_wsgi("/api/schema/", application)


schema = schemathesis.pytest.from_fixture("api_schema")


@pytest.fixture
def seeded(db: Any) -> dict[str, Any]:
    from django.contrib.auth import get_user_model
    from rest_framework.authtoken.models import Token

    from tournaments import services

    organiser = get_user_model().objects.create_user("org", password="org-password-1", is_superuser=False)
    tournament = make_tournament(organiser, name="cup")
    round_ = published_round(organiser, tournament)
    for table in round_.tables.filter(is_bye=False):
        home, away = seated_entrants(table)
        services.result_override(actor=organiser, table=table, scores={home.pk: 8, away.pk: 2})
    services.standings_recompute(tournament_id=tournament.pk)
    token = Token.objects.create(user=organiser)
    return {"token": token.key, "tournament": tournament}


@schema.parametrize()
@settings(max_examples=MAX_EXAMPLES, deadline=None, derandomize=True,
          suppress_health_check=list(HealthCheck))
def test_api_conforms_to_its_schema(case: Any, seeded: dict[str, Any]) -> None:
    from django.core.cache import cache

    cache.clear()  # the throttle is not what is tested here
    case.call_and_validate(headers={"Authorization": f"Token {seeded['token']}"})
