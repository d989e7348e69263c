"""Settings: production passes `check --deploy`; nothing configured means SQLite, eager Celery, local cache."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PRODUCTION_ENV = {
    "DEBUG": "False",
    "SECRET_KEY": "x7!k2#production-secret-key-for-the-deploy-check-only-9f8e7d6c5b4a3210zyxwv",
    "ALLOWED_HOSTS": "tournaments.example.org",
    "DATABASE_URL": "sqlite:////tmp/deploy-check.sqlite3",
}


def _env(extra: dict[str, str], drop: tuple[str, ...] = ()) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in drop and k not in {"DEBUG", "SECRET_KEY", "ALLOWED_HOSTS", "DJANGO_ALLOW_ASYNC_UNSAFE"}}
    env.update(extra)
    env["DJANGO_SETTINGS_MODULE"] = "config.settings"
    return env


def _run(args: list[str], env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, *args], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)


def test_production_settings_pass_the_deploy_check() -> None:
    done = _run(["manage.py", "check", "--deploy", "--fail-level", "WARNING"], _env(PRODUCTION_ENV))
    assert done.returncode == 0, done.stdout + done.stderr
    assert "no issues" in done.stdout


def test_deploy_check_fails_with_development_defaults() -> None:
    env = _env({"DEBUG": "True", "DATABASE_URL": "sqlite:////tmp/deploy-check.sqlite3"})
    done = _run(["manage.py", "check", "--deploy", "--fail-level", "WARNING"], env)
    assert done.returncode != 0
    assert "security.W018" in done.stdout + done.stderr  # DEBUG on


def test_production_refuses_to_start_without_a_secret_key() -> None:
    env = _env({k: v for k, v in PRODUCTION_ENV.items() if k != "SECRET_KEY"})
    done = _run(["manage.py", "check"], env)
    assert done.returncode != 0
    assert "SECRET_KEY must be set" in done.stderr


PROBE = (
    "import django, json; django.setup(); from django.conf import settings as s; "
    "print(json.dumps([s.DATABASES['default']['ENGINE'], s.CELERY_TASK_ALWAYS_EAGER, "
    "s.CACHES['default']['BACKEND'], s.CELERY_BROKER_URL]))"
)


def test_nothing_configured_means_sqlite_eager_tasks_and_local_cache() -> None:
    done = _run(["-c", PROBE], _env({}, drop=("DATABASE_URL", "CELERY_BROKER_URL", "REDIS_URL",
                                              "CELERY_TASK_ALWAYS_EAGER")))
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == (
        '["django.db.backends.sqlite3", true, "django.core.cache.backends.locmem.LocMemCache", "memory://localhost/"]'
    )


def test_service_urls_switch_to_postgres_rabbitmq_and_redis() -> None:
    env = _env({"DATABASE_URL": "postgres://postgres@127.0.0.1:5432/x",
                "CELERY_BROKER_URL": "amqp://guest:guest@127.0.0.1:5672//",
                "REDIS_URL": "redis://127.0.0.1:6379/3"}, drop=("CELERY_TASK_ALWAYS_EAGER",))
    done = _run(["-c", PROBE], env)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == (
        '["django.db.backends.postgresql", false, "django_redis.cache.RedisCache", '
        '"amqp://guest:guest@127.0.0.1:5672//"]'
    )


def test_env_example_documents_every_variable_the_settings_read() -> None:
    import re

    settings_text = (ROOT / "config" / "settings.py").read_text()
    read = set(re.findall(r'env(?:\.[a-z_]+)?\("([A-Z_]+)"', settings_text))
    documented = set(re.findall(r"^#? ?([A-Z_]+)=", (ROOT / ".env.example").read_text(), re.MULTILINE))
    assert read, "no variables found: the pattern is stale"
    assert read - documented == set()
