"""Sign-up, approval, entry limit and waiting list, withdrawal, self check-in (issue 28;
docs/registration.md): the services, their e-mails and their refusals."""

from __future__ import annotations

from typing import Any

import pytest
from django.core import mail
from django.db import IntegrityError, transaction

from tests.tournaments.conftest import make_tournament
from tournaments.errors import TournamentError
from tournaments.models import AuditLog, Entrant, Registration
from tournaments.registration import services as reg
from tournaments.registration.tokens import registration_from_token, registration_token

pytestmark = pytest.mark.django_db


def _open(organiser: Any, **kwargs: Any) -> Any:
    t = make_tournament(organiser, entrants=kwargs.pop("entrants", 0), **kwargs.pop("create", {}))
    return reg.registration_configure(actor=organiser, tournament=t, registration_open=True, **kwargs)


def _sign_up(t: Any, name: str, **kwargs: Any) -> Registration:
    return reg.registration_submit(
        tournament=t, name=name, email=kwargs.pop("email", f"{name.lower().replace(' ', '')}@example.org"),
        players=kwargs.pop("players", [{"name": f"{name} A", "email": ""}, {"name": f"{name} B"}]), **kwargs)


def test_sign_up_accepted_then_waiting_list_moves_up_on_withdrawal(
    organiser: Any, django_capture_on_commit_callbacks: Any
) -> None:
    t = _open(organiser, entry_limit=2)
    with django_capture_on_commit_callbacks(execute=True):
        first = _sign_up(t, "Alpha", club="TAC Bern")
        second = _sign_up(t, "Beta")
        third = _sign_up(t, "Gamma")
        fourth = _sign_up(t, "Delta")
    assert [first.state, second.state] == ["accepted", "accepted"]
    assert (third.state, third.waitlist_position, fourth.waitlist_position) == ("waitlisted", 1, 2)
    assert first.entrant.club.name == "TAC Bern"
    assert list(first.entrant.members.values_list("player__name", flat=True)) == ["Alpha A", "Alpha B"]
    assert [m.subject for m in mail.outbox][-1].endswith("on the waiting list")
    assert "number 2 on the waiting list" in mail.outbox[-1].body
    assert "/sign-up/" in mail.outbox[0].body  # the private link
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        reg.registration_withdraw(registration=first)
    first.refresh_from_db()
    third.refresh_from_db()
    assert first.state == "withdrawn" and first.entrant is None
    assert third.state == "accepted" and third.entrant is not None and third.waitlist_position is None
    assert sorted(Entrant.objects.filter(tournament=t).values_list("name", flat=True)) == ["Beta", "Gamma"]
    promoted = [m for m in mail.outbox if m.to == ["gamma@example.org"]]
    assert len(promoted) == 1 and "moved up from the waiting list" in promoted[0].body
    assert AuditLog.objects.filter(action="registration_promoted", object_id=third.pk).exists()


def test_approval_required(organiser: Any, other_user: Any, django_capture_on_commit_callbacks: Any) -> None:
    t = _open(organiser, registration_approval=True, entry_limit=2)
    with django_capture_on_commit_callbacks(execute=True):
        one = _sign_up(t, "One")
    assert one.state == "pending" and one.entrant is None
    assert "approve each sign-up" in mail.outbox[-1].body
    with pytest.raises(TournamentError) as caught:
        reg.registration_approve(actor=other_user, registration=one)
    assert caught.value.code == "permission_denied"
    one = reg.registration_approve(actor=organiser, registration=one)
    assert one.state == "accepted" and one.entrant is not None
    with pytest.raises(TournamentError) as caught:
        reg.registration_approve(actor=organiser, registration=one)
    assert caught.value.code == "registration_not_pending"
    two, three = _sign_up(t, "Two"), _sign_up(t, "Three")
    reg.registration_approve(actor=organiser, registration=two)
    three = reg.registration_approve(actor=organiser, registration=three)
    assert three.state == "waitlisted" and three.waitlist_position == 1
    four = reg.registration_reject(actor=organiser, registration=_sign_up(t, "Four"))
    assert four.state == "rejected"
    # raising the limit moves the waiting list up
    reg.registration_configure(actor=organiser, tournament=t, entry_limit=3)
    three.refresh_from_db()
    assert three.state == "accepted"


def test_sign_up_refusals_change_nothing(organiser: Any) -> None:
    t = make_tournament(organiser, entrants=1)
    with pytest.raises(TournamentError) as caught:
        _sign_up(t, "Closed")
    assert caught.value.code == "registration_closed"
    reg.registration_configure(actor=organiser, tournament=t, registration_open=True)
    for kwargs, code in [
        ({"name": "team 01"}, "entrant_name_taken"),
        ({"name": "X", "players": [{"name": "Only one"}]}, "invalid_input"),
        ({"name": "X", "email": "not-an-address"}, "invalid_input"),
        ({"name": "X", "email": ""}, "invalid_input"),
        ({"name": "X", "players": [{"name": "Same"}, {"name": "same"}]}, "invalid_input"),
        ({"name": "", "email": "x@example.org"}, "invalid_input"),
    ]:
        name = kwargs.pop("name")
        with pytest.raises(TournamentError) as caught:
            _sign_up(t, name, **kwargs)
        assert caught.value.code == code, kwargs
    assert not Registration.objects.exists()
    assert Entrant.objects.filter(tournament=t).count() == 1
    _sign_up(t, "Unique")
    with pytest.raises(TournamentError) as caught:
        _sign_up(t, "UNIQUE")
    assert caught.value.code == "entrant_name_taken"


def test_database_constraints_hold_the_waiting_list(organiser: Any) -> None:
    t = make_tournament(organiser, entrants=0)
    Registration.objects.create(tournament=t, name="A", email="a@example.org", state="waitlisted", waitlist_position=1)
    with pytest.raises(IntegrityError), transaction.atomic():
        Registration.objects.create(tournament=t, name="B", email="b@example.org", state="waitlisted",
                                    waitlist_position=1)
    with pytest.raises(IntegrityError), transaction.atomic():
        Registration.objects.create(tournament=t, name="C", email="c@example.org", state="waitlisted")
    with pytest.raises(IntegrityError), transaction.atomic():
        Registration.objects.create(tournament=t, name="a", email="d@example.org", state="pending")


def test_self_check_in_only_while_open(organiser: Any) -> None:
    t = _open(organiser)
    team = _sign_up(t, "Early Birds")
    with pytest.raises(TournamentError) as caught:
        reg.registration_check_in(registration=team)
    assert caught.value.code == "checkin_closed"
    reg.registration_configure(actor=organiser, tournament=t, self_checkin_open=True)
    entrant = reg.registration_check_in(registration=team)
    assert entrant.status == "checked_in"
    with pytest.raises(TournamentError) as caught:
        reg.registration_check_in(registration=team)
    assert caught.value.code == "entrant_already_checked_in"
    waiting = _sign_up(t, "Late")
    reg.registration_withdraw(registration=waiting)
    with pytest.raises(TournamentError) as caught:
        reg.registration_check_in(registration=waiting)
    assert caught.value.code == "registration_not_active"


def test_token_round_trip_and_tampering(organiser: Any) -> None:
    t = _open(organiser)
    team = _sign_up(t, "Tokens")
    token = registration_token(team)
    assert registration_from_token(token).pk == team.pk
    assert registration_from_token(token[:-2] + "xx") is None
    assert registration_from_token(str(team.pk)) is None


def test_deleting_a_signed_up_entrant_frees_its_place(organiser: Any) -> None:
    from tournaments.services.entrants import entrant_delete

    t = _open(organiser, entry_limit=2)
    first, _second, third = _sign_up(t, "P1"), _sign_up(t, "P2"), _sign_up(t, "P3")
    entrant_delete(actor=organiser, entrant=first.entrant)
    first.refresh_from_db()
    third.refresh_from_db()
    assert first.state == "withdrawn" and third.state == "accepted"


def test_e_mails_in_the_sign_up_language_once_and_not_after_unsubscribing(
    organiser: Any, django_capture_on_commit_callbacks: Any
) -> None:
    from tournaments.models import EmailOptOut
    from tournaments.registration.emails import registration_email_send_event

    t = _open(organiser, entry_limit=2)
    with django_capture_on_commit_callbacks(execute=True):
        _sign_up(t, "Eins")
        _sign_up(t, "Zwei")
        late = _sign_up(t, "Drei", language="de", email="drei@example.org")
    german = [m for m in mail.outbox if m.to == ["drei@example.org"]]
    assert len(german) == 1 and german[0].subject.endswith("auf der Warteliste")
    assert "Platz 1 der Warteliste" in german[0].body and "/sign-up/" in german[0].body
    assert german[0].alternatives and "Meine Anmeldung" in german[0].alternatives[0][0]
    # a second run of the task sends nothing; an unsubscribed address gets nothing
    assert registration_email_send_event(event="registration_waitlisted", registration_id=late.pk) == 0
    EmailOptOut.objects.create(address="drei@example.org")
    assert registration_email_send_event(event="registration_withdrawn", registration_id=late.pk) == 0


def test_withdrawal_after_play_drops_and_after_the_end_is_refused(organiser: Any) -> None:
    from tests.tournaments.conftest import published_round

    t = _open(organiser, entrants=3)
    team = _sign_up(t, "Quitters")
    published_round(organiser, t)
    with pytest.raises(TournamentError) as caught:
        _sign_up(t, "Too Late")
    assert caught.value.code == "registration_closed"
    reg.registration_withdraw(registration=team)
    team.refresh_from_db()
    assert team.state == "withdrawn" and team.entrant.status == "dropped"  # its games still count
    other = Registration.objects.create(tournament=t, name="Ghost", email="g@example.org", state="pending")
    t.status = "finished"  # as tournament_finish leaves it
    t.save(update_fields=["status"])
    with pytest.raises(TournamentError) as caught:
        reg.registration_withdraw(registration=other)
    assert caught.value.code == "tournament_finished"
