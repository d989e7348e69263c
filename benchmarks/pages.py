"""Public pages under event load (issue 14): a 1,000-entrant tournament's standings in-process (uncached
first page, whole list now and before, cached next to the trivial view), then served by gunicorn and
loaded by wrk with 50 connections on loopback (p95, requests/s), next to the trivial view in the same
run. Throw-away SQLite database; the cache is Redis when REDIS_URL is set, else local memory.
Reproduce by hand: docs/operations.md, "Load figures".

Ports: gunicorn on PAGES_BENCH_PORT (default 18500). Without `wrk` on PATH the load part is skipped
(`apt-get install wrk`).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
WRK_SCRIPT = """
done = function(summary, latency, requests)
  local e = summary.errors
  io.write(string.format('WRK {"requests": %d, "seconds": %.3f, "p50_ms": %.1f, "p95_ms": %.1f, "p99_ms": %.1f, '
    .. '"errors": %d, "non_2xx": %d}\\n', summary.requests, summary.duration / 1e6, latency:percentile(50) / 1000,
    latency:percentile(95) / 1000, latency:percentile(99) / 1000, e.connect + e.read + e.write + e.timeout, e.status))
end
"""


def _all_cores() -> None:
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, set(range(os.cpu_count() or 1)))


def _wrk(url: str, script: Path, seconds: int, connections: int = 50) -> dict[str, Any]:
    done = subprocess.run(["wrk", "-t2", f"-c{connections}", f"-d{seconds}s", "--timeout", "10s", "-s", str(script), url],
                          capture_output=True, text=True, timeout=seconds + 30, preexec_fn=_all_cores, check=True)
    line = next(line for line in done.stdout.splitlines() if line.startswith("WRK "))
    figures = json.loads(line[4:])
    figures["requests_per_second"] = round(figures["requests"] / figures["seconds"], 1)
    return figures


def _serve(env: dict[str, str], port: int) -> subprocess.Popen[bytes]:
    process = subprocess.Popen(
        [sys.executable, "-m", "gunicorn", "config.wsgi", "-b", f"127.0.0.1:{port}", "-w", "2", "--timeout", "30",
         "--log-level", "warning"],
        cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, preexec_fn=_all_cores)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=2).read()
            return process
        except OSError:
            time.sleep(0.3)
    process.kill()
    raise RuntimeError("gunicorn did not answer within 120 s")


def run() -> dict[str, Any]:
    port = int(os.environ.get("PAGES_BENCH_PORT", "18500"))
    with tempfile.TemporaryDirectory(ignore_cleanup_errors=True) as tmp:
        env = {**os.environ, "DATABASE_URL": f"sqlite:///{tmp}/pages.sqlite3", "CELERY_TASK_ALWAYS_EAGER": "True",
               "DEBUG": "False", "SECRET_KEY": "bench-" + "x" * 60, "ALLOWED_HOSTS": "127.0.0.1,localhost,testserver",
               "SECURE_SSL_REDIRECT": "False", "SESSION_COOKIE_SECURE": "False", "CSRF_COOKIE_SECURE": "False",
               "SECURE_HSTS_SECONDS": "0", "CACHE_KEY_PREFIX": os.environ.get("CACHE_KEY_PREFIX", "bench") + "-pages",
               "LOG_LEVEL": "ERROR", "STATIC_ROOT": f"{tmp}/static"}
        env.pop("CELERY_BROKER_URL", None)
        subprocess.run([sys.executable, "manage.py", "migrate", "-v0"], cwd=ROOT, env=env, check=True, timeout=300)
        subprocess.run([sys.executable, "manage.py", "collectstatic", "--noinput", "-v0"], cwd=ROOT, env=env,
                       check=True, timeout=300)
        done = subprocess.run([sys.executable, "-m", "benchmarks._pages_service"], cwd=ROOT, env=env, check=True,
                              capture_output=True, text=True, timeout=300)
        figures: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
        print(f"pages: in-process figures {figures}", file=sys.stderr, flush=True)
        slug = figures.pop("slug")
        if shutil.which("wrk") is None:
            figures["wrk"] = "skipped: wrk is not installed"
        else:
            script = Path(tmp) / "p95.lua"
            script.write_text(WRK_SCRIPT)
            server = _serve(env, port)
            try:
                base = f"http://127.0.0.1:{port}"
                urllib.request.urlopen(f"{base}/t/{slug}/standings/", timeout=10).read()  # fill the cache
                standings = _wrk(f"{base}/t/{slug}/standings/", script, 8)
                trivial = _wrk(f"{base}/", script, 8)
            finally:
                server.terminate()
                server.wait(timeout=30)
            figures["wrk_50_connections"] = {
                "standings_cached": standings, "trivial_view": trivial,
                "ratio": round(standings["requests_per_second"] / trivial["requests_per_second"], 2),
            }
    figures["load_average"] = [round(x, 2) for x in os.getloadavg()]
    return figures


if __name__ == "__main__":
    print(json.dumps(run(), indent=1))
