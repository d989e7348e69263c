"""The Celery application. Workers start with `celery -A config worker`; beat with `celery -A config beat`."""

import os

from celery import Celery
from celery.signals import worker_init

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")

app = Celery("config")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


@worker_init.connect
def _persistent_database_connections(**_kwargs: object) -> None:
    """A worker keeps its database connection between tasks for DB_WORKER_CONN_MAX_AGE seconds (default
    300; 0 closes it after every task, as before; unset keeps DB_CONN_MAX_AGE if that is set), so a
    task no longer pays a new connection. Safe for the prefork and solo pools (one connection per
    process, used by one task at a time): after each task Celery's Django fix-up closes a connection that
    broke or outlived its age, and a task's transaction always ends with the task."""
    from django.conf import settings

    default = settings.DATABASES["default"]
    age = os.environ.get("DB_WORKER_CONN_MAX_AGE")
    if age is not None:
        default["CONN_MAX_AGE"] = int(age)
    elif not default.get("CONN_MAX_AGE"):
        default["CONN_MAX_AGE"] = 300
