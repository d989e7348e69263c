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
    monkeypatch.setattr(ApiRateThrottle, "THROTTLE_RATES", {"anon": "3/min", "user": "4/min", "report_token": "2/min",
                                                            "anon_read": "8/min"})


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


def test_a_venue_behind_one_address_reads_the_public_pages(org: Any, low_rates: None) -> None:
    """Anonymous reads of the cached public API count in their own budget, sized for a hall; the
    expensive routes keep the tight one."""
    tournament = make_tournament(org, entrants=4)
    api = APIClient(REMOTE_ADDR=VENUE)
    reads = [f"/api/tournaments/{tournament.slug}/standings/", f"/api/tournaments/{tournament.slug}/",
             f"/api/tournaments/{tournament.slug}/rounds/"]
    statuses = [api.get(reads[i % 3]).status_code for i in range(8)]
    assert statuses == [200] * 8
    assert api.get(reads[0]).status_code == 429  # the hall's budget is a budget
    assert [api.get("/api/tournaments/").status_code for _ in range(4)] == [200, 200, 200, 429]
    other_address = APIClient(REMOTE_ADDR="192.0.2.11")
    assert other_address.get(reads[0]).status_code == 200


def test_a_throttled_answer_says_when_to_come_back(db: Any, low_rates: None) -> None:
    api = APIClient(REMOTE_ADDR=VENUE)
    for _ in range(3):
        api.get("/api/tournaments/")
    refused = api.get("/api/tournaments/")
    assert refused.status_code == 429 and 0 < int(refused["Retry-After"]) <= 60


def test_a_bucket_is_one_counter(db: Any, low_rates: None) -> None:
    """One integer per bucket (an atomic increment), not a list of every request's time."""
    from django.core.cache import cache

    api = APIClient(REMOTE_ADDR=VENUE)
    for _ in range(2):
        api.get("/api/tournaments/")
    assert cache.get(f"throttle:n:anon_{VENUE}") == 2


def test_rates_are_settings_read_from_the_environment() -> None:
    import os
    import subprocess
    import sys

    from django.conf import settings

    rates = settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]
    assert set(rates) == {"anon", "anon_read", "user", "report_token"}
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "config.settings", "API_THROTTLE_ANON_READ": "777/min",
           "API_THROTTLE_ANON": "5/min", "PUBLIC_CACHE_MAX_AGE": "9"}
    out = subprocess.run(
        [sys.executable, "-c", "from django.conf import settings as s; r = s.REST_FRAMEWORK['DEFAULT_THROTTLE_RATES'];"
         " print(r['anon_read'], r['anon'], s.PUBLIC_CACHE_MAX_AGE)"],
        env=env, capture_output=True, text=True, check=True, timeout=60)
    assert out.stdout.split() == ["777/min", "5/min", "9"]
    example = (settings.BASE_DIR / ".env.example").read_text()
    for name in ("API_THROTTLE_ANON_READ=", "PUBLIC_CACHE_MAX_AGE=", "PUBLIC_CACHE_STALE_WHILE_REVALIDATE="):
        assert name in example
