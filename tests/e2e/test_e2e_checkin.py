"""Browser test (issue 13): with check-in required, the manage page's counters follow each check-in
without a reload (htmx), and "drop everyone not checked in" is one button."""

from __future__ import annotations

import os
from typing import Any

import pytest

from tests.e2e.test_e2e_organiser import PASSWORD, browser_page, log_in  # noqa: F401 (fixture)


@pytest.mark.e2e
@pytest.mark.django_db(transaction=True)
def test_checkin_counters_update_without_reload_and_absent_are_dropped(
    live_server: Any, browser_page: Any  # noqa: F811
) -> None:
    from django.contrib.auth import get_user_model

    from tests.tournaments.conftest import make_tournament
    from tournaments.models import Entrant

    organiser = get_user_model().objects.create_user("organiser", password=PASSWORD)
    tournament = make_tournament(organiser, entrants=3, checkin_required=True, name="Check Cup")
    page = browser_page
    base = live_server.url
    log_in(page, base)

    page.goto(f"{base}/t/{tournament.slug}/manage/")
    counts = page.locator("#entrant-counts")
    assert "0 checked in" in counts.inner_text()
    page.evaluate("window.__marker = 'same page'")  # survives only if the page is not reloaded
    first = Entrant.objects.get(tournament=tournament, seed=1)
    page.click(f"#entrant-{first.pk} >> text=Check in")
    # a function, not a string expression: the page's CSP forbids eval
    page.wait_for_function("() => document.querySelector('#entrant-counts').innerText.includes('1 checked in')")
    assert page.evaluate("window.__marker") == "same page"
    assert "2 registered" in counts.inner_text()
    shots = os.environ.get("SCREENSHOT_DIR")
    if shots:
        page.screenshot(path=f"{shots}/checkin-390.png", full_page=True)
        page.set_viewport_size({"width": 1280, "height": 900})
        page.screenshot(path=f"{shots}/checkin-1280.png", full_page=True)
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")

    page.click("text=Drop everyone not checked in")
    page.wait_for_url("**/manage/#entrants")
    assert "2 entrants not checked in dropped." in page.content()
    assert set(Entrant.objects.filter(tournament=tournament).values_list("status", flat=True)) == {
        "checked_in", "dropped"}
