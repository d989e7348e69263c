"""API throttling keyed on who is asking (issue 15; DRF rates in settings.REST_FRAMEWORK).

One bucket per request, the first that applies:
- a logged-in user (token or session): scope `user`, keyed on the user id;
- a valid private report token (`X-Report-Token` header or `"token"` in a JSON/form body): scope
  `report_token`, keyed on the entrant, so 200 players of a venue behind one address each have their
  own budget; an unknown token counts against the client address like any anonymous request;
- anyone else: scope `anon`, keyed on the client address (`tournaments.client_address`, which only
  believes X-Forwarded-For as far as TRUSTED_PROXY_COUNT says; rotating the header changes nothing).

Counters live in the default cache; when Redis is down the cache fails open
(`tournaments.cache_fail_open`) and so does the throttle.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rest_framework.throttling import SimpleRateThrottle

from tournaments.client_address import client_address
from tournaments.models import Entrant

TOKEN_MAX_LENGTH = 200


def request_report_token(request: Any) -> str | None:
    token = request.headers.get("X-Report-Token")
    if not token and request.method not in ("GET", "HEAD", "OPTIONS"):
        content_type = str(request.content_type or "")
        if content_type.startswith(("application/json", "application/x-www-form-urlencoded", "multipart/form-data")):
            try:
                data = request.data
            except Exception:  # a malformed body: the view reports it; throttle as anonymous
                data = None
            if isinstance(data, dict):
                value = data.get("token")
                token = value if isinstance(value, str) else None
    if not token or len(token) > TOKEN_MAX_LENGTH:
        return None
    return str(token)


def request_ident(
    request: Any, find_token: Callable[[Any], str | None] = request_report_token
) -> tuple[str, str]:
    """Who is asking, for a throttle bucket: ("user", user id), ("report_token", entrant id) for a valid
    report token (``find_token`` reads it), else ("anon", the client address)."""
    user = getattr(request, "user", None)
    if user is not None and user.is_authenticated:
        return "user", str(user.pk)
    token = find_token(request)
    entrant_id = Entrant.objects.filter(report_token=token).values_list("pk", flat=True).first() if token else None
    if entrant_id is not None:
        return "report_token", str(entrant_id)
    return "anon", client_address(request)


class ApiRateThrottle(SimpleRateThrottle):
    def get_cache_key(self, request: Any, view: Any) -> str:
        scope, ident = request_ident(request)
        self.scope = scope
        self.rate = self.get_rate()
        self.num_requests, self.duration = self.parse_rate(self.rate)
        return self.cache_format % {"scope": scope, "ident": ident}

    def get_rate(self) -> str | None:
        if not getattr(self, "scope", None):
            return None
        return self.THROTTLE_RATES.get(self.scope)

    def allow_request(self, request: Any, view: Any) -> bool:
        self.key = self.get_cache_key(request, view)
        if self.rate is None:
            return True
        self.history = self.cache.get(self.key, [])
        self.now = self.timer()
        while self.history and self.history[-1] <= self.now - self.duration:
            self.history.pop()
        if len(self.history) >= self.num_requests:
            return self.throttle_failure()
        return self.throttle_success()
