"""The scoresheet page without JavaScript: who may open it, the upload-only games, and plain form POSTs
(start, a tap, a stale version, undo, finish) with the real engine."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.test import Client

from games.models import GameRecord, Scoresheet
from tests.games.conftest import one_table_tournament, random_record, relabel
from tests.games.scoresheet_support import public_entries
from tests.tournaments.conftest import make_tournament, published_round, seated_entrants, user_for_entrant

pytestmark = pytest.mark.django_db


def test_who_may_open_the_page(organiser: Any) -> None:
    tournament = make_tournament(organiser, game="tac", entrants=4, name="Page cup")
    table, other = list(published_round(organiser, tournament).tables.order_by("number"))
    url = f"/t/{tournament.slug}/tables/{table.pk}/scoresheet/"
    assert Client().get(url).status_code == 302  # to the login
    stranger = Client()
    stranger.force_login(user_for_entrant(seated_entrants(other)[0], "stranger"))
    assert stranger.get(url).status_code == 403
    player = Client()
    player.force_login(user_for_entrant(seated_entrants(table)[1], "player"))
    page = player.get(url)
    assert page.status_code == 200 and b"Start the scoresheet" in page.content
    token = seated_entrants(table)[0].report_token
    assert Client().get(f"/report/{token}/tables/{table.pk}/scoresheet/").status_code == 200
    assert Client().get(f"/report/{token}/tables/{other.pk}/scoresheet/").status_code == 404
    assert Client().get(f"/report/{'x' * 40}/tables/{table.pk}/scoresheet/").status_code == 404
    round_page = player.get(f"/t/{tournament.slug}/rounds/1/")
    assert url.encode() in round_page.content
    assert f"/report/{token}/tables/{table.pk}/scoresheet/".encode() in Client().get(f"/report/{token}/").content


def test_upload_only_games_say_so(organiser: Any) -> None:
    tournament, table = one_table_tournament(organiser, "zack", {"seats": 4})
    token = seated_entrants(table)[0].report_token
    page = Client().get(f"/report/{token}/tables/{table.pk}/scoresheet/")
    assert page.status_code == 200 and b'data-testid="upload-only"' in page.content
    assert f"/report/{token}/tables/{table.pk}/record/".encode() in page.content


def test_plain_forms_start_tap_stale_undo_finish(organiser: Any, settings: Any,
                                                 django_capture_on_commit_callbacks: Any) -> None:
    from rules import scoresheet

    settings.SCORESHEET_THROTTLE_RATE = "100000/min"
    tournament, table = one_table_tournament(organiser, "tac", {})
    record = relabel(random_record("tac", {}, seed=31), table)
    entries = public_entries(record)
    url = f"/report/{seated_entrants(table)[0].report_token}/tables/{table.pk}/scoresheet/"
    client = Client()
    client.get(url)
    answer = client.post(url, {"action": "start", "dealer": record["deals"][0]["dealer"]})
    assert answer.status_code == 302
    sheet = Scoresheet.objects.get(table=table)
    page = client.get(url)
    assert b"Announcements" in page.content and b"Exchange" in page.content
    announce = {f"seat-{s}": "yes" if said else "no" for s, said in enumerate(entries[0]["announce"])}
    client.post(url, {"action": "add", "kind": "announce", "sheet": sheet.pk, "version": 1, **announce})
    exchange = {f"seat-{s}": card for s, card in enumerate(entries[1]["exchange"])}
    client.post(url, {"action": "add", "kind": "exchange", "sheet": sheet.pk, "version": 2, **exchange})
    sheet.refresh_from_db()
    assert sheet.state["entries"] == entries[:2] and sheet.version == 3
    page = client.get(url).content.decode()
    card = entries[2]["card"]
    assert f"p=card%3A{card}" in page  # the played card is one of the taps
    client.post(url, {"action": "add", "sheet": sheet.pk, "version": 3, "entry": json.dumps(entries[2])})
    stale = client.post(url, {"action": "add", "sheet": sheet.pk, "version": 3, "entry": json.dumps(entries[3])},
                        follow=True)
    assert b"Someone else changed the scoresheet" in stale.content
    sheet.refresh_from_db()
    assert sheet.version == 4 and sheet.state["entries"] == entries[:3]
    refused = client.post(url, {"action": "add", "sheet": sheet.pk, "version": 4,
                                "entry": json.dumps({**entries[3], "seat": (entries[3]["seat"] + 1) % 4})}, follow=True)
    assert b'data-testid="notice"' in refused.content
    client.post(url, {"action": "undo", "sheet": sheet.pk, "version": 4})
    sheet.refresh_from_db()
    assert sheet.state["entries"] == entries[:2] and sheet.version == 5
    state = sheet.state
    for entry in entries[2:]:
        state = scoresheet.sheet_add(state, entry)
    sheet.state, sheet.version = state, 6
    sheet.save()
    assert b'data-testid="finish"' in client.get(url).content
    with django_capture_on_commit_callbacks(execute=True):
        done = client.post(url, {"action": "finish", "sheet": sheet.pk, "version": 6})
    record_row = GameRecord.objects.get(table=table)
    assert done.status_code == 302 and done["Location"].endswith(f"/records/{record_row.pk}/")
    assert record_row.status == "valid" and record_row.complete
    assert b"was recorded" in client.get(url).content
