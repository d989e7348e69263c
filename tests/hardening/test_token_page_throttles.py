"""The web pages behind a token are rate-limited like the API (issue 29): guessed tokens per client
address get 429 with Retry-After past TOKEN_PAGE_THROTTLE_GUESSES (700 guesses used to answer 404, no
429); a valid token has its own budget, so a guesser at the same venue address does not lock players out
of their own pages for long, and players do not share one budget."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.cache import cache
from django.test import Client

from tests.tournaments.conftest import make_tournament
from tournaments.notifications import unsubscribe_token

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def small_rates(settings: Any) -> None:
    settings.TOKEN_PAGE_THROTTLE_GUESSES = "5/min"
    settings.TOKEN_PAGE_THROTTLE_TOKEN = "8/min"
    cache.clear()


@pytest.mark.parametrize("path", ["/report/{token}/", "/report/{token}/tables/1/", "/email/unsubscribe/{token}/"])
def test_guessed_tokens_get_429_with_retry_after(path: str) -> None:
    client = Client(REMOTE_ADDR="203.0.113.7")
    statuses = [client.get(path.format(token=f"guess-{i}")).status_code for i in range(12)]
    assert statuses[:5] == [404] * 5
    assert set(statuses[5:]) == {429}
    refused = client.get(path.format(token="guess-x"))
    assert int(refused["Retry-After"]) >= 1
    # another address is not affected
    assert Client(REMOTE_ADDR="203.0.113.8").get(path.format(token="guess-y")).status_code == 404


def test_valid_tokens_have_their_own_budget(org: Any) -> None:
    tournament = make_tournament(org, entrants=2)
    first, second = tournament.entrants.order_by("pk")
    venue = Client(REMOTE_ADDR="198.51.100.1")
    assert [venue.get(f"/report/{first.report_token}/").status_code for _ in range(8)] == [200] * 8
    assert venue.get(f"/report/{first.report_token}/").status_code == 429  # this token's budget is spent
    assert venue.get(f"/report/{second.report_token}/").status_code == 200  # the next player's is not
    address_token = unsubscribe_token("someone@example.org")
    assert venue.get(f"/email/unsubscribe/{address_token}/").status_code == 200
