"""`Idempotency-Key` for result reports and decisions (issue 30): a tap made offline and sent again when
the network returns, or sent twice by a flaky network, is written exactly once.

A write sent with the header (or, from a page without JavaScript-built headers, the form field
`idempotency_key`) runs in ONE transaction with the insertion of an `IdempotentRequest` row unique per
(key, client and URL): the write and the stored answer commit together or not at all. A second request
with the same key waits on that unique index while the first runs, then gets the first one's answer
again (same status, same body or redirect, header `Idempotent-Replayed: true`), and nothing is written
twice. Different clients (another user, another private link) never share keys. A refusal (409, 422)
is an answer like any other: the same key answers the same refusal. Without a key, nothing changes.

Lock order: the key row is inserted before the services lock the tournament; a transaction holding a
tournament lock never waits for a key row, so no cycle is possible (docs/architecture.md).
"""

from __future__ import annotations

import functools
import gzip
import hashlib
import re
from collections.abc import Callable
from typing import Any

from django.db import IntegrityError, transaction
from django.http import HttpRequest, HttpResponse, HttpResponseRedirect, JsonResponse

from tournaments.models import IdempotentRequest

HEADER = "Idempotency-Key"
FORM_FIELD = "idempotency_key"
KEY_PATTERN = re.compile(r"^[A-Za-z0-9_.:-]{8,100}$")
BODY_MAX_CHARS = 200_000


def _key(request: HttpRequest) -> str | None:
    key = request.headers.get(HEADER)
    if key is None and request.content_type in ("application/x-www-form-urlencoded", "multipart/form-data"):
        key = request.POST.get(FORM_FIELD)
    return key


def _scope(request: HttpRequest) -> str:
    user = getattr(request, "user", None)
    who = f"user:{user.pk}" if user is not None and user.is_authenticated else "anonymous"
    token = request.headers.get("X-Report-Token", "")
    return hashlib.sha256(f"{who}|{token}|{request.path}".encode()).hexdigest()


def _replay(stored: IdempotentRequest) -> HttpResponse:
    if stored.location:
        response: HttpResponse = HttpResponseRedirect(stored.location)
        response.status_code = stored.status_code
    else:
        response = HttpResponse(stored.body, status=stored.status_code, content_type=stored.content_type or None)
    response["Idempotent-Replayed"] = "true"
    return response


def _bad_key() -> HttpResponse:
    return JsonResponse({"error": {"code": "invalid_input", "details": {"header": HEADER},
                                   "message": "An Idempotency-Key has 8 to 100 letters, digits or _ . : -"}},
                        status=400)


def stored_body(response: HttpResponse) -> str:
    """The answer's text as it is kept for a replay: a compressed answer (the scoresheet's `gzip_page`)
    is kept uncompressed, and nothing PostgreSQL cannot store in a text column (NUL) gets through."""
    content = response.content
    if response.get("Content-Encoding", "") == "gzip":
        try:
            content = gzip.decompress(content)
        except (OSError, EOFError):
            content = b""
    return content.decode("utf-8", "replace").replace("\x00", "\ufffd")[:BODY_MAX_CHARS]


def honour_idempotency_key(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
    """Wrap a POST view (a function, or a DRF `as_view()`) so that a key makes it run at most once."""

    @functools.wraps(view)
    def wrapped(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        if request.method != "POST":
            return view(request, *args, **kwargs)
        key = _key(request)
        if key is None or key == "":
            return view(request, *args, **kwargs)
        if not KEY_PATTERN.match(key):
            return _bad_key()
        scope = _scope(request)
        try:
            with transaction.atomic():
                row = IdempotentRequest.objects.create(key=key, scope=scope, status_code=0)
                response = view(request, *args, **kwargs)
                if hasattr(response, "render") and not getattr(response, "is_rendered", True):
                    response.render()
                if response.status_code >= 500:
                    transaction.set_rollback(True)  # a failure is not an answer: the key may be tried again
                    return response
                row.status_code = response.status_code
                row.location = response.get("Location", "")[:500] if 300 <= response.status_code < 400 else ""
                row.content_type = response.get("Content-Type", "")[:100]
                row.body = "" if row.location else stored_body(response)
                row.save(update_fields=["status_code", "location", "content_type", "body"])
                return response
        except IntegrityError:
            stored = IdempotentRequest.objects.filter(key=key, scope=scope).first()
            if stored is None or stored.status_code == 0:
                raise
            return _replay(stored)

    return wrapped
