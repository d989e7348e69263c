"""Browser tests (chromium at 390 px) of choosing the move on the board (issue 27): on the live scoresheet a
player taps a marble (the marbles with a move for the chosen card are outlined), then its target, and
static/games/board_pick.js clicks the matching move tap; a 7 split segment by segment, a Trickser's two
marbles in either order. Without board_pick.js nothing on the board reacts (the buttons stay the way).

Skipped when chromium (or Playwright) is missing, except under REQUIRE_SERVICES=1.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.e2e.test_e2e_organiser import browser_page  # noqa: F401  (the fixture)
from tests.e2e.test_e2e_scoresheet_trust import _no_sideways_scroll, _setup, _version, _wait_version


def _wait_path(page: Any, taps: int) -> None:
    page.wait_for_function(
        "(d) => { const p = document.querySelector('#sheet').dataset.path; "
        "return (p ? p.split('|').length : 0) === d; }", arg=taps, timeout=5000)
    page.wait_for_timeout(150)  # htmx settles the swapped sheet (board_pick.js marks the board on htmx:afterSettle)


def _board(page: Any, selector: str) -> Any:
    return page.locator(f"#sheet .sheet-board {selector}")


def _marbles_of(page: Any, seat: int) -> list[str]:
    spots = _board(page, f".marble[data-seat='{seat}']:not(.prefield)")
    return sorted(spots.evaluate_all("(els) => els.map((e) => e.getAttribute('data-pos'))"))


def _open(page: Any, live_server: Any, table: Any) -> None:
    from tests.tournaments.conftest import seated_entrants

    page.goto(f"{live_server.url}/report/{seated_entrants(table)[0].report_token}/tables/{table.pk}/scoresheet/")


@pytest.mark.e2e
@pytest.mark.django_db(transaction=True)
def test_a_seven_split_is_chosen_on_the_board(live_server: Any, browser_page: Any, settings: Any  # noqa: F811
                                              ) -> None:
    settings.SCORESHEET_THROTTLE_RATE = "100000/min"
    # seed 2, after 39 entries: seat 1 plays and has marbles on 16 and 30; a 7 is among its options
    _tournament, table, record, entries = _setup("splitter", {}, 2, 39)
    page = browser_page
    _open(page, live_server, table)
    assert _marbles_of(page, 1) == ["16", "30"]
    version = _version(page)
    page.locator("a[data-testid=tap]", has_text="7").filter(has_not_text="→").first.click()
    _wait_path(page, 1)
    # both of seat 1's marbles are outlined as movable; no one else's
    can = _board(page, ".marble.pick-can").evaluate_all("(els) => els.map((e) => e.getAttribute('data-pos'))")
    assert sorted(can) == ["16", "30"]
    assert page.locator("[data-board-pick-hint]").is_visible()
    # the split's second marble first: 30 → 33 (3 of the 7), then 16 → 20 (the other 4)
    _board(page, ".marble[data-pos='30']").click()
    assert _board(page, ".marble.pick-on[data-pos='30']").count() == 1
    targets = _board(page, "circle.pick-target").evaluate_all("(els) => els.map((e) => e.getAttribute('data-pos'))")
    assert "33" in targets and "37" in targets and "16" not in targets
    page.screenshot(path="/tmp/h27b/e2e-board-seven-targets.png", full_page=True)
    _board(page, "circle[data-pos='33']").click()
    _wait_path(page, 2)
    assert "30 → 33" in page.locator(".sheet-path").inner_text()
    assert _version(page) == version  # a segment is a step, not yet an entry
    _board(page, ".marble[data-pos='16']").click()
    targets = _board(page, "circle.pick-target").evaluate_all("(els) => els.map((e) => e.getAttribute('data-pos'))")
    assert targets == ["20"]  # only the 4 the 7 has left
    page.screenshot(path="/tmp/h27b/e2e-board-seven-second.png", full_page=True)
    _board(page, "circle[data-pos='20']").click()
    _wait_version(page, version + 1)
    # what the player sees: the entry, and seat 1's marbles on 20 and 33
    last = page.locator("[data-testid=last]").inner_text()
    assert "7" in last and "16 → 20" in last and "30 → 33" in last
    page.locator(".sheet-history summary").click()
    assert "16 → 20" in page.locator(".sheet-history li").first.inner_text()
    assert _marbles_of(page, 1) == ["20", "33"]
    _no_sideways_scroll(page)
    page.screenshot(path="/tmp/h27b/e2e-board-seven-done.png", full_page=True)


@pytest.mark.e2e
@pytest.mark.django_db(transaction=True)
def test_a_trickser_swap_is_chosen_on_the_board(live_server: Any, browser_page: Any, settings: Any  # noqa: F811
                                                ) -> None:
    settings.SCORESHEET_THROTTLE_RATE = "100000/min"
    # seed 15, after 18 entries: seat 2 plays a Trickser; marbles on 10 (seat 0), 19 (seat 1), 41 (seat 2)
    _tournament, table, record, entries = _setup("swapper", {}, 15, 18)
    page = browser_page
    _open(page, live_server, table)
    assert (_marbles_of(page, 1), _marbles_of(page, 2)) == (["19"], ["41"])
    version = _version(page)
    page.locator("a[data-testid=tap]", has_text="Trickster").first.click()
    _wait_path(page, 1)
    can = _board(page, ".marble.pick-can").evaluate_all("(els) => els.map((e) => e.getAttribute('data-pos'))")
    assert sorted(can) == ["10", "19", "41"]
    # the second marble of the pair first (a swap has no direction)
    _board(page, ".marble[data-pos='41']").click()
    targets = _board(page, ".marble.pick-target").evaluate_all("(els) => els.map((e) => e.getAttribute('data-pos'))")
    assert sorted(targets) == ["10", "19"]
    page.screenshot(path="/tmp/h27b/e2e-board-trickser-targets.png", full_page=True)
    _board(page, ".marble[data-pos='19']").click()
    _wait_version(page, version + 1)
    last = page.locator("[data-testid=last]").inner_text()
    assert "Trickster" in last and "19 ↔ 41" in last
    assert (_marbles_of(page, 1), _marbles_of(page, 2)) == (["41"], ["19"])
    _no_sideways_scroll(page)
    page.screenshot(path="/tmp/h27b/e2e-board-trickser-done.png", full_page=True)
