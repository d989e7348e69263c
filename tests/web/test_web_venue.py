"""The organiser's venue page: boards, accessibility, pairs to keep apart, boards and start times."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from tests.web.conftest import PASSWORD
from tournaments.models import Board, ForbiddenPair, Round, Tournament
from tournaments.services.entrants import entrant_register
from tournaments.services.tables import forbidden_pair_add
from tournaments.services.tournaments import tournament_create

pytestmark = pytest.mark.django_db


def _login(client: Client, user: Any) -> None:
    assert client.login(username=user.username, password=PASSWORD)


def test_venue_page_needs_an_organiser(client: Client, tac_tournament: Tournament, stranger: Any) -> None:
    url = reverse("web:venue", args=[tac_tournament.slug])
    assert client.get(url).status_code == 302  # to the login page
    _login(client, stranger)
    assert client.get(url).status_code == 403
    post = client.post(reverse("web:venue-board-add", args=[tac_tournament.slug]), {"name": "A1"})
    assert post.status_code == 403
    assert not Board.objects.exists()


def test_boards_accessibility_and_start_times(
    client: Client, tac_tournament: Tournament, organiser: Any, published_round: Round
) -> None:
    _login(client, organiser)
    slug = tac_tournament.slug
    for name, accessible in (("A1", True), ("A2", False)):
        data = {"name": name} | ({"accessible": "on"} if accessible else {})
        assert client.post(reverse("web:venue-board-add", args=[slug]), data).status_code == 302
    # A duplicate name is refused with the service's sentence, and nothing is added.
    page = client.post(reverse("web:venue-board-add", args=[slug]), {"name": "A1"}, follow=True)
    assert "There is already a board named" in page.content.decode()
    assert Board.objects.filter(tournament=tac_tournament).count() == 2

    needy = tac_tournament.entrants.order_by("name").last()
    assert needy is not None
    client.post(reverse("web:venue-accessibility", args=[slug, needy.pk]), {"needs_accessible_table": "1"})
    needy.refresh_from_db()
    assert needy.needs_accessible_table

    response = client.post(
        reverse("web:venue-round-boards", args=[slug]),
        {"round_number": published_round.number, "start": "2026-12-05T10:30"},
    )
    assert response.status_code == 302
    tables = list(published_round.tables.filter(is_bye=False).select_related("board"))
    assert {t.board.name for t in tables if t.board} == {"A1", "A2"}
    needy_table = next(t for t in tables if t.seats.filter(entrant=needy).exists())
    assert needy_table.board is not None and needy_table.board.accessible
    local = [timezone.localtime(t.starts_at) for t in tables if t.starts_at is not None]
    assert len(local) == len(tables) and all((s.hour, s.minute) == (10, 30) for s in local)
    page = client.get(reverse("web:venue", args=[slug])).content.decode()
    assert "A1" in page and "10:30" in page


def test_bad_start_time_changes_nothing(
    client: Client, tac_tournament: Tournament, organiser: Any, published_round: Round
) -> None:
    _login(client, organiser)
    client.post(reverse("web:venue-board-add", args=[tac_tournament.slug]), {"name": "A1"})
    client.post(reverse("web:venue-board-add", args=[tac_tournament.slug]), {"name": "A2"})
    response = client.post(
        reverse("web:venue-round-boards", args=[tac_tournament.slug]),
        {"round_number": published_round.number, "start": "tomorrow-ish"},
        follow=True,
    )
    assert response.status_code == 200
    assert not published_round.tables.filter(board__isnull=False).exists()


def test_keep_apart_add_and_remove(client: Client, tac_tournament: Tournament, organiser: Any) -> None:
    _login(client, organiser)
    first, second = list(tac_tournament.entrants.order_by("pk"))[:2]
    url = reverse("web:venue-pair-add", args=[tac_tournament.slug])
    client.post(url, {"first": first.pk, "second": second.pk})
    pair = ForbiddenPair.objects.get(tournament=tac_tournament)
    page = client.post(url, {"first": first.pk, "second": first.pk}, follow=True).content.decode()
    assert "Choose two different entrants." in page
    assert ForbiddenPair.objects.count() == 1
    client.post(reverse("web:venue-pair-remove", args=[tac_tournament.slug, pair.pk]))
    assert not ForbiddenPair.objects.exists()


def test_ids_of_another_tournament_are_not_found_and_change_nothing(
    client: Client, tac_tournament: Tournament, organiser: Any, stranger: Any
) -> None:
    """The venue URLs take entrant and pair ids only within the slug's tournament (the stranger's own)."""
    other = tournament_create(actor=stranger, name="Other Cup", game="tac", format="swiss", rounds_planned=3)
    for index in range(2):
        entrant_register(actor=stranger, tournament=other, name=f"Other {index}",
                         player_names=[f"O{index}a", f"O{index}b"])
    theirs = list(other.entrants.order_by("pk"))
    ours = list(tac_tournament.entrants.order_by("pk"))
    forbidden_pair_add(actor=stranger, tournament=other, first=theirs[0], second=theirs[1])
    pair = ForbiddenPair.objects.get(tournament=other)
    _login(client, organiser)
    slug = tac_tournament.slug
    url = reverse("web:venue-accessibility", args=[slug, theirs[0].pk])
    assert client.post(url, {"needs_accessible_table": "1"}).status_code == 404
    assert client.post(reverse("web:venue-pair-remove", args=[slug, pair.pk])).status_code == 404
    page = client.post(reverse("web:venue-pair-add", args=[slug]), {"first": ours[0].pk, "second": theirs[0].pk},
                       follow=True)
    assert page.status_code == 200
    theirs[0].refresh_from_db()
    assert not theirs[0].needs_accessible_table
    assert list(ForbiddenPair.objects.values_list("pk", flat=True)) == [pair.pk]
