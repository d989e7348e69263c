"""Browser test of the live scoresheet on a 390 px phone (Debian chromium through Playwright): a player
with the private report link starts the sheet, enters the first deal of a TAC game by tapping
(announcements, exchange, every turn card by card and move by move), undoes a move and enters it again,
reloads and continues; then finishes a short game from a prepared position into a valid record.

Skipped when chromium (or Playwright) is missing, except under REQUIRE_SERVICES=1.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.e2e.test_e2e_organiser import browser_page  # noqa: F401  (the fixture)
from tests.games.conftest import random_record, relabel
from tests.games.scoresheet_support import public_entries


def _version(page: Any) -> int:
    return int(page.locator("#sheet").get_attribute("data-version") or 0)


def _wait_version(page: Any, version: int) -> None:
    page.wait_for_function(
        "(v) => document.querySelector('#sheet') && document.querySelector('#sheet').dataset.version === String(v)",
        arg=version,
    )


def _wait_path(page: Any, depth: int) -> None:
    page.wait_for_function(
        "(d) => { const p = document.querySelector('#sheet').dataset.path; "
        "return (p ? p.split('|').length : 0) === d; }",
        arg=depth,
    )


def _tap(page: Any, label: str, *, done: bool = False) -> None:
    text = f"{label} (done)" if done else label
    page.locator("[data-testid=tap]").filter(has_text=re.compile(f"^\\s*{re.escape(text)}\\s*$")).first.click()


def _no_sideways_scroll(page: Any) -> None:
    assert page.evaluate("document.documentElement.scrollWidth") <= 390


def _enter_turn(page: Any, entry: dict[str, Any]) -> None:
    from django.utils import translation

    from games.scoresheet.choices import entry_steps

    version = _version(page)
    with translation.override("en"):  # the labels as the (English) page shows them, whatever ran before
        steps = entry_steps(entry)
    for depth, step in enumerate(steps):
        last = depth == len(steps) - 1
        tap = page.locator("[data-testid=tap]").filter(has_text=re.compile(f"^\\s*{re.escape(step.label)}\\s*$"))
        if last:
            tap = page.locator("button[data-testid=tap]").filter(
                has_text=re.compile(f"^\\s*{re.escape(step.label)}( \\(done\\))?\\s*$"))
        tap.first.click()
        if last:
            _wait_version(page, version + 1)
        else:
            _wait_path(page, depth + 1)


def _enter_deal_facts(page: Any, entry: dict[str, Any]) -> None:
    version = _version(page)
    if "announce" in entry:
        for seat, said in enumerate(entry["announce"]):
            if said:
                page.locator(f"[data-testid=announce-{seat}-yes]").check()
        page.locator("[data-testid=announce]").click()
    else:
        for seat, card in enumerate(entry["exchange"]):
            if card is not None:
                page.locator(f"[data-testid=exchange-{seat}]").select_option(card)
        page.locator("[data-testid=exchange]").click()
    _wait_version(page, version + 1)


def _enter(page: Any, entry: dict[str, Any]) -> None:
    if "card" in entry:
        _enter_turn(page, entry)
    else:
        _enter_deal_facts(page, entry)


@pytest.mark.e2e
@pytest.mark.django_db(transaction=True)
def test_scoresheet_first_deal_by_tapping_undo_reload_and_finish(
    live_server: Any, browser_page: Any, settings: Any  # noqa: F811
) -> None:
    from django.contrib.auth import get_user_model

    from games.models import GameRecord, Scoresheet
    from rules import scoresheet
    from tests.tournaments.conftest import make_tournament, published_round, seated_entrants

    settings.SCORESHEET_THROTTLE_RATE = "100000/min"
    organiser = get_user_model().objects.create_user("sheeter", password="sheeter-password-1")
    tournament = make_tournament(organiser, game="tac", entrants=4, name="Sheet Cup")
    table, second = list(published_round(organiser, tournament).tables.order_by("number"))
    record = relabel(random_record("tac", {}, seed=21), table)
    first_deal = record["deals"][0]
    entries = public_entries({"deals": [first_deal]})
    token = seated_entrants(table)[0].report_token
    url = f"{live_server.url}/report/{token}/tables/{table.pk}/scoresheet/"

    page = browser_page
    page.goto(url)
    page.locator(f"input[name=dealer][value='{first_deal['dealer']}']").check()
    page.locator("[data-testid=start]").click()
    _wait_version(page, 1)
    _no_sideways_scroll(page)

    for index, entry in enumerate(entries):
        _enter(page, entry)
        if index == 4:  # take the move back, then enter it again
            version = _version(page)
            page.locator("[data-testid=undo]").click()
            _wait_version(page, version + 1)
            assert "taken back" in page.locator("[data-testid=notice]").inner_text()
            _enter(page, entry)
        if index == 9:  # a reload (or a second phone) continues where the sheet stands
            page.reload()
            _wait_version(page, _version(page))
            assert page.locator("[data-testid=last]").count() == 1
            _no_sideways_scroll(page)
    page.screenshot(path="/tmp/e2e-scoresheet-deal.png", full_page=True)
    sheet = Scoresheet.objects.get(table=table, status="open")
    assert sheet.state["entries"] == entries
    assert page.locator("#sheet svg").count() == 1

    # A short game from a prepared position: the second table's sheet stands three entries before the end.
    other = relabel(random_record("tac", {}, seed=22), second)
    other_entries = public_entries(other)
    state = scoresheet.sheet_start(game="tac", variant={}, players=sorted(other["players"], key=lambda p: p["seats"][0]),
                                   dealer=other["deals"][0]["dealer"])
    for entry in other_entries[:-3]:
        state = scoresheet.sheet_add(state, entry)
    Scoresheet.objects.create(tournament=tournament, table=second, game="tac", variant={}, state=state,
                              players=other["players"], version=5)
    page.goto(f"{live_server.url}/t/{tournament.slug}/tables/{second.pk}/scoresheet/")  # organisers only
    assert page.url.startswith(f"{live_server.url}/accounts/login") or "login" in page.url
    page.goto(f"{live_server.url}/report/{seated_entrants(second)[1].report_token}/tables/{second.pk}/scoresheet/")
    for entry in other_entries[-3:]:
        _enter(page, entry)
    page.locator("[data-testid=finish]").click()
    page.wait_for_url(re.compile(r".*/records/\d+/"))
    finished = GameRecord.objects.get(table=second)
    assert (finished.source, finished.status, finished.complete) == ("scoresheet", "valid", True)
    page.screenshot(path="/tmp/e2e-scoresheet-record.png", full_page=True)
