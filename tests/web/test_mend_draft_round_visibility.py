"""One rule for draft rounds on the pages (`permissions.can_view_round`, used through
`tournaments.views.public.visible_round` / `visible_table`): a draft round and its tables are the
organisers' only, a 404 for everyone else, on the round page and on the games pages of its tables."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from tournaments import permissions
from tournaments.models import Round, Tournament
from tournaments.services.rounds import round_generate

pytestmark = pytest.mark.django_db


def _pages(tournament: Tournament, round_: Round) -> list[str]:
    table = round_.tables.filter(is_bye=False).order_by("number").first()
    assert table is not None
    base = f"/t/{tournament.slug}"
    return [
        f"{base}/rounds/{round_.number}/",
        f"{base}/rounds/{round_.number}/sheet/",
        f"{base}/tables/{table.pk}/records/",
        f"{base}/tables/{table.pk}/records/submit/",
        f"{base}/tables/{table.pk}/scoresheet/",
    ]


def test_a_draft_round_is_the_organisers_only(tac_tournament: Tournament, organiser: Any) -> None:
    tac_tournament.is_public = True
    tac_tournament.save(update_fields=["is_public"])
    draft = round_generate(actor=organiser, tournament=tac_tournament)
    stranger = get_user_model().objects.create_user("walker", password="walker-pass-1")
    assert permissions.can_view_round(organiser, draft) and not permissions.can_view_round(stranger, draft)
    assert not permissions.can_view_round(None, draft)
    outsider, owner = Client(), Client()
    outsider.force_login(stranger)
    owner.force_login(organiser)
    for url in _pages(tac_tournament, draft):
        assert outsider.get(url).status_code == 404, url
        assert owner.get(url).status_code == 200, url


def test_a_published_round_is_everyones(published_round: Round, organiser: Any) -> None:
    assert permissions.can_view_round(None, published_round)
    assert Client().get(f"/t/{published_round.tournament.slug}/rounds/{published_round.number}/").status_code == 200
