"""One HTTP attempt of a delivery: POST the body to the checked address (no second DNS lookup, so the
address that passed `targets.target_check` is the one connected to), with the host's name in the
`Host` header and, over https, in SNI and certificate verification. No redirects are followed (a
redirect is an answer like any other, logged and retried). The answer's body is read up to
`BODY_EXCERPT_BYTES`."""

from __future__ import annotations

import http.client
import socket
import ssl
import time
from dataclasses import dataclass

from tournaments.webhooks.targets import Target

BODY_EXCERPT_BYTES = 1024
USER_AGENT = "tournament-webhooks/1"


@dataclass(frozen=True)
class Answer:
    status: int | None  # None: no HTTP answer (connection refused, timeout, TLS error ...)
    body_excerpt: str
    duration_ms: int
    error: str = ""

    @property
    def ok(self) -> bool:
        return self.status is not None and 200 <= self.status < 300


class _PinnedHTTPConnection(http.client.HTTPConnection):
    def __init__(self, target: Target, timeout: float) -> None:
        super().__init__(target.host, target.port, timeout=timeout)
        self._address = target.address

    def connect(self) -> None:
        self.sock = socket.create_connection((self._address, self.port), self.timeout)


class _PinnedHTTPSConnection(http.client.HTTPSConnection):
    def __init__(self, target: Target, timeout: float) -> None:
        super().__init__(target.host, target.port, timeout=timeout, context=ssl.create_default_context())
        self._address = target.address

    def connect(self) -> None:
        sock = socket.create_connection((self._address, self.port), self.timeout)
        self.sock = self._context.wrap_socket(sock, server_hostname=self.host)  # type: ignore[attr-defined]


def post(target: Target, body: bytes, headers: dict[str, str], *, timeout: float) -> Answer:
    connection_class = _PinnedHTTPSConnection if target.scheme == "https" else _PinnedHTTPConnection
    connection = connection_class(target, timeout)
    started = time.monotonic()
    try:
        connection.request("POST", target.path, body=body, headers={
            "Content-Type": "application/json", "User-Agent": USER_AGENT, **headers})
        response = connection.getresponse()
        excerpt = response.read(BODY_EXCERPT_BYTES)
        return Answer(status=response.status, body_excerpt=excerpt.decode("utf-8", "replace"),
                      duration_ms=_elapsed(started))
    except (OSError, http.client.HTTPException) as exc:
        return Answer(status=None, body_excerpt="", duration_ms=_elapsed(started),
                      error=f"{type(exc).__name__}: {exc}"[:300])
    finally:
        connection.close()


def _elapsed(started: float) -> int:
    return int((time.monotonic() - started) * 1000)
