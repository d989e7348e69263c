"""The anonymous fast path of the cached public standings (issue 26; tournaments/public_fast_path.py): it
answers from the cache without the middleware and view work, but never for a private tournament, never an
answer of an older version, never to a reader with a session or a token, and its reads still count in
the hall's throttle."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.cache import cache
from django.db.models import F
from django.test import Client
from django.urls import reverse

from tests.web.conftest import with_standings
from tournaments import public_fast_path
from tournaments.api_throttles import ApiRateThrottle
from tournaments.models import Entrant, StandingRow, Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _empty_cache() -> None:
    cache.clear()


@pytest.fixture
def served_fast(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The paths answered by the fast path (a 200 or a 304 built from the stored answer)."""
    served: list[str] = []
    original = public_fast_path.PublicReadFastPath._serve

    def spy(self: Any, request: Any, *args: Any) -> Any:
        answer = original(self, request, *args)
        if answer is not None:
            served.append(request.path)
        return answer

    monkeypatch.setattr(public_fast_path.PublicReadFastPath, "_serve", spy)
    return served




def _urls(tournament: Tournament) -> list[str]:
    return [reverse("web:standings", args=[tournament.slug]), f"/api/tournaments/{tournament.slug}/standings/"]


def test_a_repeated_anonymous_read_is_served_fast_with_the_same_answer_and_validators(
    tac_tournament: Tournament, served_fast: list[str]
) -> None:
    tournament = with_standings(tac_tournament)
    for url in _urls(tournament):
        first = Client().get(url)
        again = Client().get(url)
        assert served_fast == [url]
        assert again.status_code == 200 and again.content == first.content
        for header in ("ETag", "Last-Modified", "Cache-Control", "Content-Type", "Vary", "Content-Language",
                       "Content-Security-Policy", "X-Frame-Options"):
            assert again.get(header) == first.get(header), (url, header)
        assert "public" in again["Cache-Control"]
        not_modified = Client().get(url, HTTP_IF_NONE_MATCH=first["ETag"])
        assert not_modified.status_code == 304 and not_modified["ETag"] == first["ETag"]
        assert not not_modified.content and "Content-Type" not in not_modified
        assert served_fast == [url, url]
        served_fast.clear()


def test_a_private_tournament_is_never_served_fast(
    tac_tournament: Tournament, organiser: Any, served_fast: list[str]
) -> None:
    tournament = with_standings(tac_tournament)
    for url in _urls(tournament):
        assert Client().get(url).status_code == 200
        Client().get(url)
    assert len(served_fast) == 2
    # however the switch is written (here without any signal or lock), the next read is refused
    Tournament.objects.filter(pk=tournament.pk).update(is_public=False)
    for url in _urls(tournament):
        assert Client().get(url).status_code == 404, url
        assert Client().get(url).status_code == 404, url
    assert len(served_fast) == 2
    organiser_client = Client()
    organiser_client.force_login(organiser)
    for url in _urls(tournament):
        assert organiser_client.get(url).status_code == 200
        assert organiser_client.get(url).status_code == 200
        assert Client().get(url).status_code == 404, url
    assert len(served_fast) == 2


def test_an_answer_of_an_older_version_is_never_served(tac_tournament: Tournament, served_fast: list[str]) -> None:
    tournament = with_standings(tac_tournament)
    for url in _urls(tournament):
        Client().get(url)
    leader = tournament.standing_rows.get(rank=1).entrant
    # a result settled: new rows, new versions (as the standings task writes them, no signal)
    StandingRow.objects.filter(tournament=tournament, entrant=leader).update(rank=99)
    renamed = Entrant.objects.filter(pk=leader.pk)
    renamed.update(name="Freshly ranked")
    Tournament.objects.filter(pk=tournament.pk).update(results_version=F("results_version") + 1,
                                                       standings_version=F("standings_version") + 1)
    for url in _urls(tournament):
        body = Client().get(url).content.decode()
        assert "Freshly ranked" in body, url
    assert served_fast == []


def test_a_reader_with_a_session_or_a_token_is_not_served_fast(
    tac_tournament: Tournament, organiser: Any, served_fast: list[str]
) -> None:
    tournament = with_standings(tac_tournament)
    for url in _urls(tournament):
        Client().get(url)
        logged_in = Client()
        logged_in.force_login(organiser)
        assert logged_in.get(url).status_code == 200
        assert Client().get(url, HTTP_AUTHORIZATION="Token nonsense").status_code in (200, 401)
        assert Client().get(url, HTTP_ORIGIN="https://elsewhere.example").status_code == 200
    assert served_fast == []


def test_fast_reads_still_count_in_the_halls_throttle(
    tac_tournament: Tournament, monkeypatch: pytest.MonkeyPatch, served_fast: list[str]
) -> None:
    monkeypatch.setattr(ApiRateThrottle, "THROTTLE_RATES", {"anon": "3/min", "user": "4/min", "report_token": "2/min",
                                                            "anon_read": "5/min"})
    tournament = with_standings(tac_tournament)
    url = f"/api/tournaments/{tournament.slug}/standings/"
    statuses = [Client(REMOTE_ADDR="192.0.2.20").get(url).status_code for _ in range(7)]
    assert statuses == [200] * 5 + [429] * 2
    assert len(served_fast) == 4  # the first read rendered; the rest of the budget served fast
    assert Client(REMOTE_ADDR="192.0.2.21").get(url).status_code == 200  # another address, its own budget


def test_each_language_gets_its_own_answer(tac_tournament: Tournament, served_fast: list[str]) -> None:
    tournament = with_standings(tac_tournament)
    url = reverse("web:standings", args=[tournament.slug])
    english = Client().get(url, HTTP_ACCEPT_LANGUAGE="en")
    german = Client().get(url, HTTP_ACCEPT_LANGUAGE="de")
    assert served_fast == []  # the German page is not the stored English one
    again = Client().get(url, HTTP_ACCEPT_LANGUAGE="de")
    assert served_fast == [url]
    assert again["Content-Language"] == german["Content-Language"] == "de" != english["Content-Language"]
    assert again.content == german.content != english.content
