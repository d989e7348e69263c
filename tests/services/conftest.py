"""Fixtures for tests against the real services: PostgreSQL, RabbitMQ and a Celery worker process."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parents[2]


def taki_tournament(tables: int, name: str) -> tuple[Any, list[Any]]:
    """A 2-seat TAKI tournament with `tables` tables in its published first round: (organiser, tables)."""
    from django.contrib.auth import get_user_model

    from tournaments import services

    organiser = get_user_model().objects.create_user(f"org-{name}")
    tournament = services.tournament_create(actor=organiser, name=name, game="taki", variant={"seats": 2})
    for i in range(tables * 2):
        services.entrant_register(actor=organiser, tournament=tournament, name=f"{name}{i}",
                                  player_names=[f"{name}-{i}"])
    round_ = services.round_publish(actor=organiser,
                                    round=services.round_generate(actor=organiser, tournament=tournament))
    return organiser, list(round_.tables.order_by("number"))


def taki_submit(organiser: Any, table: Any, seed: int) -> int:
    """A random legal TAKI record of `table` submitted by the organiser (`games.services.record_submit`): its id."""
    import json
    import random

    from games import services as game_services
    from rules.core.registry import get_engine

    seats = list(table.seats.order_by("position").select_related("entrant"))
    record = get_engine("taki").random_record({"seats": 2}, random.Random(seed))
    record["players"] = [{"name": s.entrant.members.get().player.name, "seats": [i]} for i, s in enumerate(seats)]
    return game_services.record_submit(table=table, actor=organiser, data=json.dumps(record), source="api").pk


def worker_database_url() -> str:
    """A postgres:// URL for the test database pytest-django created (the worker must use it too)."""
    from django.db import connection

    s = connection.settings_dict
    auth = s["USER"] + (f":{s['PASSWORD']}" if s.get("PASSWORD") else "")
    return f"postgres://{auth}@{s['HOST'] or '127.0.0.1'}:{s['PORT'] or 5432}/{s['NAME']}"




class WorkerProcess:
    """`celery -A config worker` as a subprocess on the test database."""

    def __init__(self) -> None:
        self.name = f"test-{uuid.uuid4().hex[:8]}@localhost"
        self.process: subprocess.Popen[bytes] | None = None
        self.log_path = Path(f"/tmp/celery-{self.name.split('@')[0]}.log")

    def start(self) -> None:
        env = {k: v for k, v in os.environ.items() if k != "CELERY_TASK_ALWAYS_EAGER"}
        env["DATABASE_URL"] = worker_database_url()
        env["CELERY_TASK_ALWAYS_EAGER"] = "False"
        self.log = self.log_path.open("wb")
        # No --without-heartbeat: without the heartbeat timer the solo worker's event loop can sleep
        # for 10 s with a delivered message waiting.
        self.process = subprocess.Popen(
            [sys.executable, "-m", "celery", "-A", "config", "worker", "--pool=solo", "-l", "info",
             "-n", self.name, "--without-gossip", "--without-mingle"],
            cwd=ROOT, env=env, stdout=self.log, stderr=subprocess.STDOUT,
        )
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"the worker exited early:\n{self.log_path.read_text()[-3000:]}")
            # (a solo worker busy with a task cannot answer a ping, so read its log instead)
            if f"{self.name} ready." in self.log_path.read_text(errors="replace"):
                return
            time.sleep(0.2)
        raise RuntimeError(f"the worker did not answer within 60 s:\n{self.log_path.read_text()[-3000:]}")

    def kill(self) -> None:
        """SIGKILL: no clean shutdown, no acknowledgement of the running task."""
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait(timeout=30)

    def stop(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGQUIT)  # cold shutdown: nothing left to finish in tests
            try:
                self.process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.kill()
        if hasattr(self, "log"):
            self.log.close()
            self.log_path.unlink(missing_ok=True)


@pytest.fixture
def celery_broker(require_services: None) -> Iterator[Any]:
    """The real broker: tasks are published (not run eagerly); the queue starts empty."""
    from config.celery import app

    previous = app.conf.task_always_eager
    app.conf.task_always_eager = False
    app.control.purge()
    yield app
    app.conf.task_always_eager = previous


@pytest.fixture
def worker_factory(celery_broker: Any) -> Iterator[Any]:
    workers: list[WorkerProcess] = []

    def start() -> WorkerProcess:
        worker = WorkerProcess()
        workers.append(worker)
        worker.start()
        return worker

    yield start
    for worker in workers:
        worker.stop()


def race(calls: list[Any]) -> list[Any]:
    """Run the calls at the same moment, each in its own thread with its own database connection;
    their return values or exceptions, in order."""
    from django.db import connection

    barrier = threading.Barrier(len(calls))
    outcomes: list[Any] = [None] * len(calls)

    def run(index: int) -> None:
        try:
            barrier.wait(timeout=10)
            outcomes[index] = calls[index]()
        except Exception as exc:  # noqa: BLE001 - the outcome is asserted by the test
            outcomes[index] = exc
        finally:
            connection.close()

    threads = [threading.Thread(target=run, args=(i,)) for i in range(len(calls))]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=60)
    return outcomes
