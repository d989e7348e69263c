"""Permission matrix: every write endpoint for anonymous, a player of another table, a player of the
table, and the organiser. Players of the table may report and (the opponent) confirm; organisers
manage; nobody else writes."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pytest
from rest_framework.authtoken.models import Token
from rest_framework.test import APIClient

from tests.tournaments.conftest import make_tournament, seated_entrants, user_for_entrant
from tournaments import services
from tournaments.models import Entrant, Result

pytestmark = pytest.mark.django_db

ACTORS = ("anonymous", "other_table", "table_player", "organiser")


@dataclass
class Scene:
    slug: str
    round_id: int
    table_id: int
    pending_id: int
    entrant_id: int
    dropped_id: int
    table_entrants: list[int]
    users: dict[str, Any]


@pytest.fixture
def scene(organiser: Any) -> Scene:
    tournament = make_tournament(organiser, entrants=5)
    dropped = services.entrant_drop(actor=organiser, entrant=Entrant.objects.get(tournament=tournament, name="Team 05"))
    round_ = services.round_publish(actor=organiser, round=services.round_generate(actor=organiser,
                                                                                  tournament=tournament))
    tables = list(round_.tables.filter(is_bye=False).order_by("number"))
    home, away = seated_entrants(tables[0])
    table_player = user_for_entrant(home, "tableplayer")
    opponent = user_for_entrant(away, "opponent")
    other = user_for_entrant(seated_entrants(tables[1])[0], "otherplayer")
    # the pending result used for confirm/reject is on the player's own table, reported by their side
    pending = services.result_report(table=tables[0], actor=table_player, scores={home.pk: 8, away.pk: 5})
    return Scene(
        slug=tournament.slug, round_id=round_.pk, table_id=tables[0].pk, pending_id=pending.pk,
        entrant_id=home.pk, dropped_id=dropped.pk, table_entrants=[home.pk, away.pk],
        users={"organiser": organiser, "table_player": table_player, "other_table": other, "opponent": opponent},
    )


def client_for(scene: Scene, actor: str) -> APIClient:
    client = APIClient()
    if actor != "anonymous":
        token, _ = Token.objects.get_or_create(user=scene.users[actor])
        client.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
    return client


def _requests(scene: Scene) -> dict[str, tuple[str, dict[str, Any]]]:
    home, away = scene.table_entrants
    return {
        "tournament_create": ("/api/tournaments/", {"name": "Mine", "game": "tac"}),
        "tournament_finish": (f"/api/tournaments/{scene.slug}/finish/", {}),
        "entrant_register": (f"/api/tournaments/{scene.slug}/entrants/",
                             {"name": "Late team", "player_names": ["L1", "L2"]}),
        "entrants_import": (f"/api/tournaments/{scene.slug}/entrants/import/",
                            {"csv": "name,players\nImported,I1;I2\n"}),
        "entrant_check_in": (f"/api/entrants/{scene.entrant_id}/check-in/", {}),
        "entrant_drop": (f"/api/entrants/{scene.entrant_id}/drop/", {}),
        "entrant_readmit": (f"/api/entrants/{scene.dropped_id}/readmit/", {}),
        "round_generate": (f"/api/tournaments/{scene.slug}/rounds/generate/", {}),
        "round_edit": (f"/api/rounds/{scene.round_id}/edit/", {"tables": [[home, away]]}),
        "round_publish": (f"/api/rounds/{scene.round_id}/publish/", {}),
        "round_discard": (f"/api/rounds/{scene.round_id}/discard/", {}),
        "result_report": (f"/api/tables/{scene.table_id}/report/",
                          {"scores": {str(home): 8, str(away): 5}}),
        "result_override": (f"/api/tables/{scene.table_id}/override/",
                            {"scores": {str(home): 3, str(away): 8}}),
        "result_confirm": (f"/api/results/{scene.pending_id}/confirm/", {}),
        "table_schedule": (f"/api/tables/{scene.table_id}/schedule/",
                           {"physical_table": "Board 7", "starts_at": "2026-11-22T14:00:00+01:00"}),
        "board_add": (f"/api/tournaments/{scene.slug}/boards/", {"name": "Board 9"}),
        "round_assign_boards": (f"/api/rounds/{scene.round_id}/assign-boards/", {}),
        "entrant_accessibility": (f"/api/entrants/{scene.entrant_id}/accessibility/",
                                  {"needs_accessible_table": True}),
        "forbidden_pair_add": (f"/api/tournaments/{scene.slug}/forbidden-pairs/", {"first": home, "second": away}),
        "result_reject": (f"/api/results/{scene.pending_id}/reject/", {}),
    }


# expected status per actor: anonymous, player of another table, player of the table, organiser.
# 409 for an organiser means "allowed, but the state forbids it" (e.g. a round is still being played).
MATRIX = {
    "tournament_create": (401, 201, 201, 201),
    "tournament_finish": (401, 403, 403, 409),
    "entrant_register": (401, 403, 403, 201),
    "entrants_import": (401, 403, 403, 201),
    "entrant_check_in": (401, 403, 403, 200),
    "entrant_drop": (401, 403, 403, 200),
    "entrant_readmit": (401, 403, 403, 200),
    "round_generate": (401, 403, 403, 409),
    "round_edit": (401, 403, 403, 409),
    "round_publish": (401, 403, 403, 409),
    "round_discard": (401, 403, 403, 409),
    "result_report": (403, 403, 409, 403),  # the table's player: a result is already pending (own side)
    "result_override": (401, 403, 403, 201),
    "result_confirm": (403, 403, 403, 200),  # the table player is the reporter: only an opponent confirms
    "result_reject": (403, 403, 403, 200),
    "table_schedule": (401, 403, 403, 200),
    "forbidden_pair_add": (401, 403, 403, 201),
    "board_add": (401, 403, 403, 201),
    "round_assign_boards": (401, 403, 403, 409),  # allowed; the venue has no boards yet (the state: 409)
    "entrant_accessibility": (401, 403, 403, 200),
}


@pytest.mark.parametrize(("actor", "expected"), zip(ACTORS, (401, 403, 403, 200), strict=True))
def test_permission_matrix_for_tournament_update(scene: Scene, actor: str, expected: int) -> None:
    response = client_for(scene, actor).patch(f"/api/tournaments/{scene.slug}/", {"venue": "Hall"}, format="json")
    assert response.status_code == expected, response.json()


@pytest.mark.parametrize("actor", ACTORS)
@pytest.mark.parametrize("endpoint", sorted(MATRIX))
def test_permission_matrix(scene: Scene, endpoint: str, actor: str) -> None:
    url, body = _requests(scene)[endpoint]
    response = client_for(scene, actor).post(url, body, format="json")
    expected = MATRIX[endpoint][ACTORS.index(actor)]
    assert response.status_code == expected, (endpoint, actor, response.json())
    if expected >= 400:
        assert set(response.json()["error"]) == {"code", "message", "details"}


def test_the_opponent_confirms_and_rejects(scene: Scene) -> None:
    client = client_for(scene, "opponent")
    response = client.post(f"/api/results/{scene.pending_id}/confirm/", {}, format="json")
    assert response.status_code == 200 and response.json()["state"] == "confirmed"
    response = client.post(f"/api/results/{scene.pending_id}/reject/", {}, format="json")
    assert response.status_code == 409 and response.json()["error"]["code"] == "result_not_pending"


def test_report_without_pending_result_for_table_player_and_token(scene: Scene) -> None:
    Result.objects.filter(pk=scene.pending_id).update(state="rejected")
    home, away = scene.table_entrants
    body = {"scores": {str(home): 8, str(away): 5}}
    response = client_for(scene, "table_player").post(f"/api/tables/{scene.table_id}/report/", body, format="json")
    assert response.status_code == 201
    token = Entrant.objects.get(pk=away).report_token
    response = APIClient().post(f"/api/tables/{scene.table_id}/report/", {**body, "token": token}, format="json")
    assert response.status_code == 200 and response.json()["state"] == "confirmed"


def test_audit_log_is_for_organisers_only(scene: Scene) -> None:
    url = f"/api/tournaments/{scene.slug}/audit/"
    assert client_for(scene, "anonymous").get(url).status_code == 401
    assert client_for(scene, "table_player").get(url).status_code == 403
    response = client_for(scene, "organiser").get(url)
    assert response.status_code == 200 and any(r["action"] == "result_reported" for r in response.json())


def test_report_links_are_for_organisers_only(scene: Scene) -> None:
    url = f"/api/tournaments/{scene.slug}/report-links/"
    assert client_for(scene, "anonymous").get(url).status_code == 401
    assert client_for(scene, "table_player").get(url).status_code == 403
    links = client_for(scene, "organiser").get(url).json()
    token = next(link["token"] for link in links if link["entrant"] == scene.entrant_id)
    assert token == Entrant.objects.get(pk=scene.entrant_id).report_token
    public = client_for(scene, "anonymous").get(f"/api/tournaments/{scene.slug}/entrants/").content.decode()
    assert token not in public


def test_private_tournaments_are_hidden_from_everyone_but_organisers(organiser: Any, other_user: Any) -> None:
    tournament = services.tournament_create(actor=organiser, name="Secret", game="tac", is_public=False)
    assert APIClient().get(f"/api/tournaments/{tournament.slug}/").status_code == 404
    client = APIClient()
    client.force_authenticate(other_user)
    assert client.get(f"/api/tournaments/{tournament.slug}/").status_code == 404
    assert all(t["slug"] != tournament.slug for t in client.get("/api/tournaments/").json())
    client.force_authenticate(organiser)
    assert client.get(f"/api/tournaments/{tournament.slug}/").status_code == 200


def test_draft_rounds_are_hidden_from_the_public(organiser: Any) -> None:
    tournament = make_tournament(organiser, entrants=4)
    draft = services.round_generate(actor=organiser, tournament=tournament)
    assert APIClient().get(f"/api/rounds/{draft.pk}/").status_code == 404
    assert APIClient().get(f"/api/tournaments/{tournament.slug}/rounds/").json() == []
