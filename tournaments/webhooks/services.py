"""Every write of the webhooks: endpoints (create, remove), the fan-out of an event into deliveries, and
one delivery attempt with its backoff. Keyword-only, typed, atomic; audited like every organiser write."""

from __future__ import annotations

import json
import logging
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from tournaments.errors import ErrorCode, TournamentError
from tournaments.models import Tournament
from tournaments.services.audit import audit_record
from tournaments.services.locking import lock_tournament
from tournaments.services.tournaments import require_organiser
from tournaments.webhooks import delivery as http
from tournaments.webhooks.events import EVENTS
from tournaments.webhooks.models import WebhookAttempt, WebhookDelivery, WebhookEndpoint
from tournaments.webhooks.signing import HEADER, signature_header
from tournaments.webhooks.targets import target_check

logger = logging.getLogger(__name__)

ENDPOINTS_PER_TOURNAMENT = 10


def max_attempts() -> int:
    return max(1, int(getattr(settings, "WEBHOOKS_MAX_ATTEMPTS", 6)))


def retry_delay(attempt: int) -> int:
    """Seconds to wait after failed attempt number `attempt` (1-based): base, 2 x base, 4 x base ...,
    at most `WEBHOOKS_RETRY_MAX_SECONDS` (defaults 30 s and one hour: 30 s, 1, 2, 4, 8 min)."""
    base = int(getattr(settings, "WEBHOOKS_RETRY_BASE_SECONDS", 30))
    cap = int(getattr(settings, "WEBHOOKS_RETRY_MAX_SECONDS", 3600))
    return min(cap, base * 2 ** max(0, attempt - 1))


def _events(events: Sequence[str]) -> list[str]:
    if isinstance(events, str) or not events or any(not isinstance(e, str) or e not in EVENTS for e in events):
        raise TournamentError(ErrorCode.INVALID_INPUT, _("Choose one or more of the events: %(events)s.")
                              % {"events": ", ".join(EVENTS)}, allowed=list(EVENTS))
    return [e for e in EVENTS if e in set(events)]


@transaction.atomic
def webhook_endpoint_create(*, actor: Any, tournament: Tournament, url: str, events: Sequence[str],
                            description: str = "") -> WebhookEndpoint:
    """Register `url` for `events` of the tournament (an organiser); the target is checked now (see
    `targets.target_check`). The endpoint's secret is generated here and shown to the organiser."""
    from tournaments.webhooks.signing import secret_new

    tournament = lock_tournament(tournament.pk)
    require_organiser(actor, tournament)
    chosen = _events(events)
    target_check(url)
    if WebhookEndpoint.objects.filter(tournament=tournament).count() >= ENDPOINTS_PER_TOURNAMENT:
        raise TournamentError(ErrorCode.WEBHOOK_LIMIT_REACHED,
                              _("A tournament has at most %(max)s webhooks.") % {"max": ENDPOINTS_PER_TOURNAMENT})
    endpoint = WebhookEndpoint.objects.create(
        tournament=tournament, url=url, events=chosen, secret=secret_new(), description=(description or "")[:200],
        created_by=actor if getattr(actor, "is_authenticated", False) else None,
    )
    Tournament.objects.filter(pk=tournament.pk).update(webhooks_active=True)
    audit_record(action="webhook_created", tournament=tournament, obj=endpoint, actor=actor,
                 data={"url": url, "events": chosen})
    return endpoint


@transaction.atomic
def webhook_endpoint_remove(*, actor: Any, endpoint: WebhookEndpoint) -> None:
    """Remove an endpoint with its delivery log (pending deliveries are not sent)."""
    tournament = lock_tournament(endpoint.tournament_id)
    require_organiser(actor, tournament)
    audit_record(action="webhook_removed", tournament=tournament, obj=endpoint, actor=actor,
                 data={"url": endpoint.url})
    endpoint.delete()
    Tournament.objects.filter(pk=tournament.pk).update(
        webhooks_active=WebhookEndpoint.objects.filter(tournament=tournament, active=True).exists())


@transaction.atomic
def webhook_fanout(*, tournament_id: int, envelope: dict[str, Any]) -> list[int]:
    """One delivery per active endpoint of the tournament subscribed to the event; returns the ids of the
    deliveries still to send. Safe to run twice: (endpoint, event id) is unique."""
    tournament = Tournament.objects.filter(pk=tournament_id).only("id", "slug").first()
    if tournament is None:
        return []
    event = envelope.get("event")
    payload = {**envelope, "tournament": {"id": tournament.pk, "slug": tournament.slug}}
    ids = []
    for endpoint in WebhookEndpoint.objects.filter(tournament_id=tournament_id, active=True):
        if event not in endpoint.events:
            continue
        delivery, _created = WebhookDelivery.objects.get_or_create(
            endpoint=endpoint, event_id=envelope["id"], defaults={"event": event, "payload": payload, "next_attempt_at": timezone.now()},
        )
        if delivery.state == WebhookDelivery.State.PENDING:
            ids.append(delivery.pk)
    return ids


@dataclass(frozen=True)
class AttemptOutcome:
    state: str
    retry_in: int | None  # seconds until the next attempt, None when the delivery is finished


def body_of(delivery: WebhookDelivery) -> bytes:
    return json.dumps(delivery.payload, separators=(",", ":"), sort_keys=True).encode()


def webhook_attempt(*, delivery_id: int) -> AttemptOutcome | None:
    """Make the next attempt of a pending delivery and log its answer; None when there is nothing to do
    (delivered, failed, refused, removed, or another worker logged this attempt first). The HTTP request is
    made outside any transaction; its answer is written in one."""
    delivery = WebhookDelivery.objects.select_related("endpoint").filter(pk=delivery_id).first()
    if delivery is None or delivery.state != WebhookDelivery.State.PENDING:
        return None
    number = delivery.attempts + 1
    started = timezone.now()
    try:
        target = target_check(delivery.endpoint.url)
    except TournamentError as error:  # now private (rebinding, or the setting was turned off): never sent
        answer = http.Answer(status=None, body_excerpt="", duration_ms=0, error=error.message[:300])
        return _log(delivery, number, started, answer, refused=True)
    body = body_of(delivery)
    headers = {
        HEADER: signature_header(delivery.endpoint.secret, body),
        "Webhook-Id": str(delivery.event_id),
        "Webhook-Event": delivery.event,
        "Webhook-Attempt": str(number),
    }
    timeout = float(getattr(settings, "WEBHOOKS_TIMEOUT_SECONDS", 5))
    answer = http.post(target, body, headers, timeout=timeout)
    return _log(delivery, number, started, answer)


@transaction.atomic
def _log(delivery: WebhookDelivery, number: int, started: Any, answer: http.Answer, *,
         refused: bool = False) -> AttemptOutcome | None:
    locked = WebhookDelivery.objects.select_for_update().filter(pk=delivery.pk).first()
    if locked is None or locked.state != WebhookDelivery.State.PENDING or locked.attempts != number - 1:
        return None  # removed meanwhile, or another run logged this attempt
    if refused:
        state, retry_in = WebhookDelivery.State.REFUSED, None
    elif answer.ok:
        state, retry_in = WebhookDelivery.State.DELIVERED, None
    elif number >= max_attempts():
        state, retry_in = WebhookDelivery.State.FAILED, None
    else:
        state, retry_in = WebhookDelivery.State.PENDING, retry_delay(number)
    try:
        with transaction.atomic():
            WebhookAttempt.objects.create(
                delivery=locked, number=number, started_at=started, status_code=answer.status,
                body_excerpt=answer.body_excerpt.replace("\x00", "\ufffd"), duration_ms=answer.duration_ms,
                error=answer.error.replace("\x00", "")[:300], retry_in_seconds=retry_in,
            )
    except IntegrityError:
        return None
    locked.attempts = number
    locked.state = state
    now = timezone.now()
    locked.next_attempt_at = now + timezone.timedelta(seconds=retry_in) if retry_in is not None else None
    locked.finished_at = None if retry_in is not None else now
    locked.save(update_fields=["attempts", "state", "next_attempt_at", "finished_at"])
    return AttemptOutcome(state=state, retry_in=retry_in)


def deliveries_due(*, limit: int = 500) -> list[int]:
    """Pending deliveries whose next attempt is overdue by more than a minute (a lost task message)."""
    late = timezone.now() - timezone.timedelta(seconds=60)
    return list(WebhookDelivery.objects.filter(state=WebhookDelivery.State.PENDING, next_attempt_at__lt=late)
                .order_by("next_attempt_at").values_list("pk", flat=True)[:limit])
