"""Reads of the rankings: leaderboards, player and team histories. Constant query counts (no N+1).

Public rankings contain only public tournaments: private ones never enter a stream (stream.py).

Period reading (docs/rankings.md): with `date_from`/`date_to`, a player's rating is their rating
as of the end of the period (after their last game on or before `date_to`); "games" counts their
games inside the period, and only players with at least max(1, min_games) games inside it appear;
the trend is the change of the conservative rating across the period. Without a period the trend is
the change over the player's last TREND_GAMES games.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass

from django.db.models import (
    Count,
    F,
    FloatField,
    IntegerField,
    OuterRef,
    Prefetch,
    QuerySet,
    Subquery,
    Value,
    prefetch_related_objects,
)
from django.db.models.functions import Coalesce

from tournaments.models import Club, Player
from tournaments.rankings.compute import INITIAL, Rating, parse_team_key, team_rating
from tournaments.rankings.models import PlayerRating, RatingEvent

TREND_GAMES = 5


@dataclass(frozen=True)
class LeaderboardFilter:
    club_id: int | None = None
    date_from: dt.date | None = None
    date_to: dt.date | None = None
    min_games: int = 1

    @property
    def has_period(self) -> bool:
        return self.date_from is not None or self.date_to is not None


def leaderboard(pool: str, filters: LeaderboardFilter) -> QuerySet[PlayerRating]:
    """PlayerRating rows annotated with board_mu, board_sigma, board_rating (conservative), board_games,
    board_last_played, board_trend; best first. One query (plus one to count when paginated)."""
    rows = PlayerRating.objects.filter(pool=pool).select_related("player__club")
    if filters.club_id is not None:
        rows = rows.filter(player__club_id=filters.club_id)
    events = RatingEvent.objects.filter(pool=pool, player=OuterRef("player"))
    if filters.has_period:
        until = events.filter(played_on__lte=filters.date_to) if filters.date_to else events
        inside = until.filter(played_on__gte=filters.date_from) if filters.date_from else until
        latest = until.order_by("-key")
        rows = rows.annotate(
            board_mu=Subquery(latest.values("mu_after")[:1], output_field=FloatField()),
            board_sigma=Subquery(latest.values("sigma_after")[:1], output_field=FloatField()),
            board_rating=Subquery(latest.values("conservative_after")[:1], output_field=FloatField()),
            board_last_played=Subquery(latest.values("played_on")[:1]),
            board_games=Coalesce(
                Subquery(inside.order_by().values("player").annotate(n=Count("pk")).values("n")[:1],
                         output_field=IntegerField()),
                Value(0),
            ),
            board_start=Subquery(inside.order_by("key").values("conservative_before")[:1],
                                 output_field=FloatField()),
        )
    else:
        recent = events.order_by("-key")
        rows = rows.annotate(
            board_mu=F("mu"), board_sigma=F("sigma"), board_rating=F("conservative"),
            board_last_played=F("last_played"), board_games=F("games"),
            board_start=Coalesce(
                Subquery(recent.values("conservative_before")[TREND_GAMES - 1:TREND_GAMES],
                         output_field=FloatField()),
                Subquery(events.order_by("key").values("conservative_before")[:1], output_field=FloatField()),
            ),
        )
    rows = rows.annotate(board_trend=F("board_rating") - F("board_start"))
    return rows.filter(board_games__gte=max(1, filters.min_games), board_rating__isnull=False).order_by(
        "-board_rating", "player__name", "player_id"
    )


def clubs_in_pool(pool: str) -> list[Club]:
    return list(Club.objects.filter(players__ratings__pool=pool).distinct().order_by("name"))


@dataclass(frozen=True)
class HistoryPoint:
    key: str
    played_on: dt.date
    mu: float
    sigma: float
    conservative: float


def player_history(pool: str, player: Player) -> list[RatingEvent]:
    """The player's events in `pool`, oldest first, with game, tournament, round and table: one query
    whatever their number (`with_game_players` adds the other players where a page shows them)."""
    return list(
        RatingEvent.objects.filter(pool=pool, player=player)
        .select_related("game__tournament", "game__table__round")
        .order_by("key")
    )


def with_game_players(events: Sequence[RatingEvent]) -> None:
    """Load every player of each event's game (for teammates and opponents): two queries."""
    prefetch_related_objects(events, Prefetch("game__events", queryset=RatingEvent.objects.select_related("player")))


def history_points(events: Sequence[RatingEvent]) -> list[HistoryPoint]:
    return [HistoryPoint(e.key, e.played_on, e.mu_after, e.sigma_after, e.conservative_after) for e in events]


@dataclass(frozen=True)
class PlayerRecords:
    games: int
    wins: int
    best_win_streak: int
    peak: float | None
    peak_on: dt.date | None
    tournaments: int


def player_records(events: Sequence[RatingEvent]) -> PlayerRecords:
    peak = max(events, key=lambda e: (e.conservative_after, e.key), default=None)
    streak = best = 0
    for event in events:
        streak = streak + 1 if event.rank == 1 else 0
        best = max(best, streak)
    return PlayerRecords(
        games=len(events), wins=sum(1 for e in events if e.rank == 1), best_win_streak=best,
        peak=peak.conservative_after if peak else None, peak_on=peak.played_on if peak else None,
        tournaments=len({e.game.tournament_id for e in events}),
    )


@dataclass(frozen=True)
class TeamProfile:
    key: str
    players: list[Player]
    rating: Rating
    events: list[RatingEvent]  # one per game the team played together (its first player's event)
    history: list[HistoryPoint]
    start: float  # the team rating before its first game together


def team_profile(pool: str, key: str) -> TeamProfile | None:
    """A team (a set of players) in `pool`: its current rating (aggregated from its players' current
    ratings) and its games together, with the team rating after each. None when the key is not
    canonical or the team never played together."""
    try:
        ids = parse_team_key(key)
    except ValueError:
        return None
    players = list(Player.objects.filter(pk__in=ids).select_related("club").order_by("name", "pk"))
    if len(players) != len(ids):
        return None
    all_events = list(
        RatingEvent.objects.filter(pool=pool, team_key=key)
        .select_related("game__tournament", "game__table__round")
        .order_by("key", "player_id")
    )
    if not all_events:
        return None
    by_game: dict[int, list[RatingEvent]] = {}
    for event in all_events:
        by_game.setdefault(event.game_id, []).append(event)
    firsts = [group[0] for group in by_game.values()]
    history = []
    for group in by_game.values():
        team = team_rating([Rating(e.mu_after, e.sigma_after) for e in group])
        history.append(HistoryPoint(group[0].key, group[0].played_on, team.mu, team.sigma, team.conservative))
    current = {r.player_id: Rating(r.mu, r.sigma) for r in PlayerRating.objects.filter(pool=pool, player_id__in=ids)}
    rating = team_rating([current.get(pid, INITIAL) for pid in ids])
    first_group = next(iter(by_game.values()))
    start = team_rating([Rating(e.mu_before, e.sigma_before) for e in first_group]).conservative
    return TeamProfile(key=key, players=players, rating=rating, events=firsts, history=history, start=start)


def teams_of_player(events: Sequence[RatingEvent]) -> list[tuple[str, str]]:
    """(team key, "A & B") of every team with more than one player the player has played in, most
    recent first (the events need `with_game_players`)."""
    seen: dict[str, str] = {}
    for event in reversed(events):
        if "-" in event.team_key and event.team_key not in seen:
            mates = [e.player.name for e in event.game.events.all() if e.team_index == event.team_index]
            seen[event.team_key] = " & ".join(sorted(mates))
    return list(seen.items())

