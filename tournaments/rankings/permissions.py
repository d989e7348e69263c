"""Who may do what with the rankings (the only place these rules live).

- Everyone reads the public rankings (built from public tournaments only).
- Staff (active `is_staff` users) may trigger a recomputation of a pool.
- A tournament's organisers set its rating policy and seed it from the rankings
  (tournaments.permissions.is_organiser, checked in the services).
"""

from __future__ import annotations

from typing import Any


def can_recompute_ratings(user: Any) -> bool:
    return bool(
        user is not None and getattr(user, "is_authenticated", False) and user.is_active and user.is_staff
    )
