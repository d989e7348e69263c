"""Browser test of the bracket page (Debian chromium through Playwright): reached from the tournament
page, read on a phone (rounds stacked, no page-wide sideways scroll) and on a wide screen (rounds side
by side), a table link leading to the table on its round page, printable without the navigation; an
organiser turns on "order shared places by the standings" on the manage page."""

from __future__ import annotations

from typing import Any

import pytest

from tests.e2e.test_e2e_organiser import PASSWORD, browser_page, log_in  # noqa: F401 (fixture)

NO_PAGE_OVERFLOW = "document.documentElement.scrollWidth <= window.innerWidth + 1"


@pytest.mark.e2e
@pytest.mark.django_db(transaction=True)
def test_bracket_page_on_a_phone_and_a_wide_screen(live_server: Any, browser_page: Any) -> None:  # noqa: F811
    from django.contrib.auth import get_user_model

    from tests.tournaments.conftest import make_tournament
    from tests.tournaments.test_final_places_services import KO_UPSETS, play_all
    from tournaments.models import Tournament

    organiser = get_user_model().objects.create_user("organiser", password=PASSWORD)
    tournament = make_tournament(organiser, entrants=8, format="knockout", name="Herbst KO")
    play_all(organiser, tournament, KO_UPSETS)

    page = browser_page
    base = live_server.url
    page.goto(f"{base}/t/{tournament.slug}/")
    page.click("main >> text=Bracket")
    page.wait_for_url(f"**/t/{tournament.slug}/bracket/")
    rounds = page.locator("section.bracket-round")
    assert rounds.count() == 3
    assert page.evaluate(NO_PAGE_OVERFLOW)
    boxes = [rounds.nth(i).bounding_box() for i in range(3)]
    assert boxes[0]["y"] < boxes[1]["y"] < boxes[2]["y"]  # stacked on a phone
    final = rounds.nth(2).locator("article.bracket-table").first
    assert final.locator("li.won").inner_text().startswith("5")  # seed 5 won the final
    assert "Team 05" in final.locator("li.won").inner_text()
    assert page.locator("ol.podium li").first.inner_text().startswith("1.")

    page.set_viewport_size({"width": 1280, "height": 900})
    boxes = [rounds.nth(i).bounding_box() for i in range(3)]
    assert boxes[0]["x"] < boxes[1]["x"] < boxes[2]["x"]  # side by side when wide
    assert page.evaluate(NO_PAGE_OVERFLOW)

    page.emulate_media(media="print")
    assert not page.locator("header").first.is_visible()
    assert page.locator("article.bracket-table").first.is_visible()
    page.emulate_media(media="screen")

    page.click("section.bracket-round >> nth=1 >> text=Table 1")
    page.wait_for_url("**/rounds/2/#table-*")
    assert "Team 05" in page.content()

    log_in(page, base)
    page.goto(f"{base}/t/{tournament.slug}/manage/")
    page.check("#final-places input[name=shared_places_by_standings]")
    page.click("#final-places button[type=submit]")
    page.wait_for_url(f"**/t/{tournament.slug}/manage/#final-places")
    assert "Final-places settings saved." in page.content()
    assert Tournament.objects.get(pk=tournament.pk).shared_places_by_standings
