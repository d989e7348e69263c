"""API throttles keyed on the user, the report token or the client (issue 15): a venue of players behind
one address can report, each with their own budget; rotating X-Forwarded-For changes nothing."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from tests.tournaments.conftest import make_tournament
from tournaments.api_throttles import ApiRateThrottle

VENUE = "192.0.2.10"


@pytest.fixture
def low_rates(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(ApiRateThrottle, "THROTTLE_RATES", {"anon": "3/min", "user": "4/min", "report_token": "2/min"})


def test_players_behind_one_address_each_have_their_own_budget(org: Any, low_rates: None) -> None:
    tournament = make_tournament(org, entrants=8)
    tokens = list(tournament.entrants.values_list("report_token", flat=True))
    api = APIClient(REMOTE_ADDR=VENUE)
    # far more requests from the venue's one address than the anonymous limit allows
    statuses = [api.get("/api/tournaments/", HTTP_X_REPORT_TOKEN=token).status_code
                for token in tokens for _ in range(2)]
    assert statuses == [200] * 16
    # each token still has its own limit
    assert api.get("/api/tournaments/", HTTP_X_REPORT_TOKEN=tokens[0]).status_code == 429


def test_unknown_tokens_count_against_the_client(org: Any, low_rates: None) -> None:
    api = APIClient(REMOTE_ADDR=VENUE)
    statuses = [api.get("/api/tournaments/", HTTP_X_REPORT_TOKEN=f"guess-{i}").status_code for i in range(4)]
    assert statuses == [200, 200, 200, 429]


def test_rotating_x_forwarded_for_does_not_reset_the_anonymous_budget(db: Any, low_rates: None) -> None:
    api = APIClient(REMOTE_ADDR=VENUE)
    statuses = [api.get("/api/tournaments/", HTTP_X_FORWARDED_FOR=f"198.51.100.{i}").status_code
                for i in range(4)]
    assert statuses == [200, 200, 200, 429]
    assert api.get("/api/tournaments/", HTTP_X_FORWARDED_FOR="203.0.113.1").json()["error"]["code"] == "throttled"


def test_users_are_keyed_on_the_account(org: Any, other: Any, low_rates: None) -> None:
    first, second = APIClient(REMOTE_ADDR=VENUE), APIClient(REMOTE_ADDR=VENUE)
    first.force_authenticate(org)
    second.force_authenticate(other)
    assert [first.get("/api/tournaments/").status_code for _ in range(5)] == [200] * 4 + [429]
    assert second.get("/api/tournaments/").status_code == 200


def test_token_in_a_json_body_is_keyed_on_the_token(org: Any, low_rates: None) -> None:
    tournament = make_tournament(org, entrants=4)
    token = tournament.entrants.first().report_token
    api = APIClient(REMOTE_ADDR=VENUE)
    for _ in range(3):  # spend the address's anonymous budget
        api.get("/api/tournaments/")
    response = api.post("/api/results/999999/confirm/", {"token": token}, format="json")
    assert response.status_code == 404  # not throttled: the token has its own budget


def test_rates_are_settings() -> None:
    from django.conf import settings

    rates = settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]
    assert set(rates) == {"anon", "user", "report_token"}
