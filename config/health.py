"""`GET /healthz`: a constant answer for load balancers and uptime checks, and the trivial view the
benchmarks compare the public pages with (`benchmarks/room.py`). No database, no cache, no template: if
it answers, the web process is up."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_safe


@never_cache
@require_safe
def healthz(request: HttpRequest) -> HttpResponse:
    return HttpResponse(b"ok\n", content_type="text/plain")
