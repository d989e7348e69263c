"""Rating updates: plain dataclasses in, plain dataclasses out, no ORM. Calls openskill's
Plackett-Luce model (openskill 6.2, default parameters: mu 25, sigma 25/3, beta 25/6, tau 25/300).

A game is a list of teams (each a tuple of player ids; a free-for-all has one player per team) and
the rank of each team (1 = first; equal ranks are ties). Every player keeps one rating per pool.

>>> outcome = rate_game(RatedGameInput(key="k", teams=((1,), (2,)), ranks=(1, 2)), {})
>>> [round(u.after.mu, 3) for u in outcome.updates]
[27.635, 22.365]
>>> pool_for("tock")
'tock'
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from openskill.models import PlackettLuce

#: The rating model shared by every pool (openskill's defaults).
MODEL = PlackettLuce()
#: Conservative rating = mu - Z * sigma.
Z = 3.0

#: Rating pools: every variant of a game shares one stream (see docs/rankings.md).
POOLS: dict[str, str] = {"tac": "tac", "tactik": "tactik", "tock": "tock", "taki": "taki", "zack": "zack"}
#: Every pool once, in the order of POOLS.
POOL_NAMES: tuple[str, ...] = tuple(dict.fromkeys(POOLS.values()))


def pool_for(game: str) -> str:
    """The rating pool of a tournament's game: every variant shares it (TAC basic and master share
    `tac`, Tac-Tik 4 and 6 share `tactik`, Tock free-for-all and teams share `tock`)."""
    try:
        return POOLS[game]
    except KeyError as exc:
        raise ValueError(f"Unknown game {game!r}.") from exc


def games_of_pool(pool: str) -> list[str]:
    return [game for game, p in POOLS.items() if p == pool]


@dataclass(frozen=True, slots=True)
class Rating:
    mu: float
    sigma: float

    @property
    def conservative(self) -> float:
        return self.mu - Z * self.sigma


INITIAL = Rating(mu=MODEL.mu, sigma=MODEL.sigma)


@dataclass(frozen=True, slots=True)
class RatedGameInput:
    """One rated game: teams of player ids and their ranks (1 = first, equal = tie)."""

    key: str
    teams: tuple[tuple[int, ...], ...]
    ranks: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class PlayerUpdate:
    player_id: int
    team_index: int
    rank: int
    before: Rating
    after: Rating


@dataclass(frozen=True, slots=True)
class GameOutcome:
    key: str
    updates: tuple[PlayerUpdate, ...]


def validate_game(game: RatedGameInput) -> None:
    """Raise ValueError unless the game has 2+ non-empty teams, one rank each, and no player twice."""
    if len(game.teams) < 2:
        raise ValueError("A rated game needs at least two teams.")
    if len(game.ranks) != len(game.teams):
        raise ValueError("One rank per team.")
    if any(not team for team in game.teams):
        raise ValueError("Every team needs at least one player.")
    players = [p for team in game.teams for p in team]
    if len(set(players)) != len(players):
        raise ValueError("A player appears twice in one game.")
    if any(rank < 1 for rank in game.ranks):
        raise ValueError("Ranks start at 1.")


def rate_game(game: RatedGameInput, ratings: Mapping[int, Rating]) -> GameOutcome:
    """The rating of every player of `game` before and after it (players not in `ratings` start
    at INITIAL). Calls `PlackettLuce.rate(teams, ranks=...)` once."""
    return _rate(game, ratings, {})


def _rate(game: RatedGameInput, ratings: Mapping[int, Rating], objects: dict[int, Any]) -> GameOutcome:
    """rate_game, reusing the library's rating objects of the previous game in `objects` (updated in
    place) instead of building new ones: the same numbers, half the time in a long stream."""
    validate_game(game)
    teams = []
    for team in game.teams:
        row = []
        for player_id in team:
            rating_object = objects.get(player_id)
            if rating_object is None:
                start = ratings.get(player_id, INITIAL)
                rating_object = MODEL.rating(mu=start.mu, sigma=start.sigma)
            row.append(rating_object)
        teams.append(row)
    rated = MODEL.rate(teams, ranks=[float(rank) for rank in game.ranks])
    updates = []
    for t, team in enumerate(game.teams):
        for i, player_id in enumerate(team):
            new = rated[t][i]
            objects[player_id] = new
            updates.append(PlayerUpdate(
                player_id=player_id, team_index=t, rank=game.ranks[t], before=ratings.get(player_id, INITIAL),
                after=Rating(mu=new.mu, sigma=new.sigma),
            ))
    return GameOutcome(key=game.key, updates=tuple(updates))


def rate_stream(
    games: Iterable[RatedGameInput], start: Mapping[int, Rating]
) -> tuple[list[GameOutcome], dict[int, Rating]]:
    """Apply `games` in the given order from the ratings `start`; return every outcome and the
    final rating of each player seen (start included)."""
    current = dict(start)
    objects: dict[int, Any] = {}
    outcomes = []
    for game in games:
        outcome = _rate(game, current, objects)
        for update in outcome.updates:
            current[update.player_id] = update.after
        outcomes.append(outcome)
    return outcomes, current


def team_rating(members: Sequence[Rating]) -> Rating:
    """A team's rating from its players' (openskill's team aggregation): sum of mu, root of the sum
    of the variances. An empty team has no rating."""
    if not members:
        raise ValueError("A team needs at least one player.")
    return Rating(mu=sum(r.mu for r in members), sigma=math.sqrt(sum(r.sigma * r.sigma for r in members)))


def team_key(player_ids: Iterable[int]) -> str:
    """A team's identity across tournaments: its set of players, e.g. '12-40'."""
    ids = sorted(set(player_ids))
    if not ids:
        raise ValueError("A team needs at least one player.")
    return "-".join(str(i) for i in ids)


def parse_team_key(key: str) -> tuple[int, ...]:
    """The player ids of a team key; ValueError when it is not a canonical key."""
    parts = key.split("-")
    if not parts or len(parts) > 8 or any(not p.isdigit() or len(p) > 18 for p in parts):
        raise ValueError("Not a team key.")
    ids = tuple(int(p) for p in parts)
    if team_key(ids) != key:
        raise ValueError("Not a canonical team key.")
    return ids
