"""The Celery application. Workers start with `celery -A config worker`; beat with `celery -A config beat`."""

import gc
import os
from typing import Any

from celery import Celery, bootsteps
from celery.concurrency.solo import TaskPool as SoloPool
from celery.signals import task_postrun, task_prerun, worker_init, worker_process_init, worker_ready

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("config")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


@worker_init.connect
def _persistent_database_connections(**_kwargs: object) -> None:
    """A worker keeps its database connection between tasks for DB_WORKER_CONN_MAX_AGE seconds (default
    300; 0 closes it after every task, as before; unset keeps DB_CONN_MAX_AGE if that is set), so a
    task no longer pays a new connection. Safe for the prefork and solo pools (one connection per
    process, used by one task at a time): before and after each task `_close_old_connections` closes a
    connection that broke or outlived its age, and a task's transaction always ends with the task."""
    from django.conf import settings

    default = settings.DATABASES["default"]
    worker_lock_timeout(default)
    age = os.environ.get("DB_WORKER_CONN_MAX_AGE")
    if age is not None:
        default["CONN_MAX_AGE"] = int(age)
    elif not default.get("CONN_MAX_AGE"):
        default["CONN_MAX_AGE"] = 300


def worker_lock_timeout(database: dict) -> None:
    """A worker waits for a row lock up to DB_WORKER_LOCK_TIMEOUT (default 30 s) instead of the web's
    DB_LOCK_TIMEOUT: nobody waits for a task at a screen, and an import chunk's store may hold a
    tournament for seconds under load. The bound stays: a lost host's locks go within
    DB_IDLE_IN_TRANSACTION_TIMEOUT, and a task that still times out retries (DATABASE_RETRY)."""
    import re

    options = database.get("OPTIONS", {})
    if "options" not in options or "lock_timeout" not in options["options"]:
        return
    seconds = float(os.environ.get("DB_WORKER_LOCK_TIMEOUT", "30"))
    options["options"] = re.sub(r"-c lock_timeout=\d+", f"-c lock_timeout={int(seconds * 1000)}",
                                options["options"])


# Objects the youngest generation of the garbage collector takes in before a collection (CPython: 700).
GC_GEN0_THRESHOLD = 10_000


@worker_ready.connect
@worker_process_init.connect
def _garbage_collector_for_tasks(**_kwargs: object) -> None:
    """In the process that runs the tasks (the worker itself with the solo pool, each child with prefork),
    once Django, the apps and the engines are loaded: `tune_garbage_collector`."""
    tune_garbage_collector()


def tune_garbage_collector() -> None:
    """Move what lives as long as the process out of the garbage collector's way (`gc.freeze`) and let
    the youngest generation take 10,000 objects between collections (`benchmarks.pipeline` measures the
    engine alone the same way). Parsing and replaying a record allocates thousands of small containers;
    with CPython's defaults a collection ran every 700, and each of the older ones walked every object of
    the process.
    Measured on the bulk import in one process (PostgreSQL): a TAC record's parse and replay went from
    6.2-7.1 to 5.1-5.3 ms of CPU, the store of a TAKI record from 1.05 to 0.9 ms. Cyclic garbage is still
    collected, a little later."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(GC_GEN0_THRESHOLD, *gc.get_threshold()[1:])


@task_prerun.connect
@task_postrun.connect
def _close_old_connections(sender: Any = None, **_kwargs: object) -> None:
    """Around every task run by a worker, close the database connections that broke or outlived their
    CONN_MAX_AGE, as Django does around a request. (Celery's Django fix-up would close every connection
    before and after every task: settings.CELERY_DB_REUSE_MAX turns that off.)"""
    if getattr(getattr(sender, "request", None), "is_eager", False):
        return
    from django.db import close_old_connections

    close_old_connections()


def _call_now(callback: Any, *args: Any, **kwargs: Any) -> Any:
    return callback(*args, **kwargs)


class SoloAcksAtOnce(bootsteps.StartStopStep):
    """Solo pool: acknowledge a task as soon as it ends, not after the event loop's next timer.

    Celery hands a late acknowledgement (CELERY_TASK_ACKS_LATE) to `hub.call_soon`. The solo pool runs
    the task inside the event loop's own thread, where `call_soon` does not wake the loop: it polls
    the sockets until its next timer (the broker heartbeat check, up to 2 s) before sending the ack,
    and with prefetch 1 the broker holds the next message back until then. Measured (strace and the
    worker's INFO log, `benchmarks pipeline`): idle gaps of 1.5-2 s between tasks with a queue full of
    records, 4.8 s of an 8 s run. In this pool the ack is written by the loop's thread either way, so
    writing it at once changes nothing else (Celery does so for its gevent/eventlet loop). Other pools
    run tasks in other threads or processes, whose `call_soon` wakes the loop: left alone."""

    label = "solo acks at once"

    def start(self, parent: Any) -> None:
        if isinstance(parent.pool, SoloPool):
            parent.call_soon_ack = _call_now


app.steps["consumer"].add(SoloAcksAtOnce)
