"""Browser test of the replay viewer (Debian chromium through Playwright, a 390 px wide phone screen):
arrow keys step through a TAC record and change the board, the slider jumps, the move list follows,
and an invalid record shows its failing action highlighted with the verdict's message.

Skipped when chromium (or Playwright) is missing, except under REQUIRE_SERVICES=1.
"""

from __future__ import annotations

import json
from typing import Any

import pytest

from tests.e2e.test_e2e_organiser import browser_page  # noqa: F401  (the fixture)
from tests.games.conftest import one_table_tournament, random_record, relabel


def _counter(page: Any) -> str:
    return page.locator("[data-testid=step-counter]").inner_text().strip()


def _board(page: Any) -> str:
    return page.locator("#replay-step svg").inner_html()


def _wait_counter(page: Any, text: str) -> None:
    page.wait_for_function(
        "(t) => document.querySelector('[data-testid=step-counter]').textContent.trim() === t", arg=text
    )


@pytest.mark.e2e
@pytest.mark.django_db(transaction=True)
def test_replay_viewer_arrows_slider_and_invalid_action(
    live_server: Any,
    browser_page: Any,  # noqa: F811
) -> None:
    from django.contrib.auth import get_user_model

    from games.services import record_submit
    from tests.games.test_web_records import wrong_seat_at

    organiser = get_user_model().objects.create_user("replayer", password="replayer-password-1")
    tournament, table = one_table_tournament(organiser, "tac", {}, name="Replay Cup")
    doc = relabel(random_record("tac", {}, seed=3), table)
    valid = record_submit(table=table, actor=organiser, data=json.dumps(doc), source="api")
    invalid = record_submit(
        table=table, actor=organiser, data=json.dumps(wrong_seat_at(doc, 6)), source="api"
    )
    valid.refresh_from_db()
    invalid.refresh_from_db()
    assert (valid.status, invalid.status) == ("valid", "invalid")

    page = browser_page
    page.goto(f"{live_server.url}/t/{tournament.slug}/records/{valid.pk}/")
    total = int(page.locator("#replay").get_attribute("data-total"))
    assert total > 20
    assert _counter(page) == f"Step 1 of {total}"
    first_board = _board(page)

    # Three quick presses of the right arrow: step 4, a different board, the move list follows.
    page.locator("h1").click()
    for _ in range(3):
        page.keyboard.press("ArrowRight")
    _wait_counter(page, f"Step 4 of {total}")
    assert _board(page) != first_board
    assert page.locator(".move-list a[aria-current=step]").get_attribute("data-step") == "3"
    assert page.locator("#replay-range").input_value() == "3"
    assert "?step=3" in page.url
    page.keyboard.press("ArrowLeft")
    _wait_counter(page, f"Step 3 of {total}")
    page.keyboard.press("End")
    _wait_counter(page, f"Step {total} of {total}")
    page.keyboard.press("Home")
    _wait_counter(page, f"Step 1 of {total}")

    # Drag the slider to about the middle.
    box = page.locator("#replay-range").bounding_box()
    y = box["y"] + box["height"] / 2
    page.mouse.move(box["x"] + 4, y)
    page.mouse.down()
    page.mouse.move(box["x"] + box["width"] * 0.5, y, steps=8)
    page.mouse.up()
    page.wait_for_function(
        "() => { const n = +document.querySelector('#replay-step').dataset.step;"
        " return n > 0 && n === +document.querySelector('#replay-range').value; }"
    )
    middle = int(page.locator("#replay-step").get_attribute("data-step"))
    assert total * 0.3 < middle < total * 0.7, (middle, total)
    assert _counter(page) == f"Step {middle + 1} of {total}"

    # The next-step button works too (htmx swaps the fragment).
    page.locator("[data-nav=next]").click()
    _wait_counter(page, f"Step {middle + 2} of {total}")
    page.screenshot(path="/tmp/e2e-replay-valid.png", full_page=True)

    # The invalid record: jump to the failing action, highlighted in red with the verdict's message.
    page.goto(f"{live_server.url}/t/{tournament.slug}/records/{invalid.pk}/")
    total = int(page.locator("#replay").get_attribute("data-total"))
    assert total == 1 + 1 + 6 + 1
    page.locator("h1").click()
    page.keyboard.press("End")
    _wait_counter(page, f"Step {total} of {total}")
    alert = page.locator(".invalid-action")
    assert alert.is_visible()
    assert "wrong_seat" in alert.inner_text()
    assert page.locator("#replay-step svg .hl-invalid").count() == 1
    banner = page.locator("#replay-step svg .invalid-message").text_content() or ""
    assert "".join(invalid.error_message.split())[:30] in "".join(banner.split())
    assert page.locator(".move-list li.failing a[aria-current=step]").count() == 1
    page.screenshot(path="/tmp/e2e-replay-invalid.png", full_page=True)
    # The page is readable on a phone: nothing wider than the 390 px viewport.
    assert page.evaluate("() => document.documentElement.scrollWidth") <= 390
