"""Standings: pure functions over plain dataclasses (see compute.py for every tiebreak's definition)."""

from tournaments.standings.compute import (
    DEFAULT_TIEBREAKS_PLACING,
    DEFAULT_TIEBREAKS_SCORE,
    TIEBREAKS,
    GameLine,
    PlayedGame,
    StandingEntry,
    StandingsError,
    compute_standings,
    placing_match_points,
    placings_from_scores,
)

__all__ = [
    "DEFAULT_TIEBREAKS_PLACING",
    "DEFAULT_TIEBREAKS_SCORE",
    "TIEBREAKS",
    "GameLine",
    "PlayedGame",
    "StandingEntry",
    "StandingsError",
    "compute_standings",
    "placing_match_points",
    "placings_from_scores",
]
