"""Which pages other sites may show in a frame (issue 15; docs/operations.md, "Content-Security-Policy").

Every response carries `Content-Security-Policy: frame-ancestors 'none'` and `X-Frame-Options: DENY`
(settings). A view meant to be embedded anywhere (the venue's embed pages) opts in with
`@embeddable`: its responses get `frame-ancestors *` and no X-Frame-Options header; the rest of the
policy is unchanged.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from csp.decorators import csp_replace
from django.views.decorators.clickjacking import xframe_options_exempt

FRAME_ANYWHERE = {"frame-ancestors": ["*"]}


def embeddable(view: Callable[..., Any]) -> Callable[..., Any]:
    """Let any site frame this view's responses."""
    return xframe_options_exempt(csp_replace(FRAME_ANYWHERE)(view))
