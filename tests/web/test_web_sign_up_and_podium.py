"""Web pages of issue 28: sign-up and its private page, the organisers' sign-up page, editing and
deleting an entrant, the group draw on the manage page (htmx), the podium of a finished knockout, no
round offered after the final, and the standings title."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.test import Client

from tests.tournaments.conftest import make_tournament
from tournaments import services
from tournaments.models import Entrant, Registration, Tournament
from tournaments.registration.services import registration_configure
from tournaments.registration.tokens import registration_token

pytestmark = pytest.mark.django_db


@pytest.fixture
def organiser(db: Any) -> Any:
    return get_user_model().objects.create_user("org", password="org-password-1")


def _logged_in(user: Any) -> Client:
    client = Client()
    client.force_login(user)
    return client


def _play_round(organiser: Any, tournament: Tournament) -> None:
    round_ = services.round_publish(actor=organiser, round=services.round_generate(actor=organiser,
                                                                                  tournament=tournament))
    for table in round_.tables.filter(is_bye=False).order_by("number"):
        seats = list(table.seats.order_by("position").values_list("entrant__seed", "entrant_id"))
        (_s1, best), (_s2, other) = sorted(seats)[:2]  # the better seed wins
        services.result_override(actor=organiser, table=table, scores={best: 8, other: 3})


def test_sign_up_page_waiting_list_and_private_page(organiser: Any) -> None:
    t = make_tournament(organiser, entrants=1)
    client = Client()
    assert "Sign-up for this tournament is closed." in client.get(f"/t/{t.slug}/sign-up/").content.decode()
    registration_configure(actor=organiser, tournament=t, registration_open=True, entry_limit=2)
    form = {"name": "Blitz", "email": "blitz@example.org", "club": "", "player_1": "Ana", "player_2": "Bo",
            "player_1_email": "", "player_2_email": ""}
    response = client.post(f"/t/{t.slug}/sign-up/", form)
    assert response.status_code == 302
    page = client.get(response["Location"]).content.decode()
    assert "You are signed up." in page and "<svg" in page
    page = client.get(f"/t/{t.slug}/sign-up/").content.decode()
    assert "The tournament is full" in page and "Join the waiting list" in page
    response = client.post(f"/t/{t.slug}/sign-up/", {**form, "name": "Late", "email": "late@example.org"})
    late = Registration.objects.get(name="Late")
    assert "You are number 1 on the waiting list." in client.get(response["Location"]).content.decode()
    response = client.post(f"/t/{t.slug}/sign-up/", {**form, "name": "blitz"})
    assert response.status_code == 409 and "already taken" in response.content.decode()
    # withdraw Blitz through its private page: Late moves up
    blitz = Registration.objects.get(name="Blitz")
    client.post(f"/t/{t.slug}/sign-up/{registration_token(blitz)}/withdraw/")
    late.refresh_from_db()
    assert late.state == "accepted"
    assert client.get(f"/t/{t.slug}/sign-up/{registration_token(blitz)}xx/").status_code == 404


def test_desk_check_in_and_organiser_page(organiser: Any) -> None:
    t = make_tournament(organiser, entrants=0)
    registration_configure(actor=organiser, tournament=t, registration_open=True, registration_approval=True)
    client = Client()
    client.post(f"/t/{t.slug}/sign-up/", {"name": "Desk", "email": "desk@example.org", "player_1": "A",
                                           "player_2": "B"})
    org = _logged_in(organiser)
    page = org.get(f"/t/{t.slug}/manage/sign-up/").content.decode()
    assert "Desk" in page and "Approve" in page and "/check-in/" in page
    assert Client().get(f"/t/{t.slug}/manage/sign-up/").status_code == 302  # login first
    desk = Registration.objects.get(name="Desk")
    org.post(f"/t/{t.slug}/manage/sign-up/{desk.pk}/approve/")
    desk.refresh_from_db()
    assert desk.state == "accepted"
    assert "not open yet" in client.get(f"/t/{t.slug}/check-in/").content.decode()
    registration_configure(actor=organiser, tournament=t, self_checkin_open=True)
    response = client.post(f"/t/{t.slug}/check-in/", {"name": "Desk", "email": "wrong@example.org"})
    assert response.status_code == 404
    response = client.post(f"/t/{t.slug}/check-in/", {"name": "desk", "email": "DESK@example.org"})
    assert "Desk is checked in." in response.content.decode()
    assert Entrant.objects.get(name="Desk").status == "checked_in"


def test_entrant_edit_page_and_delete(organiser: Any) -> None:
    t = make_tournament(organiser, entrants=3)
    entrant = t.entrants.get(seed=3)
    org = _logged_in(organiser)
    page = org.get(f"/t/{t.slug}/manage/entrants/{entrant.pk}/edit/").content.decode()
    assert 'value="Team 03"' in page
    response = org.post(f"/t/{t.slug}/manage/entrants/{entrant.pk}/edit/",
                        {"name": "Team 01", "player_1": "a", "player_2": "b", "seed": 3})
    assert "already registered" in response.content.decode()
    response = org.post(f"/t/{t.slug}/manage/entrants/{entrant.pk}/edit/",
                        {"name": "Renamed", "player_1": "a", "player_2": "b", "seed": 3, "club": "Zug"})
    assert response.status_code == 302
    entrant.refresh_from_db()
    assert entrant.name == "Renamed" and entrant.club.name == "Zug"
    other = get_user_model().objects.create_user("x", password="x-password-1")
    assert _logged_in(other).get(f"/t/{t.slug}/manage/entrants/{entrant.pk}/edit/").status_code == 403
    assert _logged_in(other).post(f"/t/{t.slug}/manage/entrants/{entrant.pk}/delete/").status_code == 403
    org.post(f"/t/{t.slug}/manage/entrants/{entrant.pk}/delete/")
    assert not Entrant.objects.filter(pk=entrant.pk).exists()


def test_group_draw_on_the_manage_page(organiser: Any) -> None:
    t = make_tournament(organiser, entrants=8, format="round_robin", group_count=2)
    org = _logged_in(organiser)
    page = org.get(f"/t/{t.slug}/manage/").content.decode()
    assert "Draw the groups" in page and 'data-label="group"' in page
    response = org.post(f"/t/{t.slug}/manage/groups/draw/", {"method": "snake", "by": "seed", "seed": "31"},
                        HTTP_HX_REQUEST="true")
    html = response.content.decode()
    assert response.status_code == 200 and html.lstrip().startswith('<section id="groups">')
    assert "random seed 31" in html and "Draw again" in html
    assert sorted(t.entrants.values_list("group", flat=True)) == [1, 1, 1, 1, 2, 2, 2, 2]


def test_podium_no_round_after_the_final_and_standings_title(
    organiser: Any, django_capture_on_commit_callbacks: Any
) -> None:
    t = make_tournament(organiser, entrants=4, format="knockout", third_place_match=True)
    org = _logged_in(organiser)
    with django_capture_on_commit_callbacks(execute=True):  # the standings task runs on commit
        _play_round(organiser, t)  # semi-finals
        _play_round(organiser, t)  # final and third place
    manage = org.get(f"/t/{t.slug}/manage/").content.decode()
    assert "Generate round" not in manage and "Every round is played." in manage
    detail = Client().get(f"/t/{t.slug}/").content.decode()
    assert 'id="podium"' not in detail
    services.tournament_finish(actor=organiser, tournament=t)
    detail = Client().get(f"/t/{t.slug}/").content.decode()
    assert 'id="podium"' in detail and "Champion" in detail
    podium = detail.split('id="podium"')[1].split("</section>")[0]
    assert podium.index("Team 01") < podium.index("Team 02") < podium.index("Team 03")
    assert 'id="final-table"' in podium and "Team 04" not in podium.split('id="final-table"')[1]


def test_group_standings_say_final_ranking_only_when_final(
    organiser: Any, django_capture_on_commit_callbacks: Any
) -> None:
    t = make_tournament(organiser, entrants=4, format="stages", group_count=2, knockout_size=2, name="Stages")
    with django_capture_on_commit_callbacks(execute=True):
        _play_round(organiser, t)
    page = Client().get(f"/t/{t.slug}/standings/").content.decode()
    assert "Final ranking" not in page and "Standings after round 1" in page


def test_public_page_links_the_sign_up_and_shows_the_drawn_groups(organiser: Any) -> None:
    from tournaments.services.groups import groups_draw

    t = make_tournament(organiser, entrants=4, format="round_robin", group_count=2)
    page = Client().get(f"/t/{t.slug}/").content.decode()
    assert 'id="sign-up-link"' not in page and 'id="groups"' not in page
    registration_configure(actor=organiser, tournament=t, registration_open=True)
    groups_draw(actor=organiser, tournament=t, method="snake", seed=123)
    page = Client().get(f"/t/{t.slug}/").content.decode()
    assert f'href="/t/{t.slug}/sign-up/"' in page
    assert "Drawn with the random seed 123." in page and page.count('<div class="card"><h3>Group') == 2
