"""Standings are recomputed whenever results or entrants change, whatever the cache's state (issue 29).

- Redis stopped (a closed port), stalled (`DEBUG SLEEP` on a private redis-server) or restarted: every
  result's claim answers "enqueue". django-redis swallows the error (`IGNORE_EXCEPTIONS`) and `cache.add`
  answers None, which the claim took for "someone else will do it".
- A flag whose release was lost (the worker's first Redis call after a restart failed) no longer absorbs
  the next 120 s of results: a flag at or below the standings version is a leftover and is taken over,
  and a run whose release was not confirmed runs again while the standings are stale.
- Entrants added or imported after the last result mark the standings stale (a version bump), so the
  reconciler repairs them even if the message is lost.
"""

from __future__ import annotations

import shutil
import socket
import subprocess
import threading
import time
from collections.abc import Iterator
from typing import Any

import pytest
from django.core.cache import cache

from tests.hardening.test_dependency_outages import redis_cache
from tests.tournaments.conftest import make_tournament, published_round
from tournaments import services, tasks
from tournaments.cache_fail_open import breaker_reset
from tournaments.models import StandingRow, Tournament
from tournaments.services import standings as standings_service

pytestmark = pytest.mark.django_db


def _finalise(organiser: Any, table: Any, callbacks: Any) -> None:
    seats = list(table.seats.order_by("position").values_list("entrant_id", flat=True))
    with callbacks(execute=True):
        services.result_override(actor=organiser, table=table, kind="normal",
                                 scores={seats[0]: 8, seats[1]: 2}, winner=seats[0])


def _rows(tournament: Tournament) -> list[tuple[int, int]]:
    return list(StandingRow.objects.filter(tournament=tournament).order_by("rank", "entrant_id")
                .values_list("entrant_id", "rank"))


def _from_scratch(tournament: Tournament) -> list[tuple[int, int]]:
    tournament.refresh_from_db()
    return sorted(((r.entrant_id, r.rank) for r in services.standings_compute(tournament)),
                  key=lambda row: (row[1], row[0]))


@pytest.fixture
def queued(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    sent: list[int] = []
    monkeypatch.setattr(tasks.standings_recompute, "delay", sent.append)  # the broker: nothing runs yet
    return sent


@pytest.fixture
def redis_cache_at(settings: Any) -> Iterator[Any]:
    def point(port: int) -> None:
        breaker_reset()
        settings.CACHES = redis_cache(port)
        settings.REDIS_URL = f"redis://127.0.0.1:{port}/0"

    yield point
    breaker_reset()


def test_redis_at_a_closed_port_the_claim_answers_enqueue(redis_cache_at: Any, closed_port: int, org: Any,
                                                          queued: list[int],
                                                          django_capture_on_commit_callbacks: Any) -> None:
    redis_cache_at(closed_port)
    assert cache.add("k", 1, 10) is None  # what the issue saw: the error swallowed, None answered
    tournament = make_tournament(org, entrants=8)
    tables = list(published_round(org, tournament).tables.filter(is_bye=False).order_by("number"))
    queued.clear()
    for table in tables:
        _finalise(org, table, django_capture_on_commit_callbacks)
    assert queued == [tournament.pk] * len(tables)  # every result asked (no coalescing, still correct)


def test_redis_stalled_the_claim_answers_enqueue(redis_cache_at: Any, stalled_server: int, org: Any,
                                                 queued: list[int], django_capture_on_commit_callbacks: Any) -> None:
    redis_cache_at(stalled_server)
    tournament = make_tournament(org, entrants=4)
    table = published_round(org, tournament).tables.filter(is_bye=False).first()
    queued.clear()
    _finalise(org, table, django_capture_on_commit_callbacks)
    assert queued == [tournament.pk]


def test_a_lost_release_does_not_absorb_later_results(org: Any, queued: list[int], monkeypatch: pytest.MonkeyPatch,
                                                      django_capture_on_commit_callbacks: Any) -> None:
    """The run commits but its release is swallowed (delete answers None): the run goes on while stale,
    and the next result takes the leftover flag over instead of being dropped for 120 s."""
    tournament = make_tournament(org, entrants=8)
    tables = list(published_round(org, tournament).tables.filter(is_bye=False).order_by("number"))
    tasks.standings_recompute(tournament.pk)
    queued.clear()
    _finalise(org, tables[0], django_capture_on_commit_callbacks)
    assert queued == [tournament.pk]
    real_delete = cache.delete
    monkeypatch.setattr(cache, "delete", lambda *a, **k: None)  # the release fails silently
    tasks.standings_recompute(tournament.pk)
    monkeypatch.setattr(cache, "delete", real_delete)
    assert cache.get(standings_service._pending_key(tournament.pk)) is not None  # the leftover flag
    _finalise(org, tables[1], django_capture_on_commit_callbacks)
    assert queued == [tournament.pk, tournament.pk]  # not absorbed by the leftover
    tasks.standings_recompute(tournament.pk)
    assert _rows(tournament) == _from_scratch(tournament)


def test_a_run_whose_release_failed_runs_again_while_stale(org: Any, queued: list[int],
                                                           monkeypatch: pytest.MonkeyPatch,
                                                           django_capture_on_commit_callbacks: Any) -> None:
    tournament = make_tournament(org, entrants=8)
    tables = list(published_round(org, tournament).tables.filter(is_bye=False).order_by("number"))
    _finalise(org, tables[0], django_capture_on_commit_callbacks)
    real_compute = standings_service.standings_compute
    arrived: list[bool] = []

    def compute_then_more_results(row: Tournament) -> Any:
        rows = real_compute(row)
        if not arrived:
            arrived.append(True)
            _finalise(org, tables[1], django_capture_on_commit_callbacks)  # absorbed: the flag is live
        return rows

    monkeypatch.setattr(standings_service, "standings_compute", compute_then_more_results)
    monkeypatch.setattr(cache, "delete", lambda *a, **k: None)
    tasks.standings_recompute(tournament.pk)
    monkeypatch.undo()
    assert _rows(tournament) == _from_scratch(tournament)
    tournament.refresh_from_db()
    assert tournament.standings_version == tournament.results_version


def test_late_entrants_mark_the_standings_stale(org: Any, queued: list[int],
                                                django_capture_on_commit_callbacks: Any) -> None:
    tournament = make_tournament(org, entrants=4)
    table = published_round(org, tournament).tables.filter(is_bye=False).first()
    _finalise(org, table, django_capture_on_commit_callbacks)
    tasks.standings_recompute(tournament.pk)
    assert not standings_service.standings_stale_tournament_ids()
    services.entrant_register(actor=org, tournament=tournament, name="Late One", player_names=["l1", "l2"])
    assert standings_service.standings_stale_tournament_ids() == [tournament.pk]
    tasks.standings_reconcile()  # the reconciler repairs them (the message above may be lost)
    tasks.standings_recompute(tournament.pk)
    assert len(_rows(tournament)) == 5 and _rows(tournament) == _from_scratch(tournament)
    services.entrants_import_csv(actor=org, tournament=tournament,
                                 csv_text="name,players\nLate Two,a;b\nLate Three,c;d\n")
    assert standings_service.standings_stale_tournament_ids() == [tournament.pk]
    tasks.standings_recompute(tournament.pk)
    assert len(_rows(tournament)) == 7 and _rows(tournament) == _from_scratch(tournament)


# --- a real Redis that stops, stalls and restarts (a private redis-server on a free port) -------------


class PrivateRedis:
    def __init__(self) -> None:
        with socket.socket() as probe:
            probe.bind(("127.0.0.1", 0))
            self.port = probe.getsockname()[1]
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        self.process = subprocess.Popen(
            ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline:
            with socket.socket() as probe:
                if probe.connect_ex(("127.0.0.1", self.port)) == 0:
                    return
            time.sleep(0.05)
        raise RuntimeError("redis-server did not start")

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.terminate()
            self.process.wait(timeout=10)

    def stall(self, seconds: float) -> threading.Thread:
        def sleep() -> None:
            subprocess.run(["redis-cli", "-p", str(self.port), "DEBUG", "SLEEP", str(seconds)],
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=seconds + 10)

        thread = threading.Thread(target=sleep)
        thread.start()
        time.sleep(0.2)
        return thread


@pytest.fixture
def private_redis(require_services: None) -> Iterator[PrivateRedis]:
    if shutil.which("redis-server") is None or shutil.which("redis-cli") is None:
        pytest.skip("redis-server not installed")
    server = PrivateRedis()
    server.start()
    try:
        yield server
    finally:
        server.stop()


@pytest.mark.services
def test_a_real_redis_stopped_stalled_and_restarted(private_redis: PrivateRedis, redis_cache_at: Any, org: Any,
                                                    queued: list[int], settings: Any,
                                                    django_capture_on_commit_callbacks: Any) -> None:
    settings.REDIS_RETRY_SECONDS = 0.5
    redis_cache_at(private_redis.port)
    tournament = make_tournament(org, entrants=16)
    tables = list(published_round(org, tournament).tables.filter(is_bye=False).order_by("number"))
    tasks.standings_recompute(tournament.pk)
    queued.clear()
    _finalise(org, tables[0], django_capture_on_commit_callbacks)  # Redis up: claimed, enqueued
    assert queued == [tournament.pk]
    _finalise(org, tables[1], django_capture_on_commit_callbacks)  # absorbed by the live flag
    assert queued == [tournament.pk]
    tasks.standings_recompute(tournament.pk)  # the run of that message

    private_redis.stop()  # stopped
    _finalise(org, tables[2], django_capture_on_commit_callbacks)
    assert queued == [tournament.pk] * 2

    private_redis.start()  # restarted: the pooled connection is dead, the first call fails
    time.sleep(0.6)
    _finalise(org, tables[3], django_capture_on_commit_callbacks)
    assert queued == [tournament.pk] * 3
    tasks.standings_recompute(tournament.pk)

    stall = private_redis.stall(2)  # stalled: each call gives up after REDIS_SOCKET_TIMEOUT
    try:
        _finalise(org, tables[4], django_capture_on_commit_callbacks)
        assert queued == [tournament.pk] * 4
    finally:
        stall.join()
    time.sleep(0.6)
    tasks.standings_recompute(tournament.pk)
    _finalise(org, tables[5], django_capture_on_commit_callbacks)  # back to normal: claimed, enqueued
    assert queued == [tournament.pk] * 5
    tasks.standings_recompute(tournament.pk)
    assert _rows(tournament) == _from_scratch(tournament)
