"""Suite-wide fixtures.

- Celery runs eagerly in every test unless a test asks for a real worker (tests/services).
- `require_services`: tests marked `services` skip when DATABASE_URL / CELERY_BROKER_URL / REDIS_URL
  are not set, but FAIL when REQUIRE_SERVICES=1 (CI) and a service is missing or unreachable.
"""

from __future__ import annotations

import os
import socket
import threading
from collections.abc import Iterator
from typing import Any
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


# --- the active language ------------------------------------------------------------------------
# LocaleMiddleware activates the request's language in the thread that serves it and leaves it
# active; with the test client that thread is the test's own, so one German request made every later
# test in the process speak German (the scoresheet e2e test once had to override it; leaking were
# the language-switch, error-page, German/French error and translation tests of tests/web,
# tests/tournaments/test_api_errors.py and tests/games/test_web_records.py). Each request now gives
# back the language it found, and a test that leaves another language active fails.

_languages_before_request = threading.local()


def _request_started(**_: Any) -> None:
    from django.utils import translation

    stack = getattr(_languages_before_request, "stack", [])
    stack.append(translation.get_language())
    _languages_before_request.stack = stack


def _request_finished(**_: Any) -> None:
    stack = getattr(_languages_before_request, "stack", [])
    if stack:
        _activate(stack.pop())


def _activate(language: str | None) -> None:
    from django.utils import translation

    if language is None:
        translation.deactivate_all()
    else:
        translation.activate(language)


@pytest.fixture(autouse=True, scope="session")
def _requests_give_back_the_language() -> Iterator[None]:
    from django.core.signals import request_finished, request_started

    request_started.connect(_request_started, dispatch_uid="tests-language-before-request")
    request_finished.connect(_request_finished, dispatch_uid="tests-language-after-request")
    yield
    request_started.disconnect(dispatch_uid="tests-language-before-request")
    request_finished.disconnect(dispatch_uid="tests-language-after-request")


def language_guard() -> Iterator[None]:
    """Around one test: fail (after restoring it) if the test leaves another language active."""
    from django.utils import translation

    before = translation.get_language()
    yield
    after = translation.get_language()
    if after != before:
        _activate(before)
        pytest.fail(f"The test left the language {after!r} active (it found {before!r}): "
                    "use translation.override.")


@pytest.fixture(autouse=True)
def _language_unchanged() -> Iterator[None]:
    yield from language_guard()
