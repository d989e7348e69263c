"""Fixtures of the hardening tests (issue 15): ports of this suite's fake servers, users."""

from __future__ import annotations

import os
import socket
from collections.abc import Iterator
from typing import Any

import pytest
from django.contrib.auth import get_user_model

# Ports for the fake servers (a closed port, a stalled server); override when 18600.. is taken.
PORT_BASE = int(os.environ.get("HARDENING_PORT_BASE", "18600"))


def free_port() -> int:
    """A port nothing listens on (connections are refused), from this suite's range when possible."""
    for port in range(PORT_BASE + 1, PORT_BASE + 50):
        with socket.socket() as probe:
            if probe.connect_ex(("127.0.0.1", port)) != 0:
                return port
    raise RuntimeError("no closed port in the range")


@pytest.fixture
def closed_port() -> int:
    return free_port()


@pytest.fixture
def stalled_server() -> Iterator[int]:
    """A TCP server that accepts connections and never answers (a hung Redis or database)."""
    server = socket.socket()
    server.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    for port in range(PORT_BASE + 50, PORT_BASE + 99):
        try:
            server.bind(("127.0.0.1", port))
            break
        except OSError:
            continue
    server.listen(128)  # connections complete in the backlog; nothing is ever read or written
    try:
        yield server.getsockname()[1]
    finally:
        server.close()


@pytest.fixture
def org(db: Any) -> Any:
    return get_user_model().objects.create_user("org", password="org-password-1")


@pytest.fixture
def other(db: Any) -> Any:
    return get_user_model().objects.create_user("other", password="other-password-1")
