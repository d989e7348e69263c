"""Browser test: an organiser creates a tournament, registers entrants (by hand and by CSV),
generates and publishes round 1, and enters a result; then a player reports through the team's
private link and the opponent confirms — in Debian's chromium through Playwright.

Skipped when chromium (or Playwright) is missing, except under REQUIRE_SERVICES=1 (CI), where a
missing browser is a failure.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from typing import Any

import pytest

CHROMIUM_PATH = os.environ.get("CHROMIUM_PATH", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--headless=new",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
]
PASSWORD = "e2e-organiser-password"


def log_in(page: Any, base: str, username: str = "organiser", password: str = PASSWORD) -> None:
    """Log in through the login page (the organiser of these tests by default); the home page follows."""
    page.goto(f"{base}/accounts/login/")
    page.fill("#id_username", username)
    page.fill("#id_password", password)
    page.click("main button[type=submit]")
    page.wait_for_url(f"{base}/")


def _browser_missing() -> str | None:
    if not (os.path.isfile(CHROMIUM_PATH) or shutil.which(CHROMIUM_PATH)):
        return f"chromium not found at {CHROMIUM_PATH}"
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        return "the playwright package is not installed"
    return None


@pytest.fixture
def browser_page() -> Iterator[Any]:
    missing = _browser_missing()
    if missing:
        if os.environ.get("REQUIRE_SERVICES") == "1":
            pytest.fail(f"Browser test required (REQUIRE_SERVICES=1) but {missing}.")
        pytest.skip(missing)
    # The live server runs in a thread while Playwright's sync API runs an event loop in this one.
    previous = os.environ.get("DJANGO_ALLOW_ASYNC_UNSAFE")
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    try:
        yield from _browser_page()
    finally:
        if previous is None:
            os.environ.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
        else:
            os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = previous


def _browser_page() -> Iterator[Any]:
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=CHROMIUM_PATH, args=CHROMIUM_ARGS)
        context = browser.new_context(viewport={"width": 390, "height": 844}, locale="en-GB")
        page = context.new_page()
        page.set_default_timeout(15_000)
        try:
            yield page
        finally:
            # The test body ran inside Playwright's event loop, where Django keeps a separate
            # connection; close it here, in that context, or PostgreSQL refuses to drop the test database.
            from django.db import connections

            connections.close_all()
            context.close()
            browser.close()


@pytest.mark.e2e
@pytest.mark.django_db(transaction=True)
def test_organiser_creates_tournament_publishes_round_and_enters_result(
    live_server: Any, browser_page: Any
) -> None:
    from django.contrib.auth import get_user_model

    from tournaments.models import Result, Round, Tournament

    get_user_model().objects.create_user("organiser", password=PASSWORD)
    page = browser_page
    base = live_server.url

    # Log in.
    log_in(page, base)

    # Create a TAC Swiss tournament.
    page.click("text=New tournament >> nth=0")
    page.fill("#id_name", "Browser Cup")
    page.select_option("#id_profile", value='tac:{"master":false}')
    page.select_option("#id_format", value="swiss")
    page.fill("#id_rounds_planned", "3")
    page.click("text=Create tournament")
    page.wait_for_url("**/t/browser-cup/manage/")
    assert "Tournament created" in page.content()

    # One entrant by hand ...
    page.click("text=Register an entrant")
    page.fill("#id_name", "Kugelblitz")
    page.fill("#id_player_1", "Anna")
    page.fill("#id_player_2", "Beat")
    page.click("main button[type=submit]")
    page.wait_for_url("**/t/browser-cup/manage/#entrants")
    assert "Kugelblitz registered." in page.content()

    # ... three by CSV import.
    page.click("text=Import CSV")
    page.fill(
        "#id_csv_text",
        "name,players\nDie Förster,Cla;Dora\nMurmeltiere,Emil;Fritz\nSieben Teiler,Gina;Hugo\n",
    )
    page.click("main form button[type=submit]")
    page.wait_for_url("**/t/browser-cup/manage/#entrants")
    assert "3 entrants imported." in page.content()

    # Generate round 1 (a draft), then publish it.
    page.click("text=Generate round 1")
    page.wait_for_url("**/t/browser-cup/manage/rounds/1/")
    assert "No warnings" in page.content()
    page.click("text=Publish this round")
    page.wait_for_url("**/t/browser-cup/rounds/1/")
    assert "Round 1 published." in page.content()

    # Enter the result of table 1: the first seat wins 8:5.
    page.click(".game-tables >> text=Enter result >> nth=0")
    page.wait_for_url("**/result/")
    score_inputs = page.locator("input[name^=score_]")
    assert score_inputs.count() == 2
    score_inputs.nth(0).fill("8")
    score_inputs.nth(1).fill("5")
    page.click("text=Save as final result")
    page.wait_for_url("**/result/")
    assert "Result saved as final." in page.content()

    tournament = Tournament.objects.get(slug="browser-cup")
    round_1 = Round.objects.get(tournament=tournament, number=1)
    assert round_1.status == Round.Status.PUBLISHED
    assert tournament.entrants.count() == 4
    final = Result.objects.get(table__round=round_1, table__number=1, state=Result.State.OVERRIDDEN)
    assert sorted(s.score for s in final.scores.all()) == [5, 8]

    # The public round page shows the result.
    page.goto(f"{base}/t/browser-cup/rounds/1/")
    assert "Winner" in page.content()

    # At table 2, a player reports through the team's private link and the opponent confirms.
    from tournaments.models import Table

    table_2 = Table.objects.get(round=round_1, number=2)
    first, second = [seat.entrant for seat in table_2.seats.order_by("position")]
    page.goto(f"{base}/report/{first.report_token}/")
    page.click("text=Report result")
    inputs = page.locator("input[name^=score_]")
    inputs.nth(0).fill("3")
    inputs.nth(1).fill("8")
    page.click("#report button[type=submit]")
    # the tap is sent by static/js/offline_reports.js (fetch, then the page again): wait for the message
    page.wait_for_selector("text=Result reported. An opponent now confirms it.")
    page.goto(f"{base}/report/{second.report_token}/tables/{table_2.pk}/")
    page.click("text=Confirm: this is right")
    page.wait_for_selector("text=Result confirmed. Thank you!")
    assert (
        Result.objects.get(table=table_2, state=Result.State.CONFIRMED).scores.get(entrant=second).score == 8
    )
