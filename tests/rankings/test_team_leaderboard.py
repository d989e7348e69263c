"""Team leaderboard (issue 17): page, API and CSV beside the player leaderboard; team ratings from the
players' current ratings; numbers as numbers in the CSV; constant query count."""

from __future__ import annotations

import csv
import io
from typing import Any

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from tests.rankings.conftest import make_players, next_round, play_scores, played_tables, tournament_with
from tournaments.rankings.compute import team_key
from tournaments.rankings.services import ratings_recompute

pytestmark = pytest.mark.django_db


def _two_rounds(organiser: Any, teams: int, prefix: str = "T") -> list[Any]:
    players = make_players(teams * 2, prefix=prefix)
    pairs = [players[i:i + 2] for i in range(0, len(players), 2)]
    tournament = tournament_with(organiser, pairs, game="tac")
    for _ in range(2):
        for table in played_tables(next_round(organiser, tournament)):
            play_scores(organiser, table, [8, 3])
    ratings_recompute(pool="tac")
    return pairs


def test_team_board_page_api_and_csv(organiser: Any) -> None:
    pairs = _two_rounds(organiser, 4)
    data = APIClient().get("/api/rankings/tac/teams/").json()
    assert data["count"] == 4 and [row["rank"] for row in data["rows"]] == [1, 2, 3, 4]
    assert [row["rating"] for row in data["rows"]] == sorted((row["rating"] for row in data["rows"]), reverse=True)
    assert {row["team"] for row in data["rows"]} == {team_key([a.pk, b.pk]) for a, b in pairs}
    assert all(row["games"] == 2 for row in data["rows"])
    page = Client().get("/rankings/tac/teams/").content.decode()
    first = data["rows"][0]
    assert f'href="/rankings/tac/teams/{first["team"]}/"' in page and "/api/rankings/tac/teams.csv" in page
    assert 'href="/rankings/tac/teams/"' in Client().get("/rankings/tac/").content.decode()
    text = Client().get("/api/rankings/tac/teams.csv").content.decode()
    rows = list(csv.reader(io.StringIO(text)))
    assert rows[0] == ["rank", "team", "players", "rating", "mu", "sigma", "games", "last_played"]
    assert len(rows) == 5 and not rows[4][3].startswith("'")  # a negative rating is a number, not text
    float(rows[4][3])
    assert Client().get("/rankings/chess/teams/").status_code == 404
    assert APIClient().get("/api/rankings/chess/teams/").status_code == 404
    schema = Client().get("/api/schema/").content.decode()
    assert "/api/rankings/{pool}/teams/" in schema and "/api/rankings/{pool}/teams.csv" in schema


def test_team_board_queries_do_not_grow_with_the_teams(organiser: Any) -> None:
    _two_rounds(organiser, 2)
    with CaptureQueriesContext(connection) as small:
        APIClient().get("/api/rankings/tac/teams/")
    _two_rounds(organiser, 6, prefix="U")
    with CaptureQueriesContext(connection) as large:
        APIClient().get("/api/rankings/tac/teams/")
    assert len(large) == len(small)
