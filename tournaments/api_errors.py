"""Maps every API error to `{"error": {"code", "message", "details"}}` with a 4xx status.

Domain errors (`TournamentError`) carry their own code and status; DRF's own exceptions keep their
status and get a stable code; Django's `Http404`/`PermissionDenied` likewise.
"""

from __future__ import annotations

from typing import Any

from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.utils.translation import gettext as _
from rest_framework import exceptions
from rest_framework.response import Response
from rest_framework.views import exception_handler

from tournaments.errors import TournamentError

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
