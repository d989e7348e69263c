"""Public pages render for anonymous users, hide drafts and private tournaments, switch language."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from tournaments.models import Round, Tournament
from tournaments.services.rounds import round_generate
from tournaments.services.tournaments import tournament_create

pytestmark = pytest.mark.django_db


def test_tournament_list_shows_public_tournaments_only(
    client: Client, tac_tournament: Tournament, organiser: Any
) -> None:
    hidden = tournament_create(
        actor=organiser, name="Club night", game="taki", variant={"seats": 4}, is_public=False
    )
    response = client.get(reverse("web:tournament-list"))
    assert response.status_code == 200
    assert "Spring Cup" in response.content.decode()
    assert hidden.name not in response.content.decode()


def test_private_tournament_is_404_for_anonymous_and_visible_to_its_organiser(
    client: Client, organiser: Any
) -> None:
    hidden = tournament_create(
        actor=organiser, name="Club night", game="taki", variant={"seats": 4}, is_public=False
    )
    url = reverse("web:tournament-detail", args=[hidden.slug])
    assert client.get(url).status_code == 404
    client.force_login(organiser)
    assert client.get(url).status_code == 200


def test_tournament_page_shows_published_round_seats_and_starting_player(
    client: Client, tac_tournament: Tournament, published_round: Round
) -> None:
    response = client.get(reverse("web:tournament-detail", args=[tac_tournament.slug]))
    page = response.content.decode()
    assert response.status_code == 200
    assert "Round 1" in page
    for index in range(1, 5):
        assert f"Team {index}" in page
    assert "Seat 1" in page and "Seat 2" in page
    assert "★" in page  # who starts
    assert "Organise" not in page  # no organiser button for the public


def test_draft_round_is_hidden_from_the_public(
    client: Client, tac_tournament: Tournament, organiser: Any
) -> None:
    draft = round_generate(actor=organiser, tournament=tac_tournament)
    assert (
        client.get(reverse("web:round-detail", args=[tac_tournament.slug, draft.number])).status_code == 404
    )
    assert (
        client.get(reverse("web:pairing-sheet", args=[tac_tournament.slug, draft.number])).status_code == 404
    )
    page = client.get(reverse("web:tournament-detail", args=[tac_tournament.slug])).content.decode()
    assert "No round has been published yet." in page
    client.force_login(organiser)
    assert (
        client.get(reverse("web:round-detail", args=[tac_tournament.slug, draft.number])).status_code == 200
    )


def test_round_page_pairing_sheet_and_entrant_page(
    client: Client, tac_tournament: Tournament, published_round: Round
) -> None:
    round_url = reverse("web:round-detail", args=[tac_tournament.slug, 1])
    assert client.get(round_url).status_code == 200
    sheet = client.get(reverse("web:pairing-sheet", args=[tac_tournament.slug, 1]))
    assert sheet.status_code == 200
    assert "window.print()" in sheet.content.decode()
    assert "Player 1a, Player 1b" in sheet.content.decode()  # team members on the printed sheet
    entrant = tac_tournament.entrants.get(name="Team 1")
    page = client.get(reverse("web:entrant-detail", args=[tac_tournament.slug, entrant.pk])).content.decode()
    assert "Player 1a" in page and "Player 1b" in page
    assert ">1</a>" in page  # round 1 listed among its games


def test_unknown_objects_are_404_not_500(client: Client, tac_tournament: Tournament) -> None:
    assert client.get("/t/no-such-cup/").status_code == 404
    assert client.get(reverse("web:round-detail", args=[tac_tournament.slug, 99])).status_code == 404
    assert client.get(reverse("web:entrant-detail", args=[tac_tournament.slug, 999999])).status_code == 404
    assert client.get("/report/not-a-token/").status_code == 404


def test_language_switch_to_german_and_french(client: Client, tac_tournament: Tournament) -> None:
    response = client.post(reverse("set_language"), {"language": "de", "next": "/"})
    assert response.status_code == 302
    page = client.get(reverse("web:tournament-list")).content.decode()
    assert '<html lang="de">' in page
    assert "Turniere" in page
    client.post(reverse("set_language"), {"language": "fr", "next": "/"})
    page = client.get(reverse("web:tournament-list")).content.decode()
    assert '<html lang="fr">' in page
    assert "Tournois" in page


def test_pages_load_without_javascript(
    client: Client, tac_tournament: Tournament, published_round: Round
) -> None:
    """Everything a visitor needs is in the HTML: no inline script is required to show the data."""
    page = client.get(reverse("web:tournament-detail", args=[tac_tournament.slug])).content.decode()
    assert "<noscript" not in page
    # only the deferred enhancements: htmx, the focus keeping after its swaps (static/js/focus.js), the
    # larger-marbles switch (static/js/board_size.js) and the live refresh (static/js/live.js)
    assert page.count("<script") == 4 and page.count("<script src=") == 4 and page.count(" defer></script>") == 4
    assert 'name="viewport"' in page


def test_tournament_page_queries_do_not_grow_with_tables(
    client: Client, organiser: Any, django_assert_max_num_queries: Any
) -> None:
    """The tournament page loads rounds, tables, seats and results in a fixed number of queries."""
    from tournaments.services.entrants import entrant_register
    from tournaments.services.results import result_override
    from tournaments.services.rounds import round_publish

    tournament = tournament_create(actor=organiser, name="Big Cup", game="tac", rounds_planned=3)
    for index in range(24):
        entrant_register(
            actor=organiser, tournament=tournament, name=f"T{index}", player_names=[f"a{index}", f"b{index}"]
        )
    for _ in range(2):
        round_ = round_publish(actor=organiser, round=round_generate(actor=organiser, tournament=tournament))
        for table in round_.tables.filter(is_bye=False):
            first, second = [s.entrant_id for s in table.seats.order_by("position")]
            result_override(actor=organiser, table=table, scores={first: 8, second: 4})
    with django_assert_max_num_queries(15):
        response = client.get(reverse("web:tournament-detail", args=[tournament.slug]))
    assert response.status_code == 200
    with django_assert_max_num_queries(12):
        assert client.get(reverse("web:round-detail", args=[tournament.slug, 2])).status_code == 200


def test_error_pages_are_styled_and_translated(
    client: Client, tac_tournament: Tournament, stranger: Any
) -> None:
    response = client.get("/t/no-such-cup/")
    assert response.status_code == 404 and "This page does not exist" in response.content.decode()
    client.force_login(stranger)
    response = client.get(reverse("web:manage", args=[tac_tournament.slug]))
    assert response.status_code == 403 and "Only the tournament's organisers" in response.content.decode()
    client.post(reverse("set_language"), {"language": "de", "next": "/"})
    assert "Nicht gefunden" in client.get("/t/no-such-cup/").content.decode()
