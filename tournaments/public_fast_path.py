"""The anonymous fast path of the cached public standings (issue 26; docs/operations.md "A venue").

A hall of phones reads the standings page (`/t/<slug>/standings/`) and the public JSON standings
(`/api/tournaments/<slug>/standings/`) far more often than they change. Served the ordinary way, each
read of the cached content still runs the session, CSRF, auth, messages, CSP and locale middleware, DRF's
request handling and the tournament query before the cache answers. This middleware, first in
`MIDDLEWARE`, answers such a read from the cache alone:

- What it may serve: a GET of one of those two URLs by a reader with nothing of their own: no cookie but
  the CSRF and language cookies (no session, no messages), no `Authorization`, no `X-Report-Token`, no
  `Origin` (CORS answers differ), and not a plain-HTTP request the site would redirect to HTTPS.
- What it serves: the complete answer (status 200, every header, the body) that the ordinary path last
  produced for the same scheme, host, path and query, language (`get_language_from_request`, as
  `LocaleMiddleware` decides it), `Accept` and `HX-Request`, stored only when that answer was marked
  `Cache-Control: public` (an anonymous reader of a public tournament, no messages, no cookie set, no CSP
  nonce used) - so a private tournament's page is never stored, hence never served, here.
- When: only while the tournament's *tag* (its id, `public_version`, `results_version`,
  `standings_version` and visibility: what the page cache keys on) equals the tag the stored answer was
  rendered with. The tag is read from the database on every request (one narrow query on the slug's
  unique index, no model object): a result, a recomputation or a switch to private, however written,
  shows on the next read, exactly as on the ordinary path. A private tournament is never served here.
- Conditional GET: the stored ETag and Last-Modified answer `If-None-Match` / `If-Modified-Since` with a
  304 exactly as the ordinary path does (tournaments/page_cache.py).
- Throttling (JSON only, as DRF throttles only the API): the read counts in the same `anon_read` bucket
  of the client address as `tournaments.api_throttles.ApiRateThrottle` (one counter, one increment); a
  reader over the rate goes on to the ordinary path, which answers the 429 without counting it again.

On a hit: one SQL query and one cache read for the HTML page, plus the throttle's increment for the JSON
answer. Without a cache (Redis down) or a database, everything goes the ordinary way.
"""

from __future__ import annotations

import hashlib
import logging
import pickle
import re
import time
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.core.exceptions import MiddlewareNotUsed
from django.db import connection
from django.http import HttpRequest, HttpResponse, HttpResponseNotModified
from django.utils.translation import get_language_from_request
from django_redis.client import DefaultClient

from tournaments.api_throttles import FAST_PATH_COUNTED, ApiRateThrottle, count_request
from tournaments.client_address import client_address
from tournaments.page_cache import _conditional_match

logger = logging.getLogger(__name__)

PREFIX = "fast:v1"
ANSWER_SECONDS = 600

_ROUTES = (
    (re.compile(r"^/t/(?P<slug>[-a-zA-Z0-9_]+)/standings/$"), False),
    (re.compile(r"^/api/tournaments/(?P<slug>[-a-zA-Z0-9_]+)/standings/$"), True),
)
_HEADERS_NOT_IN_304 = {"content-type", "content-length"}


def tag_of(tournament: Any) -> str:
    """What the cached public pages of `tournament` depend on (tournaments/page_cache.tournament_key)."""
    return (f"{tournament.pk}.{tournament.public_version}.{tournament.results_version}."
            f"{tournament.standings_version}.{'public' if tournament.is_public else 'private'}")


def _current_tag(slug: str) -> str | None:
    """The tournament's tag as the database has it now (None: no such tournament, or no database)."""
    from tournaments.models import Tournament

    table = connection.ops.quote_name(Tournament._meta.db_table)
    try:
        with connection.cursor() as cursor:
            cursor.execute(f"SELECT id, public_version, results_version, standings_version, is_public FROM {table} "
                           "WHERE slug = %s", [slug])
            row = cursor.fetchone()
    except Exception:
        return None  # the ordinary path reports the outage
    if row is None:
        return None
    return f"{row[0]}.{row[1]}.{row[2]}.{row[3]}.{'public' if row[4] else 'private'}"


def offer(request: HttpRequest, tournament: Any) -> None:
    """Called by the standings views with the tournament they just read: the answer may be stored for the
    fast path (the middleware decides, once the answer is complete)."""
    if tournament.is_public:
        request._fast_path_tag = (tournament.slug, tag_of(tournament))  # type: ignore[attr-defined]


def _candidate(request: HttpRequest) -> tuple[str, bool] | None:
    """(slug, is_api) when the request may be served from the fast path, else None."""
    if request.method != "GET":
        return None
    meta = request.META
    if "HTTP_AUTHORIZATION" in meta or "HTTP_ORIGIN" in meta or "HTTP_X_REPORT_TOKEN" in meta:
        return None
    found = next(((match, is_api) for route, is_api in _ROUTES if (match := route.match(request.path_info))), None)
    if found is None:
        return None
    match, is_api = found
    allowed = {settings.CSRF_COOKIE_NAME, settings.LANGUAGE_COOKIE_NAME}
    if any(name not in allowed for name in request.COOKIES):
        return None
    if settings.SECURE_SSL_REDIRECT and not request.is_secure():
        return None
    return match["slug"], is_api


def _answer_key(request: HttpRequest) -> str:
    meta = request.META
    parts = (request.scheme, meta.get("HTTP_HOST", ""), meta.get("SERVER_NAME", ""), meta.get("SERVER_PORT", ""),
             request.get_full_path(), get_language_from_request(request), meta.get("HTTP_ACCEPT", ""),
             meta.get("HTTP_HX_REQUEST", ""))
    return f"{PREFIX}:a:" + hashlib.sha256("\x1f".join(parts).encode()).hexdigest()[:32]


def _throttle_bucket(request: HttpRequest) -> tuple[str, int, int] | None:
    """The `anon_read` bucket of this JSON read (key, limit, seconds), as ApiRateThrottle keys it."""
    rate = ApiRateThrottle.THROTTLE_RATES.get("anon_read")
    if rate is None:
        return None
    limit, duration = ApiRateThrottle().parse_rate(rate)
    return ApiRateThrottle.cache_format % {"scope": "anon_read", "ident": client_address(request)}, limit, duration


def _read(key: str, throttle: tuple[str, int, int] | None) -> tuple[Any, int | None]:
    """The stored answer under `key` and this request's count in the `throttle` bucket, in one round trip
    on Redis (GET, SET NX EX, INCR pipelined); (None, None) when the cache fails."""
    client = getattr(cache, "client", None)
    if isinstance(client, DefaultClient) and throttle is not None:
        try:
            if _breaker_open(client):
                return None, None
            redis = client.get_client(write=True)
            bucket = cache.make_key(throttle[0])
            pipe = redis.pipeline(transaction=False)
            pipe.get(cache.make_key(key))
            pipe.set(bucket, 0, ex=throttle[2], nx=True)  # the window starts with the bucket's first request
            pipe.incr(bucket)
            raw, _, count = pipe.execute()
            return (client.decode(raw) if raw is not None else None), int(count)
        except Exception:
            return None, None
    try:
        stored = cache.get(key)
        count = count_request(cache, throttle[0], throttle[2]) if throttle is not None else None
    except Exception:
        return None, None
    return stored, count


def _breaker_open(client: DefaultClient) -> bool:
    """Redis is known to be down (tournaments/cache_fail_open.py): do not wait for it here."""
    from tournaments import cache_fail_open

    return cache_fail_open._down_until.get(cache_fail_open._location(client), 0.0) > time.monotonic()


class PublicReadFastPath:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        if not getattr(settings, "PUBLIC_FAST_PATH", True):
            raise MiddlewareNotUsed("PUBLIC_FAST_PATH is off")
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        found = _candidate(request)
        if found is None:
            return self.get_response(request)
        slug, is_api = found
        key = _answer_key(request)
        throttle = _throttle_bucket(request) if is_api else None
        stored, count = _read(key, throttle)
        if throttle is not None and count is not None:  # not counted (the cache failed): DRF counts it
            request.META[FAST_PATH_COUNTED] = (throttle[0], count)
            if count > throttle[1]:
                return self.get_response(request)  # over the rate: the ordinary path answers 429
        tag = _current_tag(slug) if isinstance(stored, bytes) else None
        if tag is not None:
            answer = self._serve(request, tag, stored)
            if answer is not None:
                return answer
        response = self.get_response(request)
        self._store(request, slug, key, response)
        return response

    def _serve(self, request: HttpRequest, tag: str, stored: bytes) -> HttpResponse | None:
        try:
            stored_tag, headers, etag, modified, body = pickle.loads(stored)
        except Exception:
            return None
        if stored_tag != tag:
            return None  # rendered for another version: the ordinary path renders (and stores) this one
        if _conditional_match(request, etag, modified):
            response: HttpResponse = HttpResponseNotModified()
            for name, value in headers:
                if name.lower() not in _HEADERS_NOT_IN_304:
                    response[name] = value
            return response
        response = HttpResponse(body)
        for name, value in headers:
            response[name] = value
        return response

    def _store(self, request: HttpRequest, slug: str, key: str, response: HttpResponse) -> None:
        offered = getattr(request, "_fast_path_tag", None)
        if offered is None or offered[0] != slug or response.status_code != 200 or response.streaming:
            return
        if response.cookies or getattr(request, "_csp_nonce", None):
            return  # the answer holds something of this reader's
        cache_control = response.get("Cache-Control", "")
        if "public" not in cache_control or "private" in cache_control:
            return
        etag, modified = response.get("ETag"), response.get("Last-Modified")
        if not etag or not modified:
            return
        from django.utils.http import parse_http_date_safe

        modified_at = parse_http_date_safe(modified)
        if modified_at is None:
            return
        tag = offered[1]
        entry = pickle.dumps((tag, list(response.items()), etag, float(modified_at), response.content),
                             protocol=pickle.HIGHEST_PROTOCOL)
        try:
            cache.set(key, entry, ANSWER_SECONDS)
        except Exception:
            logger.warning("page cache unavailable; fast path of %s not stored", slug, exc_info=True)
