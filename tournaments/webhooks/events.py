"""The events a webhook can subscribe to, and `webhook_emit`, called by the writes that cause them.

`webhook_emit` is called inside the writing transaction with the tournament row it locked; only when
that row says the tournament has an active endpoint (`Tournament.webhooks_active`, kept by the webhook
services) does it register an on-commit hook that enqueues the fan-out task: an event of a tournament
without webhooks costs no query at all, and a rolled-back write sends nothing. Any failure there
(broker down) is logged and swallowed: a webhook never blocks or fails the write that caused it.
The games app emits `record.verified` through the same function (games -> tournaments, never back).
"""

from __future__ import annotations

import logging
import uuid
from collections.abc import Mapping, Sequence
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

logger = logging.getLogger(__name__)

EVENTS: dict[str, Any] = {
    "round.published": _("A round is published"),
    "result.reported": _("A result is reported"),
    "result.confirmed": _("A result is confirmed"),
    "result.rejected": _("A result is rejected"),
    "result.overridden": _("An organiser sets a result"),
    "standings.changed": _("The standings change"),
    "record.verified": _("A game record is verified"),
}
EVENT_NAMES = list(EVENTS)


def webhook_emit(event: str, *, tournament: Any, data: dict[str, Any]) -> None:
    """Announce `event` of the tournament with `data` (JSON-serialisable) once the transaction commits."""
    if event not in EVENTS:
        raise ValueError(f"Unknown webhook event {event!r}.")
    if not tournament.webhooks_active:
        return
    tournament_id = tournament.pk
    envelope = {
        "id": str(uuid.uuid4()),
        "event": event,
        "created_at": timezone.now().isoformat(),
        "data": data,
    }

    def enqueue() -> None:
        try:
            from tournaments.webhooks.tasks import webhook_fanout

            webhook_fanout.delay(tournament_id, envelope)
        except Exception:  # noqa: BLE001 - best effort: the write has committed and stays committed
            logger.exception("Could not enqueue webhook %s of tournament %s", event, tournament_id)

    transaction.on_commit(enqueue)


def result_event(event: str, *, tournament: Any, round_: Any, result: Any,
                 lines: Sequence[Mapping[str, Any]] | None = None) -> None:
    """A result's event: its id, table, round, kind and state, and its lines when the caller has them."""
    data: dict[str, Any] = {
        "result": {"id": result.pk, "kind": result.kind, "state": result.state},
        "table": {"id": result.table_id},
        "round": {"id": round_.pk, "number": round_.number},
    }
    if lines is not None:
        data["result"]["lines"] = [
            {"entrant": line["entrant_id"], "score": line.get("score"), "placing": line.get("placing"),
             "is_winner": bool(line.get("is_winner")), "forfeited": bool(line.get("forfeited"))}
            for line in lines
        ]
    webhook_emit(event, tournament=tournament, data=data)
