"""Maps every API error to `{"error": {"code", "message", "details"}}` with a 4xx status (or 503).

Domain errors (`TournamentError`) carry their own code and status; DRF's own exceptions keep their
status and get a stable code; Django's `Http404`/`PermissionDenied` likewise. A lost database race
(deadlock, serialization failure) is 409 `write_conflict`, a database outage 503 `service_unavailable`
(`tournaments.outages`). The `handler404`/`handler400`/`handler403`/`handler500` views below keep
`/api/` JSON-only for what never reaches a DRF view (unknown URLs, the CSV and iCal exports).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.utils.translation import gettext as _
from django.views import defaults
from rest_framework import exceptions
from rest_framework.response import Response
from rest_framework.views import exception_handler

from tournaments.errors import TournamentError
from tournaments.outages import (
    RETRY_AFTER_SECONDS,
    database_failure_message,
    is_database_failure,
    log_database_failure,
)

_DRF_CODES: list[tuple[type[exceptions.APIException], str]] = [
    (exceptions.ParseError, "parse_error"),
    (exceptions.ValidationError, "invalid_input"),
    (exceptions.NotAuthenticated, "not_authenticated"),
    (exceptions.AuthenticationFailed, "authentication_failed"),
    (exceptions.PermissionDenied, "permission_denied"),
    (exceptions.NotFound, "not_found"),
    (exceptions.MethodNotAllowed, "method_not_allowed"),
    (exceptions.NotAcceptable, "not_acceptable"),
    (exceptions.UnsupportedMediaType, "unsupported_media_type"),
    (exceptions.Throttled, "throttled"),
]


def _error(code: str, message: str, details: Any, status: int, headers: dict[str, str] | None = None) -> Response:
    return Response({"error": {"code": code, "message": message, "details": details}}, status=status,
                    headers=headers)


def api_exception_handler(exc: Exception, context: dict[str, Any]) -> Response | None:
    if isinstance(exc, TournamentError):
        return _error(str(exc.code), exc.message, exc.details, exc.http_status)
    if isinstance(exc, Http404):
        return _error("not_found", _("Not found."), {}, 404)
    if isinstance(exc, PermissionDenied):
        return _error("permission_denied", str(exc) or _("You may not do this."), {}, 403)
    if is_database_failure(exc):
        request = context.get("request")
        if request is not None:
            log_database_failure(request, exc)
        status, code, message = database_failure_message(exc)
        return _error(code, message, {}, status, {"Retry-After": str(RETRY_AFTER_SECONDS)} if status == 503 else None)
    response = exception_handler(exc, context)
    if response is None or not isinstance(exc, exceptions.APIException):
        return response
    code = "api_error"
    for exc_class, exc_code in _DRF_CODES:
        if isinstance(exc, exc_class):
            code = exc_code
            break
    detail_code = getattr(exc, "default_code", None)
    if isinstance(exc, exceptions.ParseError) and detail_code == "json_too_deep":
        code = "json_too_deep"
    if isinstance(exc, exceptions.ValidationError):
        message = _("The input is invalid; see details.")
        details = exc.detail
    else:
        message = str(exc.detail)
        details = {}
    headers = {k: v for k, v in response.items()}
    return _error(code, message, details, response.status_code, headers)


# --- Django's error views: JSON under /api/, the site's pages elsewhere ------------------------------


def _json_error(code: str, message: str, status: int) -> JsonResponse:
    return JsonResponse({"error": {"code": code, "message": message, "details": {}}}, status=status)


def _is_api(request: HttpRequest) -> bool:
    return request.path.startswith("/api/")


def page_not_found(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    if _is_api(request):
        return _json_error("not_found", "Not found.", 404)
    return defaults.page_not_found(request, exception)  # type: ignore[arg-type]


def bad_request(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    if _is_api(request):
        return _json_error("bad_request", "The request is malformed.", 400)
    return defaults.bad_request(request, exception)  # type: ignore[arg-type]


def permission_denied(request: HttpRequest, exception: Exception | None = None) -> HttpResponse:
    if _is_api(request):
        return _json_error("permission_denied", "You may not do this.", 403)
    return defaults.permission_denied(request, exception)  # type: ignore[arg-type]


def server_error(request: HttpRequest) -> HttpResponse:
    if _is_api(request):
        return _json_error("server_error", "Something went wrong; the error has been logged.", 500)
    return defaults.server_error(request)


def read_only_api_view(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """GET/HEAD only for a plain (non-DRF) view under /api/: other methods get a JSON 405 with Allow."""

    @functools.wraps(view)
    def wrapper(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        if request.method not in ("GET", "HEAD"):
            response = _json_error("method_not_allowed", f'Method "{request.method}" not allowed.', 405)
            response["Allow"] = "GET, HEAD"
            return response
        return view(request, *args, **kwargs)

    return wrapper
