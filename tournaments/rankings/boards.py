"""Leaderboard rows as plain values, shared by the pages, the API and the exports."""

from __future__ import annotations

from typing import Any

from django.core.paginator import Page
from django.db.models import QuerySet

from tournaments.rankings.models import PlayerRating

EXPORT_LIMIT = 10000
COLUMNS = ["rank", "shared_rank", "player_id", "player", "club", "rating", "mu", "sigma", "games", "last_played",
           "trend"]


def page_rows(board: QuerySet[PlayerRating], page: Page[PlayerRating]) -> list[dict[str, Any]]:
    """The rows of one page of `board` with competition ranks (equal ratings share a rank, the next
    rank skips): one COUNT query more on pages after the first, whatever the page size."""
    rows = list(page.object_list)
    first_rank = 1
    if rows and page.number > 1:
        first_rank = board.filter(board_rating__gt=rows[0].board_rating).count() + 1  # type: ignore[attr-defined]
    return leaderboard_rows(rows, first_rank=first_rank, first_position=page.start_index() or 1)


def leaderboard_rows(rows: list[PlayerRating], *, first_rank: int = 1, first_position: int = 1
                     ) -> list[dict[str, Any]]:
    """Rows of `selectors.leaderboard` (annotated, best first) as dicts with competition ranks: the
    first row has `first_rank`, equal ratings share a rank, the others rank by position."""
    out: list[dict[str, Any]] = []
    previous: float | None = None
    for position, row in enumerate(rows, start=first_position):
        player = row.player
        trend = getattr(row, "board_trend", None)
        rating: float = row.board_rating  # type: ignore[attr-defined]
        if not out:
            rank, shared = first_rank, first_rank < first_position
        elif rating == previous:
            rank, shared = out[-1]["rank"], True
            out[-1]["shared_rank"] = True
        else:
            rank, shared = position, False
        previous = rating
        out.append({
            "rank": rank,
            "shared_rank": shared,
            "player_id": player.pk,
            "player": player.name,
            "club": player.club.name if player.club else "",
            "rating": round(rating, 3),
            "mu": round(row.board_mu, 3),  # type: ignore[attr-defined]
            "sigma": round(row.board_sigma, 3),  # type: ignore[attr-defined]
            "games": row.board_games,  # type: ignore[attr-defined]
            "last_played": row.board_last_played,  # type: ignore[attr-defined]
            "trend": round(trend, 3) if trend is not None else None,
        })
    return out
