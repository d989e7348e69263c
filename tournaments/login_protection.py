"""Login protection (issue 15): django-axes counts failed logins on the web login, the admin login and
`POST /api/auth/token/`, per account and per client address (`tournaments.client_address`).

After `LOGIN_FAILURE_LIMIT` failures for one account, or from one client, further attempts are refused
with 429 and a message saying when to try again, until `LOGIN_LOCKOUT_MINUTES` after the last counted
failure (then released by itself; `manage.py axes_reset` releases everybody at once). A successful login
resets the account's count. Other accounts and clients are unaffected.
"""

from __future__ import annotations

import math
from typing import Any

from axes.backends import AxesStandaloneBackend
from axes.helpers import get_cool_off, get_credentials
from axes.signals import user_locked_out
from django.dispatch import receiver
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.utils.translation import gettext as _

from tournaments.security_log import security_event


def lockout_seconds(request: HttpRequest | None = None) -> int:
    cool_off = get_cool_off(request)
    return int(math.ceil(cool_off.total_seconds())) if cool_off else 0


def lockout_message(request: HttpRequest | None = None) -> str:
    minutes = max(1, int(math.ceil(lockout_seconds(request) / 60)))
    return _("Too many failed logins. Logging in is blocked for %(minutes)s minutes; try again later.") % {
        "minutes": minutes}


def lockout_response(request: HttpRequest, original_response: HttpResponse | None = None,
                     credentials: dict[str, Any] | None = None) -> HttpResponse:
    """The answer to a locked-out login attempt (AXES_LOCKOUT_CALLABLE): JSON under /api/, a page elsewhere."""
    seconds = lockout_seconds(request)
    response: HttpResponse
    if request.path.startswith("/api/"):
        response = JsonResponse({"error": {"code": "login_locked", "message": lockout_message(request),
                                           "details": {"retry_after": seconds}}}, status=429)
    else:
        response = render(request, "registration/locked_out.html", {"message": lockout_message(request)},
                          status=429)
    if seconds:
        response["Retry-After"] = str(seconds)
    return response


def login_is_locked(request: HttpRequest, username: str) -> bool:
    from axes.handlers.proxy import AxesProxyHandler

    return not AxesProxyHandler.is_allowed(request, get_credentials(username))


@receiver(user_locked_out, dispatch_uid="tournaments.login_protection.locked_out")
def _log_lockout(sender: Any, request: HttpRequest, username: str | None, ip_address: str | None,
                 **kwargs: Any) -> None:
    security_event("login_locked", username=username or "", client=ip_address or "")


class LoginLockoutBackend(AxesStandaloneBackend):
    """django-axes' lockout check for every login made through an HTTP request. Authentication without a
    request (a management command, the test client's `login()`) is no attack surface and is not checked."""

    def authenticate(self, request: HttpRequest | None, username: str | None = None, password: str | None = None,
                     **kwargs: Any) -> None:
        if request is None:
            return None
        return super().authenticate(request, username, password, **kwargs)  # type: ignore[arg-type]
