"""Permission matrix of the game-record API: who may submit, see, download, list, import; public and private."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from rest_framework.test import APIClient

from games.models import GameRecord
from tests.games.conftest import random_record, relabel
from tests.tournaments.conftest import make_tournament, published_round, seated_entrants, user_for_entrant

pytestmark = pytest.mark.django_db

ACTORS = ["anonymous", "other_player", "table_player", "token", "other_token", "organiser", "other_organiser"]
MAY_SUBMIT = {"table_player", "token", "organiser"}


@pytest.fixture
def setup(organiser: Any, request: pytest.FixtureRequest, django_capture_on_commit_callbacks: Any) -> dict[str, Any]:
    public = request.param == "public"
    tournament = make_tournament(organiser, game="taki", variant={"seats": 3}, entrants=6, name="Perm cup",
                                 is_public=public)
    round_ = published_round(organiser, tournament)
    table, other_table = list(round_.tables.order_by("number"))
    here, there = seated_entrants(table), seated_entrants(other_table)
    record = relabel(random_record("taki", {"seats": 3}, seed=9), table)
    client = APIClient()
    client.force_authenticate(organiser)
    with django_capture_on_commit_callbacks(execute=True):
        existing = client.post(f"/api/tables/{table.pk}/records/", data=json.dumps(record),
                               content_type="application/json").json()
    return {
        "public": public, "tournament": tournament, "table": table, "record": record, "existing": existing["id"],
        "users": {
            "other_player": user_for_entrant(there[0], "other-player"),
            "table_player": user_for_entrant(here[1], "table-player"),
            "organiser": organiser,
            "other_organiser": get_user_model().objects.create_user("org-elsewhere", password="x-password-1"),
        },
        "tokens": {"token": here[2].report_token, "other_token": there[1].report_token},
    }


def client_for(setup: dict[str, Any], actor: str) -> tuple[APIClient, dict[str, str]]:
    client = APIClient()
    if actor in setup["users"]:
        client.force_authenticate(setup["users"][actor])
    headers = {"HTTP_X_REPORT_TOKEN": setup["tokens"][actor]} if actor in setup["tokens"] else {}
    return client, headers


@pytest.mark.parametrize("setup", ["public", "private"], indirect=True)
@pytest.mark.parametrize("actor", ACTORS)
def test_permission_matrix(setup: dict[str, Any], actor: str) -> None:
    client, headers = client_for(setup, actor)
    table, public = setup["table"], setup["public"]
    plays_here = actor in MAY_SUBMIT
    sees_table = public or plays_here

    body = json.dumps({**setup["record"], "meta": {"notes": actor}})
    before = GameRecord.objects.count()
    submit = client.post(f"/api/tables/{table.pk}/records/", data=body, content_type="application/json", **headers)
    if plays_here:
        assert submit.status_code == 201, submit.json()
    elif sees_table:
        assert (submit.status_code, submit.json()["error"]["code"]) == (403, "permission_denied")
    else:
        assert (submit.status_code, submit.json()["error"]["code"]) == (404, "not_found")
    assert GameRecord.objects.count() == before + (1 if plays_here else 0)

    record_id = setup["existing"]
    for url in (f"/api/records/{record_id}/", f"/api/records/{record_id}/download/",
                f"/api/tables/{table.pk}/records/"):
        response = client.get(url, **headers)
        assert response.status_code == (200 if sees_table else 404), (url, response.status_code)
    listing = client.get(f"/api/tournaments/{setup['tournament'].slug}/records/", **headers)
    assert listing.status_code == (200 if public or actor == "organiser" else 404)
    if listing.status_code == 200:
        assert record_id in [r["id"] for r in listing.json()["results"]]

    conflicts = client.get(f"/api/tournaments/{setup['tournament'].slug}/records/conflicts/", **headers)
    imported = client.post(f"/api/tournaments/{setup['tournament'].slug}/records/import/", data=b"{}\n",
                           content_type="application/x-ndjson", **headers)
    if actor == "organiser":
        assert conflicts.status_code == 200 and imported.status_code == 202
        progress = APIClient().get(f"/api/record-imports/{imported.json()['id']}/")
        assert progress.status_code == 401
    elif actor in ("anonymous", "token", "other_token"):
        assert conflicts.status_code == 401 and imported.status_code == 401
    else:
        expected = 403 if public else 404
        assert conflicts.status_code == expected and imported.status_code == expected


def test_import_progress_is_for_the_tournament_organisers_only(
    organiser: Any, other_organiser: Any, django_capture_on_commit_callbacks: Any
) -> None:
    tournament = make_tournament(organiser, game="taki", variant={"seats": 3}, entrants=3, name="Batch cup")
    published_round(organiser, tournament)
    client = APIClient()
    client.force_authenticate(organiser)
    with django_capture_on_commit_callbacks(execute=True):
        batch = client.post(f"/api/tournaments/{tournament.slug}/records/import/", data=b"{}\n",
                            content_type="application/x-ndjson").json()
    assert client.get(f"/api/record-imports/{batch['id']}/").json()["items"][0]["error_code"]
    stranger = APIClient()
    stranger.force_authenticate(other_organiser)
    assert stranger.get(f"/api/record-imports/{batch['id']}/").status_code == 404


def test_schema_describes_the_record_endpoints(db: Any) -> None:
    schema = APIClient().get("/api/schema/?format=json")
    assert schema.status_code == 200
    paths = json.loads(schema.content)["paths"]
    for path in ("/api/tables/{table_id}/records/", "/api/records/{record_id}/",
                 "/api/records/{record_id}/download/", "/api/tournaments/{slug}/records/",
                 "/api/tournaments/{slug}/records/import/", "/api/record-imports/{batch_id}/"):
        assert path in paths, path
