"""Game and mode names in the reader's language. `tournaments.profiles` is pure Python and keeps its
English `label` (the CLI, the API and logs use it); pages and e-mails show `profile_name(profile)`.
Proper names (TAC, Tac-Tik, Tock, TAKI, ZACK!, 2v2) stay as they are; modes are translated."""

from __future__ import annotations

from django.utils.translation import gettext as _

from tournaments.profiles import GameProfile


def profile_name(profile: GameProfile) -> str:
    variant = profile.variant
    if profile.game != "tock":
        return profile.label  # TAC, TAC Master, Tac-Tik (n), TAKI (n), ZACK! (n): names, not words
    seats = variant.get("seats", 4)
    quick = bool(variant.get("quick_start"))
    if variant.get("mode", "ffa") == "ffa":
        if quick:
            return _("Tock free-for-all (%(seats)s), quick start") % {"seats": seats}
        return _("Tock free-for-all (%(seats)s)") % {"seats": seats}
    teams = "2v2" if seats == 4 else "2v2v2"
    if quick:
        return _("Tock %(teams)s, quick start") % {"teams": teams}
    return f"Tock {teams}"
