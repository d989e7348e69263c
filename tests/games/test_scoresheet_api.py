"""The live scoresheet's REST API and services with a scripted engine: versions (409 and the fresh sheet),
refused entries that change nothing, undo, reload, finishing into a verified and settled record, the
organiser's time call, audit, and the permission matrix. The real engine's games: test_scoresheet_random_games.py."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model
from rest_framework.test import APIClient

from games.models import GameRecord, Scoresheet
from games.scoresheet import services as scoresheet_services
from tests.games.conftest import one_table_tournament, random_record, relabel
from tests.games.scoresheet_support import fake_engine, public_entries
from tests.tournaments.conftest import make_tournament, published_round, seated_entrants, user_for_entrant
from tournaments.models import AuditLog

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _no_throttle(settings: Any) -> None:
    settings.SCORESHEET_THROTTLE_RATE = "100000/min"  # a whole game in one test


@pytest.fixture
def tac(organiser: Any, monkeypatch: pytest.MonkeyPatch) -> dict[str, Any]:
    tournament, table = one_table_tournament(organiser, "tac", {})
    record = relabel(random_record("tac", {}, seed=3), table)
    monkeypatch.setattr(scoresheet_services, "engine", lambda: fake_engine(record))
    entrants = seated_entrants(table)
    client = APIClient()
    client.credentials(HTTP_X_REPORT_TOKEN=entrants[0].report_token)
    return {"tournament": tournament, "table": table, "record": record, "client": client,
            "entries": public_entries(record), "entrants": entrants}


def start(client: APIClient, table_id: int, dealer: int = 0) -> Any:
    return client.post(f"/api/tables/{table_id}/scoresheet/", {"dealer": dealer}, format="json")


def fast_forward(sheet_id: int, entries: list[dict[str, Any]]) -> None:
    """Put `entries` on the sheet directly (the scripted engine's state), as if entered one by one."""
    sheet = Scoresheet.objects.get(pk=sheet_id)
    sheet.state = {**sheet.state, "entries": entries}
    sheet.version += 1
    sheet.save()


def add(client: APIClient, sheet_id: int, version: int, entry: dict[str, Any]) -> Any:
    return client.post(f"/api/scoresheets/{sheet_id}/entries/", {"version": version, "entry": entry}, format="json")


def test_start_enter_undo_reload_finish(tac: dict[str, Any], django_capture_on_commit_callbacks: Any) -> None:
    client, entries = tac["client"], tac["entries"]
    created = start(client, tac["table"].pk, dealer=tac["record"]["deals"][0]["dealer"])
    assert created.status_code == 201, created.json()
    sheet = created.json()
    assert sheet["version"] == 1 and sheet["status"] == "open" and sheet["entries"] == []
    assert sorted(p["id"] for p in sheet["players"]) == sorted(p["id"] for p in tac["record"]["players"])
    again = start(client, tac["table"].pk)
    assert again.status_code == 409 and again.json()["error"]["code"] == "scoresheet_exists"
    assert again.json()["error"]["details"]["scoresheet_id"] == sheet["id"]

    version = sheet["version"]
    for entry in entries[:3]:
        answer = add(client, sheet["id"], version, entry)
        assert answer.status_code == 200, answer.json()
        assert answer.json()["version"] == version + 1
        version = answer.json()["version"]
    undone = client.post(f"/api/scoresheets/{sheet['id']}/undo/", {"version": version}, format="json")
    assert undone.status_code == 200 and undone.json()["entry_count"] == 2
    assert undone.json()["entries_from"] == 2 and undone.json()["entries"] == []  # nothing new after the tail
    version = undone.json()["version"]
    reloaded = client.get(f"/api/scoresheets/{sheet['id']}/").json()  # a second phone, or after a reload
    assert reloaded["version"] == version and reloaded["entries"] == entries[:2]
    assert reloaded["options"][0] == entries[2] and reloaded["seat"] == entries[2].get("seat")

    early = client.post(f"/api/scoresheets/{sheet['id']}/finish/", {"version": version}, format="json")
    assert early.status_code == 409 and early.json()["error"]["code"] == "scoresheet_not_over"

    fast_forward(sheet["id"], entries[:-2])  # the middle of the game: entered as above, skipped for speed
    version = client.get(f"/api/scoresheets/{sheet['id']}/").json()["version"]
    for entry in entries[-2:]:
        version = add(client, sheet["id"], version, entry).json()["version"]
    with django_capture_on_commit_callbacks(execute=True):
        finished = client.post(f"/api/scoresheets/{sheet['id']}/finish/", {"version": version}, format="json")
    assert finished.status_code == 201, finished.json()
    record = GameRecord.objects.get(pk=finished.json()["record"])
    assert record.source == "scoresheet" and record.table == tac["table"]
    assert record.submitted_for == tac["entrants"][0]
    assert record.status == "valid" and record.complete and record.settlement == "settled"
    assert finished.json()["scoresheet"]["status"] == "finished"
    closed = add(client, sheet["id"], finished.json()["scoresheet"]["version"], entries[0])
    assert closed.status_code == 409 and closed.json()["error"]["code"] == "scoresheet_closed"
    actions = list(AuditLog.objects.filter(object_type="scoresheet", object_id=sheet["id"])
                   .order_by("pk").values_list("action", flat=True))
    assert actions[0] == "scoresheet_started" and actions[-1] == "scoresheet_finished"
    assert actions.count("scoresheet_entry_added") == 3 + 2
    assert actions.count("scoresheet_entry_undone") == 1
    assert start(client, tac["table"].pk).status_code == 201  # a finished sheet no longer blocks a new one


def test_the_sheet_settles_as_the_uploaded_record(tac: dict[str, Any], organiser: Any,
                                                  django_capture_on_commit_callbacks: Any) -> None:
    client = tac["client"]
    sheet = start(client, tac["table"].pk).json()
    fast_forward(sheet["id"], tac["entries"])
    with django_capture_on_commit_callbacks(execute=True):
        record_id = client.post(f"/api/scoresheets/{sheet['id']}/finish/", {"version": 2},
                                format="json").json()["record"]
    from_sheet = GameRecord.objects.get(pk=record_id)
    # the same game uploaded in another tournament settles the same way
    _t2, other = one_table_tournament(organiser, "tac", {}, name="Upload cup")
    uploader = APIClient()
    uploader.force_authenticate(organiser)
    with django_capture_on_commit_callbacks(execute=True):
        uploaded = uploader.post(f"/api/tables/{other.pk}/records/", relabel(tac["record"], other), format="json")
    upload = GameRecord.objects.get(pk=uploaded.json()["id"])
    assert (from_sheet.status, from_sheet.complete, from_sheet.derived_result) == (
        upload.status, upload.complete, upload.derived_result)
    position = {e: i for i, e in enumerate(from_sheet.seat_entrants)}
    other_position = {e: i for i, e in enumerate(upload.seat_entrants)}
    scores = {position[int(e)]: s for e, s in from_sheet.derived_table_result["scores"].items()}
    other_scores = {other_position[int(e)]: s for e, s in upload.derived_table_result["scores"].items()}
    assert scores == other_scores


def test_stale_version_is_refused_with_the_fresh_sheet(tac: dict[str, Any]) -> None:
    client, entries = tac["client"], tac["entries"]
    sheet = start(client, tac["table"].pk).json()
    first = add(client, sheet["id"], sheet["version"], entries[0])
    assert first.status_code == 200
    second_phone = add(client, sheet["id"], sheet["version"], entries[1])
    assert second_phone.status_code == 409
    error = second_phone.json()["error"]
    assert error["code"] == "scoresheet_stale"
    assert error["details"]["version"] == first.json()["version"]
    assert error["details"]["sheet"]["entries"] == [entries[0]]
    stale_undo = client.post(f"/api/scoresheets/{sheet['id']}/undo/", {"version": sheet["version"]}, format="json")
    assert stale_undo.status_code == 409
    assert Scoresheet.objects.get(pk=sheet["id"]).version == first.json()["version"]


def test_an_illegal_entry_changes_nothing(tac: dict[str, Any]) -> None:
    client, entries = tac["client"], tac["entries"]
    sheet = start(client, tac["table"].pk).json()
    before = Scoresheet.objects.get(pk=sheet["id"])
    wrong = add(client, sheet["id"], sheet["version"], {"seat": 0, "card": "5", "moves": [[0, 99]]})
    assert wrong.status_code == 400
    assert wrong.json()["error"]["code"] == "illegal_move" and wrong.json()["error"]["details"]["turn"] == 0
    for body in ({"version": sheet["version"], "entry": [1]}, {"version": "x", "entry": entries[0]}, [1, 2]):
        bad = client.post(f"/api/scoresheets/{sheet['id']}/entries/", body, format="json")
        assert bad.status_code == 400 and bad.json()["error"]["code"] == "invalid_input"
    nothing = client.post(f"/api/scoresheets/{sheet['id']}/undo/", {"version": sheet["version"]}, format="json")
    assert nothing.status_code == 400 and nothing.json()["error"]["code"] == "nothing_to_undo"
    after = Scoresheet.objects.get(pk=sheet["id"])
    assert (after.version, after.state) == (before.version, before.state)
    assert not AuditLog.objects.filter(object_type="scoresheet", action="scoresheet_entry_added").exists()
    assert add(client, sheet["id"], sheet["version"], entries[0]).status_code == 200


def test_bad_starts(tac: dict[str, Any], organiser: Any) -> None:
    client = tac["client"]
    for body in ({}, {"dealer": "0"}, {"dealer": 7}, {"dealer": True}, {"dealer": 0, "seat_order": [1, 2]}):
        answer = client.post(f"/api/tables/{tac['table'].pk}/scoresheet/", body, format="json")
        assert answer.status_code in (400, 422), body  # malformed (400) or refused by the seats (422)
    assert not Scoresheet.objects.exists()
    players = [p["id"] for p in sorted(tac["record"]["players"], key=lambda p: p["seats"][0])]
    swapped = [players[2], players[1], players[0], players[3]]  # the partners swap places: still one side each
    answer = client.post(f"/api/tables/{tac['table'].pk}/scoresheet/", {"dealer": 1, "seat_order": swapped},
                         format="json")
    assert answer.status_code == 201
    assert [p["id"] for p in answer.json()["players"]] == swapped
    client.post(f"/api/scoresheets/{answer.json()['id']}/abandon/", {"version": 1}, format="json")
    split = [players[1], players[0], players[2], players[3]]  # a team not opposite: refused
    refused = client.post(f"/api/tables/{tac['table'].pk}/scoresheet/", {"dealer": 1, "seat_order": split},
                          format="json")
    assert refused.status_code == 422 and refused.json()["error"]["code"] == "record_players_mismatch"


def test_upload_only_games(organiser: Any) -> None:
    _tournament, table = one_table_tournament(organiser, "taki", {"seats": 4})
    client = APIClient()
    client.force_authenticate(organiser)
    answer = start(client, table.pk)
    assert answer.status_code == 422 and answer.json()["error"]["code"] == "scoresheet_unsupported"


def test_only_an_organiser_calls_time(tac: dict[str, Any], organiser: Any,
                                      django_capture_on_commit_callbacks: Any) -> None:
    client = tac["client"]
    sheet = start(client, tac["table"].pk).json()
    version = add(client, sheet["id"], sheet["version"], tac["entries"][0]).json()["version"]
    refused = client.post(f"/api/scoresheets/{sheet['id']}/finish/", {"version": version, "time_up": True},
                          format="json")
    assert refused.status_code == 403
    org = APIClient()
    org.force_authenticate(organiser)
    with django_capture_on_commit_callbacks(execute=True):
        called = org.post(f"/api/scoresheets/{sheet['id']}/finish/", {"version": version, "time_up": True},
                          format="json")
    assert called.status_code == 201, called.json()
    record = GameRecord.objects.get(pk=called.json()["record"])
    assert record.status == "valid" and not record.complete and record.settlement == "none"
    assert called.json()["scoresheet"]["time_up"] is True


ACTORS = ["anonymous", "other_player", "table_player", "token", "other_token", "wrong_token", "organiser",
          "other_organiser"]
KEEPERS = {"table_player", "token", "organiser"}


@pytest.mark.parametrize("public", [True, False])
def test_permission_matrix(organiser: Any, monkeypatch: pytest.MonkeyPatch, public: bool) -> None:
    tournament = make_tournament(organiser, game="tac", entrants=4, name="Perm sheet", is_public=public)
    table, other_table = list(published_round(organiser, tournament).tables.order_by("number"))
    record = relabel(random_record("tac", {}, seed=5), table)
    monkeypatch.setattr(scoresheet_services, "engine", lambda: fake_engine(record))
    here, there = seated_entrants(table), seated_entrants(other_table)
    users = {"other_player": user_for_entrant(there[0], "sheet-other"),
             "table_player": user_for_entrant(here[1], "sheet-player"), "organiser": organiser,
             "other_organiser": get_user_model().objects.create_user("sheet-org2", password="x-password-1")}
    tokens = {"token": here[0].report_token, "other_token": there[1].report_token, "wrong_token": "nope" * 8}
    owner = APIClient()
    owner.force_authenticate(organiser)
    sheet = start(owner, table.pk).json()
    entry = public_entries(record)[0]
    for actor in ACTORS:
        client = APIClient()
        if actor in users:
            client.force_authenticate(users[actor])
        if actor in tokens:
            client.credentials(HTTP_X_REPORT_TOKEN=tokens[actor])
        version = Scoresheet.objects.get(pk=sheet["id"]).version
        answers = [
            client.get(f"/api/scoresheets/{sheet['id']}/"),
            start(client, table.pk),
            add(client, sheet["id"], version, entry),
        ]
        if actor in KEEPERS:
            assert answers[0].status_code == 200, actor
            assert answers[1].status_code == 409, actor  # the sheet is open already
            assert answers[2].status_code == 200, actor
            undone = client.post(f"/api/scoresheets/{sheet['id']}/undo/", {"version": version + 1}, format="json")
            assert undone.status_code == 200, actor
        else:
            expected = 403 if public else 404
            assert [a.status_code for a in answers] == [expected] * 3, actor
    assert Scoresheet.objects.get(pk=sheet["id"]).state["entries"] == []
