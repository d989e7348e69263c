"""The scoresheet throttle is keyed as the API's (`tournaments.api_throttles.request_ident`): an
account, else the entrant of a valid report token, else the client address, so made-up tokens do
not each open a fresh bucket."""

from __future__ import annotations

import secrets
from typing import Any

import pytest
from rest_framework.test import APIClient

from tests.tournaments.conftest import make_tournament, published_round, seated_entrants

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _two_a_minute(settings: Any) -> None:
    settings.SCORESHEET_THROTTLE_RATE = "2/min"


def _get(token: str) -> int:
    # no sheet 999999: 404 once through the throttle, 429 when the bucket is empty
    return APIClient().get("/api/scoresheets/999999/", HTTP_X_REPORT_TOKEN=token).status_code


def test_made_up_tokens_share_the_address_bucket() -> None:
    assert [_get(secrets.token_urlsafe(16)) for _ in range(3)] == [404, 404, 429]


def test_each_valid_token_has_the_bucket_of_its_entrant(organiser: Any) -> None:
    tournament = make_tournament(organiser, entrants=4)
    first, second = seated_entrants(published_round(organiser, tournament).tables.order_by("number")[0])
    assert [_get(first.report_token) for _ in range(2)] == [404, 404]
    assert [_get(second.report_token) for _ in range(2)] == [404, 404]  # same address, its own bucket
    assert _get(first.report_token) == 429
