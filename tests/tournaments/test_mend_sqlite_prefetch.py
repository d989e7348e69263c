"""No forward foreign key is prefetched over a set that can grow with the tournament.

Django 5.2 prefetches a forward foreign key (``prefetch_related("members__player")``) with a tuple
lookup; SQLite has no row values in Django, so it becomes ``"id" = 1 OR "id" = 2 OR ...``, which fails
past about 1,000 rows ("Expression tree is too large (maximum depth 1000)"): publishing a round of a
1,000-entrant tournament on the default SQLite set-up failed its notification task. The fix joins
the player (``Prefetch("members", queryset=EntrantMember.objects.select_related("player"))``).

The suite runs on PostgreSQL in CI, where the same prefetch is the row-value ``("id") IN ((1), (2))``:
these tests record every statement of the reads that list entrants, players or boards of a whole
tournament or round, and fail on either form (the pattern of the backend in use).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import pytest
from django.db import connection
from django.test import Client

from tests.rankings.conftest import make_players, next_round, play_placings, played_tables, tournament_with
from tournaments import services
from tournaments.archive import archive_export
from tournaments.models import Entrant, Player, Tournament
from tournaments.notifications import _messages_for
from tournaments.rankings import selectors as ranking_selectors
from tournaments.rankings.models import RatingEvent
from tournaments.rankings.services import ratings_recompute
from tournaments.selectors import entrants_of

pytestmark = pytest.mark.django_db

# PostgreSQL: ("t"."id") IN ((%s), (%s)); SQLite: ("t"."id" = %s OR "t"."id" = %s)
ROW_VALUE_IN = re.compile(r'\("\w+"\."\w+"(?:, "\w+"\."\w+")*\) IN \(\(')
OR_CHAIN = re.compile(r'"(\w+)"\."(\w+)" = %s OR "\1"\."\2" = %s')


@contextmanager
def no_forward_prefetch() -> Iterator[list[str]]:
    statements: list[str] = []

    def record(execute: Callable[..., Any], sql: str, params: Any, many: bool, context: Any) -> Any:
        statements.append(sql)
        return execute(sql, params, many, context)

    with connection.execute_wrapper(record):
        yield statements
    offending = [sql for sql in statements if ROW_VALUE_IN.search(sql) or OR_CHAIN.search(sql)]
    assert not offending, offending


@pytest.fixture
def tournament(organiser: Any) -> Tournament:
    tournament = services.tournament_create(
        actor=organiser, name="Big Cup", game="tac", format="swiss", rounds_planned=3, is_public=True
    )
    for i in range(1, 7):
        services.entrant_register(
            actor=organiser, tournament=tournament, name=f"Team {i}", player_names=[f"A{i}", f"B{i}"], seed=i,
            club="Club X" if i % 2 else None,
        )
    for number in (1, 2, 3):
        services.board_add(actor=organiser, tournament=tournament, name=f"Board {number}")
    round_ = services.round_publish(
        actor=organiser, round=services.round_generate(actor=organiser, tournament=tournament)
    )
    services.round_assign_boards(actor=organiser, round=round_)
    Player.objects.filter(memberships__tournament=tournament).update(email="player@example.org")
    return tournament


def test_the_detector_sees_a_forward_prefetch(tournament: Tournament) -> None:
    with pytest.raises(AssertionError), no_forward_prefetch():
        list(Entrant.objects.filter(tournament=tournament).prefetch_related("members__player"))


def test_round_published_notification_joins_the_players(tournament: Tournament) -> None:
    round_ = tournament.rounds.get(number=1)
    with no_forward_prefetch():
        _, messages = _messages_for("round_published", round_.pk)  # type: ignore[misc]
    assert len(messages) == 6  # one address per entrant (both players share it)


def test_entrant_lists_and_archive_join_the_players(tournament: Tournament) -> None:
    with no_forward_prefetch():
        players = [m.player.name for e in entrants_of(tournament) for m in e.members.all()]
        document = archive_export(tournament)
    assert len(players) == 12
    assert len(document["players"]) == 12 and document["clubs"] == ["Club X"]
    assert {t["board"] for r in document["rounds"] for t in r["tables"]} == {"Board 1", "Board 2", "Board 3"}


def test_pages_listing_entrants_boards_and_players_join_them(tournament: Tournament, organiser: Any) -> None:
    client = Client()
    client.force_login(organiser)
    slug = tournament.slug
    entrant = tournament.entrants.order_by("name").first()
    assert entrant is not None
    urls = [
        f"/t/{slug}/",
        f"/t/{slug}/rounds/1/",
        f"/t/{slug}/rounds/1/sheet/",
        f"/t/{slug}/entrants/{entrant.pk}/",
        f"/t/{slug}/manage/",
        f"/t/{slug}/manage/venue/",
        f"/t/{slug}/manage/rounds/1/",
        f"/t/{slug}/manage/rounds/1/slips/",
        f"/t/{slug}/manage/report-links/",
    ]
    for url in urls:
        with no_forward_prefetch():
            response = client.get(url)
        assert response.status_code == 200, url


def test_rating_history_joins_the_other_players(organiser: Any) -> None:
    people = make_players(6, prefix="R")
    rated = tournament_with(organiser, [[p] for p in people], game="taki", variant={"seats": 3}, name="R")
    for table in played_tables(next_round(organiser, rated)):
        play_placings(organiser, table, list(range(1, table.seats.count() + 1)))
    ratings_recompute(pool="taki")
    events = list(RatingEvent.objects.filter(pool="taki", player=people[0]).select_related("game"))
    assert events
    with no_forward_prefetch():
        ranking_selectors.with_game_players(events)
        others = {e.player.name for event in events for e in event.game.events.all()}
    assert people[0].name in others and len(others) == 3
