"""On PostgreSQL: records submitted one by one and verified together (games/verify_burst.py). A task takes
along the pending records of its tournament it can claim; a record another task holds is neither
replayed twice nor left unverified; a failure or a killed worker leaves every record to be verified,
once, with one result per table."""

from __future__ import annotations

import json
import threading
import time
from collections import Counter
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.db import connection

from games import services as game_services
from games import verify_burst
from games.models import GameRecord, RecordVerdict
from tests.services.conftest import race, taki_submit, taki_tournament
from tournaments import services
from tournaments.models import AuditLog, Result

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]


@pytest.fixture
def postgres(require_services: None, monkeypatch: pytest.MonkeyPatch) -> None:
    assert connection.vendor == "postgresql"
    # verification is started by hand here, not by the on-commit task
    monkeypatch.setattr(game_services, "_enqueue_verify", lambda record_id, *_: None)


@pytest.fixture
def replays(monkeypatch: pytest.MonkeyPatch) -> Counter[int]:
    """How often each record was replayed (record id -> count)."""
    counted: Counter[int] = Counter()
    real = game_services.verify_record_text

    def counting(text: str, *, file: str) -> Any:
        counted[int(file.removeprefix("record-"))] += 1
        return real(text, file=file)

    monkeypatch.setattr(game_services, "verify_record_text", counting)
    return counted


def _records(tables: int, name: str = "burst") -> list[int]:
    organiser, rows = taki_tournament(tables, name)
    return [taki_submit(organiser, table, seed=n) for n, table in enumerate(rows)]


def _statuses(ids: list[int]) -> list[str]:
    found = dict(GameRecord.objects.filter(pk__in=ids).values_list("pk", "status"))
    return [found[pk] for pk in ids]


def _settled_once(ids: list[int]) -> None:
    """Every record valid and settled, one verdict and one audit row of its verification each, one
    result per table."""
    records = list(GameRecord.objects.filter(pk__in=ids))
    assert {(r.status, r.settlement) for r in records} == {("valid", "settled")}
    assert RecordVerdict.objects.filter(record_id__in=ids).count() == len(ids)
    assert AuditLog.objects.filter(action="game_record_verified", object_id__in=[str(pk) for pk in ids]).count() == len(ids)
    for record in records:
        assert list(Result.objects.filter(table_id=record.table_id).values_list("pk", flat=True)) == [record.result_id]


def test_one_task_verifies_the_pending_records_of_its_tournament_it_can_take(
    postgres: None, replays: Counter[int], settings: Any
) -> None:
    settings.GAMES_VERIFY_BATCH_RECORDS = 4
    ids = _records(6)
    elsewhere = _records(1, name="other")  # another tournament's pending record is not taken along

    assert verify_burst.record_verify(record_id=ids[2]) == "valid"
    # its own record first, then the oldest pending ones, up to four in all
    assert list(replays) == [ids[2], ids[0], ids[1], ids[3]]
    assert _statuses(ids) == ["valid"] * 4 + ["pending"] * 2
    assert _statuses(elsewhere) == ["pending"]

    assert verify_burst.record_verify(record_id=ids[0]) == "valid"  # verified already: takes the rest along
    assert list(replays)[4:] == [ids[4], ids[5]]
    for record_id in ids:  # the remaining tasks find their records verified: nothing replayed again
        assert verify_burst.record_verify(record_id=record_id) == "valid"
    assert set(replays.values()) == {1} and len(replays) == 6
    _settled_once(ids)
    assert _statuses(elsewhere) == ["pending"]


def test_two_records_of_one_table_in_one_batch_settle_it_once(postgres: None, settings: Any) -> None:
    settings.GAMES_VERIFY_BATCH_RECORDS = 8
    organiser, tables = taki_tournament(2, "pair")
    first, second = taki_submit(organiser, tables[0], seed=1), taki_submit(organiser, tables[0], seed=2)
    other = taki_submit(organiser, tables[1], seed=3)
    assert verify_burst.record_verify(record_id=second) == "valid"
    rows = {r.pk: r for r in GameRecord.objects.filter(pk__in=[first, second, other])}
    # in submission order: the first record settles its table, the second finds another result there
    assert rows[first].settlement == "settled"
    assert rows[second].settlement == "conflict"
    assert rows[other].settlement == "settled"
    assert Result.objects.filter(table=tables[0]).count() == 1
    assert rows[second].result_id == rows[first].result_id


def _wait_for(predicate: Any, what: str, timeout: float = 20) -> None:
    deadline = time.monotonic() + timeout
    while not predicate():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.02)


def _advisory_locks(*, granted: bool) -> int:
    """Advisory locks held (`granted`) or waited for, by any connection to the test database."""
    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND granted = %s AND database = "
                       "(SELECT oid FROM pg_database WHERE datname = current_database())", [granted])
        return int(cursor.fetchone()[0])


def _in_thread(call: Any) -> tuple[threading.Thread, list[Any]]:
    """Start `call` in a thread with its own database connection: the thread, and a list that receives
    its return value or exception."""
    outcome: list[Any] = []

    def run() -> None:
        try:
            outcome.append(call())
        except BaseException as exc:  # noqa: BLE001 - asserted by the test
            outcome.append(exc)
        finally:
            connection.close()

    thread = threading.Thread(target=run)
    thread.start()
    return thread, outcome


def _hold_first_replay(monkeypatch: pytest.MonkeyPatch, record_id: int) -> tuple[threading.Event, list[int]]:
    """The first replay of `record_id` stops until the event is set: the event, and the list that gets the
    database backend of the task replaying it."""
    release = threading.Event()
    backends: list[int] = []
    counting = game_services.verify_record_text

    def held(text: str, *, file: str) -> Any:
        if file == f"record-{record_id}" and not backends:
            backends.append(connection.connection.info.backend_pid)
            assert release.wait(timeout=30)
        return counting(text, file=file)

    monkeypatch.setattr(game_services, "verify_record_text", held)
    return release, backends


def test_a_record_another_task_holds_is_waited_for_not_replayed_twice(
    postgres: None, replays: Counter[int], settings: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    settings.GAMES_VERIFY_BATCH_RECORDS = 2
    ids = _records(4)
    release, _backends = _hold_first_replay(monkeypatch, ids[0])
    # the first task claims ids[0] and ids[1], and stops in the replay of ids[0]
    first, first_outcome = _in_thread(lambda: verify_burst.record_verify(record_id=ids[0]))
    _wait_for(lambda: _advisory_locks(granted=True) >= 2, "the first task's claims")
    # the second one's record is held: it verifies what it can take (ids[2]), then waits for ids[1]
    second, second_outcome = _in_thread(lambda: verify_burst.record_verify(record_id=ids[1]))
    _wait_for(lambda: _advisory_locks(granted=False) == 1, "the second task to wait for the held record")
    assert _statuses(ids) == ["pending", "pending", "valid", "pending"]
    release.set()
    first.join(timeout=30)
    second.join(timeout=30)
    assert first_outcome + second_outcome == ["valid", "valid"]
    assert _statuses(ids) == ["valid", "valid", "valid", "pending"]
    assert verify_burst.record_verify(record_id=ids[3]) == "valid"
    assert dict(replays) == {ids[2]: 1, ids[0]: 1, ids[1]: 1, ids[3]: 1}
    _settled_once(ids)


def test_a_failed_batch_leaves_its_records_to_their_own_tasks(
    postgres: None, replays: Counter[int], settings: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    settings.GAMES_VERIFY_BATCH_RECORDS = 8
    ids = _records(5)
    counting = game_services.verify_record_text
    failing = {ids[0], ids[2]}

    def broken(text: str, *, file: str) -> Any:
        if int(file.removeprefix("record-")) in failing:
            raise RuntimeError("engine failure")
        return counting(text, file=file)

    monkeypatch.setattr(game_services, "verify_record_text", broken)
    # its own record fails: nothing is stored, every claim is released
    with pytest.raises(RuntimeError):
        verify_burst.record_verify(record_id=ids[0])
    assert _statuses(ids) == ["pending"] * 5
    # records failing beside its own are left to their own tasks; the batch goes on without them
    assert verify_burst.record_verify(record_id=ids[1]) == "valid"
    assert _statuses(ids) == ["pending", "valid", "pending", "valid", "valid"]
    failing.clear()
    for record_id in ids:
        assert verify_burst.record_verify(record_id=record_id) == "valid"
    _settled_once(ids)


def test_tasks_racing_over_one_burst_verify_each_record_once(
    postgres: None, replays: Counter[int], settings: Any
) -> None:
    settings.GAMES_VERIFY_BATCH_RECORDS = 3
    ids = _records(12)
    outcomes = race([lambda r=record_id: verify_burst.record_verify(record_id=r) for record_id in ids[:4]])
    assert outcomes == ["valid"] * 4, outcomes
    for record_id in ids:
        assert verify_burst.record_verify(record_id=record_id) == "valid"
    assert set(replays.values()) == {1} and sorted(replays) == sorted(ids)
    _settled_once(ids)


def test_one_by_one_where_batches_are_turned_off(postgres: None, replays: Counter[int], settings: Any) -> None:
    settings.GAMES_VERIFY_BATCH_RECORDS = 1
    ids = _records(3)
    assert verify_burst.record_verify(record_id=ids[1]) == "valid"
    assert list(replays) == [ids[1]]
    assert _statuses(ids) == ["pending", "valid", "pending"]


def test_a_task_whose_connection_dies_mid_batch_loses_its_claims_and_nothing_else(
    postgres: None, replays: Counter[int], settings: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """As when a worker is killed: the database ends its connection's transaction, and with it the claims."""
    settings.GAMES_VERIFY_BATCH_RECORDS = 3
    ids = _records(4)
    release, backend = _hold_first_replay(monkeypatch, ids[0])
    # it claims ids[0..2], then its connection is ended in the middle of its replay
    thread, failures = _in_thread(lambda: verify_burst.record_verify(record_id=ids[0]))
    _wait_for(lambda: bool(backend) and _advisory_locks(granted=True) >= 3, "the doomed task's claims")
    with connection.cursor() as cursor:
        cursor.execute("SELECT pg_terminate_backend(%s)", [backend[0]])
    _wait_for(lambda: _advisory_locks(granted=True) == 0, "the claims to go with the connection")
    # the task of a record it held goes on at once (no wait), taking the oldest pending ones along
    assert verify_burst.record_verify(record_id=ids[1]) == "valid"
    assert _statuses(ids) == ["valid", "valid", "valid", "pending"]
    release.set()
    thread.join(timeout=30)
    assert len(failures) == 1 and type(failures[0]).__name__ in ("OperationalError", "InterfaceError"), failures
    assert verify_burst.record_verify(record_id=ids[0]) == "valid"  # its message, redelivered: nothing to do
    assert verify_burst.record_verify(record_id=ids[3]) == "valid"
    # the doomed task's replays were lost with it: its three records were replayed again, once
    assert [replays[pk] for pk in ids] == [2, 2, 2, 1], replays
    _settled_once(ids)


def test_a_burst_through_a_real_worker_killed_mid_batch_is_verified_once(worker_factory: Any) -> None:
    """The end of a round: 60 TAC records submitted one by one while no worker runs; a worker takes them
    in batches and is SIGKILLed after the first verdicts; a second worker finishes. Every record gets one
    verdict and its table one result, whatever batch the kill interrupted."""
    from games.demo import record_for_table
    from tournaments.profiles import profile_for

    organiser = get_user_model().objects.create_user("org-burst-worker")
    tournament = services.tournament_create(actor=organiser, name="Burst Worker Cup", game="tac", variant={})
    profile = profile_for("tac", {})
    tables = 60
    for i in range(tables * profile.entrants_per_table):
        services.entrant_register(actor=organiser, tournament=tournament, name=f"W{i}",
                                  player_names=[f"w{i}-{k}" for k in range(profile.players_per_entrant)])
    round_ = services.round_publish(actor=organiser,
                                    round=services.round_generate(actor=organiser, tournament=tournament))
    ids = [
        game_services.record_submit(table=table, actor=organiser, source="api", data=json.dumps(
            record_for_table(table, game="tac", variant={}, seed=table.number))).pk
        for table in round_.tables.order_by("number")
    ]
    assert len(ids) == tables and _statuses(ids) == ["pending"] * tables

    def verdicts() -> int:
        return RecordVerdict.objects.filter(record_id__in=ids).count()

    worker = worker_factory()
    _wait_for(lambda: verdicts() > 0, "the first verdicts", timeout=120)
    worker.kill()
    killed_at = verdicts()
    assert killed_at < tables, "the worker finished before it could be killed"
    worker_factory()
    _wait_for(lambda: verdicts() == tables and "pending" not in _statuses(ids), "every verdict", timeout=300)
    time.sleep(0.5)  # a redelivered task has nothing left to add
    _settled_once(ids)


def test_the_wait_for_a_held_record_is_bounded(postgres: None, monkeypatch: pytest.MonkeyPatch) -> None:
    """A task stuck with the record (a replay running away) makes the waiting task fail after
    CLAIM_WAIT_SECONDS with a database error, which its retry policy retries; nothing is written."""
    from django.db import OperationalError

    ids = _records(1)
    monkeypatch.setattr(verify_burst, "CLAIM_WAIT_SECONDS", 1)
    release = threading.Event()

    def holder() -> str:
        from django.db import transaction

        with transaction.atomic(), connection.cursor() as cursor:
            cursor.execute("SELECT pg_advisory_xact_lock(%s)", [verify_burst.claim_key(ids[0])])
            assert release.wait(timeout=30)
        return "released"

    thread, outcome = _in_thread(holder)
    _wait_for(lambda: _advisory_locks(granted=True) == 1, "the holder's claim")
    started = time.monotonic()
    with pytest.raises(OperationalError):
        verify_burst.record_verify(record_id=ids[0])
    assert 0.9 < time.monotonic() - started < 10
    assert _statuses(ids) == ["pending"]
    release.set()
    thread.join(timeout=30)
    assert outcome == ["released"]
    assert verify_burst.record_verify(record_id=ids[0]) == "valid"
