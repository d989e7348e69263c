"""Bulk import (ZIP, JSON Lines; per-item report; limits; safe to run twice) and the reverify command."""

from __future__ import annotations

import io
import json
import zipfile
from typing import Any

import pytest
from django.core.management import call_command
from django.utils import translation
from rest_framework.test import APIClient

from games import selectors, services
from games.models import GameRecord, ImportBatch, ImportItem, RecordVerdict
from rules.core.verdict import Verdict
from tests.games.conftest import random_record, relabel
from tests.games.test_api_submit import mutate_forged_result
from tests.tournaments.conftest import make_tournament, published_round
from tournaments.models import Result, Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def taki_round(organiser: Any) -> tuple[Tournament, Any]:
    """A TAKI (3 seats) tournament with 9 entrants: one published round of 3 tables."""
    tournament = make_tournament(organiser, game="taki", variant={"seats": 3}, entrants=9, name="Import cup")
    return tournament, published_round(organiser, tournament)


def round_records(round_: Any, seed: int = 0) -> list[dict[str, Any]]:
    records = []
    for table in round_.tables.order_by("number"):
        record = relabel(random_record("taki", {"seats": 3}, seed=seed + table.number), table)
        records.append(record)
    return records


def zip_bytes(members: dict[str, bytes]) -> bytes:
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for name, data in members.items():
            archive.writestr(name, data)
    return buffer.getvalue()


def run_import(client: APIClient, tournament: Tournament, data: bytes, filename: str, capture: Any) -> Any:
    from django.core.files.uploadedfile import SimpleUploadedFile

    with capture(execute=True):
        return client.post(f"/api/tournaments/{tournament.slug}/records/import/",
                           {"file": SimpleUploadedFile(filename, data)}, format="multipart")


def test_zip_import_reports_every_item_and_settles_tables(
    organiser: Any, taki_round: Any, django_capture_on_commit_callbacks: Any
) -> None:
    tournament, round_ = taki_round
    good = round_records(round_)
    by_meta = {**good[0], "meta": {"round": round_.number, "table": 1}}
    del by_meta["players"][0]["id"]  # names are enough
    members = {
        "r1/t1.json": json.dumps(by_meta).encode(),
        "r1/t2.json": json.dumps(good[1]).encode(),             # table found by its seated players
        "r1/t3.json": json.dumps(mutate_forged_result(good[2])).encode(),  # stored, verdict invalid
        "../evil.json": b"not json",                               # a name, never a path on disk
        "notes.txt": b"ignored: not a .json member",
        "r1/missing.json": json.dumps({**good[1], "meta": {"round": 9, "table": 9}}).encode(),
    }
    client = APIClient()
    client.force_authenticate(organiser)
    response = run_import(client, tournament, zip_bytes(members), "round1.zip", django_capture_on_commit_callbacks)
    assert response.status_code == 202, response.json()
    progress = client.get(f"/api/record-imports/{response.json()['id']}/").json()
    assert (progress["total"], progress["processed"], progress["done"]) == (5, 5, True)
    items = {item["name"]: item for item in progress["items"]}
    assert items["r1/t1.json"]["status"] == "valid" and items["r1/t2.json"]["status"] == "valid"
    assert items["r1/t3.json"]["status"] == "invalid" and items["r1/t3.json"]["error_code"] == "result_mismatch"
    assert items["../evil.json"]["error_code"] == "record_unreadable" and items["../evil.json"]["record_id"] is None
    assert items["r1/missing.json"]["error_code"] == "record_table_not_found"
    assert GameRecord.objects.filter(tournament=tournament).count() == 3
    assert Result.objects.filter(table__round=round_, state=Result.State.REPORTED).count() == 2
    assert ImportBatch.objects.get().upload == b""


def test_jsonl_import_and_rerun_never_duplicates(
    organiser: Any, taki_round: Any, django_capture_on_commit_callbacks: Any
) -> None:
    tournament, round_ = taki_round
    lines = "\n".join(json.dumps(r) for r in round_records(round_)) + "\n\n"
    batch = services.records_import(tournament=tournament, actor=organiser, filename="r.jsonl", data=lines.encode())
    # a worker that died after two items: the rerun finishes the rest, nothing twice
    entries = services.import_entries(lines.encode())
    for index in range(2):
        record_id = services._import_one(batch, index, entries[index])
        assert record_id is not None
    services.import_batch_process(batch_id=batch.pk)
    services.import_batch_process(batch_id=batch.pk)
    batch.refresh_from_db()
    assert (batch.status, batch.total, batch.processed) == ("done", 3, 3)
    assert ImportItem.objects.filter(batch=batch).count() == 3
    assert GameRecord.objects.filter(batch=batch, status="valid").count() == 3
    assert RecordVerdict.objects.filter(record__batch=batch).count() == 3


@pytest.mark.parametrize("case", ["bomb", "too-many", "too-large", "not-zip", "empty", "not-organiser"])
def test_hostile_imports_are_refused(
    organiser: Any, other_organiser: Any, taki_round: Any, settings: Any, case: str
) -> None:
    tournament, round_ = taki_round
    client = APIClient()
    client.force_authenticate(organiser)
    status, code = 400, None
    if case == "bomb":
        settings.GAMES_IMPORT_MAX_UNCOMPRESSED = 5_000_000
        data = zip_bytes({f"b{i}.json": b" " * 1_000_000 for i in range(10)})  # 10 MB from ~10 KB
        code = "import_too_large"
    elif case == "too-many":
        settings.GAMES_IMPORT_MAX_ITEMS = 3
        data, code = zip_bytes({f"{i}.json": b"{}" for i in range(4)}), "import_too_large"
    elif case == "too-large":  # the raw body is cut at GAMES_IMPORT_MAX_BYTES, with the import's code
        settings.GAMES_IMPORT_MAX_BYTES = 1000
        data, code = b"{}\n" * 1000, "import_too_large"
    elif case == "not-zip":
        data, status, code = b"PK\x03\x04 broken archive", 422, "import_unreadable"
    elif case == "empty":
        data, status, code = b"\n\n", 422, "import_unreadable"
    else:
        client.force_authenticate(other_organiser)
        data, status, code = b"{}\n", 403, "permission_denied"
    response = client.post(f"/api/tournaments/{tournament.slug}/records/import/", data=data,
                           content_type="application/octet-stream")
    assert response.status_code == status, response.content
    assert response.json()["error"]["code"] == code
    assert not ImportBatch.objects.exists() and not GameRecord.objects.exists()


def test_zip_member_lying_about_its_size_is_cut_off(organiser: Any, taki_round: Any, settings: Any) -> None:
    settings.GAMES_RECORD_MAX_BYTES = 1000
    data = zip_bytes({"big.json": b"[" + b" " * 50_000 + b"]"})
    entries = services.import_entries(data)
    assert [(e.name, e.data, e.error_code) for e in entries] == [("big.json", None, "record_too_large")]


def test_reverify_lists_changed_verdicts(
    organiser: Any, taki_round: Any, monkeypatch: pytest.MonkeyPatch, django_capture_on_commit_callbacks: Any,
    capsys: Any,
) -> None:
    tournament, round_ = taki_round
    records = round_records(round_)
    tables = list(round_.tables.order_by("number"))
    ids = []
    for table, record in zip(tables, records, strict=True):
        with django_capture_on_commit_callbacks(execute=True):
            ids.append(services.record_submit(table=table, actor=organiser, data=json.dumps(record), source="api").pk)
    assert set(GameRecord.objects.values_list("status", flat=True)) == {"valid"}
    call_command("reverify", "--sync")
    assert "Verified 0 record(s)." in capsys.readouterr().out

    # a new engine version that judges the first record differently
    real_verify, real_version = services.verify_record_text, services.engine_version

    def new_engine(data: Any, *, file: str = "-") -> tuple[Verdict, Any]:
        verdict, final = real_verify(data, file=file)
        if file == f"record-{ids[0]}":
            from rules.core.errors import ErrorCode, RecordError

            return Verdict.invalid(file, "taki", RecordError(ErrorCode.MUST_PLAY, "/deals/0/turns/0", "stricter")), None
        return verdict, final

    monkeypatch.setattr(services, "verify_record_text", new_engine)
    monkeypatch.setattr(services, "engine_version", lambda game: "taki-2")
    call_command("reverify", "--sync", "--tournament", tournament.slug)
    out = capsys.readouterr().out
    assert "Verified 3 record(s)." in out
    assert "invalid must_play /deals/0/turns/0" in out and "1 verdict(s) changed." in out
    assert str(ids[1]) not in [line.split()[0] for line in out.splitlines()[2:] if line.strip()]
    first = GameRecord.objects.get(pk=ids[0])
    assert (first.status, first.engine_version, first.error_code) == ("invalid", "taki-2", "must_play")
    assert first.result is not None  # a re-verification never takes back a reported result...
    # ...but the organiser is told: the table's result came from a record that no longer verifies.
    flagged = selectors.record_conflicts(tournament=tournament)
    assert [(c["record"].pk, c["reason"]) for c in flagged] == [(ids[0], "record_no_longer_valid")]
    assert RecordVerdict.objects.filter(record_id=ids[0]).count() == 2
    call_command("reverify", "--sync")
    assert "Verified 0 record(s)." in capsys.readouterr().out

    # back to the first engine version: the verdicts it gave are kept, nothing is replayed for a verdict
    def no_replay(data: Any, *, file: str = "-") -> tuple[Verdict, Any]:
        raise AssertionError(f"{file} replayed although its verdict for this version is stored")

    monkeypatch.setattr(services, "verify_record_text", no_replay)
    monkeypatch.setattr(services, "engine_version", real_version)
    call_command("reverify", "--sync", "--tournament", tournament.slug)
    assert "Verified 3 record(s)." in capsys.readouterr().out
    assert set(GameRecord.objects.filter(pk__in=ids).values_list("status", "engine_version")) == {
        ("valid", real_version("taki"))}
    assert RecordVerdict.objects.filter(record_id__in=ids).count() == 6


@pytest.mark.parametrize("meta", [{"round": 99999999999, "table": 1}, {"round": "1", "table": "x"},
                                  {"round": 1.5, "table": 2}, {"round": True, "table": 1}])
def test_odd_meta_numbers_fall_back_to_the_players(organiser: Any, taki_round: Any, meta: dict[str, Any]) -> None:
    tournament, round_ = taki_round
    record = round_records(round_)[1]
    table = services.import_table(tournament=tournament, doc={**record, "meta": meta})
    assert table.number == 2


def test_meta_numbers_and_player_ids_may_be_digit_strings(organiser: Any, taki_round: Any) -> None:
    tournament, round_ = taki_round
    record = round_records(round_)[1]
    assert services.import_table(tournament=tournament, doc={**record, "meta": {"round": " 1 ", "table": "1"}}).number == 1
    record["players"] = [{**player, "id": f" {player['id']} "} for player in record["players"]]
    assert services.import_table(tournament=tournament, doc=record).number == 2


def test_unknown_players_and_huge_ids_are_reported(organiser: Any, taki_round: Any) -> None:
    tournament, round_ = taki_round
    record = round_records(round_)[0]
    record["players"][0]["id"] = 10**40
    with pytest.raises(services.TournamentError) as err:
        services.import_table(tournament=tournament, doc=record)
    assert err.value.code == "record_players_mismatch"


def test_stored_messages_are_english_whatever_the_active_language(
    taki_round: tuple[Tournament, Any], organiser: Any, german_entry: Any
) -> None:
    """A worker (or an eager task inside a German request) stores the item errors in English."""
    german_entry("A record must be a JSON object.", "Kein JSON-Objekt (Testkatalog).")
    tournament, _round = taki_round
    batch = services.records_import(tournament=tournament, actor=organiser, filename="r.jsonl", data=b"[1]\n")
    with translation.override("de"):
        assert translation.gettext("A record must be a JSON object.") == "Kein JSON-Objekt (Testkatalog)."
        services.import_batch_process(batch_id=batch.pk)
        assert translation.get_language() == "de"
    item = ImportItem.objects.get(batch=batch)
    assert (item.error_code, item.error_message) == ("record_unreadable", "A record must be a JSON object.")


def test_the_request_counts_a_zip_without_unpacking_it(
    organiser: Any, taki_round: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The upload is checked in the request from the ZIP's directory; only the task unpacks the members."""
    tournament, round_ = taki_round
    members = {f"t{i}.json": json.dumps(doc).encode() for i, doc in enumerate(round_records(round_))}
    data = zip_bytes({**members, "notes.txt": b"not a record"})
    assert services.import_size(data) == len(services.import_entries(data)) == len(members)

    def unpacked(*args: Any, **kwargs: Any) -> Any:
        raise AssertionError("a member was unpacked in the request")

    monkeypatch.setattr(zipfile.ZipFile, "open", unpacked)
    batch = services.records_import(tournament=tournament, actor=organiser, filename="r.zip", data=data)
    assert batch.total == len(members)
