"""Live pages and the hall display (issue 30), in Debian's chromium through Playwright.

1. A standings page updates by itself after a result: polls answered 304 while nothing changes, the new
   rows swapped in without a reload, and the polling stops once the tournament is finished.
2. The hall display cycles its panels (pairings with boards, standings) at 1920x1080.
Screenshots go to $LIVE_SCREENSHOTS when it is set (never into the repository).
"""

from __future__ import annotations

import os
from typing import Any

import pytest

from tests.e2e.test_e2e_organiser import browser_page  # noqa: F401 - the fixture
from tests.tournaments.conftest import make_tournament, published_round, seated_entrants
from tournaments import services

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def organiser(transactional_db: Any) -> Any:
    from django.contrib.auth import get_user_model

    return get_user_model().objects.create_user("org", password="org-password-1")
SHOTS = os.environ.get("LIVE_SCREENSHOTS", "")


def _shot(page: Any, name: str) -> None:
    if SHOTS:
        os.makedirs(SHOTS, exist_ok=True)
        page.screenshot(path=os.path.join(SHOTS, f"{name}.png"), full_page=True)


def test_standings_update_by_themselves(live_server: Any, browser_page: Any, settings: Any,  # noqa: F811
                                        organiser: Any) -> None:
    settings.LIVE_REFRESH_SECONDS = 1
    tournament = make_tournament(organiser, rounds_planned=1)
    round_ = published_round(organiser, tournament)
    statuses: list[int] = []
    page = browser_page
    page.on("response", lambda r: statuses.append(r.status) if "/standings/" in r.url else None)
    page.goto(f"{live_server.url}/t/{tournament.slug}/standings/")
    assert page.locator("main[data-live='1']").count() == 1
    assert page.locator("table.standings").count() == 0
    page.evaluate("() => { window.__notReloaded = true; }")
    page.wait_for_timeout(3500)
    assert statuses.count(304) >= 1, statuses  # nothing changed: the polls cost a 304 each

    tables = list(round_.tables.filter(is_bye=False).order_by("number"))
    home, away = seated_entrants(tables[0])
    services.result_override(actor=organiser, table=tables[0], scores={home.pk: 8, away.pk: 3})
    services.standings_recompute(tournament_id=tournament.pk)
    page.wait_for_selector("table.standings", timeout=10_000)
    assert page.evaluate("() => window.__notReloaded") is True
    assert home.name in page.locator("table.standings").inner_text()

    for table in tables[1:]:
        a, b = seated_entrants(table)
        services.result_override(actor=organiser, table=table, scores={a.pk: 8, b.pk: 1})
    services.tournament_finish(actor=organiser, tournament=tournament)
    page.wait_for_selector("main:not([data-live])", state="attached", timeout=10_000)
    count = len(statuses)
    page.wait_for_timeout(2500)
    assert len(statuses) == count  # the event is over: no more polls


def test_hall_display_cycles(live_server: Any, browser_page: Any, settings: Any,  # noqa: F811
                             organiser: Any) -> None:
    settings.HALL_PANEL_SECONDS = 2
    settings.LIVE_REFRESH_SECONDS = 1
    tournament = make_tournament(organiser, entrants=8, name="Hall Cup")
    for name in ("North", "South", "East", "West"):
        services.board_add(actor=organiser, tournament=tournament, name=name)
    round_ = published_round(organiser, tournament)
    services.round_assign_boards(actor=organiser, round=round_)
    first = round_.tables.filter(is_bye=False).order_by("number").first()
    a, b = seated_entrants(first)
    services.result_override(actor=organiser, table=first, scores={a.pk: 8, b.pk: 5})
    services.standings_recompute(tournament_id=tournament.pk)
    page = browser_page
    page.set_viewport_size({"width": 1920, "height": 1080})
    page.goto(f"{live_server.url}/t/{tournament.slug}/hall/")
    hall = page.locator("#hall")
    assert hall.get_attribute("data-hall-panel") == "pairings"
    assert page.locator(".hall-panel[data-panel='standings']").is_hidden()
    pairings = page.locator(".hall-panel[data-panel='pairings']").inner_text()
    assert "North" in pairings and a.name in pairings  # tables with their boards
    size = page.evaluate("() => parseFloat(getComputedStyle(document.querySelector('.hall-seats li')).fontSize)")
    assert size >= 28, size  # large type at 1920 px
    _shot(page, "hall-pairings-1920")
    page.wait_for_function("() => document.querySelector('#hall').dataset.hallPanel === 'standings'",
                           timeout=6000)
    assert page.locator(".hall-panel[data-panel='pairings']").is_hidden()
    assert a.name in page.locator(".hall-panel[data-panel='standings']").inner_text()
    _shot(page, "hall-standings-1920")
    page.wait_for_function("() => document.querySelector('#hall').dataset.hallPanel === 'pairings'",
                           timeout=6000)
    page.set_viewport_size({"width": 390, "height": 844})
    _shot(page, "hall-390")
    overflow = page.evaluate("() => document.documentElement.scrollWidth - document.documentElement.clientWidth")
    assert overflow <= 1


def test_hall_display_shows_the_tables_recorded_live(live_server: Any, browser_page: Any, settings: Any,  # noqa: F811
                                                     organiser: Any) -> None:
    """3. The "Tables being played" panel: the open scoresheets' boards side by side at 1920x1080, no hands,
    refreshed from their own URL (games/scoresheet/hall.py) when an entry is made."""
    from games.scoresheet import services as sheets
    from tests.games.conftest import random_record, relabel
    from tests.games.scoresheet_support import public_entries
    from tournaments.profiles import profile_for

    settings.HALL_PANEL_SECONDS = 2
    settings.SCORESHEET_THROTTLE_RATE = "100000/min"
    per_table = profile_for("tac", {}).entrants_per_table
    tournament = make_tournament(organiser, game="tac", variant={}, entrants=3 * per_table, name="Hall Live Cup")
    round_ = published_round(organiser, tournament)
    kept = []
    for seed, table in enumerate(round_.tables.filter(is_bye=False).order_by("number")):
        record = relabel(random_record("tac", {}, seed=40 + seed), table)
        entries = public_entries(record)
        sheet = sheets.scoresheet_start(table=table, actor=organiser, dealer=record["deals"][0]["dealer"])
        for entry in entries[:4]:
            sheet = sheets.scoresheet_add(sheet_id=sheet.pk, actor=organiser, version=sheet.version, entry=entry)
        kept.append((sheet, entries))
    page = browser_page
    page.set_viewport_size({"width": 1920, "height": 1080})
    page.goto(f"{live_server.url}/t/{tournament.slug}/hall/")
    page.wait_for_function("() => document.querySelector('#hall').dataset.hallPanel === 'live'", timeout=12_000)
    panel = page.locator(".hall-panel[data-panel='live']")
    assert panel.locator(".hall-live-board svg").count() == len(kept) == 3
    assert panel.locator("[class*='hand']").count() == 0
    width = page.evaluate("() => document.querySelector('.hall-live-board svg').getBoundingClientRect().width")
    assert width >= 500, width  # three boards side by side, large
    _shot(page, "hall-live-1920")
    sheet, entries = kept[0]
    sheets.scoresheet_add(sheet_id=sheet.pk, actor=organiser, version=sheet.version, entry=entries[4])
    page.wait_for_selector(f".hall-live-board[data-sheet='{sheet.pk}'][data-version='{sheet.version + 1}']",
                           state="attached", timeout=12_000)
    # axe on the panel as shown (the cycle stopped so that it stays on screen): headings, contrast, the SVG.
    from tests.e2e.a11y_support import audit

    page.evaluate("""() => { for (let i = 1; i < 1000; i++) { clearInterval(i); }
        document.querySelectorAll('.hall-panel').forEach(p => { p.hidden = p.dataset.panel !== 'live'; }); }""")
    assert audit(page, width=1920) == []
