"""The security log (issue 15): one line per refused request that matters, on the `tournaments.security`
logger, with the client address, the user and the path of the request being served.

Events: `report_token_refused` (a report token that belongs to no entrant of the table),
`override_refused` (a result override by someone who is not an organiser), `login_locked` (django-axes
locked an account or a client out). Tokens and passwords are never logged.
`RequestContextMiddleware` keeps the current request in a context variable so that services, which
know nothing of HTTP, can log with it.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from contextvars import ContextVar
from typing import Any

from django.http import HttpRequest, HttpResponse

logger = logging.getLogger("tournaments.security")

_current_request: ContextVar[HttpRequest | None] = ContextVar("security_log_request", default=None)


def security_event(event: str, **fields: Any) -> None:
    from tournaments.client_address import client_address

    request = _current_request.get()
    context: dict[str, Any] = {}
    if request is not None:
        user = getattr(request, "user", None)
        context = {"client": client_address(request), "method": request.method, "path": request.path[:200],
                   "user": user.get_username() if user is not None and user.is_authenticated else "-"}
    context.update({k: v for k, v in fields.items() if v not in (None, "")})
    details = " ".join(f"{key}={str(value)[:200]!r}" for key, value in context.items())
    logger.warning("security %s %s", event, details)


class RequestContextMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        token = _current_request.set(request)
        try:
            return self.get_response(request)
        finally:
            _current_request.reset(token)
