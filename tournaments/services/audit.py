"""The append-only audit trail: one row per change made through a service.

`audit_record` writes its row at once. A transaction that makes several changes may build the rows
with `audit_entry` and write them together with `audit_write` (one statement, rows in the order given):
the same rows, the same content, fewer round trips.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.db import models

from tournaments.bulk_copy import copy_insert
from tournaments.models import AuditLog, Entrant, Tournament


def audit_entry(
    *,
    action: str,
    tournament: Tournament | None,
    obj: models.Model | None = None,
    actor: Any = None,
    actor_entrant: Entrant | None = None,
    data: dict[str, Any] | None = None,
) -> AuditLog:
    """The audit row of one change, not written yet (`audit_write`)."""
    user = actor if actor is not None and getattr(actor, "is_authenticated", False) else None
    return AuditLog(
        tournament=tournament,
        actor=user,
        actor_entrant=actor_entrant,
        action=action,
        object_type=obj.__class__.__name__.lower() if obj is not None else "",
        object_id=obj.pk if obj is not None else None,
        data=data or {},
    )


def audit_write(entries: Sequence[AuditLog]) -> None:
    """Write audit rows built by `audit_entry` in one statement, in the order given (their ids ascending):
    an INSERT, or a COPY for many rows on PostgreSQL (`tournaments.bulk_copy`: the rows keep no id)."""
    copy_insert(AuditLog, entries)


def audit_record(**fields: Any) -> AuditLog:
    """Write the audit row of one change at once; `fields` as `audit_entry` takes them."""
    entry = audit_entry(**fields)
    entry.save()
    return entry
