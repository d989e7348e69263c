"""Public reads a hall can hold (issue 26): an anonymous reader gets a 304 with or without cookies, a
page browsers and proxies may reuse a few seconds (never a private or a logged-in one), the JSON standings
paged, cached and with one ETag whatever the `Accept` header."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.cache import cache
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from rest_framework.test import APIClient

from tests.web.conftest import with_standings
from tournaments.models import Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _empty_cache() -> None:
    cache.clear()




def _urls(tournament: Tournament) -> list[str]:
    return [reverse("web:standings", args=[tournament.slug]), reverse("web:tournament-detail", args=[tournament.slug]),
            f"/api/tournaments/{tournament.slug}/standings/"]


@pytest.mark.parametrize("cookies", [False, True], ids=["without-cookies", "with-cookies"])
def test_an_anonymous_reader_gets_304_with_or_without_cookies(tac_tournament: Tournament, cookies: bool) -> None:
    tournament = with_standings(tac_tournament)
    for url in _urls(tournament):
        client = Client()
        if cookies:
            client.get(url)  # keeps whatever cookies the site sets, as a browser does
            client.cookies["analytics"] = "x"
        first = client.get(url)
        if not cookies:
            client.cookies.clear()
            assert not first.cookies, url  # nothing to keep: the page is the same for every reader
        assert first.status_code == 200 and first["ETag"], url
        again = client.get(url, HTTP_IF_NONE_MATCH=first["ETag"])
        assert again.status_code == 304, url
        assert again["ETag"] == first["ETag"]


def test_anonymous_readers_share_one_etag_and_one_page(published_round: Any) -> None:
    tournament = published_round.tournament
    url = reverse("web:round-detail", args=[tournament.slug, published_round.number])
    with_cookie = Client()
    with_cookie.get(url)
    pages = [Client().get(url), with_cookie.get(url), Client().get(url)]
    assert len({page["ETag"] for page in pages}) == 1
    assert len({page.content for page in pages}) == 1  # no CSRF token in an anonymous reader's shell
    assert b"csrfmiddlewaretoken" not in pages[0].content and b"X-CSRFToken" not in pages[0].content


def test_the_language_switcher_works_without_a_token(tac_tournament: Tournament) -> None:
    client = Client(enforce_csrf_checks=True)
    response = client.post(reverse("set_language"), {"language": "de", "next": "/"})
    assert response.status_code == 302 and response.cookies["django_language"].value == "de"


def test_public_pages_may_be_reused_a_few_seconds(tac_tournament: Tournament, settings: Any) -> None:
    settings.PUBLIC_CACHE_MAX_AGE = 7
    settings.PUBLIC_CACHE_STALE_WHILE_REVALIDATE = 20
    tournament = with_standings(tac_tournament)
    for url in _urls(tournament):
        control = Client().get(url)["Cache-Control"]
        assert {part.strip() for part in control.split(",")} == {"public", "max-age=7", "stale-while-revalidate=20"}


def test_logged_in_and_private_pages_are_never_public(tac_tournament: Tournament, stranger: Any, organiser: Any
                                                      ) -> None:
    tournament = with_standings(tac_tournament)
    logged_in = Client()
    logged_in.force_login(stranger)
    api = APIClient()
    api.force_authenticate(stranger)
    for client, url in [(logged_in, url) for url in _urls(tournament)] + [(api, _urls(tournament)[2])]:
        response = client.get(url)
        assert response.status_code == 200, url
        assert "public" not in response["Cache-Control"] and "private" in response["Cache-Control"], url
    # a logged-in reader's page holds their CSRF token: a 304 only with the same cookie
    url = _urls(tournament)[0]
    logged_in.get(url)
    page = logged_in.get(url)
    assert b"csrfmiddlewaretoken" in page.content
    assert logged_in.get(url, HTTP_IF_NONE_MATCH=page["ETag"]).status_code == 304
    Tournament.objects.filter(pk=tournament.pk).update(is_public=False)
    organiser_client = Client()
    organiser_client.force_login(organiser)
    standings = organiser_client.get(_urls(tournament)[0])
    assert standings.status_code == 200 and "public" not in standings["Cache-Control"]
    organiser_api = APIClient()
    organiser_api.force_authenticate(organiser)
    answer = organiser_api.get(_urls(tournament)[2])
    assert answer.status_code == 200 and "public" not in answer["Cache-Control"]


def test_the_json_etag_does_not_vary_with_accept(tac_tournament: Tournament) -> None:
    tournament = with_standings(tac_tournament)
    url = f"/api/tournaments/{tournament.slug}/standings/"
    etags = set()
    for accept in ("application/json", "*/*", "application/json, text/plain, */*", None):
        headers = {"HTTP_ACCEPT": accept} if accept else {}
        response = Client().get(url, **headers)
        assert response.status_code == 200 and response["Content-Type"].startswith("application/json")
        etags.add(response["ETag"])
        other = "*/*" if accept != "*/*" else "application/json"
        assert Client().get(url, HTTP_ACCEPT=other, HTTP_IF_NONE_MATCH=response["ETag"]).status_code == 304
    assert len(etags) == 1
    # the browsable API is another representation: another ETag
    assert Client().get(url, HTTP_ACCEPT="text/html")["ETag"] not in etags


def test_the_json_standings_come_in_pages(tac_tournament: Tournament) -> None:
    tournament = with_standings(tac_tournament, extra=21)  # 25 rows
    url = f"/api/tournaments/{tournament.slug}/standings/"
    api = APIClient()
    whole = api.get(url).json()
    assert (whole["count"], whole["page"], whole["page_size"], whole["pages"]) == (25, 1, 100, 1)
    assert [row["rank"] for row in whole["rows"]] == list(range(1, 26))
    assert set(whole["rows"][0]) == {"rank", "shared_rank", "decided_by", "group", "group_rank", "entrant", "name",
                                     "games_played", "values"}
    assert {"tiebreak_order", "results_version", "standings_version"} <= set(whole)
    pages = [api.get(url, {"page": n, "page_size": 10}).json() for n in (1, 2, 3)]
    assert [p["pages"] for p in pages] == [3, 3, 3] and [len(p["rows"]) for p in pages] == [10, 10, 5]
    assert [row for p in pages for row in p["rows"]] == whole["rows"]
    first, second = (api.get(url, {"page": n, "page_size": 10}) for n in (1, 2))
    assert first["ETag"] != second["ETag"]
    assert api.get(url, {"page": 2, "page_size": 10}, HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 200


@pytest.mark.parametrize("query", [{"page": "0"}, {"page": "-1"}, {"page": "x"}, {"page": "4", "page_size": "10"},
                                   {"page_size": "0"}, {"page_size": "501"}, {"page_size": "1e3"},
                                   {"page": "99999999999999999999"}])
def test_a_page_out_of_bounds_is_a_clear_400(tac_tournament: Tournament, query: dict[str, str]) -> None:
    tournament = with_standings(tac_tournament, extra=21)
    response = APIClient().get(f"/api/tournaments/{tournament.slug}/standings/", query)
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "invalid_input"


def test_the_json_standings_are_served_from_the_cache_without_a_model_per_row(
    tac_tournament: Tournament, django_assert_num_queries: Any
) -> None:
    tournament = with_standings(tac_tournament, extra=21)
    url = f"/api/tournaments/{tournament.slug}/standings/"
    client = Client()
    with CaptureQueriesContext(connection) as first:
        body = client.get(url).content
    standings_sql = [q["sql"] for q in first if "tournaments_standingrow" in q["sql"]]
    assert standings_sql and not any('"tournaments_standingrow"."computed_at"' in sql for sql in standings_sql)
    with django_assert_num_queries(1):  # the anonymous fast path: the tournament's versions, for the key
        assert client.get(url).content == body
    client.cookies["some_cookie"] = "1"  # not served by the fast path (tournaments/public_fast_path.py)
    with django_assert_num_queries(1):  # the ordinary path: the tournament row, for the key
        assert client.get(url).content == body
    assert cache.get(f"{url}") is None  # nothing keyed on the URL: the key is the version


def test_the_health_check_is_a_constant_answer(db: Any, django_assert_num_queries: Any) -> None:
    with django_assert_num_queries(0):
        response = Client().get("/healthz")
    assert response.status_code == 200 and response.content == b"ok\n"
    assert "no-store" in response["Cache-Control"]
    assert Client().post("/healthz").status_code == 405


def test_an_anonymous_page_is_served_whole_from_the_cache_and_never_to_a_logged_in_reader(
    published_round: Any, stranger: Any
) -> None:
    tournament = published_round.tournament
    url = reverse("web:round-detail", args=[tournament.slug, published_round.number])
    first = Client().get(url)
    assert first.templates  # rendered once
    again = Client().get(url)
    assert again.content == first.content and not again.templates  # no template rendered at all
    other_path = Client().get(url + "?x=1")
    assert other_path.status_code == 200 and other_path.templates  # its own URL: its own whole page
    logged_in = Client()
    logged_in.force_login(stranger)
    page = logged_in.get(url).content.decode()
    assert "Log out" in page and "csrfmiddlewaretoken" in page
