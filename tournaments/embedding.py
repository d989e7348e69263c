"""Embedding on other sites: the `/embed/...` pages may be shown in frames from any site, and the
public API may be read cross-origin (CORS, reads only).

Every other page refuses frames (X-Frame-Options DENY, and the CSP `frame-ancestors 'none'` default
of the security settings). A view opts in with `@frame_from_any_site`, the one place that lifts both:
it exempts the response from X-Frame-Options and overrides the CSP `frame-ancestors` directive with
`*` (through django-csp's per-response `_csp_replace` when its middleware is installed, else by
writing the header itself).

CORS (django-cors-headers): `cors_read_only` answers the middleware's `check_request_enabled`
signal. Only GET/HEAD under /api/ (and the preflight of such a request) get an
`Access-Control-Allow-Origin`; no credentials and no Authorization header are allowed cross-origin,
so another site reads exactly what an anonymous visitor sees. Writes stay same-origin.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.views.decorators.clickjacking import xframe_options_exempt

FRAME_ANCESTORS_ANY = "*"
READ_METHODS = frozenset({"GET", "HEAD"})


def frame_from_any_site(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """Allow the view's pages in frames from any site (and mark the view as such)."""

    @wraps(view)
    def wrapped(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        response = view(request, *args, **kwargs)
        # django-csp (4.x) merges this into its policy for this response only.
        response._csp_replace = {"frame-ancestors": [FRAME_ANCESTORS_ANY]}  # type: ignore[attr-defined]
        if not any(name.startswith("csp.") for name in settings.MIDDLEWARE):
            response["Content-Security-Policy"] = f"frame-ancestors {FRAME_ANCESTORS_ANY}"
        return response

    exempt = xframe_options_exempt(wrapped)
    exempt.frame_from_any_site = True  # type: ignore[attr-defined]
    return exempt


def cors_read_only(sender: Any, request: HttpRequest, **kwargs: Any) -> bool:
    """django-cors-headers signal: CORS for reads of the public API only."""
    if not request.path_info.startswith("/api/"):
        return False
    if request.method in READ_METHODS:
        return True
    if request.method == "OPTIONS":  # a preflight: only for a read
        return request.headers.get("Access-Control-Request-Method", "").upper() in READ_METHODS
    return False
