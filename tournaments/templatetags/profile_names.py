"""`{{ profile|profile_name }}`: a game profile's name in the page's language (tournaments.profile_names)."""

from __future__ import annotations

from django import template

from tournaments.profile_names import profile_name as _profile_name
from tournaments.profiles import GameProfile

register = template.Library()


@register.filter
def profile_name(profile: GameProfile | None) -> str:
    return _profile_name(profile) if profile is not None else ""
