"""A room records live (issue 26): an entry locks only its own sheet (another table's sheet held in an open
transaction, or the tournament locked by a finishing table, does not hold it up), leaves the public pages'
keys alone, costs at most 5 queries, and a stale version is still refused; any process takes up a sheet
from the shared position without replaying it."""

from __future__ import annotations

import time
from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

import rules.scoresheet as scoresheet
from games.models import Scoresheet
from games.scoresheet import positions
from rules.scoresheet import sheet as sheet_module
from tests.games.conftest import random_record, relabel
from tests.games.scoresheet_support import public_entries
from tests.held_elsewhere import held_elsewhere
from tests.tournaments.conftest import make_tournament, published_round, seated_entrants
from tournaments.models import Tournament
from tournaments.page_cache import tournament_key
from tournaments.services.locking import lock_tournament


@pytest.fixture(autouse=True)
def _no_throttle(settings: Any) -> None:
    settings.SCORESHEET_THROTTLE_RATE = "100000/min"


def _room(organiser: Any) -> list[dict[str, Any]]:
    """A TAC tournament of two tables, each with an open sheet, a client with its report token, and the
    public entries of a random game to enter."""
    tournament = make_tournament(organiser, game="tac", entrants=4, name="Room Cup")
    round_ = published_round(organiser, tournament)
    tables = []
    for seed, table in enumerate(round_.tables.filter(is_bye=False).order_by("number"), start=1):
        record = relabel(random_record("tac", {}, seed=seed), table)
        client = APIClient()
        client.credentials(HTTP_X_REPORT_TOKEN=seated_entrants(table)[0].report_token)
        started = client.post(f"/api/tables/{table.pk}/scoresheet/", {"dealer": record["deals"][0]["dealer"]},
                              format="json")
        assert started.status_code == 201, started.json()
        tables.append({"tournament": tournament, "table": table, "client": client, "sheet": started.json(),
                       "entries": public_entries(record)})
    assert len(tables) == 2
    return tables


def _add(client: APIClient, sheet_id: int, version: int, entry: dict[str, Any]) -> Any:
    return client.post(f"/api/scoresheets/{sheet_id}/entries/", {"version": version, "entry": entry}, format="json")


@pytest.fixture
def postgres(require_services: None) -> None:
    assert connection.vendor == "postgresql"


@pytest.mark.services
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("held", ["other_sheet", "tournament"])
def test_an_entry_completes_while_another_table_is_held(postgres: None, held: str) -> None:
    from django.contrib.auth import get_user_model

    one, two = _room(get_user_model().objects.create_user("org-room"))

    def take() -> None:  # a second connection: another table's entry (or a finishing table) in progress
        Scoresheet.objects.select_for_update().get(pk=two["sheet"]["id"])
        if held == "tournament":
            lock_tournament(one["tournament"].pk)  # what a finish (a settled result) holds

    with held_elsewhere(take) as released:
        started = time.monotonic()
        answer = _add(one["client"], one["sheet"]["id"], one["sheet"]["version"], one["entries"][0])
        waited = time.monotonic() - started
        still_held = not released.is_set()
    assert answer.status_code == 200, answer.json()
    assert still_held and waited < 5, waited  # it did not wait for the other transaction (held 15 s)
    assert Scoresheet.objects.get(pk=one["sheet"]["id"]).version == one["sheet"]["version"] + 1


@pytest.mark.django_db
def test_an_entry_leaves_the_public_pages_keys_alone(organiser: Any) -> None:
    one, _two = _room(organiser)
    tournament = Tournament.objects.get(pk=one["tournament"].pk)
    keys = [tournament_key(tournament, page) for page in ("tournament", "standings", "round")]
    versions = (tournament.public_version, tournament.results_version, tournament.standings_version)
    version = one["sheet"]["version"]
    for entry in one["entries"][:6]:
        answer = _add(one["client"], one["sheet"]["id"], version, entry)
        assert answer.status_code == 200, answer.json()
        version = answer.json()["version"]
    undone = one["client"].post(f"/api/scoresheets/{one['sheet']['id']}/undo/", {"version": version}, format="json")
    assert undone.status_code == 200
    tournament.refresh_from_db()
    assert (tournament.public_version, tournament.results_version, tournament.standings_version) == versions
    assert [tournament_key(tournament, page) for page in ("tournament", "standings", "round")] == keys


@pytest.mark.django_db
def test_an_entry_costs_at_most_five_queries(organiser: Any) -> None:
    one, _two = _room(organiser)
    version = one["sheet"]["version"]
    counts = []
    for entry in one["entries"][:8]:
        with CaptureQueriesContext(connection) as queries:
            answer = _add(one["client"], one["sheet"]["id"], version, entry)
        assert answer.status_code == 200, answer.json()
        version = answer.json()["version"]
        statements = [q["sql"] for q in queries.captured_queries  # a test's own transaction: savepoints
                      if not q["sql"].startswith(("SAVEPOINT", "RELEASE SAVEPOINT"))]
        counts.append(len(statements))
        assert len(statements) <= 5, statements
        assert not [s for s in statements if "tournaments_tournament" in s and "UPDATE" in s], statements
        assert sum('"state"' in s and s.lstrip().upper().startswith("SELECT") for s in statements) == 1, statements
    assert counts == [counts[0]] * len(counts)  # the same for every entry


@pytest.mark.django_db
def test_a_stale_version_is_refused_and_changes_nothing(organiser: Any) -> None:
    one, _two = _room(organiser)
    sheet_id, version = one["sheet"]["id"], one["sheet"]["version"]
    first = _add(one["client"], sheet_id, version, one["entries"][0])
    assert first.status_code == 200
    stale = _add(one["client"], sheet_id, version, one["entries"][0])  # a second phone on the old version
    assert stale.status_code == 409 and stale.json()["error"]["code"] == "scoresheet_stale"
    assert stale.json()["error"]["details"]["version"] == version + 1
    sheet = Scoresheet.objects.get(pk=sheet_id)
    assert sheet.version == version + 1 and sheet.state["entries"] == one["entries"][:1]


@pytest.mark.django_db
def test_a_write_that_loses_the_race_after_the_engine_is_stale(organiser: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """The version is checked again by the guarded UPDATE: a phone that wrote while the engine worked wins."""
    from games.scoresheet import services

    one, _two = _room(organiser)
    sheet_id, version = one["sheet"]["id"], one["sheet"]["version"]
    real = services._engine_step

    def slow_step(sheet: Any, step: Any) -> Any:
        out = real(sheet, step)
        Scoresheet.objects.filter(pk=sheet_id).update(version=version + 1)  # another phone, meanwhile
        return out

    monkeypatch.setattr(services, "_engine_step", slow_step)
    lost = _add(one["client"], sheet_id, version, one["entries"][0])
    assert lost.status_code == 409 and lost.json()["error"]["code"] == "scoresheet_stale"
    assert Scoresheet.objects.get(pk=sheet_id).state["entries"] == []


@pytest.mark.django_db
def test_another_process_takes_up_the_sheet_without_replaying(organiser: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    one, _two = _room(organiser)
    version = one["sheet"]["version"]
    for entry in one["entries"][:12]:
        answer = _add(one["client"], one["sheet"]["id"], version, entry)
        assert answer.status_code == 200, answer.json()
        version = answer.json()["version"]
    sheet_module._CACHE.clear()  # this process forgets every replay: as a worker that never saw the sheet
    scoresheet._VIEWS.clear()
    replays = []
    original_add = sheet_module.Sheet.add
    monkeypatch.setattr(sheet_module.Sheet, "add", lambda self, raw: (replays.append(1), original_add(self, raw))[1])
    assert positions._store().get(positions._key(one["sheet"]["id"])) is not None  # left by the last entry
    answer = _add(one["client"], one["sheet"]["id"], version, one["entries"][12])
    assert answer.status_code == 200, answer.json()
    assert len(replays) == 1  # the new entry only, not the 12 before it


def _gunzip(response: Any) -> dict[str, Any]:
    import gzip
    import json

    assert response.get("Content-Encoding") == "gzip"
    return json.loads(gzip.decompress(response.content))


@pytest.mark.django_db
def test_a_tac_master_answer_with_thousands_of_options_is_small(organiser: Any) -> None:
    """Seed 2's entry 117 leaves a position with 3,485 options (2,574 of them Teufel's, 620 KB as JSON)."""
    from rules.scoresheet import sheet_add
    from tests.games.conftest import one_table_tournament

    _t, table = one_table_tournament(organiser, "tac", {"master": True}, name="Master Cup")
    record = relabel(random_record("tac", {"master": True}, seed=2), table)
    entries = public_entries(record)
    client = APIClient(HTTP_ACCEPT_ENCODING="gzip")
    client.credentials(HTTP_X_REPORT_TOKEN=seated_entrants(table)[0].report_token)
    started = client.post(f"/api/tables/{table.pk}/scoresheet/", {"dealer": record["deals"][0]["dealer"]},
                          format="json")
    sheet_id = _gunzip(started)["id"] if started.get("Content-Encoding") else started.json()["id"]
    sheet = Scoresheet.objects.get(pk=sheet_id)
    state = sheet.state
    for entry in entries[:117]:
        state = sheet_add(state, entry)
    Scoresheet.objects.filter(pk=sheet_id).update(state=state, entries=117, version=2)

    answer = _add(client, sheet_id, 2, entries[117])
    assert answer.status_code == 200
    data = _gunzip(answer)
    assert data["option_count"] == 3485 and data["options_for"] is None and data["options"] == []
    assert "teufel" in data["cards"] and data["entry_count"] == 118 and data["entries"] == [entries[117]]
    assert "state" not in data
    assert len(answer.content) <= 4096, len(answer.content)  # the typical answer: at most 4 KB on the wire

    biggest = client.get(f"/api/scoresheets/{sheet_id}/", {"card": "teufel", "since": 118})
    options = _gunzip(biggest)
    assert options["options_for"] == "teufel" and len(options["options"]) == 2574
    assert all(o["card"] == "teufel" for o in options["options"]) and options["entries"] == []
    assert len(biggest.content) <= 16 * 1024, len(biggest.content)  # the largest card's options: at most 16 KB

    every = client.get(f"/api/scoresheets/{sheet_id}/", {"options": "all", "since": 118})
    assert len(_gunzip(every)["options"]) == 3485


@pytest.mark.django_db
def test_a_bad_answer_shape_is_refused_before_anything_is_written(organiser: Any) -> None:
    one, _two = _room(organiser)
    sheet_id, version = one["sheet"]["id"], one["sheet"]["version"]
    for query in ("since=-1", "since=x", "options=some", f"card={'x' * 21}"):
        refused = one["client"].post(f"/api/scoresheets/{sheet_id}/entries/?{query}",
                                     {"version": version, "entry": one["entries"][0]}, format="json")
        assert refused.status_code == 400 and refused.json()["error"]["code"] == "invalid_input", query
    assert Scoresheet.objects.get(pk=sheet_id).version == version
    reread = one["client"].get(f"/api/scoresheets/{sheet_id}/", {"since": 99, "state": "1"}).json()
    assert reread["entries_from"] == 0 == reread["entry_count"] and reread["state"]["entries"] == []


@pytest.mark.django_db(transaction=True)
def test_two_phones_finishing_at_once_make_one_record_and_one_result(postgres: None,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """Finish builds the record before it locks: of two finishes on one version, one stores the record (and,
    verified at once here, settles the table's one result), the other is refused; nothing is doubled."""
    from django.contrib.auth import get_user_model

    from games.models import GameRecord
    from games.scoresheet import services
    from tests.games.conftest import one_table_tournament
    from tests.games.scoresheet_support import fake_engine
    from tests.services.conftest import race
    from tournaments.models import Result

    organiser = get_user_model().objects.create_user("org-finish")
    _t, table = one_table_tournament(organiser, "tac", {}, name="Finish Cup")
    record = relabel(random_record("tac", {}, seed=3), table)
    monkeypatch.setattr(services, "engine", lambda: fake_engine(record))
    tokens = [e.report_token for e in seated_entrants(table)]
    started = APIClient().post(f"/api/tables/{table.pk}/scoresheet/?token={tokens[0]}",
                               {"dealer": record["deals"][0]["dealer"]}, format="json")
    sheet_id = started.json()["id"]
    sheet = Scoresheet.objects.get(pk=sheet_id)
    sheet.state = {**sheet.state, "entries": public_entries(record)}
    sheet.version = 2
    sheet.save()

    def finish(token: str) -> Any:
        return APIClient().post(f"/api/scoresheets/{sheet_id}/finish/?token={token}", {"version": 2}, format="json")

    outcomes = race([lambda: finish(tokens[0]), lambda: finish(tokens[1])])
    statuses = sorted(getattr(o, "status_code", 0) for o in outcomes)
    assert statuses == [201, 409], outcomes
    loser = next(o for o in outcomes if o.status_code == 409)
    assert loser.json()["error"]["code"] in ("scoresheet_stale", "scoresheet_closed")
    assert GameRecord.objects.filter(table=table).count() == 1
    assert Scoresheet.objects.get(pk=sheet_id).status == Scoresheet.Status.FINISHED
    assert Result.objects.filter(table=table).count() == 1


@pytest.mark.django_db
def test_a_phone_polling_an_unchanged_sheet_gets_304(organiser: Any) -> None:
    one, two = _room(organiser)
    url = f"/api/scoresheets/{one['sheet']['id']}/"
    first = one["client"].get(url, {"since": 0})
    etag = first["ETag"]
    assert first.status_code == 200 and first["Cache-Control"] == "private, no-cache"
    assert one["client"].get(url, {"since": 0}, HTTP_IF_NONE_MATCH=etag).status_code == 304
    assert one["client"].get(url, {"since": 1}, HTTP_IF_NONE_MATCH=etag).status_code == 200  # another extent
    stranger = APIClient()
    stranger.credentials(HTTP_X_REPORT_TOKEN=seated_entrants(two["table"])[0].report_token)
    assert stranger.get(url, {"since": 0}, HTTP_IF_NONE_MATCH=etag).status_code == 403  # the right comes first
    assert _add(one["client"], one["sheet"]["id"], one["sheet"]["version"], one["entries"][0]).status_code == 200
    changed = one["client"].get(url, {"since": 0}, HTTP_IF_NONE_MATCH=etag)
    assert changed.status_code == 200 and changed.json()["entries"] == one["entries"][:1] and changed["ETag"] != etag
