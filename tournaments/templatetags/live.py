"""`{% live_attrs tournament %}`: the `data-live` attribute of `<main>` on a page that refreshes itself."""

from __future__ import annotations

from typing import Any

from django import template
from django.utils.html import format_html

from tournaments.live import live_seconds

register = template.Library()


@register.simple_tag
def live_attrs(tournament: Any) -> str:
    seconds = live_seconds(tournament)
    return format_html(' data-live="{}"', seconds) if seconds else ""
