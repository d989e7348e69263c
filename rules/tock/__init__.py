"""Tock as Board Game Arena plays it: 2-6 seats, free-for-all or teams, 52 cards (spec section 6)."""

from rules.tock.engine import TockEngine

ENGINE = TockEngine()

__all__ = ["ENGINE", "TockEngine"]
