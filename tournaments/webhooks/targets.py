"""Which URLs a webhook may target (server-side request forgery guard).

A target is refused unless its scheme is http or https, it has a host, no user name or password, and
EVERY address its host resolves to is a public unicast address: loopback, private (RFC 1918, unique
local), link-local (169.254/16 with the cloud metadata address, fe80::/10), shared (100.64/10),
multicast, reserved, unspecified and IPv4-mapped forms of those are refused. The check runs when the
URL is registered and again before every delivery, whose connection then goes to the address that was
checked (`delivery.py`): a name that resolves to a public address at registration and to 127.0.0.1
later (DNS rebinding) is refused at delivery time.

`WEBHOOKS_ALLOW_PRIVATE_TARGETS` (setting, off by default) lets private addresses through, for tests
and intranet installations.
"""

from __future__ import annotations

import ipaddress
import socket
from dataclasses import dataclass
from urllib.parse import urlsplit

from django.conf import settings
from django.utils.translation import gettext as _

from tournaments.errors import ErrorCode, TournamentError

URL_MAX_LENGTH = 500
SCHEMES = ("http", "https")


@dataclass(frozen=True)
class Target:
    """A checked target: where to connect (`address`, `port`) and what to ask for (`host`, `path`)."""

    scheme: str
    host: str
    port: int
    path: str
    address: str


def _refused(message: str, **details: object) -> TournamentError:
    return TournamentError(ErrorCode.WEBHOOK_TARGET_REFUSED, message, **details)


def allow_private() -> bool:
    return bool(getattr(settings, "WEBHOOKS_ALLOW_PRIVATE_TARGETS", False))


def address_is_public(address: str) -> bool:
    ip = ipaddress.ip_address(address.split("%", 1)[0])
    if isinstance(ip, ipaddress.IPv6Address):
        mapped = ip.ipv4_mapped or ip.sixtofour
        if mapped is not None:
            return address_is_public(str(mapped))
    return ip.is_global and not (ip.is_multicast or ip.is_reserved or ip.is_unspecified or ip.is_loopback
                                 or ip.is_link_local or ip.is_private)


def split_url(url: str) -> tuple[str, str, int, str]:
    """(scheme, host, port, path with query) of a URL a webhook may use, or `webhook_target_refused`."""
    if not isinstance(url, str) or len(url) > URL_MAX_LENGTH or any(c in url for c in "\r\n\t "):
        raise _refused(_("The webhook URL must be an http or https address of at most %(max)s characters.")
                       % {"max": URL_MAX_LENGTH}, reason="malformed")
    try:
        parts = urlsplit(url)
        port = parts.port
    except ValueError:
        raise _refused(_("The webhook URL is not a valid address."), reason="malformed") from None
    if parts.scheme not in SCHEMES or not parts.hostname:
        raise _refused(_("The webhook URL must be an http or https address of at most %(max)s characters.")
                       % {"max": URL_MAX_LENGTH}, reason="malformed")
    if parts.username is not None or parts.password is not None:
        raise _refused(_("The webhook URL may not contain a user name or password."), reason="credentials")
    path = (parts.path or "/") + (f"?{parts.query}" if parts.query else "")
    return parts.scheme, parts.hostname, port or (443 if parts.scheme == "https" else 80), path


def resolve(host: str, port: int) -> list[str]:
    """Every address `host` resolves to (a literal address resolves to itself)."""
    try:
        infos = socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except (OSError, UnicodeError):
        raise _refused(_("The webhook host %(host)s cannot be resolved.") % {"host": host},
                       reason="unresolvable") from None
    return list(dict.fromkeys(str(info[4][0]) for info in infos))


def target_check(url: str) -> Target:
    """Check `url` now (resolving its host) and return where to connect; refuses private targets unless
    `WEBHOOKS_ALLOW_PRIVATE_TARGETS` is on."""
    scheme, host, port, path = split_url(url)
    addresses = resolve(host, port)
    if not addresses:
        raise _refused(_("The webhook host %(host)s cannot be resolved.") % {"host": host}, reason="unresolvable")
    if not allow_private():
        private = [a for a in addresses if not address_is_public(a)]
        if private:
            raise _refused(
                _("The webhook host %(host)s resolves to a private or local address; webhooks go to public "
                  "addresses only.") % {"host": host},
                reason="private_address", addresses=private,
            )
    return Target(scheme=scheme, host=host, port=port, path=path, address=addresses[0])
