"""Refused requests that matter leave a line in the security log (issue 15): a wrong report token
(API and private-link pages), an override by someone who is not an organiser, a login lockout."""

from __future__ import annotations

import logging
from typing import Any

import pytest
from django.test import Client
from rest_framework.test import APIClient

from tests.tournaments.conftest import make_tournament, published_round, seated_entrants


@pytest.fixture
def table_setup(org: Any) -> dict[str, Any]:
    tournament = make_tournament(org, entrants=4)
    round_ = published_round(org, tournament)
    table = round_.tables.filter(is_bye=False).order_by("number").first()
    home, away = seated_entrants(table)
    return {"tournament": tournament, "table": table, "home": home, "away": away}


def security_lines(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [r.getMessage() for r in caplog.records if r.name == "tournaments.security"]


def test_a_wrong_report_token_is_logged(table_setup: dict[str, Any], caplog: pytest.LogCaptureFixture) -> None:
    table, home, away = table_setup["table"], table_setup["home"], table_setup["away"]
    with caplog.at_level(logging.WARNING, logger="tournaments.security"):
        response = APIClient(REMOTE_ADDR="203.0.113.9").post(
            f"/api/tables/{table.pk}/report/",
            {"token": "not-the-token", "scores": {str(home.pk): 8, str(away.pk): 1}}, format="json")
    assert response.status_code == 403
    lines = security_lines(caplog)
    assert len(lines) == 1 and "report_token_refused" in lines[0] and "203.0.113.9" in lines[0]
    assert f"/api/tables/{table.pk}/report/" in lines[0] and "not-the-token" not in lines[0]


def test_a_wrong_private_link_is_logged(table_setup: dict[str, Any], caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.WARNING, logger="tournaments.security"):
        assert Client().get("/report/guessed-token/").status_code == 404
    assert any("report_token_refused" in line for line in security_lines(caplog))


def test_a_forbidden_override_is_logged(table_setup: dict[str, Any], other: Any,
                                        caplog: pytest.LogCaptureFixture) -> None:
    table, home, away = table_setup["table"], table_setup["home"], table_setup["away"]
    api = APIClient()
    api.force_authenticate(other)
    with caplog.at_level(logging.WARNING, logger="tournaments.security"):
        response = api.post(f"/api/tables/{table.pk}/override/", {"scores": {str(home.pk): 8, str(away.pk): 1}},
                            format="json")
    assert response.status_code == 403
    lines = security_lines(caplog)
    assert len(lines) == 1 and "override_refused" in lines[0] and "user='other'" in lines[0]


def test_a_lockout_is_logged(org: Any, caplog: pytest.LogCaptureFixture) -> None:
    api = APIClient(REMOTE_ADDR="203.0.113.10")
    with caplog.at_level(logging.WARNING, logger="tournaments.security"):
        for i in range(10):
            api.post("/api/auth/token/", {"username": "org", "password": f"x{i}"}, format="json")
    assert any("login_locked" in line and "org" in line for line in security_lines(caplog))


def test_the_right_token_logs_nothing(table_setup: dict[str, Any], caplog: pytest.LogCaptureFixture) -> None:
    table, home, away = table_setup["table"], table_setup["home"], table_setup["away"]
    with caplog.at_level(logging.WARNING, logger="tournaments.security"):
        response = APIClient().post(f"/api/tables/{table.pk}/report/",
                                    {"token": home.report_token, "scores": {str(home.pk): 8, str(away.pk): 1}},
                                    format="json")
    assert response.status_code == 201 and security_lines(caplog) == []
