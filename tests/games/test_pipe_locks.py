"""The record pipeline's shortcuts (issue 14) keep the rules they replace: one transaction locks a
tournament once (`TableLocks`), the submission decides who reports without a query of its own (the
same answer as `reporting_entrant`), a duplicate is still refused with its id, the audit rows written
together keep their content and order, and the worker's Celery hooks touch only what they name."""

from __future__ import annotations

import json
from types import SimpleNamespace
from typing import Any

import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from config.celery import SoloAcksAtOnce, _call_now
from games import services as game_services
from games.models import GameRecord
from tests.games.conftest import one_table_tournament, random_record, relabel
from tests.tournaments.conftest import seated_entrants, user_for_entrant
from tournaments.errors import ErrorCode, TournamentError
from tournaments.models import AuditLog, Result
from tournaments.permissions import reporting_entrant, reporting_entrant_among
from tournaments.services import result_report_from_record
from tournaments.services.locking import lock_table_context, lock_tournament

pytestmark = pytest.mark.django_db


def _placings(table: Any) -> dict[int, int]:
    first, second = (e.pk for e in seated_entrants(table))
    return {first: 1, second: 2}


def test_locked_report_locks_nothing_again_and_reports_as_before(organiser: Any) -> None:
    tournament, table = one_table_tournament(organiser, "taki", {"seats": 2})
    entrant = seated_entrants(table)[0]
    with transaction.atomic():
        locks = lock_table_context(table_id=table.pk, tournament=lock_tournament(tournament.pk))
        assert locks.has_open_result is False
        with CaptureQueriesContext(connection) as queries:
            result = result_report_from_record(table=table, entrant=entrant, placings=_placings(table), locked=locks).result
    statements = [q["sql"] for q in queries.captured_queries]
    assert not [s for s in statements if "tournaments_tournament" in s or "FOR UPDATE" in s], statements
    assert result.state == Result.State.REPORTED and result.reported_for_id == entrant.pk
    assert AuditLog.objects.filter(action="result_reported_from_record", object_id=result.pk).count() == 1


def test_open_result_seen_by_the_lock_query_is_still_refused_or_kept(organiser: Any) -> None:
    tournament, table = one_table_tournament(organiser, "taki", {"seats": 2})
    entrant, other = seated_entrants(table)
    first = result_report_from_record(table=table, entrant=entrant, placings=_placings(table)).result
    with transaction.atomic():
        locks = lock_table_context(table_id=table.pk, tournament_id=tournament.pk)
        assert locks.has_open_result is True
        again = result_report_from_record(table=table, entrant=entrant, placings=_placings(table), locked=locks)
    assert (again.result.pk, again.changed) == (first.pk, False)  # the same side, the same result
    with pytest.raises(TournamentError) as refused:
        result_report_from_record(table=table, entrant=other, placings={entrant.pk: 2, other.pk: 1})
    assert refused.value.code == ErrorCode.RESULT_ALREADY_REPORTED


def test_locks_of_another_table_are_refused(organiser: Any) -> None:
    tournament, table = one_table_tournament(organiser, "taki", {"seats": 2})
    other_tournament, other_table = one_table_tournament(organiser, "taki", {"seats": 2}, name="Other cup")
    with transaction.atomic():
        with pytest.raises(TournamentError) as missing:
            lock_table_context(table_id=other_table.pk, tournament_id=tournament.pk)
        assert missing.value.code == ErrorCode.NOT_FOUND
        locks = lock_table_context(table_id=other_table.pk, tournament_id=other_tournament.pk)
        with pytest.raises(ValueError):
            result_report_from_record(table=table, entrant=None, placings=_placings(table), locked=locks)
    assert not Result.objects.exists()


@pytest.mark.parametrize("case", ["token", "wrong token", "player", "other user", "inactive player", "nobody"])
def test_reporting_entrant_among_agrees_with_reporting_entrant(organiser: Any, case: str) -> None:
    _tournament, table = one_table_tournament(organiser, "taki", {"seats": 2})
    entrants = seated_entrants(table)
    player = user_for_entrant(entrants[1], "player")
    outsider = user_for_entrant(entrants[0], "outsider")  # a player too, but of the other entrant
    user, token = {
        "token": (None, entrants[0].report_token), "wrong token": (None, "not-a-token"),
        "player": (player, None), "other user": (organiser, None), "inactive player": (player, None),
        "nobody": (None, None),
    }[case]
    if case == "inactive player":
        player.is_active = False
        player.save()
    seated = [(s.entrant, s.user_ids) for s in game_services._seated(table)]
    expected = reporting_entrant(user, token, table)
    assert reporting_entrant_among(user, token, table, seated) == expected
    assert expected is None or expected.pk in {entrants[0].pk, entrants[1].pk}
    assert outsider.pk in next(users for entrant, users in seated if entrant.pk == entrants[0].pk)


def test_duplicate_is_refused_with_its_id_and_verification_audits_in_order(
    organiser: Any, django_capture_on_commit_callbacks: Any
) -> None:
    _tournament, table = one_table_tournament(organiser, "taki", {"seats": 2})
    text = json.dumps(relabel(random_record("taki", {"seats": 2}, seed=3), table))
    client = APIClient()
    token = seated_entrants(table)[0].report_token
    with django_capture_on_commit_callbacks(execute=True):
        first = client.post(f"/api/tables/{table.pk}/records/", data=text, content_type="application/json",
                            HTTP_X_REPORT_TOKEN=token)
    assert first.status_code == 201, first.content
    again = client.post(f"/api/tables/{table.pk}/records/", data=text, content_type="application/json",
                        HTTP_X_REPORT_TOKEN=token)
    assert again.status_code == 409
    assert again.json()["error"]["code"] == "record_duplicate"
    assert again.json()["error"]["details"]["record_id"] == first.json()["id"]
    record = GameRecord.objects.get(pk=first.json()["id"])
    assert record.settlement == GameRecord.Settlement.SETTLED
    rows = list(AuditLog.objects.order_by("id").values_list("action", "object_id", "data"))[-2:]
    assert [(action, object_id) for action, object_id, _data in rows] == [
        ("result_reported_from_record", record.result_id), ("game_record_verified", record.pk)]
    assert rows[1][2] == {"status": "valid", "complete": True, "error_code": "", "engine_version": record.engine_version,
                          "settlement": "settled"}
    assert rows[0][2]["state"] == "reported" and rows[0][2]["table"] == table.pk


def test_solo_pool_acks_at_once_other_pools_are_left_alone() -> None:
    from celery.concurrency.solo import TaskPool as SoloPool
    from celery.concurrency.thread import TaskPool as ThreadPool

    def queued(*_args: Any) -> None:
        raise AssertionError("not replaced")

    solo = SimpleNamespace(pool=SoloPool.__new__(SoloPool), call_soon_ack=queued)
    threads = SimpleNamespace(pool=ThreadPool.__new__(ThreadPool), call_soon_ack=queued)
    for parent in (solo, threads):
        SoloAcksAtOnce.start(SimpleNamespace(), parent)  # type: ignore[arg-type]
    assert solo.call_soon_ack is _call_now and threads.call_soon_ack is queued
    acked: list[tuple[Any, ...]] = []
    assert _call_now(lambda *args: acked.append(args) or "done", "logger", "errors") == "done"
    assert acked == [("logger", "errors")]


def test_a_worker_process_freezes_what_it_loaded_and_collects_less_often() -> None:
    """Connected to both signals: the solo worker runs tasks in its own process (`worker_ready`), a
    prefork child in its own (`worker_process_init`)."""
    import gc

    from celery.signals import worker_process_init, worker_ready

    from config.celery import GC_GEN0_THRESHOLD, _garbage_collector_for_tasks

    for signal in (worker_ready, worker_process_init):
        assert _garbage_collector_for_tasks in signal._live_receivers(None)
    before = gc.get_threshold()
    try:
        _garbage_collector_for_tasks()
        assert gc.get_freeze_count() > 10_000  # Django and the apps are loaded: their objects are frozen
        assert gc.get_threshold() == (GC_GEN0_THRESHOLD, *before[1:])
        garbage: list[Any] = []
        garbage.append(garbage)
        del garbage
        assert gc.collect() >= 1  # an unreachable cycle is still collected
    finally:
        gc.unfreeze()
        gc.set_threshold(*before)
