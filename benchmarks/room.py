"""A room records live (issue 26): tables entering TAC games through the scoresheet API while a hall
reads the public pages, on the real stack: PostgreSQL, Redis, RabbitMQ, a Celery worker and gunicorn,
all started here on a throw-away database (like benchmarks/pipeline.py).

    python -m benchmarks room                      # 32 tables, 10 entries/s asked, 100 readers
    python -m benchmarks room --tables 8 --duration 20 --flat-tables 4 --readers 50   # a smaller run

Parts, each printed in the JSON:

- `trivial_vs_cached` (first, nothing else running): wrk with 50 connections for `--throughput-seconds`
  on the constant view (`/healthz`), the cached standings page (HTML) and the public JSON standings,
  requests/s and p95, and each page's ratio to the constant view.
- `room` (the paced part): `--tables` tables (default 32) of a public 2-team TAC tournament each start a
  sheet with an entrant's report token and enter a random legal game (`rules` random records) through
  `POST /api/scoresheets/<id>/entries/` with the sheet's version, on an open-loop schedule (exponential
  think time) that asks `--rate` entries/s in all (default 10) for `--duration` seconds, while
  `--readers` connections (default 100; wrk, one connection per thread, else Python threads) read the
  tournament's standings page, round page and JSON standings flat out with conditional GET (each
  connection keeps each page's ETag). Figures: entries asked and served per second, served share, entry
  p50/p95/p99, bytes per answer on the wire (gzip asked), page p95 and how many reads were 304.
- `flat_out`: `--flat-tables` tables (default 4) of a second tournament enter whole games with no think
  time and finish them (`POST /api/scoresheets/<id>/finish/`): entries/s in the first `--window` seconds
  (early in the games) and in the `--window` seconds before the first table's last entry (late), and the
  freshness: from the moment a table's result is final (the sheet finished, the record verified by the
  worker and reported for the finishing entrant, the opponent's confirmation answered) to the public JSON
  standings (polled with conditional GET every 50 ms) showing it; `last_of_round_seconds` is that of the
  round's last table.

The app is served as in production: DEBUG off, `DB_CONN_MAX_AGE=60` (docs/operations.md). `--parts`
runs some parts only. The throttles are raised for the served app (`SCORESHEET_THROTTLE_RATE`, `API_THROTTLE_*`): every client
here shares one address, the flat-out tables enter several entries a second and poll their table for the
verified result; each request still pays the throttle's counter. Figures on a shared machine are noisy:
the load average is printed at the start and the end. Without PostgreSQL and RabbitMQ configured the
benchmark is skipped. Ports: `--port` (default 18600, env ROOM_BENCH_PORT).
"""

from __future__ import annotations

import argparse
import gzip
import http.client
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
HOST = "127.0.0.1"
_options: list[str] = []


def configure(argv: list[str]) -> None:
    """Options for the next `run()` (`python -m benchmarks room --tables 8 ...`)."""
    _parser().parse_args(argv)  # exits with the usage on a bad option
    _options[:] = argv


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m benchmarks room", description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=32, help="tables entering at their pace (default 32)")
    parser.add_argument("--rate", type=float, default=10.0, help="entries/s asked by all tables together (10)")
    parser.add_argument("--duration", type=float, default=60.0, help="seconds of the paced part (60)")
    parser.add_argument("--readers", type=int, default=100, help="connections reading public pages (100)")
    parser.add_argument("--flat-tables", type=int, default=4, help="tables entering whole games flat out (4)")
    parser.add_argument("--window", type=float, default=10.0, help="seconds of the early and late windows (10)")
    parser.add_argument("--throughput-seconds", type=int, default=6, help="wrk seconds per page, 50 connections")
    parser.add_argument("--gunicorn-workers", type=int, default=3, help="gunicorn worker processes (3)")
    parser.add_argument("--worker-class", default="sync", help="gunicorn worker class (sync; gthread, ...)")
    parser.add_argument("--threads", type=int, default=1, help="gunicorn threads per worker (gthread)")
    parser.add_argument("--port", type=int, default=int(os.environ.get("ROOM_BENCH_PORT", "18600")))
    parser.add_argument("--seed", type=int, default=26)
    parser.add_argument("--no-wrk", action="store_true", help="read with Python threads even if wrk is installed")
    parser.add_argument("--parts", default="throughput,room,flat",
                        help="which parts to run, comma-separated (throughput,room,flat)")
    return parser


def _real_services() -> bool:
    return os.environ.get("DATABASE_URL", "").startswith("postgres") and os.environ.get(
        "CELERY_BROKER_URL", "").startswith("amqp") and bool(os.environ.get("REDIS_URL"))


def _all_cores() -> None:
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, set(range(os.cpu_count() or 1)))


def _load() -> list[float]:
    return [round(x, 2) for x in os.getloadavg()]


def _pct(values: list[float], q: float) -> float | None:
    if not values:
        return None
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(q / 100 * (len(ordered) - 1))))]


def _ms(value: float | None) -> float | None:
    return None if value is None else round(value * 1000, 1)


# --- the stack --------------------------------------------------------------------------------------


def _server_env(database_url: str, tmp: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("CELERY_TASK_ALWAYS_EAGER", "DJANGO_SETTINGS_MODULE")}
    env.update({
        "DATABASE_URL": database_url, "CELERY_TASK_ALWAYS_EAGER": "False", "DEBUG": "False",
        "SECRET_KEY": "bench-room-" + "x" * 60, "ALLOWED_HOSTS": f"{HOST},localhost",
        "SECURE_SSL_REDIRECT": "False", "SESSION_COOKIE_SECURE": "False", "CSRF_COOKIE_SECURE": "False",
        "SECURE_HSTS_SECONDS": "0", "DB_CONN_MAX_AGE": "60", "CACHE_KEY_PREFIX": f"bench-room-{os.getpid()}", "LOG_LEVEL": "ERROR",
        "STATIC_ROOT": f"{tmp}/static", "SCORESHEET_THROTTLE_RATE": "1000000/min",
        "API_THROTTLE_ANON_READ": "100000000/min", "API_THROTTLE_ANON": "1000000/min",
        "API_THROTTLE_REPORT_TOKEN": "1000000/min", "PYTHONPATH": str(ROOT),
    })
    return env


def _gunicorn(env: dict[str, str], args: argparse.Namespace) -> subprocess.Popen[bytes]:
    command = [sys.executable, "-m", "gunicorn", "config.wsgi", "-b", f"{HOST}:{args.port}",
               "-w", str(args.gunicorn_workers), "-k", args.worker_class, "--timeout", "60", "--backlog", "2048",
               "--log-level", "warning"]
    if args.threads > 1:
        command += ["--threads", str(args.threads)]
    log = Path(f"/tmp/bench-room-gunicorn-{os.getpid()}.log")
    process = subprocess.Popen(command, cwd=ROOT, env=env, stdout=log.open("wb"), stderr=subprocess.STDOUT,
                               preexec_fn=_all_cores)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"gunicorn exited: {log.read_text()[-2000:]}")
        try:
            urllib.request.urlopen(f"http://{HOST}:{args.port}/healthz", timeout=2).read()
            return process
        except OSError:
            time.sleep(0.3)
    process.kill()
    raise RuntimeError("gunicorn did not answer within 120 s")


def _celery_worker(env: dict[str, str]) -> subprocess.Popen[bytes]:
    name = f"bench-room-{os.getpid()}@localhost"
    log = Path(f"/tmp/bench-room-celery-{os.getpid()}.log")
    process = subprocess.Popen(
        [sys.executable, "-m", "celery", "-A", "config", "worker", "--pool=solo", "-l", "warning", "-n", name,
         "--without-gossip", "--without-mingle"],
        cwd=ROOT, env=env, stdout=log.open("wb"), stderr=subprocess.STDOUT, preexec_fn=_all_cores)
    from config.celery import app

    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"the worker exited: {log.read_text()[-2000:]}")
        if app.control.ping(destination=[name], timeout=0.5):
            return process
    process.kill()
    raise RuntimeError("the worker did not start within 60 s")


def _stop(process: subprocess.Popen[bytes] | None) -> None:
    if process is None or process.poll() is not None:
        return
    process.terminate()
    try:
        process.wait(timeout=30)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait(timeout=10)


# --- data -------------------------------------------------------------------------------------------




def _tournament(organiser: Any, name: str, tables: int, seed: int) -> tuple[Any, list[dict[str, Any]]]:
    """A public TAC tournament with `tables` tables in its published first round, and per table what its
    client needs: table id, a report token of an entrant at it, the entrants, the dealer and the entries."""
    from django.db import transaction

    from rules.core.registry import get_engine
    from rules.scoresheet import record_entries
    from tournaments import services
    from tournaments.services.entrants import _register

    tournament = services.tournament_create(actor=organiser, name=name, game="tac", variant={}, is_public=True,
                                            rounds_planned=3)
    with transaction.atomic():
        for i in range(tables * 2):
            _register(actor=organiser, tournament=tournament, name=f"Team {i + 1:03d}",
                      player_names=[f"P{i + 1}a", f"P{i + 1}b"], player_ids=(), club=None, seed=i + 1, rating=None,
                      group=1)
    round_ = services.round_publish(actor=organiser,
                                    round=services.round_generate(actor=organiser, tournament=tournament))
    rng = random.Random(seed)
    engine = get_engine("tac")
    out = []
    for table in round_.tables.filter(is_bye=False).order_by("number").prefetch_related("seats__entrant"):
        entrants = [seat.entrant for seat in sorted(table.seats.all(), key=lambda s: s.position)]
        record = engine.random_record({}, rng)
        out.append({"table": table.pk, "number": table.number, "token": entrants[0].report_token,
                    "opponent_token": entrants[1].report_token,
                    "entrants": [e.pk for e in entrants], "dealer": record["deals"][0]["dealer"],
                    "entries": record_entries(record)})
    return tournament, out


# --- HTTP clients -----------------------------------------------------------------------------------


class _Http:
    """One keep-alive connection; answers decoded from gzip when the server compressed them."""

    def __init__(self, port: int) -> None:
        self.port = port
        self.conn = http.client.HTTPConnection(HOST, port, timeout=60)

    def request(self, method: str, path: str, body: Any = None,
                headers: dict[str, str] | None = None) -> tuple[int, dict[str, str], bytes, int]:
        data = json.dumps(body).encode() if body is not None else None
        all_headers = {"Accept": "application/json", "Accept-Encoding": "gzip", **(headers or {})}
        if data is not None:
            all_headers["Content-Type"] = "application/json"
        for attempt in range(2):
            try:
                self.conn.request(method, path, body=data, headers=all_headers)
                response = self.conn.getresponse()
                raw = response.read()
                break
            except (http.client.HTTPException, OSError):
                self.conn.close()
                self.conn = http.client.HTTPConnection(HOST, self.port, timeout=60)
                if attempt:
                    raise
        head = {k.lower(): v for k, v in response.getheaders()}
        payload = gzip.decompress(raw) if head.get("content-encoding") == "gzip" else raw
        return response.status, head, payload, len(raw)


def _version_of(answer: Any, fallback: int) -> int:
    """The sheet's version in an answer, wherever the (evolving) answer keeps it."""
    if isinstance(answer, dict):
        for candidate in (answer, answer.get("sheet"), answer.get("scoresheet"),
                          (answer.get("error") or {}).get("details"),
                          ((answer.get("error") or {}).get("details") or {}).get("sheet")):
            if isinstance(candidate, dict) and isinstance(candidate.get("version"), int):
                return int(candidate["version"])
    return fallback


class _Table(threading.Thread):
    """One table's phone: start a sheet, enter the game's entries on a schedule (or flat out), finish."""

    def __init__(self, port: int, spec: dict[str, Any], *, mean_gap: float, stop_at: float, finish: bool,
                 rng: random.Random, log: list[tuple[float, float, int, int, int]],
                 finished: dict[int, float], lock: threading.Lock) -> None:
        super().__init__(daemon=True)
        self.port, self.spec, self.mean_gap, self.stop_at, self.finish = port, spec, mean_gap, stop_at, finish
        self.rng, self.log, self.finished, self.lock = rng, log, finished, lock
        self.asked = 0
        self.errors: list[str] = []
        self.last_entry_at: float | None = None

    def run(self) -> None:
        try:
            self._run()
        except Exception as exc:  # reported in the figures; the other tables go on
            self.errors.append(repr(exc)[:300])

    def _run(self) -> None:
        http_ = _Http(self.port)
        token = {"X-Report-Token": self.spec["token"]}
        status, _h, body, _n = http_.request("POST", f"/api/tables/{self.spec['table']}/scoresheet/",
                                             {"dealer": self.spec["dealer"]}, token)
        if status != 201:
            raise RuntimeError(f"start: {status} {body[:300]!r}")
        answer = json.loads(body)
        sheet, version = answer["id"], _version_of(answer, 0)
        due = time.monotonic()
        entries = self.spec["entries"]
        for index, entry in enumerate(entries):
            if self.mean_gap > 0:
                due += self.rng.expovariate(1 / self.mean_gap)
                if due >= self.stop_at:
                    return
                time.sleep(max(0.0, due - time.monotonic()))
            elif time.monotonic() >= self.stop_at:
                return
            self.asked += 1
            while True:
                started = time.monotonic()
                status, head, body, wire = http_.request("POST", f"/api/scoresheets/{sheet}/entries/",
                                                         {"version": version, "entry": entry}, token)
                ended = time.monotonic()
                with self.lock:
                    self.log.append((ended, ended - started, status, wire, index))
                if status == 429:
                    time.sleep(float(head.get("retry-after", "1")))
                    continue
                answer = json.loads(body) if body else {}
                if status == 409 and (answer.get("error") or {}).get("code") == "scoresheet_stale":
                    version = _version_of(answer, version)
                    continue
                if status != 200:
                    raise RuntimeError(f"entry {index}: {status} {body[:300]!r}")
                version = _version_of(answer, version + 1)
                break
        self.last_entry_at = time.monotonic()
        if self.finish:
            status, _h, body, _n = http_.request("POST", f"/api/scoresheets/{sheet}/finish/", {"version": version},
                                                 token)
            if status != 201:
                raise RuntimeError(f"finish: {status} {body[:300]!r}")
            self._confirm(http_)

    def _confirm(self, http_: _Http) -> None:
        """The record is verified by the worker and reported for the finishing entrant; the opponent
        confirms it (their report token), which makes it final: the moment the freshness counts from."""
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            status, _h, body, _n = http_.request("GET", f"/api/tables/{self.spec['table']}/",
                                                 headers={"X-Report-Token": self.spec["opponent_token"]})
            table = json.loads(body) if status == 200 else {}
            if table.get("result"):
                break
            pending = table.get("pending") or {}
            if pending.get("id"):
                status, _h, body, _n = http_.request("POST", f"/api/results/{pending['id']}/confirm/", {},
                                                     {"X-Report-Token": self.spec["opponent_token"]})
                if status != 200:
                    raise RuntimeError(f"confirm: {status} {body[:300]!r}")
                break
            time.sleep(0.1)
        else:
            raise RuntimeError("the record's result did not arrive within 120 s")
        with self.lock:
            self.finished[self.spec["table"]] = time.monotonic()


def _watch_standings(port: int, slug: str, tables: list[dict[str, Any]], stop: threading.Event,
                     seen: dict[int, float]) -> None:
    """Poll the public JSON standings with conditional GET every 50 ms; note when each table's
    entrants first show a game played."""
    http_ = _Http(port)
    etag = None
    path = f"/api/tournaments/{slug}/standings/?page_size=500"
    by_entrant = {e: spec["table"] for spec in tables for e in spec["entrants"]}
    while not stop.is_set():
        status, head, body, _n = http_.request("GET", path, headers={"If-None-Match": etag} if etag else {})
        now = time.monotonic()
        if status == 200:
            etag = head.get("etag")
            played: dict[int, int] = {}
            for row in json.loads(body).get("rows", []):
                table = by_entrant.get(row["entrant"])
                if table is not None and row.get("games_played", 0) >= 1:
                    played[table] = played.get(table, 0) + 1
            for table, count in played.items():
                if count >= 2 and table not in seen:
                    seen[table] = now
        stop.wait(0.05)


# --- readers ----------------------------------------------------------------------------------------

WRK_CONDITIONAL = """
local paths = {%(paths)s}
local threads = {}
function setup(thread) table.insert(threads, thread) end
function init(args) etags = {}; i = 0; current = paths[1]; ok = 0; nm = 0; other = 0; bytes = 0 end
function request()
  i = i %% #paths + 1
  current = paths[i]
  local headers = {["Accept-Encoding"] = "gzip"}
  if etags[current] then headers["If-None-Match"] = etags[current] end
  return wrk.format("GET", current, headers)
end
function response(status, headers, body)
  if status == 200 then
    ok = ok + 1
    bytes = bytes + #body
    if headers["ETag"] then etags[current] = headers["ETag"] end
  elseif status == 304 then nm = nm + 1
  else other = other + 1 end
end
function done(summary, latency, requests)
  local o, n, x, b = 0, 0, 0, 0
  for _, t in ipairs(threads) do
    o = o + t:get("ok"); n = n + t:get("nm"); x = x + t:get("other"); b = b + t:get("bytes")
  end
  local e = summary.errors
  io.write(string.format('WRK {"requests": %%d, "seconds": %%.3f, "p50_ms": %%.1f, "p95_ms": %%.1f, '
    .. '"p99_ms": %%.1f, "errors": %%d, "ok_200": %%d, "not_modified_304": %%d, "other_status": %%d, '
    .. '"bytes_200": %%d}\\n', summary.requests, summary.duration / 1e6, latency:percentile(50) / 1000,
    latency:percentile(95) / 1000, latency:percentile(99) / 1000, e.connect + e.read + e.write + e.timeout,
    o, n, x, b))
end
"""


def _wrk(port: int, paths: list[str], connections: int, threads: int, seconds: float, script_dir: str,
         conditional: bool) -> subprocess.Popen[str]:
    script = Path(script_dir) / f"wrk-{len(paths)}-{int(conditional)}-{time.monotonic_ns()}.lua"
    if conditional:
        script.write_text(WRK_CONDITIONAL % {"paths": ", ".join(json.dumps(p) for p in paths)})
    else:
        script.write_text((WRK_CONDITIONAL % {"paths": json.dumps(paths[0])}).replace(
            'if etags[current] then headers["If-None-Match"] = etags[current] end', ""))
    return subprocess.Popen(
        ["/usr/bin/wrk", f"-t{threads}", f"-c{connections}", f"-d{max(1, int(round(seconds)))}s", "--timeout", "10s",
         "-s", str(script), f"http://{HOST}:{port}{paths[0]}"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, preexec_fn=_all_cores)


def _wrk_result(process: subprocess.Popen[str], timeout: float) -> dict[str, Any]:
    out, err = process.communicate(timeout=timeout)
    line = next((line for line in out.splitlines() if line.startswith("WRK ")), None)
    if line is None:
        raise RuntimeError(f"wrk: {out[-500:]} {err[-500:]}")
    figures: dict[str, Any] = json.loads(line[4:])
    figures["requests_per_second"] = round(figures["requests"] / figures["seconds"], 1)
    return figures


class _PythonReaders:
    """The readers without wrk: one thread per connection, conditional GET in a loop."""

    def __init__(self, port: int, paths: list[str], connections: int, seconds: float, conditional: bool) -> None:
        self.times: list[float] = []
        self.counts = {"ok_200": 0, "not_modified_304": 0, "other_status": 0, "bytes_200": 0}
        self.lock = threading.Lock()
        self.stop_at = time.monotonic() + seconds
        self.started = time.monotonic()
        self.threads = [threading.Thread(target=self._loop, args=(port, paths, k, conditional), daemon=True)
                        for k in range(connections)]
        for thread in self.threads:
            thread.start()

    def _loop(self, port: int, paths: list[str], offset: int, conditional: bool) -> None:
        http_ = _Http(port)
        etags: dict[str, str] = {}
        i = offset
        while time.monotonic() < self.stop_at:
            path = paths[i % len(paths)]
            i += 1
            started = time.monotonic()
            try:
                status, head, _body, wire = http_.request(
                    "GET", path, headers={"If-None-Match": etags[path]} if conditional and path in etags else {})
            except OSError:
                status, head, wire = 0, {}, 0
            took = time.monotonic() - started
            with self.lock:
                self.times.append(took)
                if status == 200:
                    self.counts["ok_200"] += 1
                    self.counts["bytes_200"] += wire
                    if "etag" in head:
                        etags[path] = head["etag"]
                elif status == 304:
                    self.counts["not_modified_304"] += 1
                else:
                    self.counts["other_status"] += 1

    def result(self) -> dict[str, Any]:
        for thread in self.threads:
            thread.join(timeout=120)
        seconds = time.monotonic() - self.started
        return {"requests": len(self.times), "seconds": round(seconds, 3),
                "requests_per_second": round(len(self.times) / seconds, 1),
                "p50_ms": _ms(_pct(self.times, 50)), "p95_ms": _ms(_pct(self.times, 95)),
                "p99_ms": _ms(_pct(self.times, 99)), "errors": 0, **self.counts}


def _readers(port: int, paths: list[str], connections: int, seconds: float, tmp: str, conditional: bool,
             use_wrk: bool) -> Any:
    if use_wrk:
        process = _wrk(port, paths, connections, connections if conditional else min(connections, 2), seconds, tmp,
                       conditional)
        return lambda: _wrk_result(process, seconds + 60)
    readers = _PythonReaders(port, paths, connections, seconds, conditional)
    return readers.result


# --- parts ------------------------------------------------------------------------------------------


def _throughput(port: int, slug: str, args: argparse.Namespace, tmp: str, use_wrk: bool) -> dict[str, Any]:
    pages = {"trivial_view_healthz": "/healthz", "standings_html": f"/t/{slug}/standings/",
             "standings_json": f"/api/tournaments/{slug}/standings/"}
    out: dict[str, Any] = {"connections": 50, "tool": "wrk" if use_wrk else "python threads"}
    for name, path in pages.items():
        _Http(port).request("GET", path)  # fill the cache
        out[name] = _readers(port, [path], 50, args.throughput_seconds, tmp, False, use_wrk)()
    trivial = out["trivial_view_healthz"]["requests_per_second"] or 1
    for name in ("standings_html", "standings_json"):
        out[f"{name}_vs_trivial"] = round(out[name]["requests_per_second"] / trivial, 2)
    return out


def _entry_figures(log: list[tuple[float, float, int, int, int]], since: float, until: float) -> dict[str, Any]:
    inside = [row for row in log if since <= row[0] <= until]
    served = [row for row in inside if row[2] == 200]
    times = [row[1] for row in served]
    wire = [row[3] for row in served]
    return {
        "served": len(served),
        "refused_or_failed": {str(s): sum(1 for r in inside if r[2] == s) for s in sorted({r[2] for r in inside})
                              if s != 200},
        "entry_p50_ms": _ms(_pct(times, 50)), "entry_p95_ms": _ms(_pct(times, 95)),
        "entry_p99_ms": _ms(_pct(times, 99)),
        "answer_bytes_p50": _pct([float(w) for w in wire], 50), "answer_bytes_p95": _pct([float(w) for w in wire], 95),
        "answer_bytes_p99": _pct([float(w) for w in wire], 99), "answer_bytes_max": max(wire, default=None),
    }


def _room(port: int, slug: str, round_number: int, tables: list[dict[str, Any]], args: argparse.Namespace,
          tmp: str, use_wrk: bool) -> dict[str, Any]:
    log: list[tuple[float, float, int, int, int]] = []
    lock = threading.Lock()
    rng = random.Random(args.seed)
    paths = [f"/t/{slug}/standings/", f"/t/{slug}/rounds/{round_number}/", f"/api/tournaments/{slug}/standings/"]
    for path in paths:
        _Http(port).request("GET", path)
    started = time.monotonic()
    read = _readers(port, paths, args.readers, args.duration, tmp, True, use_wrk)
    stop_at = started + args.duration
    mean_gap = len(tables) / args.rate
    clients = [_Table(port, spec, mean_gap=mean_gap, stop_at=stop_at, finish=False,
                      rng=random.Random(rng.random()), log=log, finished={}, lock=lock) for spec in tables]
    for client in clients:
        client.start()
    for client in clients:
        client.join(timeout=args.duration + 120)
    ended = time.monotonic()
    readers = read()
    asked = sum(c.asked for c in clients)
    figures = _entry_figures(log, started, ended)
    return {
        "tables": len(tables), "seconds": round(ended - started, 1), "readers": args.readers,
        "entries_asked_per_second": round(asked / args.duration, 2),
        "entries_served_per_second": round(figures["served"] / args.duration, 2),
        "served_share": round(figures["served"] / asked, 3) if asked else None,
        **figures,
        "pages": {"paths": paths, **readers},
        "table_errors": [e for c in clients for e in c.errors][:5],
    }


def _flat_out(port: int, slug: str, tables: list[dict[str, Any]], args: argparse.Namespace) -> dict[str, Any]:
    log: list[tuple[float, float, int, int, int]] = []
    lock = threading.Lock()
    finished: dict[int, float] = {}
    seen: dict[int, float] = {}
    stop = threading.Event()
    watcher = threading.Thread(target=_watch_standings, args=(port, slug, tables, stop, seen), daemon=True)
    watcher.start()
    started = time.monotonic()
    clients = [_Table(port, spec, mean_gap=0.0, stop_at=float("inf"), finish=True, rng=random.Random(0), log=log,
                      finished=finished, lock=lock) for spec in tables]
    for client in clients:
        client.start()
    for client in clients:
        client.join(timeout=900)
    entries_done = time.monotonic()
    deadline = entries_done + 120
    while len(seen) < len(finished) and time.monotonic() < deadline:
        time.sleep(0.05)
    stop.set()
    watcher.join(timeout=10)
    first_last_entry = min((c.last_entry_at for c in clients if c.last_entry_at is not None), default=entries_done)
    early_end = started + args.window
    late_start = max(early_end, first_last_entry - args.window)
    early = [row for row in log if started <= row[0] <= early_end and row[2] == 200]
    late = [row for row in log if late_start <= row[0] <= first_last_entry and row[2] == 200]
    freshness = [seen[t] - finished[t] for t in finished if t in seen]
    last_table = max(finished, key=lambda t: finished[t]) if finished else None
    return {
        "tables": len(tables),
        "entries": sum(1 for row in log if row[2] == 200),
        "seconds": round(entries_done - started, 1),
        "entries_per_second_all": round(sum(1 for row in log if row[2] == 200) / (entries_done - started), 2),
        "early_entries_per_second": round(len(early) / args.window, 2),
        "early_entry_index_median": statistics.median([row[4] for row in early]) if early else None,
        "late_entries_per_second": round(len(late) / max(first_last_entry - late_start, 1e-9), 2),
        "late_entry_index_median": statistics.median([row[4] for row in late]) if late else None,
        "late_vs_early": round((len(late) / max(first_last_entry - late_start, 1e-9)) / (len(early) / args.window), 2)
        if early else None,
        **_entry_figures(log, started, entries_done),
        "finished": len(finished), "results_seen_on_standings": len(freshness),
        "freshness_p50_s": round(_pct(freshness, 50), 3) if freshness else None,
        "freshness_p95_s": round(_pct(freshness, 95), 3) if freshness else None,
        "freshness_max_s": round(max(freshness), 3) if freshness else None,
        "last_of_round_seconds": round(seen[last_table] - finished[last_table], 3)
        if last_table is not None and last_table in seen else None,
        "table_errors": [e for c in clients for e in c.errors][:5],
    }


def run() -> dict[str, Any]:
    args = _parser().parse_args(_options)
    if not _real_services():
        return {"skipped": "needs PostgreSQL (DATABASE_URL), RabbitMQ (CELERY_BROKER_URL) and Redis (REDIS_URL)"}
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
    import django

    django.setup()
    from django.contrib.auth import get_user_model
    from django.db import connection
    from django.test.utils import setup_test_environment, teardown_test_environment

    use_wrk = not args.no_wrk and Path("/usr/bin/wrk").exists() and shutil.which("/usr/bin/wrk") is not None
    figures: dict[str, Any] = {"load_average_start": _load(), "options": vars(args),
                               "stack": f"gunicorn {args.gunicorn_workers} x {args.worker_class}"
                                        f"{f' x {args.threads} threads' if args.threads > 1 else ''}, "
                                        "1 Celery worker (solo), PostgreSQL, Redis, RabbitMQ"}
    setup_test_environment()
    old_name = connection.settings_dict["NAME"]
    connection.settings_dict.setdefault("TEST", {})["NAME"] = f"bench_room_{os.getpid()}"
    connection.creation.create_test_db(verbosity=0, autoclobber=True)
    server = worker = None
    try:
        with tempfile.TemporaryDirectory(ignore_cleanup_errors=True) as tmp:
            organiser = get_user_model().objects.create_user("bench-room-organiser")
            room, room_tables = _tournament(organiser, "Room", args.tables, args.seed)
            flat, flat_tables = _tournament(organiser, "Flat out", args.flat_tables, args.seed + 1)
            db = connection.settings_dict
            auth = db["USER"] + (f":{db['PASSWORD']}" if db.get("PASSWORD") else "")
            env = _server_env(f"postgres://{auth}@{db['HOST'] or HOST}:{db['PORT'] or 5432}/{db['NAME']}", tmp)
            subprocess.run([sys.executable, "manage.py", "collectstatic", "--noinput", "-v0"], cwd=ROOT, env=env,
                           check=True, timeout=300)
            worker = _celery_worker(env)
            server = _gunicorn(env, args)
            parts = set(args.parts.split(","))
            if "throughput" in parts:
                figures["trivial_vs_cached"] = _throughput(args.port, room.slug, args, tmp, use_wrk)
                print(f"room: throughput {json.dumps(figures['trivial_vs_cached'])}", file=sys.stderr, flush=True)
            if "room" in parts:
                figures["room"] = _room(args.port, room.slug, 1, room_tables, args, tmp, use_wrk)
                print(f"room: paced {json.dumps(figures['room'])}", file=sys.stderr, flush=True)
            if "flat" in parts:
                figures["flat_out"] = _flat_out(args.port, flat.slug, flat_tables, args)
    finally:
        _stop(server)
        _stop(worker)
        for log in (f"/tmp/bench-room-gunicorn-{os.getpid()}.log", f"/tmp/bench-room-celery-{os.getpid()}.log"):
            Path(log).unlink(missing_ok=True)
        connection.creation.destroy_test_db(old_name, verbosity=0)
        teardown_test_environment()
    figures["load_average_end"] = _load()
    return figures


if __name__ == "__main__":
    configure(sys.argv[1:])
    print(json.dumps(run(), indent=1))
