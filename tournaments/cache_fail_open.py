"""A django-redis client that fails open and fast when Redis is unreachable or stalled (issue 15).

Redis holds only the cache and the API throttle counters, so an outage must cost neither an answer
nor much time. With `IGNORE_EXCEPTIONS` (settings) django-redis turns a failed operation into a cache
miss (a throttle then lets the request through). This client adds a circuit breaker: once an operation
failed (connection refused, or no answer within `REDIS_SOCKET_TIMEOUT`), every operation of this
process fails at once, without touching the network, for `REDIS_RETRY_SECONDS`; then one operation
probes again. The first failure of an outage logs one warning and the recovery one info line on the
`tournaments.dependencies` logger, not a traceback per request.
"""

from __future__ import annotations

import functools
import logging
import socket
import threading
import time
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django_redis.client import DefaultClient
from django_redis.exceptions import ConnectionInterrupted
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import TimeoutError as RedisTimeoutError

logger = logging.getLogger("tournaments.dependencies")

_FAILURES = (ConnectionInterrupted, RedisConnectionError, RedisTimeoutError, socket.timeout, OSError)

# Breaker state per Redis location, shared by the threads of the process.
_down_until: dict[str, float] = {}
_lock = threading.Lock()

# The client methods behind the cache methods django-redis guards with IGNORE_EXCEPTIONS.
GUARDED_METHODS = (
    "get", "set", "add", "delete", "delete_pattern", "delete_many", "clear", "get_many", "set_many",
    "incr", "decr", "has_key", "keys", "iter_keys", "ttl", "pttl", "persist", "expire", "expire_at",
    "pexpire", "pexpire_at", "touch", "incr_version",
)


class RedisUnavailable(RedisConnectionError):
    """Raised instead of contacting Redis while the breaker is open."""


def _location(client: DefaultClient) -> str:
    return ",".join(str(s) for s in client._server)


def _guarded(method: Callable[..., Any]) -> Callable[..., Any]:
    @functools.wraps(method)
    def wrapper(self: DefaultClient, *args: Any, **kwargs: Any) -> Any:
        location = _location(self)
        now = time.monotonic()
        if _down_until.get(location, 0.0) > now:
            raise ConnectionInterrupted(connection=None) from RedisUnavailable("Redis is down (breaker open)")
        try:
            result = method(self, *args, **kwargs)
        except _FAILURES as exc:
            retry = float(getattr(settings, "REDIS_RETRY_SECONDS", 5.0))
            with _lock:
                first = location not in _down_until
                _down_until[location] = time.monotonic() + retry
            if first:
                cause = exc.__cause__ if isinstance(exc, ConnectionInterrupted) and exc.__cause__ else exc
                logger.warning("Redis unavailable (%s: %s); cache and throttles fail open, next try in %.0f s",
                               type(cause).__name__, cause, retry)
            if isinstance(exc, ConnectionInterrupted):
                raise
            raise ConnectionInterrupted(connection=None) from exc
        if location in _down_until:
            with _lock:
                if _down_until.pop(location, None) is not None:
                    logger.info("Redis answers again")
        return result

    return wrapper


class FailOpenRedisClient(DefaultClient):
    """django-redis' DefaultClient with a circuit breaker around every guarded operation."""


for _name in GUARDED_METHODS:
    setattr(FailOpenRedisClient, _name, _guarded(getattr(DefaultClient, _name)))


def breaker_reset() -> None:
    """Close every breaker (tests; an operator could call it after fixing Redis)."""
    with _lock:
        _down_until.clear()
