"""The e-mails of a sign-up, to its contact address, in its language (docs/registration.md).

Events (object: the registration id): `registration_pending` (received, awaiting approval),
`registration_accepted` (confirmed), `registration_waitlisted` (on the waiting list, with the position),
`registration_promoted` (moved up from the waiting list: now confirmed), `registration_rejected`,
`registration_withdrawn`. Every one carries the private link (status, withdrawal, self check-in).

Enqueued on commit (`notify_registration`), sent by the task `tournaments.tasks.registration_email_send`;
idempotent like the venue-day notifications: an `EmailNotification` row per (event, sign-up, address)
is written in the transaction that hands the message over, so a task run twice sends one e-mail.
An address that unsubscribed gets nothing.
"""

from __future__ import annotations

import logging

from django.conf import settings
from django.core.mail import EmailMultiAlternatives
from django.db import IntegrityError, transaction
from django.template.loader import render_to_string
from django.utils import translation

from tournaments.models import EmailNotification, EmailOptOut, Registration
from tournaments.notifications import normalise_address, unsubscribe_url

logger = logging.getLogger(__name__)

EVENTS = ("registration_pending", "registration_accepted", "registration_waitlisted", "registration_promoted",
          "registration_rejected", "registration_withdrawn")


def notify_registration(event: str, registration_id: int) -> None:
    """Send the event's e-mail once the current transaction commits (best effort: a broker outage
    loses the e-mail, never the sign-up)."""
    if event not in EVENTS:
        raise ValueError(f"Unknown registration event {event!r}.")

    def enqueue() -> None:
        from tournaments.tasks import registration_email_send

        try:
            registration_email_send.delay(event, registration_id)
        except Exception:
            logger.exception("Could not enqueue registration e-mail %s #%s", event, registration_id)

    transaction.on_commit(enqueue)


def _language(code: str) -> str:
    codes = {c for c, _name in settings.LANGUAGES}
    return code if code in codes else settings.LANGUAGE_CODE


def registration_email_send_event(*, event: str, registration_id: int) -> int:
    """Send the e-mail of one event of one sign-up if not sent yet; returns 1 if sent now, else 0."""
    from tournaments.registration.services import waitlist
    from tournaments.registration.tokens import registration_link

    if event not in EVENTS:
        raise ValueError(f"Unknown registration event {event!r}.")
    registration = Registration.objects.select_related("tournament").filter(pk=registration_id).first()
    if registration is None or not registration.email:
        return 0
    address = normalise_address(registration.email)
    if EmailOptOut.objects.filter(address=address).exists():
        return 0
    position = None
    if registration.state == Registration.State.WAITLISTED:
        queue = [r.pk for r in waitlist(registration.tournament)]
        position = queue.index(registration.pk) + 1 if registration.pk in queue else None
    unsubscribe = unsubscribe_url(address)
    context = {"event": event, "registration": registration, "tournament": registration.tournament,
               "link": registration_link(registration), "position": position, "unsubscribe_url": unsubscribe}
    with translation.override(_language(registration.language)):
        subject = " ".join(render_to_string("emails/registration_subject.txt", context).split())
        text = render_to_string("emails/registration.txt", context)
        html = render_to_string("emails/registration.html", context)
    message = EmailMultiAlternatives(
        subject=subject, body=text, from_email=settings.DEFAULT_FROM_EMAIL, to=[address],
        headers={"List-Unsubscribe": f"<{unsubscribe}>", "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
                 "Auto-Submitted": "auto-generated"},
    )
    message.attach_alternative(html, "text/html")
    with transaction.atomic():
        try:
            with transaction.atomic():
                EmailNotification.objects.create(tournament=registration.tournament, event=event,
                                                 object_id=registration.pk, address=address)
        except IntegrityError:
            return 0
        message.send()
    return 1
