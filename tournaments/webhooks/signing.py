"""The signature of a delivery: `Webhook-Signature: t=<unix seconds>,v1=<hex>` where the hex is
HMAC-SHA256(secret, "<t>.<raw body>"). A receiver recomputes it over the raw bytes it received,
compares in constant time and refuses a timestamp too far from its clock (replays); see
docs/webhooks.md for the recipe. `v1` names the scheme so that a future one can be sent alongside."""

from __future__ import annotations

import hashlib
import hmac
import secrets
import time

HEADER = "Webhook-Signature"
SECRET_BYTES = 32
DEFAULT_TOLERANCE_SECONDS = 300


def secret_new() -> str:
    return "whsec_" + secrets.token_urlsafe(SECRET_BYTES)


def signature(secret: str, timestamp: int, body: bytes) -> str:
    message = str(int(timestamp)).encode() + b"." + body
    return hmac.new(secret.encode(), message, hashlib.sha256).hexdigest()


def signature_header(secret: str, body: bytes, *, timestamp: int | None = None) -> str:
    stamp = int(time.time()) if timestamp is None else int(timestamp)
    return f"t={stamp},v1={signature(secret, stamp, body)}"


def signature_valid(secret: str, header: str, body: bytes, *, tolerance: int = DEFAULT_TOLERANCE_SECONDS,
                    now: float | None = None) -> bool:
    """The receiver's side (used by our tests, and the reference for docs/webhooks.md)."""
    fields: dict[str, list[str]] = {}
    for part in (header or "").split(","):
        key, _, value = part.strip().partition("=")
        fields.setdefault(key, []).append(value)
    try:
        stamp = int(fields["t"][0])
    except (KeyError, ValueError):
        return False
    if abs((time.time() if now is None else now) - stamp) > tolerance:
        return False
    expected = signature(secret, stamp, body)
    return any(hmac.compare_digest(expected, given) for given in fields.get("v1", []))
