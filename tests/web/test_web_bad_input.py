"""No web endpoint answers 500, whatever is posted: garbage is refused with a page, 4xx or a redirect,
and a visitor without the right changes nothing."""

from __future__ import annotations

from typing import Any

import pytest
from django.apps import apps
from django.test import Client
from django.urls import reverse

from tournaments.models import Round, Tournament

pytestmark = pytest.mark.django_db

GARBAGE: list[dict[str, Any]] = [
    {},
    {"name": "x" * 10_000, "profile": "tac:{", "format": "chess", "rounds_planned": "-3"},
    {"name": "\x00\ufffd", "profile": 'tac:{"master": "yes"}', "rounds_planned": "99999999999999999999"},
    {
        "name": "ok",
        "profile": 'taki:{"seats": 99}',
        "format": "swiss",
        "rounds_planned": "1",
        "group_count": "1",
        "first_round": "seed",
    },
    {"name": "Z", "player_1": "", "player_2": "B" * 500, "seed": "1e9", "rating": "nan", "group": "0"},
    {"csv_text": "name\n" + "\n".join(f"row{i}" for i in range(3000))},
    {"csv_text": '"unterminated,\n"quote'},
    {"t1_s1": "abc", "t1_s2": "-1", "t99_s1": "5", "byes": ["x", "999999"]},
    {"action": "report", "kind": "normal", "score_1": "8", "score_abc": "1"},
    {"action": "confirm", "result": "1;DROP TABLE"},
    {"action": "reject", "result": ""},
    {"action": "unknown"},
    {"tiebreak_order": "match_points,match_points"},
    {"username": "\u0000" * 200},
]


def stored_state() -> dict[str, list[tuple[Any, ...]]]:
    """Every row of the platform's own apps (tournaments, rankings, games), to compare before and after."""
    state = {}
    for label in ("tournaments", "rankings", "games"):
        for model in apps.get_app_config(label).get_models():
            state[model._meta.label] = sorted(model.objects.values_list(), key=repr)
    return state


def post_everywhere(client: Client, tournament: Tournament, round_: Round) -> None:
    table = round_.tables.order_by("number").first()
    assert table is not None
    entrant = tournament.entrants.order_by("pk").first()
    assert entrant is not None
    slug = tournament.slug
    urls = [
        reverse("web:tournament-create"),
        reverse("web:entrant-add", args=[slug]),
        reverse("web:entrants-import", args=[slug]),
        reverse("web:entrant-action", args=[slug, entrant.pk, "drop"]),
        reverse("web:entrants-check-in-all", args=[slug]),
        reverse("web:round-generate", args=[slug]),
        reverse("web:manage-round", args=[slug, round_.number]),
        reverse("web:round-publish", args=[slug, round_.number]),
        reverse("web:tournament-finish", args=[slug]),
        reverse("web:organiser-add", args=[slug]),
        reverse("web:result-override", args=[slug, table.pk]),
        reverse("web:result-report", args=[slug, table.pk]),
        reverse("web:token-report", args=[entrant.report_token, table.pk]),
        reverse("web:token-home", args=[entrant.report_token]),
        reverse("set_language"),
    ]
    for url in urls:
        for data in GARBAGE:
            response = client.post(url, data)
            status = response.status_code
            # refused with the form again (200), a redirect, or a client error: never 5xx, never 201/204
            assert status in (200, 302) or 400 <= status < 500, (url, data, status)


def test_garbage_as_organiser(
    client: Client, tac_tournament: Tournament, organiser: Any, published_round: Round
) -> None:
    client.force_login(organiser)
    tournaments = Tournament.objects.count()
    post_everywhere(client, tac_tournament, published_round)
    # none of the garbage is a tournament: every one of them is refused by the create form
    assert Tournament.objects.count() == tournaments


def test_garbage_as_anonymous_and_stranger(
    client: Client, tac_tournament: Tournament, stranger: Any, published_round: Round
) -> None:
    before = stored_state()
    post_everywhere(client, tac_tournament, published_round)
    client.force_login(stranger)
    post_everywhere(client, tac_tournament, published_round)
    # neither may change anything (the report token is not theirs to know: it is in the URL here,
    # and the garbage reports it carries are refused)
    assert stored_state() == before


def test_garbage_urls_are_404(client: Client, tac_tournament: Tournament) -> None:
    for url in (
        "/t/%00/",
        "/t/spring-cup/rounds/0/",
        "/t/spring-cup/rounds/99999999999999999999/",
        "/report/%20/",
        "/report/x/tables/1/",
        "/t/spring-cup/entrants/99999999999999999999/",
    ):
        assert client.get(url).status_code == 404, url
