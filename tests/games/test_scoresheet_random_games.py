"""Random games of every supported game entered on a live scoresheet with the real engine
(`rules.scoresheet`): the record the sheet becomes verifies and settles exactly as uploading the
original record does. The opening and the end of each game go through the HTTP API entry by entry; the
middle is added with the engine directly (the same function the service calls) to keep the suite fast.
The 50-games-per-game sweep lives at the rules level (tests/rules)."""

from __future__ import annotations

from typing import Any

import pytest
from rest_framework.test import APIClient

from games.models import GameRecord, Scoresheet
from rules import scoresheet
from tests.games.conftest import one_table_tournament, random_record, relabel
from tests.games.scoresheet_support import public_entries
from tests.tournaments.conftest import seated_entrants

pytestmark = pytest.mark.django_db

CASES = [
    ("tac", {}, 11),
    ("tac", {"master": True}, 12),
    ("tock", {"mode": "ffa", "seats": 4}, 13),
    ("tock", {"mode": "teams", "seats": 4}, 14),
    ("tactik", {"seats": 4}, 15),
    ("tactik", {"seats": 6}, 16),
]
HTTP_HEAD, HTTP_TAIL = 8, 8


@pytest.fixture(autouse=True)
def _no_throttle(settings: Any) -> None:
    settings.SCORESHEET_THROTTLE_RATE = "100000/min"


def _scores_by_seat(record: GameRecord) -> dict[int, Any]:
    result = record.derived_table_result or {}
    key = "scores" if "scores" in result else "placings"
    seats = {entrant: seat for seat, entrant in reversed(list(enumerate(record.seat_entrants)))}
    return {seats[int(entrant)]: value for entrant, value in result.get(key, {}).items()}


@pytest.mark.parametrize(("game", "variant", "seed"), CASES, ids=[f"{g}-{s}" for g, _v, s in CASES])
def test_a_random_game_entered_on_the_sheet_settles_as_its_upload(
    organiser: Any, game: str, variant: dict[str, Any], seed: int, django_capture_on_commit_callbacks: Any
) -> None:
    _tournament, table = one_table_tournament(organiser, game, variant)
    original = relabel(random_record(game, variant, seed), table)
    entries = public_entries(original)
    client = APIClient()
    client.credentials(HTTP_X_REPORT_TOKEN=seated_entrants(table)[0].report_token)
    answer = client.post(f"/api/tables/{table.pk}/scoresheet/", {"dealer": original["deals"][0]["dealer"]},
                         format="json")
    assert answer.status_code == 201, answer.json()
    sheet_id, version = answer.json()["id"], answer.json()["version"]

    def enter(entry: dict[str, Any]) -> None:
        nonlocal version
        answer = client.post(f"/api/scoresheets/{sheet_id}/entries/", {"version": version, "entry": entry},
                             format="json")
        assert answer.status_code == 200, (entry, answer.json())
        version = answer.json()["version"]
        if "card" in entry:
            assert answer.json()["last"] == entry

    for entry in entries[:HTTP_HEAD]:
        enter(entry)
    sheet = Scoresheet.objects.get(pk=sheet_id)
    state = sheet.state
    for entry in entries[HTTP_HEAD:-HTTP_TAIL]:
        state = scoresheet.sheet_add(state, entry)
    sheet.state, sheet.version = state, sheet.version + 1
    sheet.save()
    version = sheet.version
    for entry in entries[-HTTP_TAIL:]:
        view = client.get(f"/api/scoresheets/{sheet_id}/").json()
        if "card" in entry:
            assert view["seat"] == entry["seat"] and entry in view["options"]
        enter(entry)
    assert client.get(f"/api/scoresheets/{sheet_id}/").json()["over"] is True
    with django_capture_on_commit_callbacks(execute=True):
        finished = client.post(f"/api/scoresheets/{sheet_id}/finish/", {"version": version}, format="json")
    assert finished.status_code == 201, finished.json()
    from_sheet = GameRecord.objects.get(pk=finished.json()["record"])
    assert (from_sheet.status, from_sheet.complete, from_sheet.error_code) == ("valid", True, "")
    assert from_sheet.settlement == "settled"

    _other_tournament, other = one_table_tournament(organiser, game, variant, name="Upload cup")
    uploader = APIClient()
    uploader.force_authenticate(organiser)
    with django_capture_on_commit_callbacks(execute=True):
        uploaded = uploader.post(f"/api/tables/{other.pk}/records/", relabel(original, other), format="json")
    upload = GameRecord.objects.get(pk=uploaded.json()["id"])
    assert from_sheet.derived_result == upload.derived_result
    assert _scores_by_seat(from_sheet) == _scores_by_seat(upload)
    turns = [turn for deal in from_sheet.document()["deals"] for turn in deal["turns"]]
    assert turns == [turn for deal in original["deals"] for turn in deal["turns"]]
