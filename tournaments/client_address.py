"""The client's address, as far as the deployment lets us know it (issue 15).

`X-Forwarded-For` is only believed when `TRUSTED_PROXY_COUNT` says how many reverse proxies of ours
append to it: with N proxies the client is the N-th address from the right (what the outermost of our
proxies saw); anything further left was written by the client and is ignored. With 0 (the default) the
header is ignored and the client is REMOTE_ADDR. Used by the login lockout (django-axes), the API
throttles (DRF's NUM_PROXIES is set to the same number) and the security log.
"""

from __future__ import annotations

from typing import Any

from django.conf import settings


def client_address(request: Any) -> str:
    meta = getattr(request, "META", {})
    remote = str(meta.get("REMOTE_ADDR") or "")
    trusted = int(getattr(settings, "TRUSTED_PROXY_COUNT", 0) or 0)
    if trusted <= 0:
        return remote
    forwarded = [part.strip() for part in str(meta.get("HTTP_X_FORWARDED_FOR") or "").split(",") if part.strip()]
    if not forwarded:
        return remote
    return forwarded[-min(trusted, len(forwarded))][:64]
