"""A scoresheet tap sent twice with one Idempotency-Key is entered once and answered the same (issue 30:
taps that survive the network; the hook is `tournaments.idempotency`, wrapped around the entries URL)."""

from __future__ import annotations

from typing import Any

from games.models import Scoresheet
from tests.games.test_scoresheet_api import _no_throttle, start, tac  # noqa: F401 - fixtures


def test_a_tap_sent_twice_is_entered_once(tac: dict[str, Any]) -> None:  # noqa: F811
    client, entries = tac["client"], tac["entries"]
    sheet = start(client, tac["table"].pk, dealer=tac["record"]["deals"][0]["dealer"]).json()
    url = f"/api/scoresheets/{sheet['id']}/entries/"
    body = {"version": sheet["version"], "entry": entries[0]}
    first = client.post(url, body, format="json", HTTP_IDEMPOTENCY_KEY="tap-0001-a")
    again = client.post(url, body, format="json", HTTP_IDEMPOTENCY_KEY="tap-0001-a")
    assert first.status_code == 200, first.json()
    assert again.status_code == 200 and again.json() == first.json() and again["Idempotent-Replayed"] == "true"
    assert Scoresheet.objects.get(pk=sheet["id"]).version == sheet["version"] + 1
    stale = client.post(url, body, format="json", HTTP_IDEMPOTENCY_KEY="tap-0001-b")
    assert stale.status_code == 409  # a new key is a new tap: the sheet moved on
