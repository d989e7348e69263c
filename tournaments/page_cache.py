"""Versioned cache of the public pages and their conditional GET (issue 14; docs/operations.md).

What is cached is the *content* of a page (the part under `{% pagecache page %}` in its template), keyed
on what that content shows, never on a timeout:

- a tournament's pages (tournament page, standings, rounds): the tournament id, its `public_version`
  (bumped by every write that locks the tournament, `services.locking.lock_tournament`), its
  `results_version` and `standings_version` (a confirmed result, a recomputation), its visibility, the
  language, and the page's own parameters (page number, round number);
- a ranking: the pool, the moment its ratings were last recomputed, the language and the filters.

A new version is a new key, so a change shows on the next request and nothing stale is ever served;
old keys are simply never read again (Redis evicts them, `maxmemory-policy allkeys-lru`). The page
around the content (the header with the user's name, the CSRF token, messages) is rendered for each
request and is cheap.

Conditional GET: the ETag is a hash of the content key and what the shell shows for this visitor (user,
CSRF cookie); Last-Modified is the first time this content key was served. A matching
`If-None-Match` (or, without it, a not older `If-Modified-Since`) answers 304 before anything is
rendered. The same validators serve the public API reads (`api_not_modified`).

Without Redis (`REDIS_URL` unset) the local-memory cache of each process does the same job. A cache that
fails (Redis down) fails open: the page is rendered in full and sent without validators.
"""

from __future__ import annotations

import hashlib
import logging
import time
from collections.abc import Callable, Iterable
from typing import Any

from django.contrib.messages import get_messages
from django.core.cache import cache
from django.http import HttpRequest, HttpResponse, HttpResponseNotModified
from django.utils.cache import patch_cache_control, patch_vary_headers
from django.utils.http import http_date, parse_etags, parse_http_date_safe
from django.utils.translation import get_language

PREFIX = "page:v1"
logger = logging.getLogger(__name__)


def _digest(parts: Iterable[Any]) -> str:
    return hashlib.sha256("\x1f".join(str(p) for p in parts).encode()).hexdigest()[:32]


def tournament_key(tournament: Any, page: str, *parts: Any) -> str:
    """The cache key of one page of `tournament` as it is now (the row must be freshly loaded)."""
    versions = (f"{tournament.pk}.{tournament.public_version}.{tournament.results_version}."
                f"{tournament.standings_version}.{'public' if tournament.is_public else 'private'}")
    return f"{PREFIX}:t:{page}:{versions}:{get_language()}:{_digest(parts)}"


def ranking_key(pool: str, recomputed_at: Any, page: str, *parts: Any) -> str:
    stamp = recomputed_at.isoformat() if recomputed_at is not None else "never"
    return f"{PREFIX}:r:{page}:{pool}:{stamp}:{get_language()}:{_digest(parts)}"


class PublicPage:
    """One request for a cacheable page: its content (cached or rendered once) and its validators.

    `cacheable=False` (a viewer whose page is personal: an organiser, a player of the tournament)
    renders everything fresh and sends no validators.
    """

    def __init__(self, request: HttpRequest, key: str, *, cacheable: bool = True) -> None:
        self.request = request
        self.key = key
        self.cacheable = cacheable
        self.html: str | None = None
        self.first_served = time.time()
        if cacheable:
            try:
                found = cache.get_many([key, f"{key}:t"])
                stamp = found.get(f"{key}:t")
                if stamp is None:
                    cache.add(f"{key}:t", self.first_served, None)
            except Exception:  # the cache is down: serve the page uncached, without validators
                logger.warning("page cache unavailable; rendering %s uncached", key, exc_info=True)
                self.cacheable = False
                return
            self.html = found.get(key)
            if stamp is not None:
                self.first_served = float(stamp)

    def content(self, render: Callable[[], str]) -> str:
        """The cached content, or `render()` stored under the key (no timeout: the key is the version)."""
        if not self.cacheable:
            return render()
        if self.html is None:
            self.html = render()
            try:
                cache.set(self.key, self.html, None)
            except Exception:
                logger.warning("page cache unavailable; %s not stored", self.key, exc_info=True)
        return self.html

    def _etag(self) -> str:
        user = getattr(self.request, "user", None)
        user_id = user.pk if user is not None and user.is_authenticated else 0
        return f'"{_digest((self.key, user_id, self.request.META.get("CSRF_COOKIE", "")))}"'

    def not_modified(self) -> HttpResponse | None:
        """A 304 when the visitor's copy is this version (checked before any rendering), else None."""
        if not self.cacheable or self.request.method not in ("GET", "HEAD"):
            return None
        if "CSRF_COOKIE" not in self.request.META or len(get_messages(self.request)):
            return None  # the shell would differ (a new CSRF cookie, messages to show)
        if _conditional_match(self.request, self._etag(), self.first_served):
            return self.finish(HttpResponseNotModified())
        return None

    def finish(self, response: HttpResponse) -> HttpResponse:
        """Add the validators to a rendered page (or a 304)."""
        if self.cacheable and response.status_code in (200, 304):
            response["ETag"] = self._etag()
            response["Last-Modified"] = http_date(int(self.first_served))
            patch_cache_control(response, private=True, no_cache=True)
            patch_vary_headers(response, ("Cookie", "Accept-Language"))
        return response


def _conditional_match(request: HttpRequest, etag: str, modified: float) -> bool:
    if_none_match = request.META.get("HTTP_IF_NONE_MATCH")
    if if_none_match:
        tags = parse_etags(if_none_match)
        return "*" in tags or etag in tags or etag.removeprefix("W/") in [t.removeprefix("W/") for t in tags]
    since = parse_http_date_safe(request.META.get("HTTP_IF_MODIFIED_SINCE", ""))
    return since is not None and int(modified) <= since


def api_not_modified(request: HttpRequest, key: str) -> tuple[HttpResponse | None, Callable[[Any], Any]]:
    """Conditional GET for a public API read keyed like the pages: (a 304 or None, a function that adds
    the validators to the full answer). The key must hold everything the answer depends on."""
    user = getattr(request, "user", None)
    user_id = user.pk if user is not None and user.is_authenticated else 0
    etag = f'"{_digest((key, user_id, request.headers.get("Accept", "")))}"'
    stamp_key = f"{key}:t"
    try:
        first = cache.get(stamp_key)
        if first is None:
            first = time.time()
            cache.add(stamp_key, first, None)
    except Exception:  # the cache is down: answer in full, without validators
        logger.warning("page cache unavailable; %s answered without validators", key, exc_info=True)
        return None, lambda response: response

    def validators(response: Any) -> Any:
        if response.status_code in (200, 304):
            response["ETag"] = etag
            response["Last-Modified"] = http_date(int(first))
            patch_cache_control(response, private=True, no_cache=True)
            patch_vary_headers(response, ("Cookie", "Accept-Language", "Accept", "Authorization"))
        return response

    if request.method in ("GET", "HEAD") and _conditional_match(request, etag, float(first)):
        return validators(HttpResponseNotModified()), validators
    return None, validators
