"""Work submitted while the broker is down is sent when it returns, within seconds (issue 29).

A private RabbitMQ vhost is deleted (every connection to it closed, new ones refused: the broker is down
for the app and its worker) while results are confirmed; then it is created again. The results commit
during the outage, their tasks wait in the database (`TaskOutbox`), and the flush that beat runs every
`TASK_OUTBOX_FLUSH_SECONDS` sends them: the worker brings the standings up to date within seconds,
without waiting for a reconciler.
"""

from __future__ import annotations

import contextlib
import shutil
import subprocess
import time
from collections.abc import Iterator
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import pytest
from django.contrib.auth import get_user_model

from tournaments import services, tasks
from tournaments.models import TaskOutbox, Tournament
from tournaments.task_outbox import outbox_flush

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]


def rabbitmqctl(*args: str) -> None:
    subprocess.run(["rabbitmqctl", *args], check=True, capture_output=True, timeout=120)


def _use_broker(app: Any, url: str) -> None:
    app.conf.broker_url = url
    app._pool = None
    with contextlib.suppress(AttributeError):
        app.amqp._producer_pool = None


class Vhost:
    def __init__(self, url: str) -> None:
        parts = urlsplit(url)
        self.name = f"{parts.path.lstrip('/') or 'root'}_outage"
        self.user = parts.username or "guest"
        self.url = urlunsplit(parts._replace(path="/" + self.name))

    def up(self) -> None:
        rabbitmqctl("add_vhost", self.name)
        rabbitmqctl("set_permissions", "-p", self.name, self.user, ".*", ".*", ".*")

    def down(self) -> None:
        rabbitmqctl("delete_vhost", self.name)


@pytest.fixture
def outage_vhost(celery_broker: Any, monkeypatch: pytest.MonkeyPatch) -> Iterator[Vhost]:
    if shutil.which("rabbitmqctl") is None:
        pytest.skip("rabbitmqctl not available")
    app = celery_broker
    previous = app.conf.broker_url
    vhost = Vhost(previous)
    subprocess.run(["rabbitmqctl", "delete_vhost", vhost.name], capture_output=True, timeout=120)
    vhost.up()
    monkeypatch.setenv("CELERY_BROKER_URL", vhost.url)  # the worker's broker
    _use_broker(app, vhost.url)
    try:
        yield vhost
    finally:
        _use_broker(app, previous)
        subprocess.run(["rabbitmqctl", "delete_vhost", vhost.name], capture_output=True, timeout=120)


def _scene() -> tuple[Any, Tournament, list[Any]]:
    organiser = get_user_model().objects.create_user("org-outage")
    tournament = services.tournament_create(actor=organiser, name="Outage Cup", game="tac")
    for i in range(8):
        services.entrant_register(actor=organiser, tournament=tournament, name=f"O{i}",
                                  player_names=[f"o{i}a", f"o{i}b"], seed=i + 1)
    round_ = services.round_publish(actor=organiser, round=services.round_generate(actor=organiser,
                                                                                  tournament=tournament))
    return organiser, tournament, list(round_.tables.filter(is_bye=False).order_by("number"))


def test_results_confirmed_while_the_broker_is_down_reach_the_standings_within_seconds(
        outage_vhost: Vhost, worker_factory: Any) -> None:
    organiser, tournament, tables = _scene()
    worker_factory()
    tasks.standings_recompute(tournament.pk)  # current before the outage

    outage_vhost.down()
    answered: list[float] = []
    for table in tables[:3]:
        seats = list(table.seats.order_by("position").values_list("entrant_id", flat=True))
        started = time.monotonic()
        services.result_override(actor=organiser, table=table, kind="normal",
                                 scores={seats[0]: 8, seats[1]: 2}, winner=seats[0])
        answered.append(time.monotonic() - started)
    tournament.refresh_from_db()
    assert tournament.standings_version < tournament.results_version
    kept = list(TaskOutbox.objects.values_list("task", flat=True))

    outage_vhost.up()
    back = time.monotonic()
    current_after = None
    while time.monotonic() - back < 30:
        outbox_flush()  # what beat's task-outbox-flush does every TASK_OUTBOX_FLUSH_SECONDS
        tournament.refresh_from_db()
        if tournament.standings_version == tournament.results_version:
            current_after = time.monotonic() - back
            break
        time.sleep(0.5)
    assert current_after is not None, "the standings were still stale 30 s after the broker came back"
    assert "tournaments.tasks.standings_recompute" in kept
    assert not TaskOutbox.objects.exists()
    print(f"\nresults during the outage answered in {[round(s, 2) for s in answered]} s; "
          f"standings current {current_after:.1f} s after the broker came back")
