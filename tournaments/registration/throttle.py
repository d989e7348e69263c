"""Rate limit of the public sign-up (and the desk check-in by e-mail): at most
`REGISTRATION_SIGN_UP_RATE` ("10/hour" by default, settings) POSTs per client address, counted in the
default cache (Redis in production) for the web form and the API together. A cache outage lets the
request through (the cache fails open, tournaments.cache_fail_open), like the API throttles."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.cache import cache

from tournaments.client_address import client_address

_PERIODS = {"s": 1, "sec": 1, "m": 60, "min": 60, "h": 3600, "hour": 3600, "d": 86400, "day": 86400}


def parse_rate(rate: str) -> tuple[int, int]:
    count, _slash, period = str(rate).partition("/")
    return int(count), _PERIODS[period.strip().lower()]


def sign_up_allowed(request: Any) -> tuple[bool, int]:
    """Count this attempt; (allowed, seconds until the window ends)."""
    limit, seconds = parse_rate(getattr(settings, "REGISTRATION_SIGN_UP_RATE", "10/hour"))
    key = f"registration:sign-up:{client_address(request)}"
    try:
        cache.add(key, 0, timeout=seconds)
        used = cache.incr(key)
    except ValueError:  # the key expired between add and incr
        cache.set(key, 1, timeout=seconds)
        used = 1
    if used is None:  # a failing cache answers nothing: let the request through
        return True, seconds
    return int(used) <= limit, seconds
