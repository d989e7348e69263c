"""Embedding on other sites: the `/embed/...` pages may be shown in frames from any site, and the
public API may be read cross-origin (CORS, reads only).

Every other page refuses frames (X-Frame-Options DENY, and the CSP `frame-ancestors 'none'` default
of the security settings). A view opts in with `tournaments.framing.embeddable`, the one place that
lifts both (no X-Frame-Options, CSP `frame-ancestors *`).

CORS (django-cors-headers): `cors_read_only` answers the middleware's `check_request_enabled`
signal. Only GET/HEAD under /api/ (and the preflight of such a request) get an
`Access-Control-Allow-Origin`; no credentials and no Authorization header are allowed cross-origin,
so another site reads exactly what an anonymous visitor sees. Writes stay same-origin.
"""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest

READ_METHODS = frozenset({"GET", "HEAD"})


def cors_read_only(sender: Any, request: HttpRequest, **kwargs: Any) -> bool:
    """django-cors-headers signal: CORS for reads of the public API only."""
    if not request.path_info.startswith("/api/"):
        return False
    if request.method in READ_METHODS:
        return True
    if request.method == "OPTIONS":  # a preflight: only for a read
        return request.headers.get("Access-Control-Request-Method", "").upper() in READ_METHODS
    return False
