"""Corrections in place (POST /api/scoresheets/<id>/correct/ and the sheet's form), refusals in the
player's language naming the player and the card, cards in card order with their names."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.utils import translation
from rest_framework.test import APIClient

from games.models import Scoresheet
from games.scoresheet.words import card_name, refusal_text, seat_label
from tests.games.conftest import one_table_tournament, random_record, relabel
from tests.games.scoresheet_support import public_entries
from tests.tournaments.conftest import seated_entrants
from tournaments.models import AuditLog

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _no_throttle(settings: Any) -> None:
    settings.SCORESHEET_THROTTLE_RATE = "100000/min"


def _start(organiser: Any, seed: int = 11) -> tuple[Any, Any, dict[str, Any], APIClient, int]:
    _tournament, table = one_table_tournament(organiser, "tac", {})
    original = relabel(random_record("tac", {}, seed), table)
    client = APIClient()
    client.credentials(HTTP_X_REPORT_TOKEN=seated_entrants(table)[0].report_token)
    answer = client.post(f"/api/tables/{table.pk}/scoresheet/", {"dealer": original["deals"][0]["dealer"]},
                         format="json")
    assert answer.status_code == 201, answer.json()
    return table, original, answer.json(), client, answer.json()["id"]


def test_an_announcement_is_corrected_in_place_through_the_api(organiser: Any) -> None:
    _table, original, sheet, client, sheet_id = _start(organiser)
    first = original["deals"][0]
    truth = first["announce"]
    wrong = [not truth[0], *truth[1:]]
    version = sheet["version"]
    for entry in ({"announce": wrong}, {"exchange": first["exchange"]}):
        answer = client.post(f"/api/scoresheets/{sheet_id}/entries/", {"version": version, "entry": entry},
                             format="json")
        assert answer.status_code == 200, answer.json()
        version = answer.json()["version"]
    assert answer.json()["correctable"]["announce"] == wrong
    # seed 11: seat 0 wrongly said "I can"; its first discard is refused at once, naming it
    refused = client.post(f"/api/scoresheets/{sheet_id}/entries/", {"version": version, "entry": first["turns"][0]},
                          format="json")
    assert refused.status_code == 400 and refused.json()["error"]["code"] == "must_play"
    assert refused.json()["error"]["details"]["reason"]["seat"] == 0
    answer = client.post(f"/api/scoresheets/{sheet_id}/correct/", {"version": version,
                                                                   "entry": {"announce": truth}}, format="json")
    assert answer.status_code == 200, answer.json()
    data = answer.json()
    assert data["entries"] == [{"announce": truth}, {"exchange": first["exchange"]}]
    assert data["version"] == version + 1
    version = data["version"]
    answer = client.post(f"/api/scoresheets/{sheet_id}/entries/", {"version": version, "entry": first["turns"][0]},
                         format="json")
    assert answer.status_code == 200, answer.json()
    version = answer.json()["version"]
    log = AuditLog.objects.filter(action="scoresheet_entry_corrected").get()
    assert log.data["index"] == 0 and log.data["was"] == {"announce": wrong}
    # a stale version changes nothing
    stale = client.post(f"/api/scoresheets/{sheet_id}/correct/", {"version": version - 1,
                                                                  "entry": {"announce": wrong}}, format="json")
    assert stale.status_code == 409
    assert Scoresheet.objects.get(pk=sheet_id).state["entries"][0] == {"announce": truth}


def test_nothing_to_correct_before_the_deal_facts(organiser: Any) -> None:
    _table, _original, sheet, client, sheet_id = _start(organiser)
    answer = client.post(f"/api/scoresheets/{sheet_id}/correct/", {"version": sheet["version"],
                                                                   "entry": {"announce": [True] * 4}}, format="json")
    assert answer.status_code == 400
    assert answer.json()["error"]["code"] == "nothing_to_correct"


def test_a_no_that_plays_a_1_is_refused_in_german_naming_the_player(organiser: Any) -> None:
    table, original, sheet, client, sheet_id = _start(organiser)
    first = original["deals"][0]
    opening = next(i for i, t in enumerate(first["turns"]) if t["card"] in ("1", "13"))
    seat = first["turns"][opening]["seat"]
    said = list(first["announce"])
    said[seat] = False
    assert first["exchange"][(seat + 2) % 4] not in ("1", "13")  # seed 11: not a received card
    version = sheet["version"]
    entries = [{"announce": said}, {"exchange": first["exchange"]}, *first["turns"][:opening]]
    for entry in entries:
        answer = client.post(f"/api/scoresheets/{sheet_id}/entries/", {"version": version, "entry": entry},
                             format="json")
        assert answer.status_code == 200, answer.json()
        version = answer.json()["version"]
    refused = client.post(f"/api/scoresheets/{sheet_id}/entries/", {"version": version,
                                                                    "entry": first["turns"][opening]},
                          format="json", HTTP_ACCEPT_LANGUAGE="de")
    assert refused.status_code == 400
    error = refused.json()["error"]
    assert error["code"] == "false_announcement"
    assert error["details"]["turn"] == len(entries)
    assert error["details"]["reason"]["reason"] == "said_no_holds"
    name = next(p["name"] for p in original["players"] if seat in p["seats"])
    card = first["turns"][opening]["card"]
    assert name in error["message"] and "„ich kann nicht“" in error["message"] and card in error["message"]
    assert Scoresheet.objects.get(pk=sheet_id).version == version  # nothing changed


@pytest.mark.parametrize(("language", "words"), [
    ("de", ["Narr", "Engel", "Krieger", "Teufel", "Trickser"]),
    ("fr", ["Fou", "Ange", "Guerrier", "Diable", "Trickser"]),
    ("en", ["Fool", "Angel", "Warrior", "Devil", "Trickster"]),
])
def test_card_names_in_every_language(language: str, words: list[str]) -> None:
    with translation.override(language):
        assert [card_name(c) for c in ("narr", "engel", "krieger", "teufel", "trickser")] == words
        assert card_name("tac") == "TAC" and card_name("7") == "7"
        assert seat_label(0, ["Anna"]).startswith("Anna (")


def test_refusal_sentences_name_player_and_card() -> None:
    params = {"reason": "held_usable", "seat": 1, "card": "13", "discarded": "trickser", "entry": 4}
    with translation.override("fr"):
        text = refusal_text("must_play", "english", params, ["Anna", "Ben"])
    assert text.startswith("Ben (") and "Trickser" in text and "13" in text and "saisie 5" in text
    with translation.override("de"):
        assert "Platz" not in refusal_text("must_play", "x", params, ["Anna", "Ben"])
        unknown = refusal_text("illegal_move", "Seat 0 cannot move 3 to 9.", {}, [])
    assert "Seat 0 cannot move 3 to 9." in unknown and unknown != "Seat 0 cannot move 3 to 9."


def test_the_sheet_page_shows_cards_in_order_with_names_and_a_correction_form(organiser: Any) -> None:
    table, original, sheet, client, sheet_id = _start(organiser)
    first = original["deals"][0]
    version = sheet["version"]
    for entry in ({"announce": first["announce"]}, {"exchange": first["exchange"]}):
        version = client.post(f"/api/scoresheets/{sheet_id}/entries/", {"version": version, "entry": entry},
                              format="json").json()["version"]
    token = seated_entrants(table)[0].report_token
    page = Client(HTTP_ACCEPT_LANGUAGE="de").get(f"/report/{token}/tables/{table.pk}/scoresheet/")
    html = page.content.decode()
    assert page.status_code == 200
    assert 'data-testid="correct"' in html and 'data-testid="correct-announce"' in html
    # the card taps: numbers in card order, then the special cards by name
    import re

    taps = re.findall(r'data-testid="tap">([^<]+)</a>', html)
    labels = [t.strip() for t in taps]
    numbers = [int(x) for x in labels if x.isdigit()]
    assert numbers == sorted(numbers) and len(numbers) > 5
    assert "trickser" not in labels and "Trickser" in labels and "tac" not in labels
    assert "Austeilen 1" in html and "Runde 1, Tisch" in html
    assert "Platz" not in html.split('id="sheet"')[1]


def test_finish_from_htmx_is_a_full_page_redirect(organiser: Any) -> None:
    from rules import scoresheet

    table, original, _sheet, client, sheet_id = _start(organiser, seed=22)
    state = Scoresheet.objects.get(pk=sheet_id).state
    for entry in public_entries(original):
        state = scoresheet.sheet_add(state, entry)
    sheet = Scoresheet.objects.get(pk=sheet_id)
    sheet.state = state
    sheet.save()
    token = seated_entrants(table)[0].report_token
    url = f"/report/{token}/tables/{table.pk}/scoresheet/"
    answer = Client().post(url, {"action": "finish", "sheet": sheet_id, "version": sheet.version},
                           HTTP_HX_REQUEST="true")
    assert answer.status_code == 204 and "/records/" in answer["HX-Redirect"]
