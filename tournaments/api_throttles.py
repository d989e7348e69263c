"""API throttling keyed on who is asking (issue 15; DRF rates in settings.REST_FRAMEWORK).

One bucket per request, the first that applies:
- a logged-in user (token or session): scope `user`, keyed on the user id;
- a valid private report token (`X-Report-Token` header or `"token"` in a JSON/form body): scope
  `report_token`, keyed on the entrant, so 200 players of a venue behind one address each have their
  own budget; an unknown token counts against the client address like any anonymous request;
- anyone else: scope `anon`, keyed on the client address (`tournaments.client_address`, which only
  believes X-Forwarded-For as far as TRUSTED_PROXY_COUNT says; rotating the header changes nothing);
  except the public reads served from the versioned cache (views with `public_read = True`: a
  tournament, its rounds, a round, the standings), which count in scope `anon_read`, sized for a hall:
  the phones of a whole venue share one address, and those reads cost a cache lookup or a 304
  (`API_THROTTLE_ANON_READ`, docs/operations.md "A venue"). The expensive routes keep `anon`.

Counters live in the default cache, one integer per bucket and window (an atomic increment, whatever the
rate; DRF's own throttle stores and rewrites a list of every request's time, 12,000 of them for a hall's
rate). The window starts at the bucket's first request and lasts the rate's period. The anonymous fast path
of the public standings (tournaments/public_fast_path.py) counts its JSON reads in the same `anon_read`
counter before DRF runs and hands the count on (`FAST_PATH_COUNTED`), so a read is counted once. When Redis is down the
cache fails open (`tournaments.cache_fail_open`) and so does the throttle.
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


FAST_PATH_COUNTED = "tournaments.fast_path.throttle"  # (key, count) set by tournaments.public_fast_path


def count_request(cache: Any, key: str, duration: int) -> int | None:
    """This request's number in the bucket `key`'s window of `duration` seconds (None: the cache is down,
    let it through). Also used by the public fast path (tournaments/public_fast_path.py)."""
    for _ in range(2):
        try:
            return cache.incr(key)  # type: ignore[no-any-return]  # one trip, as a rule
        except ValueError:  # no window yet (or it just ended): start one
            if cache.add(key, 1, duration):
                return 1
    return None


class ApiRateThrottle(SimpleRateThrottle):
    cache_format = "throttle:n:%(scope)s_%(ident)s"  # a counter (not DRF's list of times under the old key)

    def get_cache_key(self, request: Any, view: Any) -> str:
        scope, ident = request_ident(request)
        if scope == "anon" and request.method in ("GET", "HEAD") and getattr(view, "public_read", False):
            scope = "anon_read"
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
        self.now = self.timer()
        counted = request.META.get(FAST_PATH_COUNTED)  # the public fast path counted this request already
        if counted is not None and counted[0] == self.key:
            count = counted[1]
        else:
            count = count_request(self.cache, self.key, self.duration)
        return count is None or count <= self.num_requests

    def wait(self) -> float | None:
        ttl = getattr(self.cache, "ttl", None)  # django-redis; the local-memory cache has none
        if callable(ttl):
            remaining = ttl(self.key)
            if isinstance(remaining, int) and remaining >= 0:
                return float(remaining)
        return float(self.duration)
