"""Issue 30, the API a client can be generated from: typed components, parameters refused outside their
bounds (400), state-dependent refusals answered 409 or 422 (documented in the schema), and co-organisers,
boards and kept-apart pairs listable and removable."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from tests.tournaments.conftest import first_table, make_tournament, published_round, seated_entrants
from tournaments import services

pytestmark = pytest.mark.django_db


def _api(user: Any) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=user).key}")
    return client


@pytest.fixture
def schema(client: Any) -> dict[str, Any]:
    return client.get("/api/schema/", HTTP_ACCEPT="application/json").json()


def _props(schema: dict[str, Any], name: str) -> dict[str, Any]:
    return schema["components"]["schemas"][name]["properties"]


def test_components_declare_the_fields_they_return(schema: dict[str, Any]) -> None:
    assert {"id", "number", "is_bye", "starts_at", "physical_table", "seats", "result", "pending",
            "release"} <= set(_props(schema, "Table"))
    assert {"at", "action", "object_type", "object_id", "actor", "entrant", "data"} <= set(_props(schema, "AuditRow"))
    assert _props(schema, "RatingPolicy")["time_limit_games"]["allOf"][0]["$ref"].endswith("TimeLimitGamesEnum")
    tournament = _props(schema, "TournamentOut")
    assert tournament["variant"]["type"] == "object"
    assert tournament["placing_points"] == {**tournament["placing_points"], "type": "array",
                                            "items": {"type": "number", "format": "double"}}
    assert tournament["tiebreak_order"]["items"]["$ref"].endswith("TiebreakOrderEnum")
    table_schedule = schema["paths"]["/api/tables/{table_id}/schedule/"]["post"]["responses"]["200"]
    assert table_schedule["content"]["application/json"]["schema"]["$ref"] == "#/components/schemas/Table"
    assert "TableSchedule" not in schema["components"]["schemas"]


def test_writes_document_409_and_422(schema: dict[str, Any]) -> None:
    report = schema["paths"]["/api/tables/{table_id}/report/"]["post"]["responses"]
    assert {"400", "409", "422"} <= set(report)
    group = [p for p in schema["paths"]["/api/tournaments/{slug}/standings/"]["get"]["parameters"]
             if p["name"] == "group"][0]
    assert group["schema"] == {"type": "integer", "minimum": 1, "maximum": 64}


def test_a_result_beyond_the_games_range_is_422_and_a_final_table_409(organiser: Any) -> None:
    tournament = make_tournament(organiser)
    table = first_table(published_round(organiser, tournament))
    a, b = seated_entrants(table)[:2]
    api = APIClient()
    url = f"/api/tables/{table.pk}/report/"
    answer = api.post(url, {"token": a.report_token, "scores": {str(a.pk): 9, str(b.pk): 0}}, format="json")
    assert answer.status_code == 422 and answer.json()["error"]["code"] == "invalid_result"
    services.result_override(actor=organiser, table=table, scores={a.pk: 8, b.pk: 0})
    answer = api.post(url, {"token": a.report_token, "scores": {str(a.pk): 8, str(b.pk): 1}}, format="json")
    assert answer.status_code == 409 and answer.json()["error"]["code"] == "result_already_final"


def test_parameters_outside_their_bounds_are_refused(organiser: Any) -> None:
    tournament = make_tournament(organiser)
    api = APIClient()
    base = f"/api/tournaments/{tournament.slug}"
    assert api.get(f"{base}/export/entrants.csv?round=-1").status_code == 400
    assert api.get(f"{base}/export/entrants.csv?round=0").status_code == 400
    assert api.get(f"{base}/export/pairings.csv?round=1").status_code == 200
    assert api.get(f"{base}/export/standings.csv?group=65").status_code == 400
    assert api.get(f"{base}/export/standings.csv?group=2").status_code == 422  # no groups here
    assert api.get(f"{base}/standings/?group=0").status_code == 400
    assert api.get(f"{base}/standings/?group=2").status_code == 422
    assert api.get(f"{base}/export/standings.xlsx?format=").status_code in (400, 404)
    assert api.get(f"{base}/export/standings.xlsx?format=xlsx").status_code == 200
    assert api.get(f"{base}/records/?status=").status_code == 400
    assert api.get(f"{base}/records/?status=valid").status_code == 200


def test_a_tiebreak_order_the_rules_refuse_is_422(organiser: Any) -> None:
    answer = _api(organiser).post("/api/tournaments/", {"name": "T", "game": "tac",
                                                        "tiebreak_order": ["buchholz"]}, format="json")
    assert answer.status_code == 422 and answer.json()["error"]["code"] == "invalid_input"


def test_co_organisers_are_listed_added_and_removed(organiser: Any, other_user: Any) -> None:
    tournament = make_tournament(organiser)
    api = _api(organiser)
    url = f"/api/tournaments/{tournament.slug}/organisers/"
    assert api.post(url, {"username": other_user.username}, format="json").status_code == 201
    assert [o["username"] for o in api.get(url).json()["organisers"]] == [organiser.username, other_user.username]
    assert api.post(url, {"username": "nobody"}, format="json").status_code == 404
    assert api.delete(f"{url}{other_user.pk}/").status_code == 204
    last = api.delete(f"{url}{organiser.pk}/")
    assert last.status_code == 409 and last.json()["error"]["code"] == "last_organiser"
    stranger = _api(get_user_model().objects.create_user("x", password="x-password-1"))
    assert stranger.get(url).status_code == 403
    assert stranger.delete(f"{url}{organiser.pk}/").status_code == 403
    assert list(tournament.organisers.values_list("pk", flat=True)) == [organiser.pk]


def test_boards_are_listed_and_removed(organiser: Any, other_user: Any) -> None:
    tournament = make_tournament(organiser)
    api = _api(organiser)
    url = f"/api/tournaments/{tournament.slug}/boards/"
    ids = [api.post(url, {"name": f"B{i}"}, format="json").json()["id"] for i in range(2)]
    assert api.post(url, {"name": "B0"}, format="json").status_code == 409  # the name is taken
    assert api.post(url, {"name": "   "}, format="json").status_code in (400, 422)
    assert [b["name"] for b in api.get(url).json()["boards"]] == ["B0", "B1"]
    round_ = published_round(organiser, tournament)
    services.round_assign_boards(actor=organiser, round=round_)
    busy = api.delete(f"{url}{ids[0]}/")
    assert busy.status_code == 409 and busy.json()["error"]["code"] == "round_in_progress"
    assert _api(other_user).delete(f"{url}{ids[0]}/").status_code == 403
    services.board_add(actor=organiser, tournament=tournament, name="Spare")
    spare = tournament.boards.get(name="Spare")
    assert api.delete(f"{url}{spare.pk}/").status_code == 204
    assert api.delete(f"{url}{spare.pk}/").status_code == 404


def test_kept_apart_pairs_are_listed_and_removed(organiser: Any, other_user: Any) -> None:
    tournament = make_tournament(organiser)
    first, second = tournament.entrants.order_by("pk")[:2]
    api = _api(organiser)
    url = f"/api/tournaments/{tournament.slug}/forbidden-pairs/"
    pair = api.post(url, {"first": first.pk, "second": second.pk}, format="json").json()
    same = api.post(url, {"first": first.pk, "second": first.pk}, format="json")
    assert same.status_code == 422
    assert api.get(url).json() == {"pairs": [{"id": pair["id"], "entrants": [first.pk, second.pk]}]}
    assert _api(other_user).delete(f"{url}{pair['id']}/").status_code == 403
    assert api.delete(f"{url}{pair['id']}/").status_code == 204
    assert api.get(url).json() == {"pairs": []}
