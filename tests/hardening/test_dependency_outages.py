"""Dependencies down (issue 15): Redis unreachable (a closed port) or stalled (a server that never
answers) -> pages and API keep answering fast, with one logged warning; the broker down -> writes still
commit; the database down -> 503 with a short page and no trace; a lost race -> 409, never 500."""

from __future__ import annotations

import logging
import time
from collections.abc import Iterator
from typing import Any

import pytest
from django.db import OperationalError
from rest_framework.test import APIClient

from tests.tournaments.conftest import make_tournament, published_round, seated_entrants
from tournaments.cache_fail_open import breaker_reset
from tournaments.models import Result


def redis_cache(port: int) -> dict[str, Any]:
    """The production cache settings (settings.REDIS_FAIL_OPEN_OPTIONS) pointed at a broken Redis."""
    from django.conf import settings

    return {"default": {
        "BACKEND": "django_redis.cache.RedisCache",
        "LOCATION": f"redis://127.0.0.1:{port}/0",
        "KEY_PREFIX": "harden-outage",
        "OPTIONS": dict(settings.REDIS_FAIL_OPEN_OPTIONS),
    }}


@pytest.fixture
def broken_redis(request: pytest.FixtureRequest, settings: Any) -> Iterator[int]:
    port = request.getfixturevalue(request.param)
    breaker_reset()
    settings.CACHES = redis_cache(port)
    yield port
    breaker_reset()


@pytest.fixture
def tournament_with_pending_result(org: Any) -> dict[str, Any]:
    tournament = make_tournament(org, entrants=4)
    round_ = published_round(org, tournament)
    table = round_.tables.filter(is_bye=False).order_by("number").first()
    home, away = seated_entrants(table)
    return {"tournament": tournament, "table": table, "home": home, "away": away}


@pytest.mark.parametrize("broken_redis", ["closed_port", "stalled_server"], indirect=True)
def test_redis_down_pages_and_api_keep_answering(broken_redis: int, tournament_with_pending_result: dict[str, Any],
                                                 caplog: pytest.LogCaptureFixture) -> None:
    data = tournament_with_pending_result
    slug, table, home, away = data["tournament"].slug, data["table"], data["home"], data["away"]
    api = APIClient()
    timings: list[float] = []

    def timed(call: Any) -> Any:
        started = time.monotonic()
        response = call()
        timings.append(time.monotonic() - started)
        return response

    for url in (f"/api/tournaments/{slug}/standings/", f"/t/{slug}/standings/", "/"):  # warm up imports
        api.get(url)
    breaker_reset()
    caplog.clear()
    with caplog.at_level(logging.WARNING, logger="tournaments.dependencies"):
        assert timed(lambda: api.get(f"/api/tournaments/{slug}/standings/")).status_code == 200
        report = timed(lambda: api.post(f"/api/tables/{table.pk}/report/",
                                        {"token": home.report_token, "scores": {str(home.pk): 8, str(away.pk): 3}},
                                        format="json"))
        assert report.status_code == 201, report.content
        confirm = timed(lambda: api.post(f"/api/results/{report.json()['id']}/confirm/",
                                         {"token": away.report_token}, format="json"))
        assert confirm.status_code == 200 and confirm.json()["state"] == Result.State.CONFIRMED
        assert timed(lambda: api.get(f"/t/{slug}/standings/")).status_code == 200
        assert timed(lambda: api.get("/")).status_code == 200
    # one bounded wait at most (the first operation), then the breaker answers at once
    assert max(timings) < 0.9, timings
    assert sum(timings) < 2.0, timings
    warnings = [r for r in caplog.records if r.name == "tournaments.dependencies"]
    assert len(warnings) == 1 and "fail open" in warnings[0].getMessage()


def test_redis_breaker_probes_again_after_the_retry_period(closed_port: int, settings: Any,
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    from django.core.cache import cache

    from tournaments import cache_fail_open

    breaker_reset()
    settings.CACHES = redis_cache(closed_port)
    calls: list[int] = []
    original = cache_fail_open.DefaultClient.get

    def counting_get(self: Any, *args: Any, **kwargs: Any) -> Any:
        calls.append(1)
        return original(self, *args, **kwargs)

    monkeypatch.setattr(cache_fail_open.FailOpenRedisClient, "get", cache_fail_open._guarded(counting_get))
    assert cache.get("x", "miss") == "miss"
    assert cache.get("x", "miss") == "miss"
    assert len(calls) == 1  # the second read did not touch the network
    settings.REDIS_RETRY_SECONDS = 0.0
    cache_fail_open._down_until.update({k: 0.0 for k in cache_fail_open._down_until})
    assert cache.get("x", "miss") == "miss"
    assert len(calls) == 2
    breaker_reset()


def test_broker_down_the_write_commits_and_the_reconciler_catches_up(
        tournament_with_pending_result: dict[str, Any], monkeypatch: pytest.MonkeyPatch,
        caplog: pytest.LogCaptureFixture) -> None:
    from kombu.exceptions import OperationalError as BrokerError

    from tournaments import tasks
    from tournaments.models import Tournament

    data = tournament_with_pending_result
    table, home, away = data["table"], data["home"], data["away"]

    def broker_down(*args: Any, **kwargs: Any) -> None:
        raise BrokerError("[Errno 111] Connection refused")

    monkeypatch.setattr(tasks.standings_recompute, "delay", broker_down)
    from tournaments.rankings import tasks as ranking_tasks

    monkeypatch.setattr(ranking_tasks.ratings_recompute, "delay", broker_down)
    api = APIClient()
    report = api.post(f"/api/tables/{table.pk}/report/",
                      {"token": home.report_token, "scores": {str(home.pk): 8, str(away.pk): 3}}, format="json")
    confirm = api.post(f"/api/results/{report.json()['id']}/confirm/", {"token": away.report_token}, format="json")
    assert confirm.status_code == 200
    tournament = Tournament.objects.get(pk=data["tournament"].pk)
    assert tournament.results_version > tournament.standings_version  # committed, standings behind
    monkeypatch.undo()
    assert tasks.standings_reconcile.apply().get() == [tournament.pk]
    tournament.refresh_from_db()
    assert tournament.standings_version == tournament.results_version


@pytest.mark.django_db(transaction=True)
def test_database_down_answers_503_without_a_trace(closed_port: int, monkeypatch: pytest.MonkeyPatch) -> None:
    from django.db import connection

    if connection.vendor == "postgresql":
        saved = dict(connection.settings_dict)
        connection.close()
        connection.settings_dict.update({"HOST": "127.0.0.1", "PORT": str(closed_port)})
    else:  # SQLite's test database lives in memory: make every new cursor fail instead
        saved = None

        def refuse(*args: Any, **kwargs: Any) -> Any:
            raise OperationalError("unable to open database file")

        from django.db.backends.base.base import BaseDatabaseWrapper

        monkeypatch.setattr(BaseDatabaseWrapper, "_cursor", refuse)
    try:
        client = APIClient()
        page = client.get("/")
        assert page.status_code == 503 and page["Retry-After"] == "5"
        text = page.content.decode()
        assert "Temporarily unavailable" in text and "Traceback" not in text and "OperationalError" not in text
        api = client.get("/api/tournaments/")
        assert api.status_code == 503 and api.json()["error"]["code"] == "service_unavailable"
        assert client.get("/t/x/standings/").status_code == 503
    finally:
        if saved is not None:
            connection.close()
            connection.settings_dict.update(saved)


class _Deadlock(Exception):
    sqlstate = "40P01"


def test_an_api_request_that_loses_a_deadlock_is_answered_409(
        tournament_with_pending_result: dict[str, Any], monkeypatch: pytest.MonkeyPatch) -> None:
    from tournaments import services

    data = tournament_with_pending_result
    table, home, away = data["table"], data["home"], data["away"]

    def deadlocked(**kwargs: Any) -> Any:
        raise OperationalError("deadlock detected") from _Deadlock()

    monkeypatch.setattr(services, "result_report", deadlocked)
    response = APIClient().post(f"/api/tables/{table.pk}/report/",
                                {"token": home.report_token, "scores": {str(home.pk): 8, str(away.pk): 3}},
                                format="json")
    assert response.status_code == 409 and response.json()["error"]["code"] == "write_conflict"

    def connection_lost(**kwargs: Any) -> Any:
        raise OperationalError("server closed the connection unexpectedly")

    monkeypatch.setattr(services, "result_report", connection_lost)
    response = APIClient().post(f"/api/tables/{table.pk}/report/",
                                {"token": home.report_token, "scores": {str(home.pk): 8, str(away.pk): 3}},
                                format="json")
    assert response.status_code == 503 and response.json()["error"]["code"] == "service_unavailable"
