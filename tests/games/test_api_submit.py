"""Submit records through the API: valid ones settle the table, mutated ones get the precise verdict and
change nothing, limits give 400 with a code and store nothing."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest
from rest_framework.test import APIClient

from games import settle
from games.models import GameRecord, RecordVerdict
from rules.core.replay import verify_document
from tests.games.conftest import CASE_IDS, GAME_CASES, one_table_tournament, random_record, relabel
from tests.tournaments.conftest import seated_entrants
from tournaments.models import Result
from tournaments.services import tournament_profile

pytestmark = pytest.mark.django_db


def post_record(client: APIClient, table_id: int, body: bytes | str, token: str | None = None,
                content_type: str = "application/json") -> Any:
    headers = {"HTTP_X_REPORT_TOKEN": token} if token else {}
    return client.post(f"/api/tables/{table_id}/records/", data=body, content_type=content_type, **headers)


def submit(client: APIClient, table_id: int, record: dict[str, Any], token: str | None, capture: Any) -> Any:
    with capture(execute=True):
        return post_record(client, table_id, json.dumps(record), token)


@pytest.mark.parametrize(("game", "tvariant", "rvariant"), GAME_CASES, ids=CASE_IDS)
def test_valid_record_settles_the_table_and_the_opponent_confirms(
    organiser: Any, game: str, tvariant: dict[str, Any], rvariant: dict[str, Any],
    django_capture_on_commit_callbacks: Any,
) -> None:
    tournament, table = one_table_tournament(organiser, game, tvariant)
    record = relabel(random_record(game, rvariant, seed=7), table)
    entrants = seated_entrants(table)
    client = APIClient()

    response = submit(client, table.pk, record, entrants[0].report_token, django_capture_on_commit_callbacks)
    assert response.status_code == 201, response.json()
    data = client.get(f"/api/records/{response.json()['id']}/").json()
    assert (data["status"], data["complete"], data["error"]) == ("valid", True, None)
    assert data["settlement"] == "settled", data["settlement_note"]
    assert data["derived_result"]["winners"] == verify_document(record).result["winners"]

    result = Result.objects.get(pk=data["result"])
    assert result.state == Result.State.REPORTED
    assert result.reported_for_id == entrants[0].pk
    winner_seat = data["derived_result"]["winners"][0]
    winner_entrant = data["seat_entrants"][winner_seat]
    lines = {s.entrant_id: s for s in result.scores.all()}
    assert set(lines) == {e.pk for e in entrants}
    assert [e for e, line in lines.items() if line.is_winner] == [winner_entrant]
    assert lines[winner_entrant].placing == 1
    expected = settle.table_result(profile=tournament_profile(tournament), derived=data["derived_result"],
                                   seat_entrants=data["seat_entrants"],
                                   snapshot=settle.final_position(record))
    assert expected is not None
    assert settle.result_matches({k: {str(e): v for e, v in val.items()} if isinstance(val, dict) else val
                                  for k, val in expected.items()},
                                 [{"entrant": e, "score": s.score, "placing": s.placing, "is_winner": s.is_winner,
                                   "forfeited": s.forfeited} for e, s in lines.items()])
    if "scores" in expected:
        assert lines[winner_entrant].score == 8

    with django_capture_on_commit_callbacks(execute=True):
        confirm = client.post(f"/api/results/{result.pk}/confirm/", {}, format="json",
                              HTTP_X_REPORT_TOKEN=entrants[1].report_token)
    assert confirm.status_code == 200, confirm.json()
    result.refresh_from_db()
    assert result.state == Result.State.CONFIRMED
    assert RecordVerdict.objects.filter(record_id=data["id"]).count() == 1


def test_organiser_record_is_reported_for_nobody_and_a_player_confirms(
    organiser: Any, django_capture_on_commit_callbacks: Any
) -> None:
    tournament, table = one_table_tournament(organiser, "taki", {"seats": 4})
    record = relabel(random_record("taki", {"seats": 4}, seed=3), table)
    client = APIClient()
    client.force_authenticate(organiser)
    response = submit(client, table.pk, record, None, django_capture_on_commit_callbacks)
    assert response.status_code == 201
    record_row = GameRecord.objects.get(pk=response.json()["id"])
    assert record_row.submitted_for is None and record_row.settlement == "settled"
    assert record_row.result.reported_for is None and record_row.result.state == Result.State.REPORTED


def test_identical_pending_report_from_the_other_side_is_confirmed(
    organiser: Any, django_capture_on_commit_callbacks: Any
) -> None:
    tournament, table = one_table_tournament(organiser, "zack", {"seats": 4})
    record = relabel(random_record("zack", {"seats": 4}, seed=5), table)
    entrants = seated_entrants(table)
    client = APIClient()
    first_id = submit(client, table.pk, record, entrants[0].report_token, django_capture_on_commit_callbacks).json()["id"]
    first = client.get(f"/api/records/{first_id}/").json()
    assert first["settlement"] == "settled"
    # the same game, recorded by another seat (another text: different sha256)
    second_id = submit(client, table.pk, {**record, "meta": {"scribe": "B"}}, entrants[1].report_token,
                       django_capture_on_commit_callbacks).json()["id"]
    second = client.get(f"/api/records/{second_id}/").json()
    assert second["settlement"] == "settled"
    assert second["result"] == first["result"]
    assert Result.objects.get(pk=first["result"]).state == Result.State.CONFIRMED


def _first_turn_path(record: dict[str, Any]) -> tuple[str, dict[str, Any]]:
    deal = record["deals"][0]
    key = "events" if "events" in deal else "turns"
    return f"/deals/0/{key}", deal


def mutate_wrong_card(record: dict[str, Any]) -> dict[str, Any]:
    """The first action plays a card token that no deck has."""
    record = copy.deepcopy(record)
    _, deal = _first_turn_path(record)
    key = "events" if "events" in deal else "turns"
    action = deal[key][0]
    if "card" in action:
        action["card"] = "no-such-card"
    elif "play" in action and isinstance(action["play"], list):
        action["play"] = ["no-such-card"]
    else:
        action["seat"] = 99
    return record


def mutate_drop_action(record: dict[str, Any]) -> dict[str, Any]:
    record = copy.deepcopy(record)
    _, deal = _first_turn_path(record)
    key = "events" if "events" in deal else "turns"
    del deal[key][1]
    return record


def mutate_forged_result(record: dict[str, Any]) -> dict[str, Any]:
    record = copy.deepcopy(record)
    winners = record["result"]["winners"]
    seats = sorted(s for p in record["players"] for s in p["seats"])
    record["result"] = {"winners": [next(s for s in seats if s not in winners)]}
    return record


@pytest.mark.parametrize(("game", "tvariant", "rvariant"), GAME_CASES, ids=CASE_IDS)
@pytest.mark.parametrize("mutate", [mutate_wrong_card, mutate_drop_action, mutate_forged_result],
                         ids=["wrong-card", "dropped-action", "forged-result"])
def test_mutated_record_gets_the_precise_verdict_and_changes_nothing(
    organiser: Any, game: str, tvariant: dict[str, Any], rvariant: dict[str, Any], mutate: Any,
    django_capture_on_commit_callbacks: Any,
) -> None:
    tournament, table = one_table_tournament(organiser, game, tvariant)
    record = mutate(relabel(random_record(game, rvariant, seed=11), table))
    expected = verify_document(record).to_json()
    assert expected["valid"] is False
    entrants = seated_entrants(table)
    client = APIClient()
    response = submit(client, table.pk, record, entrants[0].report_token, django_capture_on_commit_callbacks)
    assert response.status_code == 201
    data = client.get(f"/api/records/{response.json()['id']}/").json()
    assert data["status"] == "invalid" and data["complete"] is False
    assert data["error"] == {k: expected["error"][k] for k in ("code", "path", "message")}
    if mutate is mutate_forged_result:
        assert (data["error"]["code"], data["error"]["path"]) == ("result_mismatch", "/result/winners")
    elif mutate is mutate_wrong_card:
        assert data["error"]["path"].startswith(_first_turn_path(record)[0] + "/0")
    assert data["settlement"] == "none" and data["result"] is None
    assert not Result.objects.filter(table=table).exists()


def test_invalid_record_leaves_an_existing_result_alone(organiser: Any, django_capture_on_commit_callbacks: Any) -> None:
    tournament, table = one_table_tournament(organiser, "taki", {"seats": 4})
    entrants = seated_entrants(table)
    from tournaments import services

    services.result_report(table=table, token=entrants[0].report_token,
                           placings={e.pk: i + 1 for i, e in enumerate(entrants)})
    before = list(Result.objects.filter(table=table).values_list("pk", "state"))
    record = mutate_forged_result(relabel(random_record("taki", {"seats": 4}, seed=2), table))
    response = submit(APIClient(), table.pk, record, entrants[1].report_token, django_capture_on_commit_callbacks)
    assert GameRecord.objects.get(pk=response.json()["id"]).status == "invalid"
    assert list(Result.objects.filter(table=table).values_list("pk", "state")) == before


# --- matching the record to the table ----------------------------------------------------------------


def test_players_by_name_case_insensitive(organiser: Any, django_capture_on_commit_callbacks: Any) -> None:
    tournament, table = one_table_tournament(organiser, "taki", {"seats": 4})
    record = relabel(random_record("taki", {"seats": 4}, seed=4), table)
    for player in record["players"]:
        del player["id"]
        player["name"] = player["name"].upper()
    response = submit(APIClient(), table.pk, record, seated_entrants(table)[0].report_token,
                      django_capture_on_commit_callbacks)
    assert response.status_code == 201
    assert response.json()["seat_entrants"] == [e.pk for e in seated_entrants(table)]


@pytest.mark.parametrize("change", ["unknown-name", "unknown-id", "split-team", "game", "variant"])
def test_mismatch_is_refused_with_a_clear_code(organiser: Any, change: str) -> None:
    tournament, table = one_table_tournament(organiser, "tac", {})
    record = relabel(random_record("tac", {}, seed=4), table)
    if change == "unknown-name":
        del record["players"][0]["id"]
        record["players"][0]["name"] = "Somebody Else"
        code = "record_players_mismatch"
    elif change == "unknown-id":
        record["players"][0]["id"] = 999999
        code = "record_players_mismatch"
    elif change == "split-team":  # entrant 0's players hold seats 0 and 1: not one team
        record["players"][1]["seats"], record["players"][2]["seats"] = [1], [2]
        record["players"] = [record["players"][0], record["players"][2], record["players"][1], record["players"][3]]
        code = "record_players_mismatch"
    elif change == "game":
        record["game"] = "tactik"
        code = "record_game_mismatch"
    else:
        record["variant"] = {"master": True}
        code = "record_game_mismatch"
    response = post_record(APIClient(), table.pk, json.dumps(record), seated_entrants(table)[0].report_token)
    assert response.status_code == 422, response.json()  # well formed, refused by the table (issue 30)
    assert response.json()["error"]["code"] == code
    assert response.json()["error"]["message"]
    assert not GameRecord.objects.exists()


def test_duplicate_is_refused(organiser: Any, django_capture_on_commit_callbacks: Any) -> None:
    tournament, table = one_table_tournament(organiser, "taki", {"seats": 4})
    body = json.dumps(relabel(random_record("taki", {"seats": 4}, seed=4), table))
    token = seated_entrants(table)[0].report_token
    with django_capture_on_commit_callbacks(execute=True):
        assert post_record(APIClient(), table.pk, body, token).status_code == 201
    again = post_record(APIClient(), table.pk, body, seated_entrants(table)[1].report_token)
    assert again.status_code == 409 and again.json()["error"]["code"] == "record_duplicate"
    assert GameRecord.objects.count() == 1


def test_multipart_upload_and_paste(organiser: Any, django_capture_on_commit_callbacks: Any) -> None:
    from django.core.files.uploadedfile import SimpleUploadedFile

    tournament, table = one_table_tournament(organiser, "taki", {"seats": 4})
    record = relabel(random_record("taki", {"seats": 4}, seed=4), table)
    token = seated_entrants(table)[0].report_token
    client = APIClient()
    upload = SimpleUploadedFile("game.json", json.dumps(record).encode(), content_type="application/json")
    with django_capture_on_commit_callbacks(execute=True):
        r1 = client.post(f"/api/tables/{table.pk}/records/?token={token}", {"file": upload}, format="multipart")
    assert r1.status_code == 201 and r1.json()["source"] == "upload"
    pasted = json.dumps({**record, "meta": {"notes": "pasted"}}, indent=1)
    r2 = client.post(f"/api/tables/{table.pk}/records/?token={token}", {"record": pasted}, format="multipart")
    assert r2.status_code == 201 and r2.json()["source"] == "paste"
    download = client.get(f"/api/records/{r2.json()['id']}/download/")
    assert download.status_code == 200 and download.content.decode() == pasted
    assert download["Content-Type"].startswith("application/json")


# --- limits ------------------------------------------------------------------------------------------


@pytest.mark.parametrize("case", ["oversized", "deep", "too-many-actions", "not-json", "not-utf8", "array"])
def test_limits_give_400_with_a_code_and_store_nothing(organiser: Any, settings: Any, case: str) -> None:
    tournament, table = one_table_tournament(organiser, "taki", {"seats": 4})
    record = relabel(random_record("taki", {"seats": 4}, seed=4), table)
    settings.GAMES_RECORD_MAX_BYTES = 50_000
    body: bytes | str
    if case == "oversized":
        body, code = json.dumps({**record, "meta": {"notes": "x" * 60_000}}), "record_too_large"
    elif case == "deep":
        body, code = "[" * 5000 + "]" * 5000, "json_too_deep"
    elif case == "too-many-actions":
        settings.GAMES_RECORD_MAX_ACTIONS = 3
        body, code = json.dumps(record), "record_too_large"
    elif case == "not-json":
        body, code = "this is not { json", "record_unreadable"
    elif case == "not-utf8":
        body, code = b"\xff\xfe{}", "record_unreadable"
    else:
        body, code = "[1, 2]", "record_unreadable"
    response = post_record(APIClient(), table.pk, body, seated_entrants(table)[0].report_token)
    assert response.status_code == (422 if code == "record_unreadable" else 400), response.content
    assert response.json()["error"]["code"] == code
    assert not GameRecord.objects.exists()


@pytest.mark.parametrize(("place", "escaped"), [
    ("variant", "a\\u0000b"), ("player", "Ann\\ud800"), ("meta key", "\\udfff"), ("entry", "\\u0000"),
])
def test_characters_the_database_cannot_store_are_refused(organiser: Any, place: str, escaped: str) -> None:
    """U+0000 and halves of surrogate pairs (spelt by JSON escapes) are refused with 400 before anything
    is stored: PostgreSQL takes neither in text nor in jsonb (a 500 before)."""
    tournament, table = one_table_tournament(organiser, "taki", {"seats": 4})
    record = relabel(random_record("taki", {"seats": 4}, seed=4), table)
    marker = "MARKER-" + place.replace(" ", "-")
    if place == "variant":
        record["variant"]["note"] = marker
    elif place == "player":
        record["players"][0]["name"] = marker
    elif place == "meta key":
        record["meta"] = {marker: 1}
    else:
        record["deals"][0]["turns"][0] = marker
    body = json.dumps(record).replace(marker, escaped)
    response = post_record(APIClient(), table.pk, body, seated_entrants(table)[0].report_token)
    assert response.status_code == 422, response.content
    error = response.json()["error"]
    assert error["code"] == "record_unreadable" and "cannot be stored" in error["message"]
    assert not GameRecord.objects.exists()
    # the same text with the backslash escaped is six ordinary characters: judged as any record
    plain = post_record(APIClient(), table.pk, json.dumps(record).replace(marker, escaped.replace("\\", "\\\\")),
                        seated_entrants(table)[0].report_token)
    assert "cannot be stored" not in plain.content.decode()


def test_body_over_the_limit_is_not_read_whole(organiser: Any, settings: Any) -> None:
    tournament, table = one_table_tournament(organiser, "taki", {"seats": 4})
    settings.GAMES_RECORD_MAX_BYTES = 1000
    response = post_record(APIClient(), table.pk, b"{" + b" " * 5_000_000 + b"}",
                           seated_entrants(table)[0].report_token)
    assert response.status_code == 400 and response.json()["error"]["code"] == "record_too_large"


def test_tournament_record_list_is_paginated(organiser: Any, django_capture_on_commit_callbacks: Any) -> None:
    tournament, table = one_table_tournament(organiser, "taki", {"seats": 4})
    client = APIClient()
    client.force_authenticate(organiser)
    ids = []
    for seed in range(3):
        response = submit(client, table.pk, relabel(random_record("taki", {"seats": 4}, seed=seed), table), None,
                          django_capture_on_commit_callbacks)
        assert response.status_code == 201, response.content
        ids.append(response.json()["id"])
    url = f"/api/tournaments/{tournament.slug}/records/"
    first = client.get(url, {"limit": 2}).json()
    assert first["count"] == 3 and [r["id"] for r in first["results"]] == ids[::-1][:2]
    assert first["next"] and "offset=2" in first["next"] and first["previous"] is None
    second = client.get(url, {"limit": 2, "offset": 2}).json()
    assert [r["id"] for r in second["results"]] == [ids[0]] and second["next"] is None
    assert len(client.get(url).json()["results"]) == 3  # default page of 100
    response = client.get(url, {"limit": 10**9})  # capped at max_limit
    assert response.status_code == 200 and response.json()["count"] == 3
    for bad in ({"limit": "x"}, {"limit": -1}, {"limit": 0}, {"offset": "y"}):  # 400, as the schema says
        response = client.get(url, bad)
        assert response.status_code == 400 and response.json()["error"]["code"] == "invalid_input"
