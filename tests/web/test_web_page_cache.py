"""The versioned page cache and conditional GET of the public pages (issue 14): a confirmed result shows
on the very next request, an unchanged page answers 304, a personal page is never shared."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.core.cache import cache
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from tournaments.models import Round, Tournament
from tournaments.services.results import result_override
from tournaments.views import public

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _empty_cache() -> None:
    cache.clear()


def _main(response: Any) -> str:
    return re.split(r"<main[^>]*>", response.content.decode())[1]  # <main data-live="..."> while it runs


def _settle_first_table(round_: Round, organiser: Any, django_capture_on_commit_callbacks: Any) -> None:
    table = round_.tables.filter(is_bye=False).order_by("number").first()
    seats = list(table.seats.order_by("position").values_list("entrant_id", flat=True))
    with django_capture_on_commit_callbacks(execute=True):
        result_override(actor=organiser, table=table, kind="normal", scores={seats[0]: 8, seats[1]: 3},
                        winner=seats[0])


def test_a_confirmed_result_shows_on_the_next_request(
    published_round: Round, organiser: Any, django_capture_on_commit_callbacks: Any
) -> None:
    tournament = published_round.tournament
    client = Client()
    url = reverse("web:standings", args=[tournament.slug])
    first = client.get(url)
    assert first.status_code == 200 and "No standings yet" in first.content.decode()
    with CaptureQueriesContext(connection) as queries:
        again = client.get(url)
    assert _main(again) == _main(first)  # the shell differs only by the masked CSRF token
    assert not any("tournaments_standingrow" in q["sql"] for q in queries)  # served from the cache
    _settle_first_table(published_round, organiser, django_capture_on_commit_callbacks)
    after = client.get(url).content.decode()
    winner = tournament.standing_rows.get(rank=1).entrant.name
    assert "No standings yet" not in after and winner in after
    detail = client.get(reverse("web:tournament-detail", args=[tournament.slug])).content.decode()
    assert winner in detail and "Awaiting confirmation" not in detail.split('id="table-')[1].split("</li>")[0]


def test_unchanged_pages_answer_304_until_something_changes(
    published_round: Round, organiser: Any, django_capture_on_commit_callbacks: Any
) -> None:
    tournament = published_round.tournament
    client = Client()
    urls = [reverse("web:standings", args=[tournament.slug]), reverse("web:tournament-detail", args=[tournament.slug]),
            reverse("web:round-detail", args=[tournament.slug, published_round.number])]
    etags = {}
    for url in urls:
        client.get(url)
        response = client.get(url)
        assert response.status_code == 200 and response["ETag"] and response["Last-Modified"], url
        assert "public" in response["Cache-Control"] and "max-age=" in response["Cache-Control"]
        etags[url] = response["ETag"]
        with CaptureQueriesContext(connection) as queries:
            not_modified = client.get(url, HTTP_IF_NONE_MATCH=response["ETag"])
        assert not_modified.status_code == 304 and not_modified.content == b"", url
        assert len(queries) <= 3, [q["sql"] for q in queries]  # session-less: the tournament row and no more
        assert client.get(url, HTTP_IF_MODIFIED_SINCE=response["Last-Modified"]).status_code == 304
    _settle_first_table(published_round, organiser, django_capture_on_commit_callbacks)
    for url in urls:
        changed = client.get(url, HTTP_IF_NONE_MATCH=etags[url])
        assert changed.status_code == 200 and changed["ETag"] != etags[url], url


def test_a_players_and_an_organisers_pages_are_never_shared(
    published_round: Round, organiser: Any, user_playing_for: Any
) -> None:
    tournament = published_round.tournament
    url = reverse("web:round-detail", args=[tournament.slug, published_round.number])
    anonymous = Client().get(url)
    assert anonymous.status_code == 200 and "Enter result" not in anonymous.content.decode()
    organiser_client = Client()
    organiser_client.force_login(organiser)
    page = organiser_client.get(url)
    assert "Enter result" in page.content.decode() and "ETag" not in page
    player = Client()
    player.force_login(user_playing_for(published_round.tables.first().seats.first().entrant, "p1"))
    assert "Report result" in player.get(url).content.decode()
    assert "Report result" not in Client().get(url).content.decode()


def test_a_private_tournament_stays_hidden_whatever_is_cached(published_round: Round, organiser: Any) -> None:
    tournament = published_round.tournament
    url = reverse("web:standings", args=[tournament.slug])
    assert Client().get(url).status_code == 200
    Tournament.objects.filter(pk=tournament.pk).update(is_public=False)
    assert Client().get(url).status_code == 404


def test_the_standings_come_in_pages_with_the_whole_list_one_click_away(
    published_round: Round, organiser: Any, django_capture_on_commit_callbacks: Any, monkeypatch: Any
) -> None:
    monkeypatch.setattr(public, "STANDINGS_PAGE_SIZE", 3)
    tournament = published_round.tournament
    _settle_first_table(published_round, organiser, django_capture_on_commit_callbacks)
    url = reverse("web:standings", args=[tournament.slug])
    first = Client().get(url).content.decode()
    names = list(tournament.standing_rows.order_by("rank", "entrant__name").values_list("entrant__name", flat=True))
    assert len(names) == 4
    assert all(name in first for name in names[:3]) and names[3] not in first
    assert "?page=2" in first and "?page=all" in first
    assert names[3] in Client().get(url + "?page=2").content.decode()
    everything = Client().get(url + "?page=all").content.decode()
    assert all(name in everything for name in names)
    assert Client().get(url + "?page=zz").status_code == 200


def test_the_public_api_reads_answer_304_until_a_result_changes_them(
    published_round: Round, organiser: Any, django_capture_on_commit_callbacks: Any
) -> None:
    from rest_framework.test import APIClient

    tournament = published_round.tournament
    client = APIClient()
    urls = [f"/api/tournaments/{tournament.slug}/", f"/api/tournaments/{tournament.slug}/standings/",
            f"/api/tournaments/{tournament.slug}/rounds/", f"/api/rounds/{published_round.pk}/"]
    etags = {}
    for url in urls:
        response = client.get(url)
        assert response.status_code == 200 and response["ETag"] and response["Last-Modified"], url
        etags[url] = response["ETag"]
        assert client.get(url, HTTP_IF_NONE_MATCH=response["ETag"]).status_code == 304, url
    _settle_first_table(published_round, organiser, django_capture_on_commit_callbacks)
    for url in urls:
        changed = client.get(url, HTTP_IF_NONE_MATCH=etags[url])
        assert changed.status_code == 200 and changed["ETag"] != etags[url], url
    standings = client.get(f"/api/tournaments/{tournament.slug}/standings/").json()
    assert standings["standings_version"] == standings["results_version"] > 0 and standings["rows"]


def test_a_leaderboard_is_cached_until_its_ratings_are_recomputed(db: Any) -> None:
    from django.utils import timezone

    from tournaments.rankings.models import PlayerRating, RatingPool

    client = Client()
    url = reverse("rankings:leaderboard", args=["taki"])
    assert client.get(url).status_code == 200
    with CaptureQueriesContext(connection) as queries:
        assert client.get(url).status_code == 200
    table = PlayerRating._meta.db_table
    assert not any(table in q["sql"] for q in queries)
    RatingPool.objects.update_or_create(pool="taki", defaults={"recomputed_at": timezone.now()})
    with CaptureQueriesContext(connection) as queries:
        assert client.get(url).status_code == 200
    assert any(table in q["sql"] for q in queries)
    assert client.get(url + "?min_games=x").status_code == 400  # a refused filter is never cached


def test_a_cache_that_fails_serves_the_page_uncached(published_round: Round, monkeypatch: Any) -> None:
    from tournaments import page_cache

    class Broken:
        def __getattr__(self, name: str) -> Any:
            def fail(*args: Any, **kwargs: Any) -> Any:
                raise ConnectionError("redis is down")
            return fail

    monkeypatch.setattr(page_cache, "cache", Broken())
    tournament = published_round.tournament
    for url in [reverse("web:standings", args=[tournament.slug]), f"/api/tournaments/{tournament.slug}/standings/"]:
        response = Client().get(url)
        assert response.status_code == 200 and "ETag" not in response, url


def test_a_cached_standings_page_runs_the_tournament_query_alone(
    published_round: Round, organiser: Any, django_capture_on_commit_callbacks: Any,
    django_assert_num_queries: Any,
) -> None:
    # what the cache key needs is the tournament row; the round that "Standings after round N" names
    # is read only when the content is rendered
    _settle_first_table(published_round, organiser, django_capture_on_commit_callbacks)
    tournament = published_round.tournament
    client = Client()
    url = reverse("web:standings", args=[tournament.slug])
    first = client.get(url).content.decode()
    assert "Standings after round 1" in first and "provisional" in first
    with django_assert_num_queries(1) as captured:
        again = client.get(url)
    assert "tournaments_tournament" in captured.captured_queries[0]["sql"]
    assert _main(again) == _main(client.get(url))
    assert "Standings after round 1" in _main(again)


def test_a_cached_tournament_page_runs_the_tournament_query_alone(
    published_round: Round, django_assert_num_queries: Any
) -> None:
    client = Client()
    url = reverse("web:tournament-detail", args=[published_round.tournament.slug])
    first = client.get(url)
    with django_assert_num_queries(1):
        again = client.get(url)
    assert _main(again) == _main(first)
