"""Pages, API, exports, permissions and query counts of the rankings."""

from __future__ import annotations

import csv
import datetime as dt
import io
import json
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from tests.rankings.conftest import (
    make_players,
    next_round,
    play_placings,
    play_scores,
    played_tables,
    tournament_with,
)
from tournaments.models import Club, Entrant, Player, Tournament
from tournaments.rankings.compute import INITIAL, team_key
from tournaments.rankings.models import PlayerRating, RatingPolicy
from tournaments.rankings.services import ratings_recompute

pytestmark = pytest.mark.django_db


def _taki_field(organiser: Any, players: int, *, name: str = "Taki", club: Club | None = None,
                day: dt.date = dt.date(2026, 1, 10), public: bool = True) -> list[Player]:
    people = make_players(players, prefix=name, club=club)
    tournament = tournament_with(organiser, [[p] for p in people], game="taki", variant={"seats": 5},
                                 name=name, day=day, is_public=public)
    for _round in range(2):
        for table in played_tables(next_round(organiser, tournament)):
            seats = table.seats.count()
            play_placings(organiser, table, list(range(1, seats + 1)))
    ratings_recompute(pool="taki")
    return people


def _tac_pair(organiser: Any) -> tuple[list[Player], Tournament]:
    players = make_players(4, prefix="Tac")
    tournament = tournament_with(organiser, [players[0:2], players[2:4]], name="Tac")
    play_scores(organiser, played_tables(next_round(organiser, tournament))[0], [8, 4])
    ratings_recompute(pool="tac")
    return players, tournament


def _count(client: Any, url: str) -> tuple[int, Any]:
    with CaptureQueriesContext(connection) as queries:
        response = client.get(url)
    assert response.status_code == 200, (url, response.status_code)
    return len(queries), response


@pytest.mark.parametrize("path", ["/rankings/taki/", "/rankings/taki/?from=2026-01-01&to=2026-12-31&min_games=1",
                                  "/api/rankings/taki/", "/api/rankings/taki/export.csv"])
def test_leaderboard_queries_do_not_grow_with_players(organiser: Any, path: str) -> None:
    _taki_field(organiser, 5, name="Small")
    small, response = _count(Client(), path)
    assert b"Small" in response.content
    _taki_field(organiser, 50, name="Large")
    assert PlayerRating.objects.filter(pool="taki").count() == 55
    large, response = _count(Client(), path)
    assert b"Large" in response.content
    assert small == large, (small, large)


def test_profile_queries_do_not_grow_with_players(organiser: Any) -> None:
    small_players = _taki_field(organiser, 5, name="Small")
    large_players = _taki_field(organiser, 50, name="Large")
    counts = []
    for player in (small_players[0], large_players[0]):
        for url in (f"/rankings/taki/players/{player.pk}/", f"/api/rankings/taki/players/{player.pk}/"):
            counts.append(_count(Client(), url)[0])
    assert counts[0] == counts[2] and counts[1] == counts[3], counts


def test_leaderboard_page_filters_and_errors(organiser: Any) -> None:
    club = Club.objects.create(name="Bern")
    club_players = _taki_field(organiser, 5, name="Bern", club=club, day=dt.date(2026, 1, 10))
    others = _taki_field(organiser, 5, name="Zurich", day=dt.date(2026, 6, 10))
    client = Client()
    page = client.get(f"/rankings/taki/?club={club.pk}").content.decode()
    assert club_players[0].name in page and others[0].name not in page
    page = client.get("/rankings/taki/?to=2026-02-01").content.decode()
    assert club_players[0].name in page and others[0].name not in page
    page = client.get("/rankings/taki/?from=2026-06-01").content.decode()
    assert others[0].name in page and club_players[0].name not in page
    assert client.get("/rankings/taki/?min_games=3").content.decode().count("/rankings/taki/players/") == 0
    for bad in ("from=yesterday", "min_games=-1", "from=2026-02-01&to=2026-01-01", "club=x"):
        assert client.get(f"/rankings/taki/?{bad}").status_code == 400
        response = APIClient().get(f"/api/rankings/taki/?{bad}")
        expected = 422 if bad.startswith("from=2026") else 400  # each date valid, the pair not (issue 30)
        assert response.status_code == expected and response.json()["error"]["code"] == "invalid_input"
    assert client.get("/rankings/chess/").status_code == 404
    assert APIClient().get("/api/rankings/chess/").status_code == 404
    assert client.get("/rankings/").status_code == 200
    assert b"/rankings/" in client.get("/").content  # the nav link


def test_period_reading(organiser: Any) -> None:
    early = _taki_field(organiser, 5, name="Early", day=dt.date(2026, 1, 10))
    rows = APIClient().get("/api/rankings/taki/?to=2026-01-10").json()["rows"]
    as_of = {row["player_id"]: row for row in rows}
    assert as_of[early[0].pk]["games"] == 2
    assert APIClient().get("/api/rankings/taki/?from=2026-01-11").json()["count"] == 0


def test_private_tournaments_do_not_appear(organiser: Any) -> None:
    hidden = _taki_field(organiser, 5, name="Hidden", public=False)
    assert not PlayerRating.objects.filter(player__in=hidden).exists()
    assert Client().get(f"/rankings/taki/players/{hidden[0].pk}/").status_code == 404
    assert b"Hidden" not in Client().get("/rankings/taki/").content


def test_profiles_team_and_chart(organiser: Any) -> None:
    players, _tournament = _tac_pair(organiser)
    page = Client().get(f"/rankings/tac/players/{players[0].pk}/").content.decode()
    assert "<svg" in page and "polyline" in page and players[1].name in page and "Tac" in page
    key = team_key([players[0].pk, players[1].pk])
    names = " &amp; ".join(sorted([players[0].name, players[1].name]))
    assert f'href="/rankings/tac/teams/{key}/">{names}</a>' in page  # the player's teams, named
    page = Client().get(f"/rankings/tac/teams/{key}/")
    assert page.status_code == 200 and b"<svg" in page.content
    data = APIClient().get(f"/api/rankings/tac/teams/{key}/").json()
    assert data["games"] == 1 and data["rating"] > 2 * INITIAL.mu - 3 * (2 ** 0.5) * INITIAL.sigma
    assert Client().get(f"/rankings/tac/teams/{players[1].pk}-{players[0].pk}/").status_code == 404
    assert Client().get("/rankings/tac/teams/1-x/").status_code == 404
    assert APIClient().get("/api/rankings/tac/teams/999999-9999999/").status_code == 404
    assert APIClient().get("/api/rankings/tac/players/999999/").status_code == 404


def test_exports_csv_and_json(organiser: Any) -> None:
    club = Club.objects.create(name="=HYPERLINK(evil)")
    players = _taki_field(organiser, 5, name="Exp", club=club)
    Player.objects.filter(pk=players[0].pk).update(name="@SUM(1)")
    response = Client().get("/api/rankings/taki/export.csv")
    rows = list(csv.reader(io.StringIO(response.content.decode())))
    assert rows[0][:5] == ["rank", "shared_rank", "player_id", "player", "club"] and len(rows) == 6
    assert all(row[4].startswith("'=") for row in rows[1:])
    assert any(row[3] == "'@SUM(1)" for row in rows[1:])
    assert float(rows[1][5]) >= float(rows[2][5])
    data = json.loads(Client().get("/api/rankings/taki/export.json").content)
    assert data["pool"] == "taki" and len(data["rows"]) == 5
    assert Client().get("/api/rankings/taki/export.xml").status_code == 404
    assert Client().get("/api/rankings/taki/export.csv?from=bad").status_code == 400


def test_recompute_is_staff_only(organiser: Any) -> None:
    _tac_pair(organiser)
    client = APIClient()
    assert client.post("/api/rankings/tac/recompute/", {}, format="json").status_code in (401, 403)
    client.force_authenticate(organiser)
    response = client.post("/api/rankings/tac/recompute/", {}, format="json")
    assert response.status_code == 403 and response.json()["error"]["code"] == "permission_denied"
    staff = get_user_model().objects.create_user("staff", password="staff-password-1", is_staff=True)
    client.force_authenticate(staff)
    response = client.post("/api/rankings/tac/recompute/", {"rebuild": True}, format="json")
    assert response.status_code == 200 and response.json()["games_replayed"] == 1
    assert client.post("/api/rankings/tac/recompute/", {}, format="json").json()["from_key"] is None
    assert client.post("/api/rankings/tac/recompute/", {"rebuild": "maybe"}, format="json").status_code == 400
    assert client.post("/api/rankings/nope/recompute/", {}, format="json").status_code == 404


def test_rating_policy_api_and_form(organiser: Any, other_user: Any = None) -> None:
    _players, tournament = _tac_pair(organiser)
    outsider = get_user_model().objects.create_user("outsider", password="outsider-password-1")
    url = f"/api/tournaments/{tournament.slug}/rating-policy/"
    assert APIClient().get(url).json() == {"time_limit_games": "rank_by_marbles"}
    client = APIClient()
    client.force_authenticate(outsider)
    assert client.patch(url, {"time_limit_games": "ignore"}, format="json").status_code == 403
    client.force_authenticate(organiser)
    assert client.patch(url, {"time_limit_games": "never"}, format="json").status_code == 400
    assert client.patch(url, {"time_limit_games": "ignore"}, format="json").json() == {"time_limit_games": "ignore"}
    assert RatingPolicy.objects.get(tournament=tournament).time_limit_games == "ignore"
    web = Client()
    web.force_login(organiser)
    manage = web.get(f"/t/{tournament.slug}/manage/").content.decode()
    assert 'id="ratings"' in manage and "time_limit_games" in manage
    response = web.post(f"/t/{tournament.slug}/manage/ratings/policy/", {"time_limit_games": "rank_by_marbles"})
    assert response.status_code == 302
    assert RatingPolicy.objects.get(tournament=tournament).time_limit_games == "rank_by_marbles"
    web.post(f"/t/{tournament.slug}/manage/ratings/policy/", {"time_limit_games": "bogus"})
    assert RatingPolicy.objects.get(tournament=tournament).time_limit_games == "rank_by_marbles"
    web.force_login(outsider)
    assert web.post(f"/t/{tournament.slug}/manage/ratings/policy/", {"time_limit_games": "ignore"}).status_code == 403


def test_seeding_from_ratings(organiser: Any) -> None:
    players, _tac = _tac_pair(organiser)  # players 0+1 beat 2+3
    newcomers = make_players(2, prefix="New")
    tournament = tournament_with(organiser, [players[2:4], newcomers, players[0:2]], name="Seeded", rounds_planned=3)
    client = APIClient()
    client.force_authenticate(organiser)
    response = client.post(f"/api/tournaments/{tournament.slug}/seed-from-ratings/", {}, format="json")
    assert response.status_code == 200 and response.json() == {"entrants_rated": 3, "first_round": "rating"}
    ratings = {e.name: e.rating for e in Entrant.objects.filter(tournament=tournament)}
    winners, newbies, losers = ratings["E03 Seeded"], ratings["E02 Seeded"], ratings["E01 Seeded"]
    assert winners > newbies > losers
    assert newbies == round(2 * INITIAL.mu - 3 * (2 * INITIAL.sigma ** 2) ** 0.5, 3)
    next_round(organiser, tournament)
    assert client.post(f"/api/tournaments/{tournament.slug}/seed-from-ratings/", {}, format="json").status_code == 409
    outsider = get_user_model().objects.create_user("outsider2", password="outsider-password-1")
    client.force_authenticate(outsider)
    assert client.post(f"/api/tournaments/{tournament.slug}/seed-from-ratings/", {}, format="json").status_code == 403


def test_knockout_seeded_from_ratings(organiser: Any) -> None:
    players, _tac = _tac_pair(organiser)
    tournament = tournament_with(organiser, [players[2:4], players[0:2]], name="KO", format="knockout")
    web = Client()
    web.force_login(organiser)
    seed_url = f"/t/{tournament.slug}/manage/ratings/seed/"
    assert seed_url in web.get(f"/t/{tournament.slug}/manage/").content.decode()
    assert web.post(seed_url).status_code == 302
    tournament.refresh_from_db()
    assert tournament.first_round == "rating"
    round_ = next_round(organiser, tournament)
    tournament.refresh_from_db()
    best = Entrant.objects.get(tournament=tournament, name="E02 KO")
    assert tournament.knockout_seeding and tournament.knockout_seeding[0][0] == best.pk
    assert round_.tables.exists()
    assert seed_url not in web.get(f"/t/{tournament.slug}/manage/").content.decode()  # too late: no button


def test_openapi_schema_lists_the_rankings() -> None:
    schema = APIClient().get("/api/schema/?format=json").json()
    for path in ("/api/rankings/{pool}/", "/api/rankings/{pool}/players/{player_id}/",
                 "/api/rankings/{pool}/teams/{key}/", "/api/rankings/{pool}/recompute/",
                 "/api/tournaments/{slug}/rating-policy/", "/api/tournaments/{slug}/seed-from-ratings/"):
        assert path in schema["paths"], path


def test_equal_ratings_share_a_rank_across_pages(organiser: Any) -> None:
    _tac_pair(organiser)  # teammates start equal and get equal updates: ranks 1 1 3 3
    rows = APIClient().get("/api/rankings/tac/").json()["rows"]
    assert [(r["rank"], r["shared_rank"]) for r in rows] == [(1, True), (1, True), (3, True), (3, True)]
    second = APIClient().get("/api/rankings/tac/?page_size=1&page=2").json()
    assert second["pages"] == 4 and [(r["rank"], r["shared_rank"]) for r in second["rows"]] == [(1, True)]
    third = APIClient().get("/api/rankings/tac/?page_size=1&page=3").json()
    assert [r["rank"] for r in third["rows"]] == [3]
    assert APIClient().get("/api/rankings/tac/?page_size=500").status_code == 400


def test_manage_panel_posts_with_a_real_csrf_token(organiser: Any) -> None:
    import re

    _players, tournament = _tac_pair(organiser)
    web = Client(enforce_csrf_checks=True)
    web.force_login(organiser)
    manage = web.get(f"/t/{tournament.slug}/manage/").content.decode()
    panel = manage[manage.index('id="ratings"'):]
    token = re.search(r'name="csrfmiddlewaretoken" value="([^"]+)"', panel)
    assert token is not None
    response = web.post(f"/t/{tournament.slug}/manage/ratings/policy/",
                        {"time_limit_games": "ignore", "csrfmiddlewaretoken": token.group(1)})
    assert response.status_code == 302
    assert RatingPolicy.objects.get(tournament=tournament).time_limit_games == "ignore"
    assert web.post(f"/t/{tournament.slug}/manage/ratings/policy/", {"time_limit_games": "ignore"}).status_code == 403
