"""What the site answers when the database fails (issue 15).

- PostgreSQL unreachable or the connection lost (`OperationalError`/`InterfaceError` that is not a lost
  race): 503 with `Retry-After`, a short page (JSON `service_unavailable` under /api/), no traceback,
  one warning on the `tournaments.dependencies` logger.
- A deadlock or serialization failure (two writers lost a race the database broke up): 409
  `write_conflict` under /api/ (the client repeats the request; nothing was written because every
  service runs in one transaction), a short page elsewhere.
- A row lock not granted within the connection's `lock_timeout` (`DB_LOCK_TIMEOUT`; issue 29): another
  writer holds the tournament (or a host that held it vanished and the server has not yet ended its
  session). 503 `tournament_busy` with `Retry-After`: the web worker is free again after a bounded wait
  instead of piling up behind one tournament, and nothing was written.

The API maps the same exceptions in `tournaments.api_errors`; this middleware covers the web pages
and anything that escapes a view.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from django.db import DatabaseError, InterfaceError, OperationalError
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.template.loader import render_to_string
from django.utils.translation import gettext as _

logger = logging.getLogger("tournaments.dependencies")

RETRY_AFTER_SECONDS = 5
# PostgreSQL SQLSTATEs of a lost race: serialization_failure, deadlock_detected.
CONFLICT_SQLSTATES = {"40001", "40P01"}
# lock_not_available: a lock wait ran past lock_timeout (DB_LOCK_TIMEOUT).
LOCK_TIMEOUT_SQLSTATES = {"55P03"}
BUSY_CODE = "tournament_busy"


def _sqlstate(exc: BaseException) -> str | None:
    cause = exc.__cause__ or exc
    return getattr(cause, "sqlstate", None)


def is_write_conflict(exc: BaseException) -> bool:
    return _sqlstate(exc) in CONFLICT_SQLSTATES


def is_lock_timeout(exc: BaseException) -> bool:
    return _sqlstate(exc) in LOCK_TIMEOUT_SQLSTATES


def is_database_outage(exc: BaseException) -> bool:
    return (isinstance(exc, (OperationalError, InterfaceError)) and not is_write_conflict(exc)
            and not is_lock_timeout(exc))


def is_database_failure(exc: BaseException) -> bool:
    return isinstance(exc, DatabaseError) and (
        is_write_conflict(exc) or is_lock_timeout(exc) or is_database_outage(exc))


def database_failure_message(exc: BaseException) -> tuple[int, str, str]:
    """(status, code, message) for a database failure."""
    if is_write_conflict(exc):
        return 409, "write_conflict", _("Another change got in the way; nothing was saved. Please try again.")
    if is_lock_timeout(exc):
        return 503, BUSY_CODE, _("This tournament is busy with another change; nothing was saved. "
                                 "Please try again in a few seconds.")
    return 503, "service_unavailable", _("The service is unavailable for a moment. Please try again shortly.")


def log_database_failure(request: HttpRequest, exc: BaseException) -> None:
    cause = exc.__cause__ or exc
    logger.warning("Database failure on %s %s: %s: %s", request.method, request.path[:200],
                   type(cause).__name__, str(cause).splitlines()[0][:200] if str(cause) else "")


class DatabaseOutageMiddleware:
    def __init__(self, get_response: Callable[[HttpRequest], HttpResponse]) -> None:
        self.get_response = get_response

    def __call__(self, request: HttpRequest) -> HttpResponse:
        return self.get_response(request)

    def process_exception(self, request: HttpRequest, exception: Exception) -> HttpResponse | None:
        if not is_database_failure(exception):
            return None
        log_database_failure(request, exception)
        status, code, message = database_failure_message(exception)
        response: HttpResponse
        if request.path.startswith("/api/"):
            response = JsonResponse({"error": {"code": code, "message": message, "details": {}}}, status=status)
        else:
            # No request context: the auth context processor would query the database again.
            response = HttpResponse(render_to_string("503.html", {"message": message, "status": status}),
                                    status=status)
        if status == 503:
            response["Retry-After"] = str(RETRY_AFTER_SECONDS)
        return response
