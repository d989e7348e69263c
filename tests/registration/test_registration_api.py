"""The REST API of issue 28: entrant PATCH/DELETE, the group draw, sign-up, approval, waiting list,
withdrawal, self check-in; codes and permissions (docs/registration.md)."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import override_settings
from rest_framework.test import APIClient

from tests.tournaments.conftest import make_tournament, published_round
from tournaments.models import AuditLog, Entrant, Registration

pytestmark = pytest.mark.django_db


def _client(user: Any = None) -> APIClient:
    client = APIClient()
    if user is not None:
        client.force_authenticate(user)
    return client


def test_entrant_patch_and_delete(organiser: Any, other_user: Any) -> None:
    t = make_tournament(organiser, entrants=5, format="round_robin", group_count=2)
    entrant = t.entrants.get(seed=5)
    url = f"/api/tournaments/{t.slug}/entrants/{entrant.pk}/"
    assert _client().get(url).json()["name"] == "Team 05"
    assert _client().patch(url, {"name": "X"}, format="json").status_code in (401, 403)
    response = _client(other_user).patch(url, {"name": "X"}, format="json")
    assert response.status_code == 403 and response.json()["error"]["code"] == "permission_denied"
    response = _client(organiser).patch(url, {"name": "Neue Murmeln", "group": 2, "club": "Basel",
                                              "player_names": ["Uta", "Vera"]}, format="json")
    assert response.status_code == 200, response.json()
    body = response.json()
    assert (body["name"], body["group"], body["club"]) == ("Neue Murmeln", 2, "Basel")
    assert [p["name"] for p in body["players"]] == ["Uta", "Vera"]
    response = _client(organiser).patch(url, {"seed": 1}, format="json")
    assert response.status_code == 400 and response.json()["error"]["code"] == "invalid_input"
    response = _client(organiser).patch(url, {"group": "2"}, format="json")
    assert response.status_code == 400
    other = f"/api/tournaments/{t.slug}/entrants/{t.entrants.get(seed=1).pk}/"
    published_round(organiser, t)
    response = _client(organiser).patch(url, {"group": 1}, format="json")
    assert response.status_code == 409 and response.json()["error"]["code"] == "groups_fixed"
    response = _client(organiser).delete(other)
    assert response.status_code == 409 and response.json()["error"]["code"] == "entrant_has_games"
    assert _client(organiser).get(f"/api/tournaments/{t.slug}/entrants/999999/").status_code == 404


def test_delete_entrant_before_play(organiser: Any) -> None:
    t = make_tournament(organiser, entrants=3)
    entrant = t.entrants.get(seed=3)
    response = _client(organiser).delete(f"/api/tournaments/{t.slug}/entrants/{entrant.pk}/")
    assert response.status_code == 200 and response.json()["name"] == "Team 03"
    assert not Entrant.objects.filter(pk=entrant.pk).exists()
    assert AuditLog.objects.filter(action="entrant_deleted").exists()


def test_group_draw_api(organiser: Any) -> None:
    t = make_tournament(organiser, entrants=9, format="round_robin", group_count=2, checkin_required=True)
    for entrant in t.entrants.exclude(seed=9):
        from tournaments.services import entrant_check_in

        entrant_check_in(actor=organiser, entrant=entrant)
    response = _client(organiser).post(f"/api/tournaments/{t.slug}/groups/draw/",
                                       {"method": "snake", "by": "seed", "seed": 77}, format="json")
    assert response.status_code == 200, response.json()
    body = response.json()
    assert body["seed"] == 77 and body["left_out"] == [t.entrants.get(seed=9).pk]
    assert sorted(len(g["entrants"]) for g in body["groups"]) == [4, 4]
    assert _client().get(f"/api/tournaments/{t.slug}/groups/").json() == body
    response = _client(organiser).post(f"/api/tournaments/{t.slug}/groups/draw/", {"method": "hat"}, format="json")
    assert response.status_code == 400


def test_sign_up_flow_through_the_api(organiser: Any, other_user: Any, django_capture_on_commit_callbacks: Any) -> None:
    t = make_tournament(organiser, entrants=0)
    anon = _client()
    sign_up = {"name": "Alpha", "email": "alpha@example.org", "players": [{"name": "A1"}, {"name": "A2"}]}
    response = anon.post(f"/api/tournaments/{t.slug}/registrations/", sign_up, format="json")
    assert response.status_code == 409 and response.json()["error"]["code"] == "registration_closed"
    response = _client(other_user).patch(f"/api/tournaments/{t.slug}/sign-up/", {"registration_open": True},
                                         format="json")
    assert response.status_code == 403
    response = _client(organiser).patch(f"/api/tournaments/{t.slug}/sign-up/",
                                        {"registration_open": True, "entry_limit": 2, "registration_approval": True},
                                        format="json")
    assert response.status_code == 200 and response.json()["entry_limit"] == 2
    tokens = {}
    with django_capture_on_commit_callbacks(execute=True):
        for name in ("Alpha", "Beta", "Gamma"):
            response = anon.post(f"/api/tournaments/{t.slug}/registrations/",
                                 {**sign_up, "name": name, "email": f"{name.lower()}@example.org"}, format="json")
            assert response.status_code == 201, response.json()
            assert response.json()["state"] == "pending"
            tokens[name] = response.json()["token"]
    response = anon.post(f"/api/tournaments/{t.slug}/registrations/", {**sign_up, "name": "alpha"}, format="json")
    assert response.status_code == 409 and response.json()["error"]["code"] == "entrant_name_taken"
    assert anon.get(f"/api/tournaments/{t.slug}/registrations/").status_code == 403
    listed = _client(organiser).get(f"/api/tournaments/{t.slug}/registrations/").json()
    ids = {row["name"]: row["id"] for row in listed}
    assert listed[0]["email"] == "alpha@example.org"
    for name in ("Alpha", "Beta", "Gamma"):
        response = _client(organiser).post(f"/api/registrations/{ids[name]}/approve/")
        assert response.status_code == 200
    assert response.json()["state"] == "waitlisted" and response.json()["waitlist_place"] == 1
    response = _client(organiser).post(f"/api/registrations/{ids['Gamma']}/approve/")
    assert response.status_code == 409 and response.json()["error"]["code"] == "registration_not_pending"
    # withdrawing Alpha moves Gamma up
    response = anon.post(f"/api/sign-ups/{tokens['Alpha']}/withdraw/")
    assert response.status_code == 200 and response.json()["state"] == "withdrawn"
    assert anon.get(f"/api/sign-ups/{tokens['Gamma']}/").json()["state"] == "accepted"
    # self check-in
    response = anon.post(f"/api/sign-ups/{tokens['Gamma']}/check-in/")
    assert response.status_code == 409 and response.json()["error"]["code"] == "checkin_closed"
    _client(organiser).patch(f"/api/tournaments/{t.slug}/sign-up/", {"self_checkin_open": True}, format="json")
    response = anon.post(f"/api/sign-ups/{tokens['Gamma']}/check-in/")
    assert response.status_code == 200 and response.json()["status"] == "checked_in"
    assert anon.get("/api/sign-ups/forged-token/").status_code == 404


@override_settings(REGISTRATION_SIGN_UP_RATE="2/hour")
def test_public_sign_up_is_rate_limited(organiser: Any) -> None:
    t = make_tournament(organiser, entrants=0)
    _client(organiser).patch(f"/api/tournaments/{t.slug}/sign-up/", {"registration_open": True}, format="json")
    anon = _client()
    codes = []
    for name in ("A", "B", "C"):
        response = anon.post(f"/api/tournaments/{t.slug}/registrations/",
                             {"name": name, "email": "x@example.org", "players": [{"name": "p1"}, {"name": "p2"}]}, format="json")
        codes.append(response.status_code)
    assert codes == [201, 201, 429]
    assert response.json()["error"]["code"] == "sign_up_throttled" and response.headers["Retry-After"]
    assert Registration.objects.count() == 2
