"""Private report links of entrants as absolute URLs and as QR codes (SVG, drawn server-side by segno).

A report link is a secret: only organisers' pages (result slips, the report-link sheet) and the
entrant's own e-mails carry it.
"""

from __future__ import annotations

import segno
from django.conf import settings
from django.http import HttpRequest
from django.urls import reverse
from django.utils.safestring import SafeString, mark_safe

from tournaments.models import Entrant


def report_link(entrant: Entrant, request: HttpRequest | None = None) -> str:
    """The absolute URL of the entrant's private report page (from the request, else SITE_URL)."""
    path = reverse("web:token-home", args=[entrant.report_token])
    if request is not None:
        return request.build_absolute_uri(path)
    return settings.SITE_URL.rstrip("/") + path


def qr_svg(url: str, *, scale: int = 2) -> SafeString:
    """An inline SVG QR code of `url` (error correction M, no XML declaration; safe to embed)."""
    code = segno.make(url, error="m", micro=False)
    svg = code.svg_inline(scale=scale, border=2, title=None, omitsize=False)
    return mark_safe(svg)  # noqa: S308 - segno writes the SVG itself; the URL is only encoded in paths
