"""Sign-ups racing for the last place on PostgreSQL (issue 28): the tournament lock serialises them,
so exactly one gets the place and the others get distinct waiting-list positions; two sign-ups of one
team name give one sign-up and one 409."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.db import connection

from tests.services.conftest import race
from tournaments import services
from tournaments.errors import TournamentError
from tournaments.models import Registration
from tournaments.registration import services as registration

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def postgres(require_services: None, monkeypatch: pytest.MonkeyPatch) -> None:
    assert connection.vendor == "postgresql"
    # no worker here: keep the e-mails off the broker (tests/registration covers them)
    monkeypatch.setattr(registration, "notify_registration", lambda *args, **kwargs: None)


def _open_tournament(limit: int) -> Any:
    organiser = get_user_model().objects.create_user("org-sign-up-race")
    tournament = services.tournament_create(actor=organiser, name="Sign-up Race", game="tac")
    for i in range(limit - 1):
        services.entrant_register(actor=organiser, tournament=tournament, name=f"Early {i}",
                                  player_names=[f"e{i}a", f"e{i}b"])
    return registration.registration_configure(actor=organiser, tournament=tournament, registration_open=True,
                                               entry_limit=limit)


def _sign_up(tournament: Any, name: str) -> Any:
    try:
        return registration.registration_submit(tournament=tournament, name=name, email=f"{name}@example.org",
                                                players=[{"name": f"{name} a"}, {"name": f"{name} b"}])
    except TournamentError as error:
        return error


def test_four_sign_ups_for_the_last_place(postgres: None) -> None:
    tournament = _open_tournament(limit=3)
    outcomes = race([lambda n=n: _sign_up(tournament, n) for n in ("ana", "ben", "cleo", "dan")])
    assert all(isinstance(o, Registration) for o in outcomes), outcomes
    states = sorted(o.state for o in outcomes)
    assert states == ["accepted", "waitlisted", "waitlisted", "waitlisted"]
    assert sorted(Registration.objects.filter(state="waitlisted").values_list("waitlist_position", flat=True)) == [
        1, 2, 3]
    assert tournament.entrants.count() == 3


def test_one_team_name_twice_at_once(postgres: None) -> None:
    tournament = _open_tournament(limit=10)
    outcomes = race([lambda: _sign_up(tournament, "twin"), lambda: _sign_up(tournament, "Twin")])
    kinds = sorted(type(o).__name__ for o in outcomes)
    assert kinds == ["Registration", "TournamentError"]
    error = next(o for o in outcomes if isinstance(o, TournamentError))
    assert error.code == "entrant_name_taken"
    assert Registration.objects.count() == 1 and tournament.entrants.filter(name__iexact="twin").count() == 1
