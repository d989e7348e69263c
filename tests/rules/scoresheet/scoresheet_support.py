"""What the scoresheet tests of `rules` share: whether a sheet's derived result is the record's."""

from __future__ import annotations

from typing import Any


def same_result(derived: dict[str, Any] | None, claimed: dict[str, Any]) -> bool:
    assert derived is not None
    return sorted(derived["winners"]) == sorted(claimed["winners"]) and all(
        derived.get(k) == v for k, v in claimed.items() if k not in ("winners", "termination")
    )
