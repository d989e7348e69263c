"""Suite-wide fixtures.

- Celery runs eagerly in every test unless a test asks for a real worker (tests/services).
- `require_services`: tests marked `services` skip when DATABASE_URL / CELERY_BROKER_URL / REDIS_URL
  are not set, but FAIL when REQUIRE_SERVICES=1 (CI) and a service is missing or unreachable.
"""

from __future__ import annotations

import os
import socket
from urllib.parse import urlparse

import pytest


def _reachable(url: str, default_port: int) -> bool:
    parsed = urlparse(url)
    host = parsed.hostname or "127.0.0.1"
    port = parsed.port or default_port
    try:
        with socket.create_connection((host, port), timeout=2):
            return True
    except OSError:
        return False


SERVICE_VARIABLES = {
    "DATABASE_URL": ("postgres", 5432),
    "CELERY_BROKER_URL": ("amqp", 5672),
    "REDIS_URL": ("redis", 6379),
}


def services_missing(names: tuple[str, ...] = tuple(SERVICE_VARIABLES)) -> list[str]:
    """The service variables among `names` that are unset, of the wrong kind, or unreachable."""
    missing = []
    for name in names:
        scheme, port = SERVICE_VARIABLES[name]
        url = os.environ.get(name, "")
        if not url.startswith(scheme):
            missing.append(f"{name} (not a {scheme} URL)")
        elif not _reachable(url, port):
            missing.append(f"{name} (unreachable)")
    return missing


@pytest.fixture
def require_services(request: pytest.FixtureRequest) -> None:
    """Skip (or, with REQUIRE_SERVICES=1, fail) unless PostgreSQL, RabbitMQ and Redis are configured."""
    missing = services_missing()
    if missing:
        message = "services missing: " + ", ".join(missing)
        if os.environ.get("REQUIRE_SERVICES") == "1":
            pytest.fail(message + " (REQUIRE_SERVICES=1)")
        pytest.skip(message)


@pytest.fixture(autouse=True)
def _celery_eager(request: pytest.FixtureRequest):  # type: ignore[no-untyped-def]
    """Tasks run in-process in tests, except in tests marked `services` that start a real worker."""
    from config.celery import app

    if request.node.get_closest_marker("services"):
        yield
        return
    previous = app.conf.task_always_eager
    app.conf.task_always_eager = True
    yield
    app.conf.task_always_eager = previous


_DJANGO_FIXTURES = {"db", "transactional_db", "client", "admin_client", "live_server", "django_db_setup"}


@pytest.fixture(autouse=True)
def _clear_cache(request: pytest.FixtureRequest):  # type: ignore[no-untyped-def]
    """Throttle counters and cached pages never leak between tests (only tests that touch Django)."""
    if request.node.get_closest_marker("django_db") or _DJANGO_FIXTURES & set(request.fixturenames):
        from django.core.cache import cache

        cache.clear()
    yield


@pytest.fixture(autouse=True, scope="session")
def _fast_password_hashing():  # type: ignore[no-untyped-def]
    """Tests create many users: a fast hasher instead of PBKDF2's million rounds (tests only)."""
    from django.conf import settings
    from django.contrib.auth.hashers import get_hashers, get_hashers_by_algorithm

    previous = settings.PASSWORD_HASHERS
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    get_hashers.cache_clear()
    get_hashers_by_algorithm.cache_clear()
    yield
    settings.PASSWORD_HASHERS = previous
    get_hashers.cache_clear()
    get_hashers_by_algorithm.cache_clear()
