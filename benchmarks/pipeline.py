"""Game records through the whole pipeline: records verified per second from the API POST to the stored
verdict (and settled table), next to the engine's own speed on the same records.

With PostgreSQL and RabbitMQ configured (DATABASE_URL, CELERY_BROKER_URL) the verification runs in real
Celery workers (one process each, solo pool) on a throw-away test database; otherwise on a throw-away SQLite
database with eager tasks (the verification then runs inside the request, on commit).

Three figures per case: `api_posts_per_second` (with the real services: 4 concurrent HTTP clients POST
the records to gunicorn, `PIPELINE_HTTP_CLIENTS`, started here like the workers; without them one client
through the in-process test client), `pipeline_records_per_second` (end to end: from the first POST to the
last verdict) and, with workers, `worker_records_per_second` (the drain): the same number of fresh records
POSTed while the workers do not consume, then the queue drained by the worker processes (verify, settle,
and the notification task each report enqueues), from the moment they consume again to the last verdict
(`api_posts_per_second_no_consumer`: those POSTs, with no worker competing for the cores). `vs_engine`
compares the end-to-end rate with the engine alone on the same records (issue 26: the POSTs are part of
the pipeline); `drain_vs_engine` the drain's, as `vs_engine` did before.
"""

from __future__ import annotations

import gc
import json
import os
import random
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
# (game, variant, records): one table per record, so every record settles its own table. The end of a round
# of an 800-entrant TAKI tournament: 400 tables (80 TAKI records before the burst verification of
# games/verify_burst.py; the workers now drain those in about 0.1 s, too short to measure against the
# fixed latency of resuming consumption and polling for the last verdict).
# 400 TAC records (issue 26; 100 before): about four seconds end to end, so that the first requests of
# fresh gunicorn workers and a worker's first task no longer weigh on the figure.
CASES: list[tuple[str, dict[str, Any], int]] = [("taki", {"seats": 2}, 400), ("tac", {}, 400)]
# The bulk import (`POST /api/tournaments/<slug>/records/import/`): one JSON Lines file per case.
IMPORT_CASES: list[tuple[str, dict[str, Any], int]] = [("taki", {"seats": 2}, 400), ("tac", {}, 100)]
# PIPELINE_BENCH=records or =import runs one half only (both by default).
PARTS = {part.strip() for part in os.environ.get("PIPELINE_BENCH", "records,import").split(",")}


def _django() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()


def _real_services() -> bool:
    return os.environ.get("DATABASE_URL", "").startswith("postgres") and os.environ.get(
        "CELERY_BROKER_URL", "").startswith("amqp")


def _worker_name(index: int) -> str:
    return f"bench-{os.getpid()}-{index}@localhost"


def _worker(database_url: str, index: int = 0) -> subprocess.Popen[bytes]:
    import tempfile

    from benchmarks.room import _server_env

    # The served app's environment (benchmarks/room.py): DEBUG off as in production (with DEBUG on, the
    # worker kept a log of every query it ran), and the cache shared with gunicorn, one deployment, so that
    # the verification tasks coalesce per tournament as in production (games/verify_burst.py).
    env = _server_env(database_url, tempfile.gettempdir())
    name = _worker_name(index)
    log = Path(f"/tmp/celery-{name.split('@')[0]}.log")

    def other_cores() -> None:  # the driver is pinned to one core; a worker may use every core
        if hasattr(os, "sched_setaffinity"):
            os.sched_setaffinity(0, set(range(os.cpu_count() or 1)))

    # The broker heartbeat stays on (never --without-heartbeat): before config.celery.SoloAcksAtOnce the
    # solo worker sent a task's ack only at the event loop's next timer, 10 s without the heartbeat.
    process = subprocess.Popen(
        [sys.executable, "-m", "celery", "-A", "config", "worker", "--pool=solo", "-l", "warning", "-n", name,
         "--without-gossip", "--without-mingle"],
        cwd=ROOT, env=env, stdout=log.open("wb"), stderr=subprocess.STDOUT, preexec_fn=other_cores,
    )
    deadline = time.monotonic() + 60
    from config.celery import app

    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"the worker exited: {log.read_text()[-2000:]}")
        if app.control.ping(destination=[name], timeout=0.5):
            return process
    process.kill()
    raise RuntimeError("the worker did not start within 60 s")


def _setup_case(game: str, variant: dict[str, Any], count: int, organiser: Any) -> list[tuple[int, str]]:
    """A tournament with `count` tables and one relabelled random record per table: [(table id, text)]."""
    from games.demo import table_players
    from rules.core.registry import get_engine
    from tournaments import services
    from tournaments.profiles import profile_for

    profile = profile_for(game, variant)
    tournament = services.tournament_create(actor=organiser, name=f"Bench {game}", game=game, variant=variant)
    for i in range(count * profile.entrants_per_table):
        services.entrant_register(actor=organiser, tournament=tournament, name=f"B{i}",
                                  player_names=[f"b{i}-{k}" for k in range(profile.players_per_entrant)])
    round_ = services.round_publish(actor=organiser,
                                    round=services.round_generate(actor=organiser, tournament=tournament))
    rng = random.Random(2026)
    out = []
    for table in round_.tables.filter(is_bye=False).order_by("number"):
        record = get_engine(game).random_record(dict(variant), rng)
        record["players"] = table_players(table)
        out.append((table.pk, json.dumps(record)))
    _analyze()
    return out


def _analyze() -> None:
    """The planner's statistics brought up to date, as autovacuum has done in a running deployment by the
    time a round's records arrive (registration comes minutes or days before): in a throw-away database
    just filled, PostgreSQL would otherwise plan the records' joins for empty tables (sequential scans of
    the 800 entrants and 1,600 players of a 400-table case, about a millisecond per POST)."""
    from django.db import connection

    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("ANALYZE")


HTTP_CLIENTS = int(os.environ.get("PIPELINE_HTTP_CLIENTS", "4"))
_http: dict[str, Any] = {}  # port and organiser token once gunicorn serves the throw-away database


def _post_all(records: list[tuple[int, str]], organiser: Any) -> list[int]:
    if _http:
        return _post_all_http(records, _http["port"], _http["token"])
    from django.test import Client

    client = Client()
    client.force_login(organiser)
    ids = []
    for table_id, text in records:
        response = client.post(f"/api/tables/{table_id}/records/", data=text, content_type="application/json")
        assert response.status_code == 201, response.content[:300]
        ids.append(response.json()["id"])
    return ids


def _post_all_http(records: list[tuple[int, str]], port: int, token: str) -> list[int]:
    """The records POSTed to gunicorn by HTTP_CLIENTS concurrent clients (keep-alive connections)."""
    import http.client
    import threading

    ids: dict[int, int] = {}
    errors: list[str] = []

    def client(offset: int) -> None:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
        try:
            for index in range(offset, len(records), HTTP_CLIENTS):
                table_id, text = records[index]
                conn.request("POST", f"/api/tables/{table_id}/records/", body=text.encode(),
                             headers={"Authorization": f"Token {token}", "Content-Type": "application/json",
                                      "Accept": "application/json"})
                response = conn.getresponse()
                body = response.read()
                if response.status != 201:
                    errors.append(f"{response.status} {body[:300]!r}")
                    return
                ids[index] = json.loads(body)["id"]
        finally:
            conn.close()

    threads = [threading.Thread(target=client, args=(k,)) for k in range(HTTP_CLIENTS)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not errors, errors[:3]
    return [ids[index] for index in range(len(records))]


def _verdicts_after() -> int:
    """The newest verdict's id: `_wait_for_verdicts` counts the verdicts stored after it."""
    from games.models import RecordVerdict

    return RecordVerdict.objects.order_by("-pk").values_list("pk", flat=True).first() or 0


def _wait_for_verdicts(after: int, count: int) -> None:
    """Until `count` verdicts are stored after the verdict `after`, looked at every 10 ms by one statement
    on the primary key's index, written out once: the driver shares the two cores with what it measures,
    and the ORM's count of the whole table (compiled each time, and a scan that grew with every case)
    took its share of them."""
    from django.db import connection

    from games.models import RecordVerdict

    sql = f"SELECT count(*) FROM {connection.ops.quote_name(RecordVerdict._meta.db_table)} WHERE id > %s"
    deadline = time.monotonic() + 300
    with connection.cursor() as cursor:
        while True:
            cursor.execute(sql, [after])
            if cursor.fetchone()[0] >= count:
                return
            if time.monotonic() > deadline:
                raise RuntimeError("verdicts did not arrive within 300 s")
            time.sleep(0.01)


def _engine_rate(texts: list[str]) -> float:
    """The engine alone on these records (text to verdict, one core): the best of three passes, so that a
    moment of load on the shared machine does not lower the bar the pipeline is compared with."""
    from config.celery import tune_garbage_collector
    from rules.core.replay import verify_bytes

    # The garbage collector tuned as in the workers (the driver's own objects, Django and the rows read so
    # far, frozen out of its way): the bar is the engine in the same conditions as the pipeline.
    threshold = gc.get_threshold()
    tune_garbage_collector()
    best = float("inf")
    try:
        for _ in range(3):
            started = time.perf_counter()
            for text in texts:
                assert verify_bytes(text).valid
            best = min(best, time.perf_counter() - started)
    finally:
        gc.unfreeze()
        gc.set_threshold(*threshold)
    return len(texts) / best


def _measure(records: list[tuple[int, str]], organiser: Any, real: bool) -> dict[str, Any]:
    from games.models import GameRecord

    engine_rate = _engine_rate([text for _, text in records])

    before = _verdicts_after()
    started = time.perf_counter()
    ids = _post_all(records, organiser)
    posted = time.perf_counter() - started
    _wait_for_verdicts(before, len(records))
    elapsed = time.perf_counter() - started
    settled = GameRecord.objects.filter(pk__in=ids, settlement=GameRecord.Settlement.SETTLED).count()
    return {
        "records": len(records),
        "bytes_per_record": round(sum(len(t) for _, t in records) / len(records)),
        "pipeline_records_per_second": round(len(records) / elapsed, 1),
        "api_posts_per_second": round(len(records) / posted, 1),
        "engine_records_per_second": round(engine_rate, 1),
        "tables_settled": settled,  # score games settle only with the rules trace (final position)
        "mode": "worker" if real else "eager",
        "posting": f"{HTTP_CLIENTS} HTTP clients, gunicorn" if _http else "1 in-process test client",
    }


def _measure_workers(records: list[tuple[int, str]], organiser: Any, names: list[str]) -> tuple[float, float]:
    """Records/s the worker processes `names` verify and settle from a full queue: the records are POSTed
    while the workers do not consume, then timed from the moment they consume again to the last verdict.
    Also the POSTs/s of that first phase (no worker competing for the cores)."""
    from config.celery import app
    from games.models import GameRecord

    queue = app.conf.task_default_queue
    app.control.cancel_consumer(queue, destination=names, reply=True, timeout=5)
    before = _verdicts_after()
    started = time.perf_counter()
    try:
        ids = _post_all(records, organiser)
        post_rate = len(records) / (time.perf_counter() - started)
    finally:
        started = time.perf_counter()
        app.control.add_consumer(queue, destination=names, reply=True, timeout=5)
    _wait_for_verdicts(before, len(records))
    elapsed = time.perf_counter() - started
    assert GameRecord.objects.filter(pk__in=ids, status=GameRecord.Status.VALID).count() == len(records)
    return len(records) / elapsed, post_rate


def _measure_import(records: list[tuple[int, str]], organiser: Any, real: bool) -> dict[str, Any]:
    """From the POST of one JSON Lines file with every record to the batch done: every record verified
    and its table settled. Every other record names its table in `meta`, the others are found by players."""
    from django.test import Client

    from games.models import GameRecord, ImportBatch
    from tournaments.models import Table

    lines = []
    tables = {t.pk: t for t in Table.objects.select_related("round").filter(pk__in=[pk for pk, _ in records])}
    for number, (table_id, text) in enumerate(records):
        doc = json.loads(text)
        if number % 2 == 0:
            doc["meta"] = {"round": tables[table_id].round.number, "table": tables[table_id].number}
        lines.append(json.dumps(doc))
    engine_rate = _engine_rate(lines)

    client = Client()
    client.force_login(organiser)
    slug = tables[records[0][0]].round.tournament.slug
    started = time.perf_counter()
    response = client.post(f"/api/tournaments/{slug}/records/import/?filename=season.jsonl",
                           data="\n".join(lines).encode(), content_type="application/x-ndjson")
    assert response.status_code == 202, response.content[:300]
    batch_id = response.json()["id"]
    posted = time.perf_counter() - started
    deadline = time.monotonic() + 600
    while ImportBatch.objects.filter(pk=batch_id).values_list("status", flat=True).get() not in ("done", "failed"):
        if time.monotonic() > deadline:
            raise RuntimeError("the import did not finish within 600 s")
        time.sleep(0.02)
    elapsed = time.perf_counter() - started
    batch = ImportBatch.objects.get(pk=batch_id)
    records_of = GameRecord.objects.filter(batch_id=batch_id)
    assert (batch.status, batch.processed, records_of.count()) == ("done", len(lines), len(lines)), batch
    assert not records_of.exclude(status=GameRecord.Status.VALID).exists()
    settled = records_of.filter(settlement=GameRecord.Settlement.SETTLED).count()
    assert settled == len(lines), f"{settled} of {len(lines)} tables settled"
    return {
        "records": len(lines),
        "bytes_per_record": round(sum(len(line) for line in lines) / len(lines)),
        "import_records_per_second": round(len(lines) / elapsed, 1),
        "import_post_seconds": round(posted, 3),
        "engine_records_per_second": round(engine_rate, 1),
        "tables_settled": settled,
        "mode": "worker" if real else "eager",
    }


def _serve(database_url: str) -> subprocess.Popen[bytes]:
    """gunicorn on the throw-away database (benchmarks/room.py's stack: DEBUG off, throttles raised), and
    an API token of the organiser for the HTTP clients."""
    import argparse
    import tempfile

    from django.contrib.auth import get_user_model
    from rest_framework.authtoken.models import Token

    from benchmarks.room import _gunicorn, _server_env

    tmp = tempfile.mkdtemp(prefix="bench-pipeline-")
    env = _server_env(database_url, tmp)
    env["API_THROTTLE_USER"] = "1000000/min"
    subprocess.run([sys.executable, "manage.py", "collectstatic", "--noinput", "-v0"], cwd=ROOT, env=env,
                   check=True, timeout=300)
    port = int(os.environ.get("PIPELINE_BENCH_PORT", "18650"))
    server = _gunicorn(env, argparse.Namespace(port=port, gunicorn_workers=3, worker_class="sync", threads=1))
    organiser = get_user_model().objects.get(username="bench-organiser")
    _http.update(port=port, token=Token.objects.get_or_create(user=organiser)[0].key, tmp=tmp)
    return server


def _drain(real: bool) -> None:
    """Wait until the workers' queue is empty and no worker runs a task: the tasks an earlier case left
    (the notifications and standings recomputation of its results) must not be counted against the next
    one, nor share the cores with the engine-alone pass that sets its bar."""
    if not real:
        return
    from django.conf import settings

    from config.celery import app

    deadline = time.monotonic() + 300
    idle = 0
    with app.connection_for_write() as conn:
        while idle < 3 and time.monotonic() < deadline:
            _name, waiting, _consumers = conn.default_channel.queue_declare(
                settings.CELERY_TASK_DEFAULT_QUEUE, passive=True)
            active = app.control.inspect(timeout=0.5).active() or {}
            busy = any(tasks for name, tasks in active.items() if name.startswith(f"bench-{os.getpid()}-"))
            idle = idle + 1 if waiting == 0 and not busy else 0
            time.sleep(0.1)


def _import_figures(figures: dict[str, Any], organiser: Any, real: bool, count_workers: int) -> None:
    for game, variant, count in IMPORT_CASES:
        records = _setup_case(game, variant, count, organiser)
        _drain(real)
        key = f"{game}_import" if count_workers == 1 else f"{game}_import_two_workers"
        figures[key] = _measure_import(records, organiser, real)
        figures[key]["worker_processes"] = count_workers if real else 0
        figures[key]["vs_engine"] = round(
            figures[key]["import_records_per_second"] / figures[key]["engine_records_per_second"], 2)


def run() -> dict[str, Any]:
    _django()
    from django.contrib.auth import get_user_model
    from django.db import connection
    from django.test.utils import setup_test_environment, teardown_test_environment

    from config.celery import app
    from tournaments.api_throttles import ApiRateThrottle

    real = _real_services()
    setup_test_environment()
    old_name = connection.settings_dict["NAME"]
    connection.creation.create_test_db(verbosity=0, autoclobber=True)
    workers: list[subprocess.Popen[bytes]] = []
    server: subprocess.Popen[bytes] | None = None
    previous_eager = app.conf.task_always_eager
    # The driver POSTs hundreds of records a minute as one user (id 1 in every throw-away database, so two
    # runs in a row share a bucket): a rate it never reaches, the throttle still doing its work per request.
    previous_rates = ApiRateThrottle.THROTTLE_RATES
    ApiRateThrottle.THROTTLE_RATES = {**previous_rates, "user": "1000000/min"}
    try:
        organiser = get_user_model().objects.create_user("bench-organiser", is_superuser=True)
        figures: dict[str, Any] = {}
        if not real:
            app.conf.task_always_eager = True
            for game, variant, count in CASES if "records" in PARTS else []:
                figures[game] = _measure(_setup_case(game, variant, count, organiser), organiser, real)
            if "import" in PARTS:
                _import_figures(figures, organiser, real, 1)
            return figures
        db = connection.settings_dict
        auth = db["USER"] + (f":{db['PASSWORD']}" if db.get("PASSWORD") else "")
        url = f"postgres://{auth}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}/{db['NAME']}"
        app.conf.task_always_eager = False
        app.control.purge()
        if os.environ.get("REDIS_URL"):
            server = _serve(url)
        # The same records through one worker process, then two (fresh tables each time); the engine-alone
        # rate of those records is measured in the same run, just before.
        for count_workers in (1, 2):
            while len(workers) < count_workers:
                workers.append(_worker(url, len(workers)))
            names = [_worker_name(index) for index in range(count_workers)]
            for game, variant, count in CASES if "records" in PARTS else []:
                key = game if count_workers == 1 else f"{game}_two_workers"
                figures[key] = _measure(_setup_case(game, variant, count, organiser), organiser, real)
                figures[key]["worker_processes"] = count_workers
                worker_rate, post_rate = _measure_workers(_setup_case(game, variant, count, organiser), organiser,
                                                          names)
                figures[key]["worker_records_per_second"] = round(worker_rate, 1)
                figures[key]["api_posts_per_second_no_consumer"] = round(post_rate, 1)
                engine = figures[key]["engine_records_per_second"]
                figures[key]["vs_engine"] = round(figures[key]["pipeline_records_per_second"] / engine, 2)
                figures[key]["drain_vs_engine"] = round(worker_rate / engine, 2)
            if "import" in PARTS:
                _import_figures(figures, organiser, real, count_workers)
        figures["load_average"] = [round(x, 2) for x in os.getloadavg()]
        return figures
    finally:
        if server is not None:
            from benchmarks.room import _stop

            _stop(server)
            import shutil

            shutil.rmtree(_http.get("tmp", ""), ignore_errors=True)
            _http.clear()
            Path(f"/tmp/bench-room-gunicorn-{os.getpid()}.log").unlink(missing_ok=True)
        for index, worker in enumerate(workers):
            worker.terminate()
            worker.wait(timeout=30)
            Path(f"/tmp/celery-bench-{os.getpid()}-{index}.log").unlink(missing_ok=True)
        app.conf.task_always_eager = previous_eager
        ApiRateThrottle.THROTTLE_RATES = previous_rates
        connection.creation.destroy_test_db(old_name, verbosity=0)
        teardown_test_environment()
