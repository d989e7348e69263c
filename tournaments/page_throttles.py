"""Rate limits of the web pages behind a private token (issue 29): `/report/<token>/` (and its table
pages) and `/email/unsubscribe/<token>/`, like the API's (`tournaments.api_throttles`).

A token that matches nothing counts against the client's address (`TRUSTED_PROXY_COUNT` decides which
address that is) at `TOKEN_PAGE_THROTTLE_GUESSES` (default 60/min: only failures count); past it every
token page answers 429 with `Retry-After` to that address, so tokens cannot be guessed at speed. A valid
token has its own budget, `TOKEN_PAGE_THROTTLE_TOKEN` (default: the API's report-token rate), so 200
players behind one venue address each use their own. Counters are fixed windows in the cache (Redis in
production, shared by every process) and fail open when the cache is down, as the API's do.
"""

from __future__ import annotations

import functools
import hashlib
import logging
import time
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.http import Http404, HttpRequest, HttpResponse
from django.template.loader import render_to_string
from django.utils.translation import gettext as _
from rest_framework.throttling import SimpleRateThrottle

from tournaments.client_address import client_address

logger = logging.getLogger("tournaments.security")


def _rate(name: str, api_scope: str) -> tuple[int, int]:
    rate = getattr(settings, name, None) or settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"][api_scope]
    return SimpleRateThrottle.parse_rate(None, rate)  # type: ignore[arg-type]


def _key(scope: str, ident: str, duration: int) -> tuple[str, int]:
    now = time.time()
    window = int(now // duration)
    digest = hashlib.sha256(ident.encode("utf-8", "replace")).hexdigest()[:32]
    return f"tokenpage:{scope}:{digest}:{window}", max(1, int(duration - now % duration))


def _count(key: str) -> int:
    try:
        value = cache.get(key)
    except Exception:  # noqa: BLE001 - fail open
        return 0
    return int(value) if isinstance(value, int) else 0


def _hit(key: str, duration: int) -> None:
    try:
        cache.add(key, 0, duration * 2)
        cache.incr(key)
    except Exception:  # noqa: BLE001 - fail open (a missing key after a flush, Redis down)
        pass


def _too_many(request: HttpRequest, retry_after: int) -> HttpResponse:
    logger.warning("token_page_throttled address=%s path=%s", client_address(request), request.path[:60])
    message = _("Too many requests. Please wait %(seconds)s seconds and try again.") % {"seconds": retry_after}
    response = HttpResponse(render_to_string("429.html", {"message": message}, request=None), status=429)
    response["Retry-After"] = str(retry_after)
    return response


def token_page_throttle(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """Decorate a view whose URL carries `token`."""

    @functools.wraps(view)
    def wrapper(request: HttpRequest, token: str, *args: Any, **kwargs: Any) -> HttpResponse:
        guesses, guess_window = _rate("TOKEN_PAGE_THROTTLE_GUESSES", "anon")
        uses, use_window = _rate("TOKEN_PAGE_THROTTLE_TOKEN", "report_token")
        guess_key, guess_retry = _key("guess", client_address(request), guess_window)
        if _count(guess_key) >= guesses:
            return _too_many(request, guess_retry)
        token_key, token_retry = _key("token", f"{view.__name__}:{token}", use_window)
        if _count(token_key) >= uses:
            return _too_many(request, token_retry)
        try:
            response = view(request, token, *args, **kwargs)
        except Http404:
            _hit(guess_key, guess_window)
            raise
        if response.status_code == 404:
            _hit(guess_key, guess_window)
        else:
            _hit(token_key, use_window)
        return response

    return wrapper
