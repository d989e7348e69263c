"""Every game profile goes through the pages: register, pair, publish, report, confirm — no 500."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from tournaments.forms import profile_key
from tournaments.models import Result, Tournament
from tournaments.profiles import PLACING, all_profiles
from tournaments.services.entrants import entrant_register
from tournaments.services.rounds import round_generate, round_publish

pytestmark = pytest.mark.django_db

PROFILES = {profile_key(p): p for p in all_profiles()}


@pytest.mark.parametrize("key", sorted(PROFILES))
def test_profile_through_the_pages(client: Client, organiser: Any, key: str) -> None:
    profile = PROFILES[key]
    client.force_login(organiser)
    response = client.post(
        reverse("web:tournament-create"),
        {
            "name": f"Cup {key}",
            "profile": key,
            "format": "swiss",
            "rounds_planned": "2",
            "group_count": "1",
            "first_round": "seed",
            "is_public": "on",
        },
    )
    assert response.status_code == 302, response.content.decode()[:2000]
    tournament = Tournament.objects.get(name=f"Cup {key}")
    for index in range(profile.entrants_per_table * 2):
        players = (
            [f"P{index}-{k}" for k in range(profile.players_per_entrant)] if profile.is_team_game else []
        )
        entrant_register(actor=organiser, tournament=tournament, name=f"E{index}", player_names=players)
    round_ = round_publish(actor=organiser, round=round_generate(actor=organiser, tournament=tournament))
    for url in (
        reverse("web:tournament-detail", args=[tournament.slug]),
        reverse("web:round-detail", args=[tournament.slug, 1]),
        reverse("web:pairing-sheet", args=[tournament.slug, 1]),
        reverse("web:manage", args=[tournament.slug]),
        reverse("web:manage-round", args=[tournament.slug, 1]),
    ):
        assert client.get(url).status_code == 200, url
    table = round_.tables.filter(is_bye=False).order_by("number").first()
    assert table is not None
    seated = [s.entrant for s in table.seats.order_by("position")]
    data: dict[str, Any] = {"action": "report", "kind": "normal"}
    for place, entrant in enumerate(seated, start=1):
        if profile.result_mode == PLACING:
            data[f"placing_{entrant.pk}"] = place
        else:
            data[f"score_{entrant.pk}"] = profile.score_max if place == 1 else place
    client.logout()
    first, second = seated[0], seated[1]
    report = client.post(reverse("web:token-report", args=[first.report_token, table.pk]), data)
    assert report.status_code == 302, report.content.decode()[-3000:]
    pending = Result.objects.get(table=table, state=Result.State.REPORTED)
    page = client.get(reverse("web:token-report", args=[second.report_token, table.pk])).content.decode()
    assert 'value="confirm"' in page
    client.post(
        reverse("web:token-report", args=[second.report_token, table.pk]),
        {"action": "confirm", "result": pending.pk},
    )
    assert Result.objects.get(pk=pending.pk).state == Result.State.CONFIRMED
    assert client.get(reverse("web:entrant-detail", args=[tournament.slug, first.pk])).status_code == 200
