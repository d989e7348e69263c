"""Webhooks (issue 30) against a local receiver (a threading HTTP server on 127.0.0.1, with
WEBHOOKS_ALLOW_PRIVATE_TARGETS on): delivery and its log, the signature, retries with exponential
backoff, giving up, a refused private target (setting off) at registration and at delivery (DNS
rebinding), and writes that never wait for or fail because of a webhook."""

from __future__ import annotations

import json
import socket
import threading
import time
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest
from django.db import transaction
from django.test import Client
from rest_framework.authtoken.models import Token

from tests.tournaments.conftest import first_table, make_tournament, published_round, seated_entrants
from tournaments.errors import ErrorCode, TournamentError
from tournaments.services.results import result_confirm, result_override, result_report
from tournaments.webhooks import services, tasks
from tournaments.webhooks.events import webhook_emit
from tournaments.webhooks.models import WebhookAttempt, WebhookDelivery, WebhookEndpoint
from tournaments.webhooks.signing import HEADER, signature_header, signature_valid
from tournaments.webhooks.targets import address_is_public, target_check

pytestmark = pytest.mark.django_db


class Receiver:
    """Records every POST; answers with the next status of `plan` (then 200)."""

    def __init__(self) -> None:
        self.requests: list[dict[str, Any]] = []
        self.plan: list[int] = []
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802
                body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
                receiver.requests.append({"path": self.path, "headers": dict(self.headers), "body": body})
                status = receiver.plan.pop(0) if receiver.plan else 200
                answer = f"answer {len(receiver.requests)}".encode()
                self.send_response(status)
                self.send_header("Content-Length", str(len(answer)))
                self.end_headers()
                self.wfile.write(answer)

            def log_message(self, *args: Any) -> None:
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/hook?x=1"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def close(self) -> None:
        self.server.shutdown()
        self.server.server_close()


@pytest.fixture
def receiver() -> Iterator[Receiver]:
    r = Receiver()
    yield r
    r.close()


@pytest.fixture
def allow_private(settings: Any) -> None:
    settings.WEBHOOKS_ALLOW_PRIVATE_TARGETS = True
    settings.WEBHOOKS_RETRY_BASE_SECONDS = 30
    settings.WEBHOOKS_MAX_ATTEMPTS = 4


@pytest.fixture
def countdowns(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The backoff each retry was scheduled with (eager Celery runs it at once)."""
    seen: list[int] = []
    real = tasks.webhook_deliver.apply_async

    def apply_async(args: Any = None, kwargs: Any = None, countdown: int | None = None, **options: Any) -> Any:
        if countdown is not None:  # delay() goes through here too, without one
            seen.append(int(countdown))
        return real(args, kwargs, countdown=countdown, **options)

    monkeypatch.setattr(tasks.webhook_deliver, "apply_async", apply_async)
    return seen


def _report(organiser: Any, capture: Any, events: list[str], receiver: Receiver) -> tuple[Any, WebhookEndpoint]:
    tournament = make_tournament(organiser)
    endpoint = services.webhook_endpoint_create(actor=organiser, tournament=tournament, url=receiver.url,
                                                events=events)
    round_ = published_round(organiser, tournament)
    table = first_table(round_)
    a, b = seated_entrants(table)[:2]
    with capture(execute=True):
        result = result_report(table=table, token=a.report_token, scores={a.pk: 8, b.pk: 4})
    return result, endpoint


def test_a_result_is_delivered_signed_and_logged(organiser: Any, receiver: Receiver, allow_private: None,
                                                 django_capture_on_commit_callbacks: Any) -> None:
    result, endpoint = _report(organiser, django_capture_on_commit_callbacks, ["result.reported"], receiver)
    assert len(receiver.requests) == 1
    request = receiver.requests[0]
    assert request["path"] == "/hook?x=1"
    body = request["body"]
    assert signature_valid(endpoint.secret, request["headers"][HEADER], body)
    assert not signature_valid(endpoint.secret + "x", request["headers"][HEADER], body)
    payload = json.loads(body)
    assert payload["event"] == "result.reported" == request["headers"]["Webhook-Event"]
    assert payload["id"] == request["headers"]["Webhook-Id"]
    assert payload["tournament"] == {"id": endpoint.tournament_id, "slug": endpoint.tournament.slug}
    assert payload["data"]["result"]["id"] == result.pk
    assert payload["data"]["result"]["state"] == "reported"
    assert sorted(line["score"] for line in payload["data"]["result"]["lines"]) == [4, 8]
    delivery = WebhookDelivery.objects.get()
    assert delivery.state == WebhookDelivery.State.DELIVERED and delivery.attempts == 1
    attempt = WebhookAttempt.objects.get()
    assert attempt.status_code == 200 and attempt.body_excerpt == "answer 1" and attempt.duration_ms >= 0


def test_only_subscribed_events_are_sent(organiser: Any, receiver: Receiver, allow_private: None,
                                         django_capture_on_commit_callbacks: Any) -> None:
    result, _endpoint = _report(organiser, django_capture_on_commit_callbacks, ["result.confirmed"], receiver)
    assert receiver.requests == []  # reported, not confirmed yet
    opponent = seated_entrants(result.table)[1]
    with django_capture_on_commit_callbacks(execute=True):
        result_confirm(result=result, token=opponent.report_token)
    assert [json.loads(r["body"])["event"] for r in receiver.requests] == ["result.confirmed"]


def test_failures_are_retried_with_exponential_backoff(organiser: Any, receiver: Receiver, allow_private: None,
                                                       countdowns: list[int],
                                                       django_capture_on_commit_callbacks: Any) -> None:
    receiver.plan = [500, 503]
    _report(organiser, django_capture_on_commit_callbacks, ["result.reported"], receiver)
    assert len(receiver.requests) == 3
    assert countdowns == [30, 60]
    assert [r["headers"]["Webhook-Attempt"] for r in receiver.requests] == ["1", "2", "3"]
    assert len({r["headers"]["Webhook-Id"] for r in receiver.requests}) == 1  # the same event each time
    delivery = WebhookDelivery.objects.get()
    assert delivery.state == WebhookDelivery.State.DELIVERED and delivery.attempts == 3
    log = list(delivery.attempt_log.values_list("status_code", "retry_in_seconds"))
    assert log == [(500, 30), (503, 60), (200, None)]


def test_gives_up_after_the_last_attempt(organiser: Any, receiver: Receiver, allow_private: None,
                                         countdowns: list[int], django_capture_on_commit_callbacks: Any) -> None:
    receiver.plan = [500] * 10
    _report(organiser, django_capture_on_commit_callbacks, ["result.reported"], receiver)
    assert len(receiver.requests) == 4
    assert countdowns == [30, 60, 120]
    delivery = WebhookDelivery.objects.get()
    assert delivery.state == WebhookDelivery.State.FAILED and delivery.next_attempt_at is None
    assert tasks.webhook_deliver(delivery.pk) is None  # a late duplicate task sends nothing
    assert len(receiver.requests) == 4


def test_a_connection_refused_is_logged_and_retried(organiser: Any, allow_private: None, countdowns: list[int],
                                                    django_capture_on_commit_callbacks: Any) -> None:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]  # nobody listens there once closed
    tournament = make_tournament(organiser)
    services.webhook_endpoint_create(actor=organiser, tournament=tournament, url=f"http://127.0.0.1:{port}/",
                                     events=["round.published"])
    with django_capture_on_commit_callbacks(execute=True):
        published_round(organiser, tournament)
    delivery = WebhookDelivery.objects.get()
    assert delivery.state == WebhookDelivery.State.FAILED and delivery.attempts == 4
    assert all(a.status_code is None and a.error for a in delivery.attempt_log.all())


@pytest.mark.parametrize("address", ["127.0.0.1", "10.1.2.3", "172.16.0.1", "192.168.1.1", "169.254.169.254",
                                     "100.64.0.1", "0.0.0.0", "224.0.0.1", "::1", "fe80::1", "fc00::1",
                                     "::ffff:127.0.0.1", "::ffff:10.0.0.1", "2002:7f00:1::1"])
def test_private_addresses_are_not_public(address: str) -> None:
    assert not address_is_public(address)


@pytest.mark.parametrize("address", ["93.184.216.34", "1.1.1.1", "2606:4700:4700::1111"])
def test_public_addresses_are_public(address: str) -> None:
    assert address_is_public(address)


@pytest.mark.parametrize("url", ["http://127.0.0.1:8000/", "http://localhost/", "http://[::1]/",
                                 "http://169.254.169.254/latest/meta-data/", "http://10.0.0.1/"])
def test_private_targets_are_refused_with_the_setting_off(url: str, organiser: Any) -> None:
    tournament = make_tournament(organiser)
    with pytest.raises(TournamentError) as refused:
        services.webhook_endpoint_create(actor=organiser, tournament=tournament, url=url, events=["round.published"])
    assert refused.value.code == ErrorCode.WEBHOOK_TARGET_REFUSED
    assert refused.value.details["reason"] == "private_address"
    assert not WebhookEndpoint.objects.exists()


@pytest.mark.parametrize("url", ["ftp://example.org/", "http://user:pw@example.org/", "javascript:alert(1)",
                                 "http://", "http://example.org:99999/", "https://exa mple.org/"])
def test_malformed_targets_are_refused(url: str) -> None:
    with pytest.raises(TournamentError) as refused:
        target_check(url)
    assert refused.value.code == ErrorCode.WEBHOOK_TARGET_REFUSED


def test_a_target_that_turns_private_is_refused_at_delivery(
    organiser: Any, receiver: Receiver, settings: Any, monkeypatch: pytest.MonkeyPatch,
    django_capture_on_commit_callbacks: Any,
) -> None:
    """DNS rebinding: the name resolved to a public address at registration, to loopback at delivery."""
    port = receiver.server.server_address[1]
    answers = {"hooks.example.test": "93.184.216.34"}
    real = socket.getaddrinfo

    def fake_getaddrinfo(host: str, *args: Any, **kwargs: Any) -> Any:
        if host in answers:
            return [(socket.AF_INET, socket.SOCK_STREAM, 6, "", (answers[host], port))]
        return real(host, *args, **kwargs)

    monkeypatch.setattr(socket, "getaddrinfo", fake_getaddrinfo)
    tournament = make_tournament(organiser)
    services.webhook_endpoint_create(actor=organiser, tournament=tournament,
                                     url=f"http://hooks.example.test:{port}/", events=["round.published"])
    answers["hooks.example.test"] = "127.0.0.1"
    with django_capture_on_commit_callbacks(execute=True):
        published_round(organiser, tournament)
    assert receiver.requests == []
    delivery = WebhookDelivery.objects.get()
    assert delivery.state == WebhookDelivery.State.REFUSED and delivery.attempts == 1
    assert "private" in delivery.attempt_log.get().error


def test_the_setting_off_refuses_an_endpoint_registered_while_on(
    organiser: Any, receiver: Receiver, settings: Any, django_capture_on_commit_callbacks: Any,
) -> None:
    settings.WEBHOOKS_ALLOW_PRIVATE_TARGETS = True
    tournament = make_tournament(organiser)
    services.webhook_endpoint_create(actor=organiser, tournament=tournament, url=receiver.url,
                                     events=["round.published"])
    settings.WEBHOOKS_ALLOW_PRIVATE_TARGETS = False
    with django_capture_on_commit_callbacks(execute=True):
        published_round(organiser, tournament)
    assert receiver.requests == []
    assert WebhookDelivery.objects.get().state == WebhookDelivery.State.REFUSED


def test_the_signature_recipe() -> None:
    body = b'{"event":"round.published"}'
    now = int(time.time())
    header = signature_header("whsec_k", body, timestamp=now)
    assert signature_valid("whsec_k", header, body)
    assert not signature_valid("whsec_k", header, body + b" ")
    assert not signature_valid("whsec_other", header, body)
    assert not signature_valid("whsec_k", signature_header("whsec_k", body, timestamp=now - 301), body)
    assert not signature_valid("whsec_k", "v1=" + header.split("v1=")[1], body)
    # the documented recipe, by hand
    import hashlib
    import hmac
    stamp, sig = (part.split("=", 1)[1] for part in header.split(","))
    assert hmac.new(b"whsec_k", f"{stamp}.".encode() + body, hashlib.sha256).hexdigest() == sig


def test_a_broken_broker_never_fails_the_write(organiser: Any, receiver: Receiver, allow_private: None,
                                               monkeypatch: pytest.MonkeyPatch,
                                               django_capture_on_commit_callbacks: Any) -> None:
    def broken(*args: Any, **kwargs: Any) -> None:
        raise ConnectionError("broker down")

    monkeypatch.setattr(tasks.webhook_fanout, "delay", broken)
    result, _endpoint = _report(organiser, django_capture_on_commit_callbacks, ["result.reported"], receiver)
    assert result.pk and result.state == "reported"
    assert receiver.requests == []


def test_a_rolled_back_write_sends_nothing(organiser: Any, receiver: Receiver, allow_private: None,
                                           django_capture_on_commit_callbacks: Any) -> None:
    tournament = make_tournament(organiser)
    services.webhook_endpoint_create(actor=organiser, tournament=tournament, url=receiver.url,
                                     events=["round.published"])
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        try:
            with transaction.atomic():
                tournament.refresh_from_db()
                webhook_emit("round.published", tournament=tournament, data={})
                raise RuntimeError("rolled back")
        except RuntimeError:
            pass
    assert callbacks == [] and receiver.requests == []


def test_override_and_standings_are_announced(organiser: Any, receiver: Receiver, allow_private: None,
                                              django_capture_on_commit_callbacks: Any) -> None:
    tournament = make_tournament(organiser)
    services.webhook_endpoint_create(actor=organiser, tournament=tournament, url=receiver.url,
                                     events=["result.overridden", "standings.changed"])
    round_ = published_round(organiser, tournament)
    table = first_table(round_)
    a, b = seated_entrants(table)[:2]
    with django_capture_on_commit_callbacks(execute=True):
        result_override(actor=organiser, table=table, scores={a.pk: 8, b.pk: 2})
    events = [json.loads(r["body"])["event"] for r in receiver.requests]
    assert events[0] == "result.overridden" and "standings.changed" in events


def test_a_tournament_without_webhooks_pays_no_query(organiser: Any, django_assert_num_queries: Any,
                                                     django_capture_on_commit_callbacks: Any) -> None:
    tournament = make_tournament(organiser)
    tournament.refresh_from_db()
    assert not tournament.webhooks_active
    with django_capture_on_commit_callbacks() as callbacks, django_assert_num_queries(0):
        webhook_emit("round.published", tournament=tournament, data={})
    assert callbacks == []


def test_removing_the_last_endpoint_turns_events_off(organiser: Any, allow_private: None,
                                                     receiver: Receiver) -> None:
    tournament = make_tournament(organiser)
    first = services.webhook_endpoint_create(actor=organiser, tournament=tournament, url=receiver.url,
                                             events=["round.published"])
    second = services.webhook_endpoint_create(actor=organiser, tournament=tournament, url=receiver.url,
                                              events=["round.published"])
    services.webhook_endpoint_remove(actor=organiser, endpoint=first)
    tournament.refresh_from_db()
    assert tournament.webhooks_active
    services.webhook_endpoint_remove(actor=organiser, endpoint=second)
    tournament.refresh_from_db()
    assert not tournament.webhooks_active


def test_the_api_registers_lists_and_removes(organiser: Any, other_user: Any, allow_private: None,
                                             receiver: Receiver) -> None:
    tournament = make_tournament(organiser)
    client = Client(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=organiser).key}")
    url = f"/api/tournaments/{tournament.slug}/webhooks/"
    created = client.post(url, {"url": receiver.url, "events": ["round.published"]}, content_type="application/json")
    assert created.status_code == 201, created.content
    assert created.json()["secret"].startswith("whsec_")
    assert [e["id"] for e in client.get(url).json()] == [created.json()["id"]]
    bad = client.post(url, {"url": receiver.url, "events": ["nope"]}, content_type="application/json")
    assert bad.status_code == 400
    stranger = Client(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=other_user).key}")
    assert stranger.get(url).status_code == 403
    assert stranger.post(url, {"url": receiver.url, "events": ["round.published"]},
                         content_type="application/json").status_code == 403
    detail = f"/api/webhooks/{created.json()['id']}/"
    assert stranger.delete(detail).status_code == 403
    assert client.get(detail).json()["deliveries"] == []
    assert client.delete(detail).status_code == 204
    assert not WebhookEndpoint.objects.exists()


def test_the_api_refuses_a_private_target(organiser: Any) -> None:
    tournament = make_tournament(organiser)
    client = Client(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=organiser).key}")
    answer = client.post(f"/api/tournaments/{tournament.slug}/webhooks/",
                         {"url": "http://127.0.0.1/", "events": ["round.published"]}, content_type="application/json")
    assert answer.status_code == 422
    assert answer.json()["error"]["code"] == "webhook_target_refused"


def test_the_organiser_page(organiser: Any, other_user: Any, allow_private: None, receiver: Receiver) -> None:
    tournament = make_tournament(organiser)
    client = Client()
    client.force_login(organiser)
    page = f"/t/{tournament.slug}/manage/webhooks/"
    answer = client.post(page + "add/", {"url": receiver.url, "events": ["round.published", "standings.changed"],
                                         "description": "club bot"})
    assert answer.status_code == 302
    endpoint = WebhookEndpoint.objects.get()
    assert endpoint.events == ["round.published", "standings.changed"]
    text = client.get(page).content.decode()
    assert receiver.url.replace("&", "&amp;") in text and "club bot" in text and endpoint.secret in text
    other = Client()
    other.force_login(other_user)
    assert other.get(page).status_code == 403
    assert other.post(page + f"{endpoint.pk}/remove/").status_code == 403
    assert client.post(page + f"{endpoint.pk}/remove/").status_code == 302
    assert not WebhookEndpoint.objects.exists()
