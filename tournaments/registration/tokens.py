"""The private link of a sign-up: a signed registration id (django.core.signing), never stored.
Whoever holds it sees the sign-up, withdraws it, and checks the team in while self check-in is open."""

from __future__ import annotations

from django.conf import settings
from django.core import signing
from django.urls import reverse

from tournaments.models import Registration

SALT = "tournaments.registration.link"


def registration_token(registration: Registration) -> str:
    return signing.dumps({"r": registration.pk, "t": registration.tournament_id}, salt=SALT, compress=True)


def registration_from_token(token: str) -> Registration | None:
    try:
        value = signing.loads(str(token)[:400], salt=SALT)
    except signing.BadSignature:
        return None
    if not isinstance(value, dict) or not isinstance(value.get("r"), int):
        return None
    return (Registration.objects.select_related("tournament", "entrant")
            .filter(pk=value["r"], tournament_id=value.get("t")).first())


def registration_link(registration: Registration) -> str:
    path = reverse("web:registration-status", args=[registration.tournament.slug, registration_token(registration)])
    return settings.SITE_URL.rstrip("/") + path
