"""Browser test of a double-elimination bracket page (Debian chromium through Playwright): the
winners' bracket, the losers' bracket and the grand final, stacked on a phone without sideways
scrolling and side by side on a wide screen."""

from __future__ import annotations

from typing import Any

import pytest

from tests.e2e.test_e2e_organiser import PASSWORD, browser_page  # noqa: F401 (fixture)

NO_PAGE_OVERFLOW = "document.documentElement.scrollWidth <= window.innerWidth + 1"


@pytest.mark.e2e
@pytest.mark.django_db(transaction=True)
def test_double_elimination_bracket_on_a_phone_and_a_wide_screen(live_server: Any, browser_page: Any) -> None:  # noqa: F811
    from django.contrib.auth import get_user_model

    from tests.tournaments.conftest import make_tournament
    from tests.tournaments.test_double_elimination_services import _play_round
    from tournaments.services.rounds import next_round_possible

    organiser = get_user_model().objects.create_user("organiser", password=PASSWORD)
    tournament = make_tournament(organiser, entrants=6, format="knockout", knockout_style="double", name="DE Cup")
    while next_round_possible(tournament):
        _play_round(organiser, tournament)

    page = browser_page
    page.goto(f"{live_server.url}/t/{tournament.slug}/bracket/")
    columns = page.locator("section.bracket-round")
    names = [columns.nth(i).locator("h2").inner_text() for i in range(columns.count())]
    # W rounds 1-3, L rounds 1-4 (L1 holds two byes), the grand final (no reset: 1 won)
    assert [n.split(" Round")[0] for n in names] == [
        "Winners' bracket, round 1", "Winners' bracket, round 2", "Winners' bracket, round 3",
        "Losers' bracket, round 1", "Losers' bracket, round 2", "Losers' bracket, round 3",
        "Losers' bracket, round 4", "Grand final",
    ]
    assert page.evaluate(NO_PAGE_OVERFLOW)
    final = columns.nth(7).locator("article.bracket-table").first
    assert "Team 01" in final.locator("li.won").inner_text()
    page.set_viewport_size({"width": 1280, "height": 900})
    boxes = [columns.nth(i).bounding_box() for i in range(2)]
    assert boxes[0]["x"] < boxes[1]["x"]
