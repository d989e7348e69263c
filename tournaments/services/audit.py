"""The append-only audit trail: one row per change made through a service."""

from __future__ import annotations

from typing import Any

from django.db import models

from tournaments.models import AuditLog, Entrant, Tournament


def audit_record(
    *,
    action: str,
    tournament: Tournament | None,
    obj: models.Model | None = None,
    actor: Any = None,
    actor_entrant: Entrant | None = None,
    data: dict[str, Any] | None = None,
) -> AuditLog:
    user = actor if actor is not None and getattr(actor, "is_authenticated", False) else None
    return AuditLog.objects.create(
        tournament=tournament,
        actor=user,
        actor_entrant=actor_entrant,
        action=action,
        object_type=obj.__class__.__name__.lower() if obj is not None else "",
        object_id=obj.pk if obj is not None else None,
        data=data or {},
    )
