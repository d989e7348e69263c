"""Browser test of the rankings on a phone-sized screen (Debian chromium through Playwright): the nav
link, the leaderboard, a player's page with its SVG chart, no page-wide horizontal scrolling; an
organiser sets the rating policy and seeds a new tournament from the rankings on the manage page."""

from __future__ import annotations

from typing import Any

import pytest

from tests.e2e.test_e2e_organiser import PASSWORD, browser_page, log_in  # noqa: F401 (fixture)

NO_PAGE_OVERFLOW = "document.documentElement.scrollWidth <= window.innerWidth + 1"


@pytest.mark.e2e
@pytest.mark.django_db(transaction=True)
def test_rankings_on_a_phone_and_seeding_from_them(live_server: Any, browser_page: Any) -> None:  # noqa: F811
    from django.contrib.auth import get_user_model

    from tests.rankings.conftest import make_players, next_round, play_scores, played_tables, tournament_with
    from tournaments.models import Entrant, Tournament
    from tournaments.rankings.models import RatingPolicy
    from tournaments.rankings.services import ratings_recompute

    organiser = get_user_model().objects.create_user("organiser", password=PASSWORD)
    players = make_players(8, prefix="Spieler ")
    played = tournament_with(organiser, [players[i:i + 2] for i in range(0, 8, 2)], name="Frühling")
    for index, table in enumerate(played_tables(next_round(organiser, played))):
        play_scores(organiser, table, [8, 3 + index])
    ratings_recompute(pool="tac")
    upcoming = tournament_with(organiser, [players[0:2], players[2:4]], name="Sommer")

    page = browser_page
    base = live_server.url
    page.goto(f"{base}/")
    page.click("header nav >> text=Rankings")
    page.wait_for_url(f"{base}/rankings/")
    page.click("main >> text=TAC")
    page.wait_for_url(f"{base}/rankings/tac/")
    assert page.locator("table.data tbody tr").count() == 8
    assert page.evaluate(NO_PAGE_OVERFLOW)
    page.click("table.data tbody tr >> nth=0 >> a")
    page.wait_for_url("**/rankings/tac/players/*/")
    chart = page.locator("svg.rating-chart")
    assert chart.is_visible() and chart.bounding_box()["width"] <= 390
    assert page.evaluate(NO_PAGE_OVERFLOW)

    log_in(page, base)
    page.goto(f"{base}/t/{upcoming.slug}/manage/")
    page.select_option("#rating-time-limit", value="ignore")
    page.click("text=Save rating policy")
    page.wait_for_url(f"**/t/{upcoming.slug}/manage/#ratings")
    assert "Rating policy saved." in page.content()
    assert RatingPolicy.objects.get(tournament=upcoming).time_limit_games == "ignore"
    page.click("text=Seed from the rankings")
    page.wait_for_url(f"**/t/{upcoming.slug}/manage/#ratings")
    assert "seeded from the rankings" in page.content()
    assert Tournament.objects.get(pk=upcoming.pk).first_round == "rating"
    assert all(e.rating is not None for e in Entrant.objects.filter(tournament=upcoming))
