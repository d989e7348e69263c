"""No request or task holds a lock past a bound (issue 29), on PostgreSQL.

- Every connection the app opens carries `statement_timeout`, `lock_timeout` and
  `idle_in_transaction_session_timeout` (set by the app at connect time) and TCP keepalives with a
  user timeout (libpq `keepalives*`, `tcp_user_timeout`).
- A session that took the tournament lock and went silent (its host vanished) is ended by the server
  after `DB_IDLE_IN_TRANSACTION_TIMEOUT`, and the tournament is writable again.
- A write waiting for a tournament another session holds gives up after `DB_LOCK_TIMEOUT`: 503
  `tournament_busy` with `Retry-After` (the web worker is free again), nothing written; other
  tournaments are not held up at all.
"""

from __future__ import annotations

import contextlib
import threading
import time
from typing import Any

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.db import connection, connections
from rest_framework.test import APIClient

from tournaments import services
from tournaments.models import Result, Tournament

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def postgres(require_services: None) -> None:
    assert connection.vendor == "postgresql"


def _app_connection() -> Any:
    """A new connection made exactly as the app makes its own (settings.DATABASES['default'])."""
    wrapper = connections.create_connection("default")
    wrapper.ensure_connection()
    return wrapper


def _scene(name: str) -> tuple[Tournament, Any]:
    organiser = get_user_model().objects.create_user(f"org-{name}")
    tournament = services.tournament_create(actor=organiser, name=name, game="tac")
    for i in range(4):
        services.entrant_register(actor=organiser, tournament=tournament, name=f"{name}{i}",
                                  player_names=[f"{name}{i}a", f"{name}{i}b"], seed=i + 1)
    round_ = services.round_publish(actor=organiser, round=services.round_generate(actor=organiser,
                                                                                  tournament=tournament))
    return tournament, round_.tables.filter(is_bye=False).order_by("number").first()


def _report(table: Any) -> Any:
    home, away = [s.entrant for s in table.seats.order_by("position")]
    return APIClient().post(f"/api/tables/{table.pk}/report/",
                            {"scores": {str(home.pk): 8, str(away.pk): 2}, "token": home.report_token},
                            format="json")


def test_app_connections_carry_timeouts_keepalives_and_a_user_timeout(postgres: None) -> None:
    wrapper = _app_connection()
    try:
        with wrapper.cursor() as cursor:
            cursor.execute("SELECT current_setting('statement_timeout'), current_setting('lock_timeout'), "
                           "current_setting('idle_in_transaction_session_timeout')")
            statement, lock, idle = cursor.fetchone()
        expected = [f"{int(seconds * 1000)}ms" for seconds in (
            settings.DB_STATEMENT_TIMEOUT, settings.DB_LOCK_TIMEOUT, settings.DB_IDLE_IN_TRANSACTION_TIMEOUT)]
        as_ms = [value if value.endswith("ms") else f"{int(value.rstrip('s')) * 1000}ms" for value in
                 (statement, lock, idle)]
        assert as_ms == expected
        assert all(value != "0" for value in (statement, lock, idle))
        dsn = wrapper.connection.info.dsn
        for param in ("keepalives=1", f"keepalives_idle={settings.DB_KEEPALIVES_IDLE}",
                      f"keepalives_interval={settings.DB_KEEPALIVES_INTERVAL}",
                      f"keepalives_count={settings.DB_KEEPALIVES_COUNT}",
                      f"tcp_user_timeout={int(settings.DB_TCP_USER_TIMEOUT * 1000)}"):
            assert param in dsn, dsn
    finally:
        wrapper.close()


def test_a_silent_session_holding_the_tournament_lock_is_ended_by_the_server(postgres: None) -> None:
    """The host that took the lock vanishes (its session goes silent inside the transaction): the
    server ends the session after DB_IDLE_IN_TRANSACTION_TIMEOUT and the tournament is writable."""
    tournament, _table = _scene("silent")
    lost = _app_connection()  # the vanished host's session, made as the app makes them
    lost.connection.autocommit = False
    with lost.connection.cursor() as cursor:
        cursor.execute("UPDATE tournaments_tournament SET public_version = public_version + 1 WHERE id = %s",
                       [tournament.pk])
        cursor.execute("SELECT pg_backend_pid()")
        lost_pid = cursor.fetchone()[0]
    # ... and then says nothing more. Another session waits for the row (bounded by the test, not the app).
    waiter = connections.create_connection("default")
    waiter.ensure_connection()
    started = time.monotonic()
    try:
        with waiter.connection.cursor() as cursor:
            cursor.execute("SET lock_timeout = '40s'")
            cursor.execute("SET statement_timeout = '45s'")
            waited = None
            while time.monotonic() - started < 40:
                try:
                    cursor.execute("BEGIN")
                    cursor.execute("UPDATE tournaments_tournament SET public_version = public_version + 1 "
                                   "WHERE id = %s", [tournament.pk])
                    cursor.execute("COMMIT")
                    waited = time.monotonic() - started
                    break
                except Exception:  # noqa: BLE001 - lock_timeout of the test's own bound: try again
                    cursor.execute("ROLLBACK")
        assert waited is not None, "the silent session still held the tournament after 40 s"
        assert waited <= settings.DB_IDLE_IN_TRANSACTION_TIMEOUT + 5, waited
        with waiter.connection.cursor() as cursor:
            cursor.execute("SELECT count(*) FROM pg_stat_activity WHERE pid = %s", [lost_pid])
            assert cursor.fetchone()[0] == 0  # the server ended the lost session
    finally:
        waiter.close()
        with contextlib.suppress(Exception):  # already ended by the server
            lost.close()


def test_a_write_behind_a_held_tournament_answers_503_within_the_bound(postgres: None) -> None:
    tournament, table = _scene("busy")
    other_tournament, other_table = _scene("free")
    holder = connections.create_connection("default")
    holder.ensure_connection()
    holder.connection.autocommit = False
    with holder.connection.cursor() as cursor:
        cursor.execute("SET idle_in_transaction_session_timeout = 0")  # held on purpose for the test
        cursor.execute("UPDATE tournaments_tournament SET public_version = public_version + 1 WHERE id = %s",
                       [tournament.pk])
    outcome: dict[str, Any] = {}

    def request() -> None:
        started = time.monotonic()
        try:
            outcome["response"] = _report(table)
        finally:
            outcome["seconds"] = time.monotonic() - started
            connection.close()

    thread = threading.Thread(target=request)
    thread.start()
    try:
        # Meanwhile another tournament's write goes through at once.
        started = time.monotonic()
        assert _report(other_table).status_code == 201
        assert time.monotonic() - started < 3
        thread.join(timeout=settings.DB_LOCK_TIMEOUT + 10)
        finished_in_time = not thread.is_alive()
    finally:
        holder.connection.rollback()
        holder.close()
        thread.join(timeout=30)
    assert finished_in_time, "the write waited for the held tournament past the bound"
    response = outcome["response"]
    assert response.status_code == 503, response.content
    assert response.json()["error"]["code"] == "tournament_busy"
    assert response["Retry-After"]
    assert outcome["seconds"] < settings.DB_LOCK_TIMEOUT + 5
    assert not Result.objects.filter(table=table).exists()  # nothing written
    # Once the holder is gone the same write succeeds.
    assert _report(table).status_code == 201


def test_workers_wait_longer_for_a_lock_but_still_a_bounded_time(postgres: None,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    import copy

    from config.celery import worker_lock_timeout

    database = copy.deepcopy(settings.DATABASES["default"])
    monkeypatch.setenv("DB_WORKER_LOCK_TIMEOUT", "30")
    worker_lock_timeout(database)
    assert "-c lock_timeout=30000" in database["OPTIONS"]["options"]
    assert f"-c idle_in_transaction_session_timeout={int(settings.DB_IDLE_IN_TRANSACTION_TIMEOUT * 1000)}" \
        in database["OPTIONS"]["options"]
