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

Conditional GET: the ETag is a hash of the content key and of what the shell shows for this visitor.
An anonymous visitor's shell holds nothing of theirs (no CSRF token: `PublicPage.public_shell`; the
language switcher posts to a view that needs none), so their ETag is the key alone and a client with or
without cookies gets its 304; a logged-in visitor's shell (their name, the CSRF token of the logout form)
adds the user and the CSRF cookie they sent. Last-Modified is the first time this content key was served.
A matching `If-None-Match` (or, without it, a not older `If-Modified-Since`) answers 304 before anything
is rendered. The same validators serve the public API reads (`api_not_modified`), whose ETag is the key and
the negotiated format (JSON or the browsable API) and the logged-in user, never the raw `Accept`
header.

Cache-Control: an anonymous reader of a public page gets `public, max-age=PUBLIC_CACHE_MAX_AGE,
stale-while-revalidate=PUBLIC_CACHE_STALE_WHILE_REVALIDATE` (a browser or a reverse proxy may reuse it for
a few seconds, then revalidates with the ETag); a logged-in reader, a private tournament, a page with
messages or a CSRF token gets `private, no-cache` (docs/operations.md, "A venue").

An anonymous reader's standings page and JSON standings are answered before any middleware, from the
whole answer stored for their URL, while the tournament's versions are those it was rendered with
(tournaments/public_fast_path.py).

Without Redis (`REDIS_URL` unset) the local-memory cache of each process does the same job. A cache that
fails (Redis down) fails open: the page is rendered in full and sent without validators.
"""

from __future__ import annotations

import hashlib
import logging
import time
from collections.abc import Callable, Iterable
from typing import Any

from django.conf import settings
from django.contrib.messages import get_messages
from django.core.cache import cache
from django.http import HttpRequest, HttpResponse, HttpResponseNotModified
from django.utils.cache import patch_cache_control, patch_vary_headers
from django.utils.http import http_date, parse_etags, parse_http_date_safe
from django.utils.translation import get_language

PREFIX = "page:v1"
# How long an anonymous reader's whole page (shell included) is kept for its URL; the content key is kept
# as long as its version is current.
FULL_PAGE_SECONDS = 600
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


def _anonymous(request: HttpRequest) -> bool:
    user = getattr(request, "user", None)
    return user is None or not user.is_authenticated


def public_cache_control(response: HttpResponse) -> None:
    """`public, max-age, stale-while-revalidate` from the settings: reuse for a few seconds, then revalidate."""
    patch_cache_control(response, public=True, max_age=settings.PUBLIC_CACHE_MAX_AGE,
                        stale_while_revalidate=settings.PUBLIC_CACHE_STALE_WHILE_REVALIDATE)


class PublicPage:
    """One request for a cacheable page: its content (cached or rendered once) and its validators.

    `cacheable=False` (a viewer whose page is personal: an organiser, a player of the tournament)
    renders everything fresh and sends no validators. `shared=False` (a private tournament's page) is
    never marked `public` for browsers and proxies.
    """

    def __init__(self, request: HttpRequest, key: str, *, cacheable: bool = True, shared: bool = True) -> None:
        self.request = request
        self.key = key
        self.cacheable = cacheable
        self.shared = shared
        self.html: str | None = None
        self.full: bytes | None = None
        self.full_key: str | None = None
        self.first_served = time.time()
        if cacheable:
            # an anonymous reader's whole page is the same for every such reader of this URL
            self.full_key = (f"{key}:full:{_digest((request.get_full_path(), request.headers.get('HX-Request', '')))}"
                             if self.public_shell else None)
            try:
                found = cache.get_many([key, f"{key}:t", *([self.full_key] if self.full_key else [])])
                stamp = found.get(f"{key}:t")
                if stamp is None:
                    cache.add(f"{key}:t", self.first_served, None)
            except Exception:  # the cache is down: serve the page uncached, without validators
                logger.warning("page cache unavailable; rendering %s uncached", key, exc_info=True)
                self.cacheable = False
                return
            self.html = found.get(key)
            if self.full_key and isinstance(found.get(self.full_key), bytes):
                self.full = found[self.full_key]
            if stamp is not None:
                self.first_served = float(stamp)

    @property
    def public_shell(self) -> bool:
        """The shell holds nothing of the visitor's: anonymous, no CSRF token (base.html leaves it out)."""
        return self.cacheable and _anonymous(self.request)

    def cached_response(self) -> HttpResponse | None:
        """An anonymous reader's whole page as it was last rendered for this URL and version (no template
        rendered at all), or None. Call after `not_modified()`."""
        if self.full is None or len(get_messages(self.request)):
            return None
        return self.finish(HttpResponse(self.full))

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
        if self.public_shell:
            return f'"{_digest((self.key, "anonymous"))}"'
        user = getattr(self.request, "user", None)
        user_id = user.pk if user is not None and user.is_authenticated else 0
        return f'"{_digest((self.key, user_id, self.request.META.get("CSRF_COOKIE", "")))}"'

    def not_modified(self) -> HttpResponse | None:
        """A 304 when the visitor's copy is this version (checked before any rendering), else None."""
        if not self.cacheable or self.request.method not in ("GET", "HEAD"):
            return None
        if len(get_messages(self.request)):
            return None  # the shell would differ (messages to show)
        if not self.public_shell and "CSRF_COOKIE" not in self.request.META:
            return None  # a logged-in shell with a new CSRF cookie
        if _conditional_match(self.request, self._etag(), self.first_served):
            return self.finish(HttpResponseNotModified())
        return None

    def finish(self, response: HttpResponse) -> HttpResponse:
        """Add the validators and Cache-Control to a rendered page (or a 304)."""
        if not self.cacheable or response.status_code not in (200, 304):
            return response
        if response.status_code == 200 and len(get_messages(self.request)):
            patch_cache_control(response, private=True, no_cache=True)  # shown once: never revalidated
            return response
        response["ETag"] = self._etag()
        response["Last-Modified"] = http_date(int(self.first_served))
        # a token rendered after all (a form of the content) ties the page to this visitor's cookie
        personal_token = bool(self.request.META.get("CSRF_COOKIE_NEEDS_UPDATE")) or bool(response.cookies)
        if self.public_shell and self.shared and not personal_token:
            public_cache_control(response)
            if self.full is None and self.full_key and response.status_code == 200 and not getattr(
                    self.request, "_csp_nonce", None) and not response.streaming:
                try:  # a bounded lifetime: the key holds the URL's query string, which anyone may vary
                    cache.set(self.full_key, response.content, FULL_PAGE_SECONDS)
                except Exception:
                    logger.warning("page cache unavailable; %s not stored", self.full_key, exc_info=True)
        else:
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


def api_not_modified(
    request: Any, key: str, *, shared: bool = True
) -> tuple[HttpResponse | None, Callable[[Any], Any]]:
    """Conditional GET for a public API read keyed like the pages: (a 304 or None, a function that adds
    the validators to the full answer). The key must hold everything the answer depends on; the ETag adds
    only the negotiated format (JSON or the browsable API) and the logged-in user (an organiser sees
    drafts), so anonymous clients sending different `Accept` headers for the same JSON share one. `shared=False` (a private tournament): never `public`."""
    renderer = getattr(request, "accepted_renderer", None)
    media = getattr(renderer, "format", "") or ""
    user = getattr(request, "user", None)
    user_id = user.pk if user is not None and user.is_authenticated else 0  # an organiser sees drafts
    etag = f'"{_digest((key, media, user_id))}"'
    stamp_key = f"{key}:t"
    try:
        found = cache.get_many([stamp_key, f"{key}:body"])  # one trip: the stamp and the stored answer
        first = found.get(stamp_key)
        if first is None:
            first = time.time()
            cache.add(stamp_key, first, None)
    except Exception:  # the cache is down: answer in full, without validators
        logger.warning("page cache unavailable; %s answered without validators", key, exc_info=True)
        return None, lambda response: response
    body = found.get(f"{key}:body")
    if isinstance(body, bytes):
        request._page_cache_body = (key, body)  # for cached_answer(), read in the same trip
    public = shared and _anonymous(request) and media == "json"

    def validators(response: Any) -> Any:
        if response.status_code in (200, 304):
            response["ETag"] = etag
            response["Last-Modified"] = http_date(int(first))
            if public:
                public_cache_control(response)
            else:
                patch_cache_control(response, private=True, no_cache=True)
            patch_vary_headers(response, ("Accept", "Accept-Language", "Authorization", "Cookie"))
        return response

    if request.method in ("GET", "HEAD") and _conditional_match(request, etag, float(first)):
        return validators(HttpResponseNotModified()), validators
    return None, validators


def cached_answer(key: str, request: Any = None) -> bytes | None:
    """A public API answer stored under `key` (rendered once per version), or None. `api_not_modified`
    already read it for `request` in the same trip as the stamp."""
    held = getattr(request, "_page_cache_body", None)
    if held is not None and held[0] == key:
        return held[1]  # type: ignore[no-any-return]
    try:
        found = cache.get(f"{key}:body")
    except Exception:
        logger.warning("page cache unavailable; %s rendered uncached", key, exc_info=True)
        return None
    return found if isinstance(found, bytes) else None


def store_answer(key: str, body: bytes) -> None:
    try:
        cache.set(f"{key}:body", body, None)
    except Exception:
        logger.warning("page cache unavailable; %s not stored", key, exc_info=True)
