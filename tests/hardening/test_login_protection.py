"""Login protection (issue 15): at most 10 failures per account or client on the web login and on
POST /api/auth/token/, then 429 with a message and a timed release; other users are unaffected;
X-Forwarded-For only counts as far as TRUSTED_PROXY_COUNT says."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from axes.models import AccessAttempt
from django.test import Client
from rest_framework.test import APIClient

LIMIT = 10


def web_login(client: Client, username: str, password: str, **extra: Any) -> Any:
    return client.post("/accounts/login/", {"username": username, "password": password}, **extra)


def token_login(client: APIClient, username: str, password: str, **extra: Any) -> Any:
    return client.post("/api/auth/token/", {"username": username, "password": password}, format="json", **extra)


def release_lockouts() -> None:
    """Move every counted failure past the lockout period (what the clock does in 15 minutes)."""
    for attempt in AccessAttempt.objects.all():
        attempt.attempt_time -= timedelta(minutes=16)
        attempt.save(update_fields=["attempt_time"])


def test_web_login_locks_an_account_after_ten_failures(org: Any, other: Any) -> None:
    client = Client(REMOTE_ADDR="10.0.0.1")
    statuses = [web_login(client, "org", f"wrong-{i}").status_code for i in range(LIMIT)]
    assert statuses[: LIMIT - 1] == [200] * (LIMIT - 1)  # the form again, with its error
    assert statuses[-1] == 429
    # the right password is refused now, with a message and a Retry-After
    response = web_login(Client(REMOTE_ADDR="10.0.0.2"), "org", "org-password-1")
    assert response.status_code == 429 and int(response["Retry-After"]) == 15 * 60
    assert "Too many failed logins" in response.content.decode()
    # another account from another address is unaffected
    response = web_login(Client(REMOTE_ADDR="10.0.0.3"), "other", "other-password-1")
    assert response.status_code == 302
    # the lockout ends by itself
    release_lockouts()
    assert web_login(Client(REMOTE_ADDR="10.0.0.2"), "org", "org-password-1").status_code == 302


def test_token_endpoint_locks_an_account_after_ten_failures(org: Any, other: Any) -> None:
    api = APIClient(REMOTE_ADDR="10.0.1.1")
    statuses = [token_login(api, "org", f"wrong-{i}").status_code for i in range(LIMIT + 5)]
    assert statuses[: LIMIT - 1] == [401] * (LIMIT - 1) and set(statuses[LIMIT - 1:]) == {429}
    response = token_login(APIClient(REMOTE_ADDR="10.0.1.2"), "org", "org-password-1")
    assert response.status_code == 429
    assert response.json()["error"]["code"] == "login_locked" and response["Retry-After"] == "900"
    assert token_login(APIClient(REMOTE_ADDR="10.0.1.3"), "other", "other-password-1").status_code == 200
    release_lockouts()
    response = token_login(APIClient(REMOTE_ADDR="10.0.1.2"), "org", "org-password-1")
    assert response.status_code == 200 and response.json()["token"]


def test_one_client_trying_many_accounts_is_locked_out(org: Any, other: Any) -> None:
    api = APIClient(REMOTE_ADDR="10.0.2.1")
    for i in range(LIMIT):
        token_login(api, f"guess-{i}", "password")
    assert token_login(api, "org", "org-password-1").status_code == 429
    # the same account from another client is not locked
    assert token_login(APIClient(REMOTE_ADDR="10.0.2.2"), "org", "org-password-1").status_code == 200


def test_rotating_x_forwarded_for_does_not_reset_the_count(org: Any) -> None:
    """With no trusted proxy (the default) the header is ignored: the attacker stays one client."""
    api = APIClient(REMOTE_ADDR="10.0.3.1")
    for i in range(LIMIT):
        token_login(api, f"guess-{i}", "password", HTTP_X_FORWARDED_FOR=f"198.51.100.{i}")
    response = token_login(api, "org", "org-password-1", HTTP_X_FORWARDED_FOR="198.51.100.200")
    assert response.status_code == 429


def test_a_trusted_proxy_gives_the_client_address(org: Any, settings: Any) -> None:
    """Behind one trusted proxy, the client is the last X-Forwarded-For address (what the proxy saw);
    addresses the client wrote further left are ignored."""
    settings.TRUSTED_PROXY_COUNT = 1
    proxy = "10.0.4.1"
    for i in range(LIMIT):
        token_login(APIClient(REMOTE_ADDR=proxy), f"guess-{i}", "password",
                    HTTP_X_FORWARDED_FOR=f"1.2.3.{i}, 203.0.113.7")
    blocked = token_login(APIClient(REMOTE_ADDR=proxy), "org", "org-password-1",
                          HTTP_X_FORWARDED_FOR="203.0.113.7")
    assert blocked.status_code == 429
    # another client behind the same proxy is not
    ok = token_login(APIClient(REMOTE_ADDR=proxy), "org", "org-password-1", HTTP_X_FORWARDED_FOR="203.0.113.8")
    assert ok.status_code == 200


@pytest.mark.parametrize(("trusted", "forwarded", "expected"), [
    (0, "1.1.1.1", "10.9.9.9"),
    (1, "1.1.1.1, 2.2.2.2", "2.2.2.2"),
    (2, "1.1.1.1, 2.2.2.2, 3.3.3.3", "2.2.2.2"),
    (2, "3.3.3.3", "3.3.3.3"),
    (1, "", "10.9.9.9"),
])
def test_client_address(settings: Any, trusted: int, forwarded: str, expected: str) -> None:
    from django.test import RequestFactory

    from tournaments.client_address import client_address

    settings.TRUSTED_PROXY_COUNT = trusted
    request = RequestFactory().get("/", REMOTE_ADDR="10.9.9.9", HTTP_X_FORWARDED_FOR=forwarded)
    assert client_address(request) == expected
