"""The podium of a finished tournament never shows a no-show (an entrant never paired, 0 games):
never-paired entrants rank last (docs/formats.md, Places), so they cannot share 3rd place."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from tests.tournaments.conftest import make_tournament, play_all_rounds
from tournaments import services
from tournaments.models import StandingRow
from tournaments.views.page_data import podium

pytestmark = pytest.mark.django_db


@pytest.fixture
def organiser(db: Any) -> Any:
    return get_user_model().objects.create_user("org", password="org-password-1")




@pytest.mark.parametrize("settings_", [
    {"format": "knockout", "third_place_match": False, "entrants": 5},  # semi-final losers share 3rd
    {"format": "swiss", "rounds_planned": 2, "entrants": 4},
    # h28b's case: 1 round, 2 winners, 2 losers with 0 points; the no-show (0 points, 0 games) ranked 3rd
    # above both losers before never-paired entrants were put last
    {"format": "swiss", "rounds_planned": 1, "entrants": 5},
])
def test_a_no_show_is_not_on_the_podium(organiser: Any, settings_: dict[str, Any],
                                        django_capture_on_commit_callbacks: Any) -> None:
    t = make_tournament(organiser, checkin_required=True, **settings_)
    no_show = t.entrants.order_by("-seed").first()
    for entrant in t.entrants.exclude(pk=no_show.pk):
        services.entrant_check_in(actor=organiser, entrant=entrant)
    with django_capture_on_commit_callbacks(execute=True):
        play_all_rounds(organiser, t)
        services.tournament_finish(actor=organiser, tournament=t)
    services.standings_recompute(tournament_id=t.pk)
    t.refresh_from_db()
    rows = {row.entrant_id: row for row in StandingRow.objects.filter(tournament=t)}
    assert rows[no_show.pk].games_played == 0
    assert rows[no_show.pk].rank == max(row.rank for row in rows.values())  # last
    assert all(row.rank < rows[no_show.pk].rank for pk, row in rows.items() if pk != no_show.pk)
    places = podium(t)
    assert places and no_show.pk not in {place.entrant.pk for place in places}
    detail = Client().get(f"/t/{t.slug}/").content.decode()
    section = detail.split('id="podium"')[1].split("</section>")[0]
    assert "Team 01" in section and no_show.name not in section
