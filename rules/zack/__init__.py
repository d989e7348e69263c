"""ZACK!: the event log of a reaction game, replayed event by event (spec section 8)."""

from __future__ import annotations

from rules.zack.engine import ZackEngine

ENGINE = ZackEngine()

__all__ = ["ENGINE", "ZackEngine"]
