"""A scoresheet tap made offline arrives once when the network returns (issue 30; Playwright's offline mode).

The player keeps the live scoresheet by their private link, loses the network and taps "Enter the
announcements": the tap is kept on the phone (static/js/offline_reports.js) and shown as waiting; the sheet
does not move. The network returns: the tap is sent with its Idempotency-Key, shown as sent, entered once;
sent again with the same key it is answered again and nothing is written. A tap the sheet refuses (it moved
on meanwhile) is shown as refused with the reason."""

from __future__ import annotations

import os
from typing import Any

import pytest

from tests.e2e.test_e2e_organiser import browser_page  # noqa: F401 - the fixture
from tests.tournaments.conftest import seated_entrants
from tournaments.models import IdempotentRequest

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]
SHOTS = os.environ.get("LIVE_SCREENSHOTS", "")


@pytest.fixture
def organiser(transactional_db: Any) -> Any:
    from django.contrib.auth import get_user_model

    return get_user_model().objects.create_user("org", password="org-password-1")


def test_a_scoresheet_tap_made_offline_arrives_once(live_server: Any, browser_page: Any, organiser: Any,  # noqa: F811
                                                    settings: Any) -> None:
    from games.models import Scoresheet
    from games.scoresheet import services as sheets
    from tests.games.conftest import one_table_tournament, random_record, relabel

    settings.SCORESHEET_THROTTLE_RATE = "100000/min"
    _tournament, table = one_table_tournament(organiser, "tac", {})
    record = relabel(random_record("tac", {}, seed=31), table)
    sheet = sheets.scoresheet_start(table=table, actor=organiser, dealer=record["deals"][0]["dealer"])
    page = browser_page
    page.goto(f"{live_server.url}/report/{seated_entrants(table)[0].report_token}/tables/{table.pk}/scoresheet/")
    page.context.set_offline(True)
    page.click("[data-testid='announce']")
    page.wait_for_selector("[data-offline-status] li[data-state='pending']")
    if SHOTS:
        page.screenshot(path=os.path.join(SHOTS, "offline-tap-pending-390.png"), full_page=True)
    assert Scoresheet.objects.get(pk=sheet.pk).version == sheet.version  # nothing reached the server

    page.context.set_offline(False)
    page.wait_for_selector("[data-offline-status] li[data-state='sent']", timeout=20_000)
    if SHOTS:
        page.screenshot(path=os.path.join(SHOTS, "offline-tap-sent-390.png"), full_page=True)
    stored = Scoresheet.objects.get(pk=sheet.pk)
    assert stored.version == sheet.version + 1 and len(stored.state["entries"]) == 1
    assert "announce" in stored.state["entries"][0]

    # The phone sends the same tap again (a lost answer): answered again, nothing written.
    page.evaluate("""() => {
      const entries = JSON.parse(localStorage.getItem('offline-reports-v1'));
      entries.forEach(e => { e.state = 'pending'; });
      localStorage.setItem('offline-reports-v1', JSON.stringify(entries));
    }""")
    page.reload()
    page.wait_for_selector("[data-offline-status] li[data-state='sent']", timeout=20_000)
    assert Scoresheet.objects.get(pk=sheet.pk).version == sheet.version + 1
    assert IdempotentRequest.objects.count() == 1

    # A second tap kept offline on a page that is behind (the sheet moved on): shown as refused.
    page.evaluate("""() => {
      const entries = JSON.parse(localStorage.getItem('offline-reports-v1'));
      entries.forEach(e => { e.state = 'pending'; e.key = e.key + '-again'; });
      localStorage.setItem('offline-reports-v1', JSON.stringify(entries));
    }""")
    page.reload()
    refused = page.wait_for_selector("[data-offline-status] li[data-state='refused']", timeout=20_000)
    assert refused.inner_text().strip()
    assert Scoresheet.objects.get(pk=sheet.pk).version == sheet.version + 1
