"""Embedding (issue 17): only /embed/ pages may be framed (from any site); they refresh themselves;
the public API answers cross-origin reads (CORS) and nothing else."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from tournaments.models import Round, Tournament

pytestmark = pytest.mark.django_db


def test_embed_pages_may_be_framed_and_refresh_themselves(
    client: Client, tac_tournament: Tournament, published_round: Round
) -> None:
    for url in (reverse("embed:standings", args=[tac_tournament.slug]),
                reverse("embed:round", args=[tac_tournament.slug, 1])):
        response = client.get(url)
        assert response.status_code == 200
        assert "X-Frame-Options" not in response
        assert "frame-ancestors *" in response["Content-Security-Policy"]
        body = response.content.decode()
        # No meta refresh (it throws a screen reader back to the top, WCAG 2.2.1/3.2.5): the page's
        # script updates the content in place every `data-refresh` seconds, and a link updates on request.
        assert 'http-equiv="refresh"' not in body and "site-header" not in body
        assert 'data-refresh="60"' in body and "embed_refresh.js" in body and 'id="embed-update-now"' in body
        assert "<h1" in body
    slow = client.get(reverse("embed:standings", args=[tac_tournament.slug]) + "?refresh=5").content.decode()
    assert 'data-refresh="30"' in slow
    # Every other page still refuses frames.
    for url in (reverse("web:standings", args=[tac_tournament.slug]),
                reverse("web:round-detail", args=[tac_tournament.slug, 1])):
        assert client.get(url)["X-Frame-Options"] == "DENY"


def test_embed_pages_show_only_public_tournaments_and_published_rounds(
    client: Client, organiser: Any, tac_tournament: Tournament, published_round: Round
) -> None:
    from tournaments.services.rounds import round_generate

    assert client.get(reverse("embed:round", args=[tac_tournament.slug, 2])).status_code == 404
    for table in published_round.tables.filter(is_bye=False):
        seated = [s.entrant_id for s in table.seats.order_by("position")]
        from tournaments.services.results import result_override

        result_override(actor=organiser, table=table, scores={seated[0]: 8, seated[1]: 1})
    round_generate(actor=organiser, tournament=tac_tournament)  # a draft round 2
    client.force_login(organiser)
    assert client.get(reverse("embed:round", args=[tac_tournament.slug, 2])).status_code == 404
    tac_tournament.is_public = False
    tac_tournament.save(update_fields=["is_public"])
    assert client.get(reverse("embed:standings", args=[tac_tournament.slug])).status_code == 404
    assert client.post(reverse("embed:standings", args=[tac_tournament.slug])).status_code == 405


def test_tournament_page_offers_the_snippet(client: Client, tac_tournament: Tournament, published_round: Round) -> None:
    page = client.get(reverse("web:tournament-detail", args=[tac_tournament.slug])).content.decode()
    assert f"http://testserver/embed/t/{tac_tournament.slug}/standings/" in page
    assert f"http://testserver/embed/t/{tac_tournament.slug}/rounds/1/" in page


def test_api_allows_cross_origin_reads_only(client: Client, tac_tournament: Tournament) -> None:
    origin = {"HTTP_ORIGIN": "https://club.example"}
    read = client.get(f"/api/tournaments/{tac_tournament.slug}/standings/", **origin)
    assert read["Access-Control-Allow-Origin"] == "https://club.example"
    assert "Access-Control-Allow-Credentials" not in read
    preflight_get = client.options(f"/api/tournaments/{tac_tournament.slug}/", HTTP_ACCESS_CONTROL_REQUEST_METHOD="GET",
                                   **origin)
    assert preflight_get["Access-Control-Allow-Origin"] == "https://club.example"
    assert "POST" not in preflight_get["Access-Control-Allow-Methods"]
    assert "authorization" not in preflight_get["Access-Control-Allow-Headers"]
    preflight_post = client.options("/api/tournaments/", HTTP_ACCESS_CONTROL_REQUEST_METHOD="POST", **origin)
    assert "Access-Control-Allow-Origin" not in preflight_post
    write = client.post("/api/tournaments/", {}, **origin)
    assert "Access-Control-Allow-Origin" not in write
    page = client.get(reverse("web:standings", args=[tac_tournament.slug]), **origin)
    assert "Access-Control-Allow-Origin" not in page
