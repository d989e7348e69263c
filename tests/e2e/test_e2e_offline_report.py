"""A report made offline arrives once when the network returns (issue 30; Playwright's offline mode).

The player opens the private report page, loses the network, taps "Report": the tap is kept on the phone
and shown as waiting; nothing reaches the server. The network returns: the report is sent, shown as
sent, and written once, also when the phone sends it again (the same Idempotency-Key)."""

from __future__ import annotations

import os
from typing import Any

import pytest

from tests.e2e.test_e2e_organiser import browser_page  # noqa: F401 - the fixture
from tests.tournaments.conftest import first_table, make_tournament, published_round, seated_entrants
from tournaments.models import IdempotentRequest, Result

pytestmark = [pytest.mark.e2e, pytest.mark.django_db(transaction=True)]
SHOTS = os.environ.get("LIVE_SCREENSHOTS", "")


@pytest.fixture
def organiser(transactional_db: Any) -> Any:
    from django.contrib.auth import get_user_model

    return get_user_model().objects.create_user("org", password="org-password-1")


def test_a_report_made_offline_arrives_once(live_server: Any, browser_page: Any, organiser: Any) -> None:  # noqa: F811
    table = first_table(published_round(organiser, make_tournament(organiser)))
    a, b = seated_entrants(table)[:2]
    page = browser_page
    page.goto(f"{live_server.url}/report/{a.report_token}/tables/{table.pk}/")
    page.context.set_offline(True)
    page.fill(f"input[name='score_{a.pk}']", "8")
    page.fill(f"input[name='score_{b.pk}']", "4")
    page.click("#report button[type=submit]")
    page.wait_for_selector("[data-offline-status] li[data-state='pending']")
    if SHOTS:
        page.screenshot(path=os.path.join(SHOTS, "offline-pending-390.png"), full_page=True)
    assert not Result.objects.exists()  # nothing reached the server

    page.context.set_offline(False)
    page.wait_for_selector("[data-offline-status] li[data-state='sent']", timeout=15_000)
    if SHOTS:
        page.screenshot(path=os.path.join(SHOTS, "offline-sent-390.png"), full_page=True)
    result = Result.objects.get(table=table)
    assert {(s.entrant_id, s.score) for s in result.scores.all()} == {(a.pk, 8), (b.pk, 4)}

    # The phone sends the same tap again (a lost answer): the server answers it again, writes nothing.
    page.evaluate("""() => {
      const entries = JSON.parse(localStorage.getItem('offline-reports-v1'));
      entries.forEach(e => { e.state = 'pending'; });
      localStorage.setItem('offline-reports-v1', JSON.stringify(entries));
    }""")
    page.reload()
    page.wait_for_selector("[data-offline-status] li[data-state='sent']", timeout=15_000)
    assert Result.objects.filter(table=table).count() == 1
    assert IdempotentRequest.objects.count() == 1
