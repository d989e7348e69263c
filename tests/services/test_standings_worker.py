"""Standings computed by a real Celery worker over RabbitMQ, on PostgreSQL; and a worker killed
(SIGKILL) in the middle of a standings run leaves standings equal to a from-scratch computation once a
new worker has run the redelivered task."""

from __future__ import annotations

import time
from typing import Any

import psycopg
import pytest
from django.contrib.auth import get_user_model

from tests.services.conftest import worker_database_url
from tournaments import services
from tournaments.models import StandingRow, Tournament

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]


def _tournament_with_round(entrants: int = 8) -> tuple[Any, Tournament, Any]:
    organiser = get_user_model().objects.create_user("org-services")
    tournament = services.tournament_create(actor=organiser, name="Worker Cup", game="tac")
    for i in range(entrants):
        services.entrant_register(actor=organiser, tournament=tournament, name=f"W{i}",
                                  player_names=[f"w{i}a", f"w{i}b"], seed=i + 1)
    round_ = services.round_publish(actor=organiser, round=services.round_generate(actor=organiser,
                                                                                  tournament=tournament))
    return organiser, tournament, round_


def _finalise(organiser: Any, table: Any, winner_first: bool = True) -> None:
    seats = list(table.seats.order_by("position"))
    first, second = seats[0].entrant_id, seats[1].entrant_id
    scores = {first: 8, second: 3} if winner_first else {first: 2, second: 8}
    result = services.result_report(table=table, token=seats[0].entrant.report_token, scores=scores)
    services.result_confirm(result=result, token=seats[1].entrant.report_token)


def _rows(tournament: Tournament) -> list[tuple[int, int, dict]]:
    return [(r.entrant_id, r.rank, r.values) for r in StandingRow.objects.filter(tournament=tournament)
            .order_by("rank", "entrant_id")]


def _from_scratch(tournament: Tournament) -> list[tuple[int, int, dict]]:
    tournament.refresh_from_db()
    return sorted(((r.entrant_id, r.rank, dict(r.values)) for r in services.standings_compute(tournament)),
                  key=lambda row: (row[1], row[0]))


def _wait_until_current(tournament: Tournament, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        tournament.refresh_from_db()
        if tournament.standings_version == tournament.results_version > 0:
            return
        time.sleep(0.2)
    raise AssertionError(f"standings stayed at version {tournament.standings_version} "
                         f"< {tournament.results_version}")


def test_a_final_result_reaches_the_standings_through_the_worker(worker_factory: Any) -> None:
    worker_factory()
    organiser, tournament, round_ = _tournament_with_round()
    table = round_.tables.order_by("number").first()
    _finalise(organiser, table)
    _wait_until_current(tournament)
    rows = _rows(tournament)
    assert rows == _from_scratch(tournament)
    winner = table.seats.get(position=0).entrant_id
    assert dict((e, v["match_points"]) for e, _, v in rows)[winner] == 2


def _waiting_delete_backends(conninfo: str, datname: str) -> int:
    with psycopg.connect(conninfo, autocommit=True) as probe:
        return probe.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = %s AND wait_event_type = 'Lock' "
            "AND query ILIKE %s", (datname, "%DELETE FROM%tournaments_standingrow%"),
        ).fetchone()[0]


def test_a_worker_killed_mid_run_leaves_consistent_standings(worker_factory: Any, celery_broker: Any) -> None:
    organiser, tournament, round_ = _tournament_with_round()
    tables = list(round_.tables.order_by("number"))
    for table in tables[:2]:
        _finalise(organiser, table)
    services.standings_recompute(tournament_id=tournament.pk)
    celery_broker.control.purge()  # the tasks of those two results are done already
    before = _rows(tournament)
    assert before

    conninfo = worker_database_url()
    datname = conninfo.rsplit("/", 1)[1]
    blocker = psycopg.connect(conninfo)
    try:
        # Hold row locks on the standings so the worker's run stops half-way (after computing, while
        # replacing the rows), then kill it there.
        blocker.execute("SELECT id FROM tournaments_standingrow WHERE tournament_id = %s FOR UPDATE",
                        (tournament.pk,))
        first = worker_factory()
        _finalise(organiser, tables[2], winner_first=False)
        deadline = time.monotonic() + 60
        while _waiting_delete_backends(conninfo, datname) == 0:
            assert time.monotonic() < deadline, "the worker never reached the standings rows"
            time.sleep(0.1)
        first.kill()
    finally:
        blocker.rollback()
        blocker.close()
    tournament.refresh_from_db()
    assert tournament.standings_version < tournament.results_version  # the killed run wrote nothing
    assert _rows(tournament) == before
    worker_factory()  # the broker redelivers the unacknowledged task to the new worker
    _wait_until_current(tournament)
    assert _rows(tournament) == _from_scratch(tournament)
    assert _rows(tournament) != before
