"""E-mail notifications of the venue day.

Events (enqueued by the services after commit with `notify_on_commit`; sent by the Celery task
`tournaments.tasks.notification_send`):

- `round_published` (round id): every seated entrant gets its table, seat, board, start time, the
  opponents and its private report link (a bye is told it has a bye);
- `result_reported` (result id): the opponents of the reporting entrant are asked to confirm;
- `result_rejected`, `result_overridden` (result id): every entrant at the table is told.

Recipients are the entrant's contact address and its players' addresses (each with its own
language, else the entrant's, else the site's). Addresses that unsubscribed (`EmailOptOut`) get
nothing. Idempotent: an `EmailNotification` row per (event, object, address) is inserted in the same
transaction that hands the message to the backend, so a task that runs twice (or two workers at
once) sends each address one e-mail. Every message has a plain-text and an HTML part and a working
unsubscribe link (also as `List-Unsubscribe` with one-click POST, RFC 8058).
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.core import signing
from django.core.mail import EmailMultiAlternatives, get_connection
from django.db import DatabaseError, IntegrityError, transaction
from django.db.models import Exists, OuterRef, Q
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import translation

from tournaments.models import EmailNotification, EmailOptOut, Entrant, Result, Round, Table
from tournaments.profiles import PLACING, ProfileError, profile_for
from tournaments.report_links import report_link
from tournaments.selectors import members_with_players

logger = logging.getLogger(__name__)

EVENTS = ("round_published", "result_reported", "result_rejected", "result_overridden")
UNSUBSCRIBE_SALT = "tournaments.notifications.unsubscribe"


@dataclass(frozen=True)
class Recipient:
    address: str
    language: str
    entrant: Entrant


def notify_on_commit(event: str, object_id: int, *, anyone: bool | None = None) -> None:
    """Enqueue the notification task once the current transaction commits, if anybody concerned has an
    address. `anyone`: whether an entrant concerned has an address, when the caller read it already
    (`addresses_at_table`); False enqueues nothing, None looks it up at commit (one query)."""
    if event not in EVENTS:
        raise ValueError(f"Unknown notification event {event!r}.")
    if anyone is False:
        return

    def enqueue() -> None:
        from tournaments.tasks import notification_send

        try:
            if anyone is None and not anyone_to_tell(event, object_id):
                return  # no address at the table (or in the round): no task, no broker round trip
        except DatabaseError:  # cannot tell: the task decides
            logger.warning("Could not look up the addresses of notification %s #%s", event, object_id)
        from tournaments.task_outbox import publish

        try:
            publish(notification_send, event, object_id)  # the broker down: kept in the outbox
        except Exception:  # the broker is down: notifications are best effort, results are not affected
            logger.exception("Could not enqueue notification %s #%s", event, object_id)

    transaction.on_commit(enqueue)


def anyone_to_tell(event: str, object_id: int) -> bool:
    """Whether an entrant concerned by the event has an address at all (its own or a player's), in one
    query: most club tournaments collect none, and then a result costs no notification task (issue 14:
    one per result was a third of a verified record's work in the worker). Opt-outs are left to the task."""
    if event == "round_published":
        concerned = Q(seats__table__round_id=object_id)
    else:
        concerned = Q(seats__table__results__id=object_id)
    return Entrant.objects.filter(concerned).filter(_HAS_ADDRESS).exists()


def has_address(entrant: str = "") -> Q:
    """The entrant has an address, its own or one of its players': `entrant` is the path to it from the
    model queried (`"entrant__"` from a seat)."""
    return Q(**{f"{entrant}email__gt": ""}) | Q(**{f"{entrant}members__player__email__gt": ""})


_HAS_ADDRESS = has_address()


def addresses_at_table(table_field: str = "pk") -> Exists:
    """`EXISTS` (an entrant seated at the table named by `table_field` with an address), to annotate the
    query that locks the table (`services.locking.TableLocks.has_addresses`, then `notify_on_commit`)."""
    return Exists(Entrant.objects.filter(_HAS_ADDRESS, seats__table_id=OuterRef(table_field)))


def normalise_address(address: str) -> str:
    return address.strip().lower()


def unsubscribe_token(address: str) -> str:
    return signing.dumps(normalise_address(address), salt=UNSUBSCRIBE_SALT, compress=True)


def address_from_unsubscribe_token(token: str) -> str | None:
    try:
        value = signing.loads(token, salt=UNSUBSCRIBE_SALT)
    except signing.BadSignature:
        return None
    return value if isinstance(value, str) and "@" in value else None


def unsubscribe_url(address: str) -> str:
    return settings.SITE_URL.rstrip("/") + reverse("web:email-unsubscribe", args=[unsubscribe_token(address)])


def _language(*candidates: str) -> str:
    codes = {code for code, _name in settings.LANGUAGES}
    return next((c for c in candidates if c in codes), settings.LANGUAGE_CODE)


def _addresses(entrant: Entrant) -> dict[str, Recipient]:
    """The entrant's addresses (contact first, then its players'), each once; members prefetched."""
    found: dict[str, Recipient] = {}
    if entrant.email:
        address = normalise_address(entrant.email)
        found[address] = Recipient(address, _language(entrant.language), entrant)
    for member in entrant.members.all():
        player = member.player
        if player.email:
            address = normalise_address(player.email)
            found.setdefault(address, Recipient(address, _language(player.language, entrant.language), entrant))
    return found


def recipients_of(entrants: list[Entrant]) -> dict[int, list[Recipient]]:
    """Per entrant id, its addresses without the opted-out ones (one query for all opt-outs)."""
    by_entrant = {entrant.pk: _addresses(entrant) for entrant in entrants}
    every = [address for found in by_entrant.values() for address in found]
    opted_out = set(EmailOptOut.objects.filter(address__in=every).values_list("address", flat=True)) if every else set()
    return {pk: [r for a, r in found.items() if a not in opted_out] for pk, found in by_entrant.items()}


def _table_context(table: Table) -> dict[str, Any]:
    seats = list(table.seats.select_related("entrant").order_by("position"))
    tournament = table.round.tournament
    try:
        placing_mode = profile_for(tournament.game, tournament.variant).result_mode == PLACING
    except ProfileError:
        placing_mode = False
    return {
        "placing_mode": placing_mode,
        "table": table,
        "seats": seats,
        "start": table.starts_at or table.round.starts_at,
        "board": table.board.name if table.board else table.physical_table,
    }


def _entrants_at(tables: list[Table]) -> dict[int, list[Recipient]]:
    entrants = list(Entrant.objects.filter(seats__table__in=tables).prefetch_related(members_with_players()).distinct())
    return recipients_of(entrants)


def _messages_for(event: str, object_id: int) -> tuple[Any, list[tuple[Recipient, dict[str, Any]]]] | None:
    """The tournament and, per recipient, the template context of the event (None if it is gone).
    A fixed number of queries per table, whatever the number of seats."""
    if event == "round_published":
        round_ = Round.objects.select_related("tournament").filter(pk=object_id).first()
        if round_ is None or round_.status == Round.Status.DRAFT:
            return None
        tables = list(round_.tables.select_related("board", "round__tournament").order_by("number"))
        recipients = _entrants_at(tables)
        out = []
        for table in tables:
            context = _table_context(table)
            for seat in context["seats"]:
                for recipient in recipients.get(seat.entrant_id, []):
                    out.append((recipient, {**context, "seat": seat, "round": round_,
                                            "report_link": report_link(recipient.entrant)}))
        return round_.tournament, out
    result = Result.objects.select_related("table__round__tournament", "table__board", "reported_for").filter(
        pk=object_id).first()
    if result is None:
        return None
    table = result.table
    context = _table_context(table)
    scores = {s.entrant_id: s for s in result.scores.all()}
    lines = [(seat, scores.get(seat.entrant_id)) for seat in context["seats"]]
    recipients = _entrants_at([table])
    out = []
    for seat in context["seats"]:
        if event == "result_reported" and seat.entrant_id == result.reported_for_id:
            continue  # the reporter's side is not asked to confirm its own report
        for recipient in recipients.get(seat.entrant_id, []):
            out.append((recipient, {**context, "seat": seat, "round": table.round, "result": result,
                                    "lines": lines, "report_link": report_link(recipient.entrant)}))
    return table.round.tournament, out


def _render(event: str, context: dict[str, Any], recipient: Recipient) -> EmailMultiAlternatives:
    unsubscribe = unsubscribe_url(recipient.address)
    full = {**context, "entrant": recipient.entrant, "unsubscribe_url": unsubscribe,
            "site_url": settings.SITE_URL.rstrip("/")}
    with translation.override(recipient.language):
        subject = " ".join(render_to_string(f"emails/{event}_subject.txt", full).split())
        text = render_to_string(f"emails/{event}.txt", full)
        html = render_to_string(f"emails/{event}.html", full)
    message = EmailMultiAlternatives(
        subject=subject, body=text, from_email=settings.DEFAULT_FROM_EMAIL, to=[recipient.address],
        headers={"List-Unsubscribe": f"<{unsubscribe}>", "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
                 "Auto-Submitted": "auto-generated"},
    )
    message.attach_alternative(html, "text/html")
    return message


def notification_send_event(*, event: str, object_id: int) -> int:
    """Send the event's e-mails not yet sent; returns how many were sent now."""
    if event not in EVENTS:
        raise ValueError(f"Unknown notification event {event!r}.")
    found = _messages_for(event, object_id)
    if found is None:
        return 0
    tournament, messages = found
    if not messages:
        return 0
    sent = 0
    connection = get_connection()
    for recipient, context in messages:
        message = _render(event, context, recipient)
        message.connection = connection
        with transaction.atomic():
            try:
                with transaction.atomic():
                    EmailNotification.objects.create(
                        tournament=tournament, event=event, object_id=object_id, address=recipient.address
                    )
            except IntegrityError:
                continue  # sent before (or being sent by another worker, which holds the row)
            message.send()  # an error rolls the row back: a retry sends it again
        sent += 1
    return sent


def unsubscribe(address: str) -> bool:
    """Stop every notification to `address`; True when it was subscribed until now."""
    _row, created = EmailOptOut.objects.get_or_create(address=normalise_address(address))
    return created
