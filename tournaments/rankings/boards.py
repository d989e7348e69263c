"""Leaderboard rows as plain values, shared by the pages, the API and the exports."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from tournaments.rankings.models import PlayerRating

EXPORT_LIMIT = 10000
COLUMNS = ["rank", "player_id", "player", "club", "rating", "mu", "sigma", "games", "last_played", "trend"]


def leaderboard_rows(rows: Iterable[PlayerRating], *, first_rank: int = 1) -> list[dict[str, Any]]:
    """Rows of `selectors.leaderboard` (annotated) as dicts; rank counts from `first_rank`."""
    out = []
    for rank, row in enumerate(rows, start=first_rank):
        player = row.player
        trend = getattr(row, "board_trend", None)
        out.append({
            "rank": rank,
            "player_id": player.pk,
            "player": player.name,
            "club": player.club.name if player.club else "",
            "rating": round(row.board_rating, 3),  # type: ignore[attr-defined]
            "mu": round(row.board_mu, 3),  # type: ignore[attr-defined]
            "sigma": round(row.board_sigma, 3),  # type: ignore[attr-defined]
            "games": row.board_games,  # type: ignore[attr-defined]
            "last_played": row.board_last_played,  # type: ignore[attr-defined]
            "trend": round(trend, 3) if trend is not None else None,
        })
    return out
