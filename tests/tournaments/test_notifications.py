"""E-mail notifications (issue 17): addresses from the form, CSV and API; round published, result to
confirm, rejected/overridden; once per (event, address) even when the task runs twice; in the
recipient's language; text + HTML; a working unsubscribe link; delivered through a real SMTP server
(aiosmtpd on loopback)."""

from __future__ import annotations

import email
import email.policy
import re
import socket
from collections.abc import Iterator
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.test import Client

from tournaments.errors import TournamentError
from tournaments.models import EmailNotification, EmailOptOut, Entrant, Tournament
from tournaments.notifications import notification_send_event
from tournaments.services.entrants import entrant_register, entrants_import_csv
from tournaments.services.results import result_override, result_reject, result_report
from tournaments.services.rounds import round_generate, round_publish
from tournaments.services.tournaments import tournament_create

pytestmark = pytest.mark.django_db
SMTP_PORT = 18725  # this branch's port range (brief: 18700-18799)


@pytest.fixture
def organiser() -> Any:
    return get_user_model().objects.create_user("orga-mail", password="x-password-1")


@pytest.fixture
def cup(organiser: Any) -> Tournament:
    tournament = tournament_create(actor=organiser, name="Mail Cup", game="tac", format="swiss", rounds_planned=2)
    for i, language in enumerate(["de", "fr", "en", ""]):
        entrant_register(actor=organiser, tournament=tournament, name=f"Team {i + 1}",
                         player_names=[f"P{i}a", f"P{i}b"], seed=i + 1, email=f"team{i + 1}@example.test",
                         language=language, player_emails=[f"p{i}a@example.test", ""])
    return tournament


def _publish(organiser: Any, tournament: Tournament, capture: Any) -> Any:
    with capture(execute=True):
        return round_publish(actor=organiser, round=round_generate(actor=organiser, tournament=tournament))


def test_addresses_are_validated_and_come_from_csv_and_api_too(organiser: Any, cup: Tournament) -> None:
    with pytest.raises(TournamentError):
        entrant_register(actor=organiser, tournament=cup, name="Bad", player_names=["a", "b"], email="not-an-address")
    with pytest.raises(TournamentError):
        entrant_register(actor=organiser, tournament=cup, name="Bad", player_names=["a", "b"], language="xx")
    assert not Entrant.objects.filter(name="Bad").exists()
    entrants_import_csv(actor=organiser, tournament=cup, csv_text=(
        "name,players,email,language,player_emails\nTeam CSV,A;B,csv@example.test,fr,a@example.test;b@example.test\n"))
    imported = Entrant.objects.get(name="Team CSV")
    assert (imported.email, imported.language) == ("csv@example.test", "fr")
    assert sorted(m.player.email for m in imported.members.all()) == ["a@example.test", "b@example.test"]
    from rest_framework.authtoken.models import Token
    from rest_framework.test import APIClient

    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=organiser).key}")
    response = api.post(f"/api/tournaments/{cup.slug}/entrants/", {
        "name": "Team API", "player_names": ["X", "Y"], "email": "api@example.test", "language": "de",
        "player_emails": ["x@example.test"]}, format="json")
    assert response.status_code == 201, response.content
    assert "api@example.test" not in response.content.decode()  # private: never returned
    assert Entrant.objects.get(name="Team API").email == "api@example.test"
    bad = api.post(f"/api/tournaments/{cup.slug}/entrants/", {"name": "T", "player_names": ["X", "Y"],
                                                               "email": "nope"}, format="json")
    assert bad.status_code == 400


def test_round_published_tells_every_address_its_table_in_its_language_once(
    organiser: Any, cup: Tournament, django_capture_on_commit_callbacks: Any
) -> None:
    mail.outbox.clear()
    round_ = _publish(organiser, cup, django_capture_on_commit_callbacks)
    assert len(mail.outbox) == 8  # 4 contact addresses + 4 first players
    by_address = {m.to[0]: m for m in mail.outbox}
    german = by_address["team1@example.test"]
    assert "Runde 1" in german.subject and "Tisch" in german.body
    team1 = Entrant.objects.get(name="Team 1")
    assert f"/report/{team1.report_token}/" in german.body
    assert "/email/unsubscribe/" in german.body and german.extra_headers["List-Unsubscribe"].startswith("<http")
    html = german.alternatives[0]
    assert html[1] == "text/html" and "<a href=" in html[0]
    assert "ronde 1" in by_address["team2@example.test"].subject
    assert "round 1" in by_address["team3@example.test"].subject
    # The task run again (redelivery) sends nothing more.
    assert notification_send_event(event="round_published", object_id=round_.pk) == 0
    assert len(mail.outbox) == 8
    assert EmailNotification.objects.filter(event="round_published").count() == 8


def test_report_asks_opponents_reject_and_override_tell_both_sides(
    organiser: Any, cup: Tournament, django_capture_on_commit_callbacks: Any
) -> None:
    round_ = _publish(organiser, cup, django_capture_on_commit_callbacks)
    table = round_.tables.filter(is_bye=False).order_by("number").first()
    home, away = [s.entrant for s in table.seats.order_by("position")]
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        result = result_report(table=table, token=home.report_token, scores={home.pk: 8, away.pk: 2})
    assert sorted(m.to[0] for m in mail.outbox) == sorted(
        [away.email, away.members.order_by("position").first().player.email])
    assert f"/report/{away.report_token}/" in mail.outbox[0].body
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        result_reject(result=result, token=away.report_token, note="It was 8:3")
    assert len(mail.outbox) == 4 and "It was 8:3" in mail.outbox[0].body
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        result_override(actor=organiser, table=table, scores={home.pk: 8, away.pk: 3})
    assert len(mail.outbox) == 4
    assert {m.to[0] for m in mail.outbox} >= {home.email, away.email}


def test_unsubscribe_link_works_and_stops_further_mail(
    client: Client, organiser: Any, cup: Tournament, django_capture_on_commit_callbacks: Any
) -> None:
    from tournaments.notifications import unsubscribe_url

    url = unsubscribe_url("Team1@Example.test")
    path = url.split("127.0.0.1:8000", 1)[1] if "127.0.0.1:8000" in url else re.sub(r"^https?://[^/]+", "", url)
    page = client.get(path)
    assert page.status_code == 200 and "team1@example.test" in page.content.decode()
    assert not EmailOptOut.objects.exists()  # a GET (a mail scanner) unsubscribes nobody
    assert client.post(path, {"List-Unsubscribe": "One-Click"}).status_code == 200
    assert EmailOptOut.objects.filter(address="team1@example.test").exists()
    assert client.get(path[:-5] + "xxxx/").status_code == 404
    mail.outbox.clear()
    _publish(organiser, cup, django_capture_on_commit_callbacks)
    assert "team1@example.test" not in {m.to[0] for m in mail.outbox} and len(mail.outbox) == 7


class _Collector:
    def __init__(self) -> None:
        self.messages: list[tuple[str, list[str], bytes]] = []

    async def handle_DATA(self, server: Any, session: Any, envelope: Any) -> str:  # noqa: N802 (aiosmtpd API)
        self.messages.append((envelope.mail_from, list(envelope.rcpt_tos), envelope.content))
        return "250 Message accepted for delivery"


@pytest.fixture
def smtp_server() -> Iterator[_Collector]:
    from aiosmtpd.controller import Controller

    with socket.socket() as probe:
        if probe.connect_ex(("127.0.0.1", SMTP_PORT)) == 0:
            pytest.fail(f"port {SMTP_PORT} is taken")
    handler = _Collector()
    controller = Controller(handler, hostname="127.0.0.1", port=SMTP_PORT)
    controller.start()
    try:
        yield handler
    finally:
        controller.stop()


def test_delivery_through_a_real_smtp_server(
    settings: Any, smtp_server: _Collector, organiser: Any, cup: Tournament, django_capture_on_commit_callbacks: Any
) -> None:
    settings.EMAIL_BACKEND = "django.core.mail.backends.smtp.EmailBackend"
    settings.EMAIL_HOST = "127.0.0.1"
    settings.EMAIL_PORT = SMTP_PORT
    settings.EMAIL_USE_TLS = settings.EMAIL_USE_SSL = False
    settings.EMAIL_HOST_USER = settings.EMAIL_HOST_PASSWORD = ""
    settings.DEFAULT_FROM_EMAIL = "cup@example.test"
    _publish(organiser, cup, django_capture_on_commit_callbacks)
    assert len(smtp_server.messages) == 8
    sender, recipients, raw = next(m for m in smtp_server.messages if m[1] == ["team2@example.test"])
    assert sender == "cup@example.test"
    message = email.message_from_bytes(raw, policy=email.policy.default)
    assert "ronde 1" in message["Subject"] and message["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    kinds = [part.get_content_type() for part in message.walk()]
    assert "text/plain" in kinds and "text/html" in kinds
    text = message.get_body(preferencelist=("plain",)).get_content()
    assert "/report/" in text and "/email/unsubscribe/" in text


def test_no_task_is_enqueued_where_nobody_has_an_address(
    organiser: Any, monkeypatch: pytest.MonkeyPatch, django_capture_on_commit_callbacks: Any
) -> None:
    """Issue 14: a result at a table whose entrants gave no address costs no notification task (it was a
    third of a verified record's work in the worker); an address of one player at the table is enough."""
    from tournaments import tasks

    queued: list[tuple[str, int]] = []
    monkeypatch.setattr(tasks.notification_send, "delay", lambda event, pk: queued.append((event, pk)))
    silent = tournament_create(actor=organiser, name="Silent Cup", game="tac", format="swiss", rounds_planned=2)
    for i in range(4):
        entrant_register(actor=organiser, tournament=silent, name=f"S{i}", player_names=[f"S{i}a", f"S{i}b"],
                         player_emails=["", "s1b@example.test"] if i == 1 else ())
    round_ = _publish(organiser, silent, django_capture_on_commit_callbacks)
    assert queued == [("round_published", round_.pk)]  # one player of the round has an address
    tables = list(round_.tables.filter(is_bye=False).order_by("number"))
    quiet = next(t for t in tables if not t.seats.filter(entrant__name="S1").exists())
    told = next(t for t in tables if t.seats.filter(entrant__name="S1").exists())
    for table in (quiet, told):
        home, away = [s.entrant for s in table.seats.order_by("position")]
        with django_capture_on_commit_callbacks(execute=True):
            result_report(table=table, token=home.report_token, scores={home.pk: 8, away.pk: 2})
    told_result = told.results.get()
    assert queued == [("round_published", round_.pk), ("result_reported", told_result.pk)]
    first, second = [s.entrant_id for s in quiet.seats.order_by("position")]
    with django_capture_on_commit_callbacks(execute=True):
        result_override(actor=organiser, table=quiet, scores={first: 8, second: 3})
    assert len(queued) == 2  # nobody at the quiet table to tell of the override either


def test_a_result_typed_in_without_a_report_sends_no_mail(organiser: Any, cup: Tournament,
                                                           django_capture_on_commit_callbacks: Any) -> None:
    """Issue 30: results copied from paper slips e-mailed every team "the organiser set the result"."""
    round_ = _publish(organiser, cup, django_capture_on_commit_callbacks)
    table = round_.tables.filter(is_bye=False).order_by("number").first()
    home, away = [s.entrant for s in table.seats.order_by("position")]
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        result_override(actor=organiser, table=table, scores={home.pk: 8, away.pk: 3})
    assert mail.outbox == []
    with django_capture_on_commit_callbacks(execute=True):  # a correction of a result they saw: told
        result_override(actor=organiser, table=table, scores={home.pk: 8, away.pk: 4})
    assert len(mail.outbox) == 4


def test_a_rejection_says_why_to_the_reporter(organiser: Any, cup: Tournament,
                                             django_capture_on_commit_callbacks: Any) -> None:
    round_ = _publish(organiser, cup, django_capture_on_commit_callbacks)
    table = round_.tables.filter(is_bye=False).order_by("number").first()
    home, away = [s.entrant for s in table.seats.order_by("position")]
    result = result_report(table=table, token=home.report_token, scores={home.pk: 8, away.pk: 2})
    mail.outbox.clear()
    client = Client()
    with django_capture_on_commit_callbacks(execute=True):
        answer = client.post(f"/report/{away.report_token}/tables/{table.pk}/",
                             {"action": "reject", "result": str(result.pk), "note": "We had 5 marbles home"})
    assert answer.status_code == 302
    result.refresh_from_db()
    assert result.state == "rejected" and result.rejection_reason == "We had 5 marbles home"
    page = client.get(f"/report/{home.report_token}/tables/{table.pk}/").content.decode()
    assert "We had 5 marbles home" in page  # the reporter sees why
    organiser_client = Client()
    organiser_client.force_login(organiser)
    assert "We had 5 marbles home" in organiser_client.get(
        f"/t/{cup.slug}/manage/tables/{table.pk}/result/").content.decode()  # the organiser too
    assert mail.outbox and all("We had 5 marbles home" in m.body for m in mail.outbox)  # and the e-mail
