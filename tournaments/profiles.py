"""Game profiles: how a game is played at a tournament table. Pure Python, no Django.

A profile answers the questions the platform needs: how many entrants sit at a table, how many
players an entrant has, whether a table's result is a score per entrant (marbles home) or a placing
per seat, the score range, and the default points. Variants use the keys of the record contract
(`spec/game-records.md`): TAC `master`, Tac-Tik `seats`, Tock `seats`/`mode`/`quick_start`,
TAKI `seats`/`tournament` (the phase game), ZACK! `seats`.

>>> profile_for("tac", {}).entrants_per_table, profile_for("tac", {}).players_per_entrant
(2, 2)
>>> profile_for("tactik", {"seats": 6}).entrants_per_table
3
>>> profile_for("taki", {"seats": 5}).result_mode
'placing'
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any


class ProfileError(ValueError):
    """The game or its variant is unknown or inconsistent."""


SCORE = "score"  # each entrant gets a score (marbles home); one winner unless stopped at the time limit
PLACING = "placing"  # each seat gets a placing 1..n (free-for-all games)


@dataclass(frozen=True)
class GameProfile:
    game: str
    label: str
    variant: Mapping[str, Any]
    entrants_per_table: int
    players_per_entrant: int
    result_mode: str
    score_min: int = 0
    score_max: int = 0
    # Smallest table allowed instead of a bye (None: only byes fill an odd field).
    min_table_size: int | None = None
    # Match points by placing at the table (index 0 = first); tied entrants share the mean.
    placing_points: tuple[float, ...] = ()
    forfeit_winner_score: int = 0
    forfeit_loser_score: int = 0
    has_time_limit_result: bool = True
    game_minutes: int = 90  # default game length (time limit) of a tournament game
    description: str = field(default="", compare=False)

    @property
    def seats_per_table(self) -> int:
        return self.entrants_per_table * self.players_per_entrant

    @property
    def is_team_game(self) -> bool:
        return self.players_per_entrant > 1


GAMES: dict[str, str] = {
    "tac": "TAC",
    "tactik": "Tac-Tik",
    "tock": "Tock",
    "taki": "TAKI",
    "zack": "ZACK!",
}


def _only_keys(variant: Mapping[str, Any], allowed: set[str], game: str) -> None:
    unknown = sorted(set(variant) - allowed)
    if unknown:
        raise ProfileError(f"Unknown variant key(s) for {GAMES[game]}: {', '.join(unknown)}.")


def _int_in(variant: Mapping[str, Any], key: str, default: int, low: int, high: int, game: str) -> int:
    value = variant.get(key, default)
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise ProfileError(f"{GAMES[game]}: '{key}' must be a whole number from {low} to {high}.")
    return value


def _bool(variant: Mapping[str, Any], key: str, game: str) -> bool:
    value = variant.get(key, False)
    if not isinstance(value, bool):
        raise ProfileError(f"{GAMES[game]}: '{key}' must be true or false.")
    return value


def _descending_points(n: int) -> tuple[float, ...]:
    """Free-for-all default: n-1 points for first, ..., 0 for last."""
    return tuple(float(n - 1 - i) for i in range(n))


def _tac(variant: Mapping[str, Any]) -> GameProfile:
    _only_keys(variant, {"master"}, "tac")
    master = _bool(variant, "master", "tac")
    return GameProfile(
        game="tac",
        label="TAC Master" if master else "TAC",
        variant={"master": master},
        entrants_per_table=2,
        players_per_entrant=2,
        result_mode=SCORE,
        score_min=0,
        score_max=8,
        placing_points=(2.0, 0.0),
        forfeit_winner_score=8,
        forfeit_loser_score=4,
        description="Two teams of two; score = marbles home (0-8), the team with 8 wins.",
    )


def _tactik(variant: Mapping[str, Any]) -> GameProfile:
    _only_keys(variant, {"seats"}, "tactik")
    seats = variant.get("seats", 4)
    if seats not in (4, 6) or isinstance(seats, bool):
        raise ProfileError("Tac-Tik: 'seats' must be 4 or 6.")
    teams = seats // 2
    return GameProfile(
        game="tactik",
        label=f"Tac-Tik ({seats})",
        variant={"seats": seats},
        entrants_per_table=teams,
        players_per_entrant=2,
        result_mode=SCORE,
        score_min=0,
        score_max=8,
        placing_points=(2.0, 0.0) if teams == 2 else (3.0, 1.0, 0.0),
        forfeit_winner_score=8,
        forfeit_loser_score=4,
        description=f"{teams} teams of two; score = marbles home (0-8).",
    )


def _tock(variant: Mapping[str, Any]) -> GameProfile:
    _only_keys(variant, {"seats", "mode", "quick_start"}, "tock")
    mode = variant.get("mode", "ffa")
    quick_start = _bool(variant, "quick_start", "tock")
    if mode == "ffa":
        seats = _int_in(variant, "seats", 4, 2, 6, "tock")
        return GameProfile(
            game="tock",
            label=f"Tock free-for-all ({seats})" + (", quick start" if quick_start else ""),
            variant={"seats": seats, "mode": "ffa", "quick_start": quick_start},
            entrants_per_table=seats,
            players_per_entrant=1,
            result_mode=PLACING,
            min_table_size=max(2, seats - 1),
            placing_points=_descending_points(seats),
            description=f"{seats} single players; placing per seat.",
        )
    if mode == "teams":
        seats = variant.get("seats", 4)
        if seats not in (4, 6) or isinstance(seats, bool):
            raise ProfileError("Tock: teams mode needs 'seats' 4 (2v2) or 6 (2v2v2).")
        teams = seats // 2
        return GameProfile(
            game="tock",
            label=("Tock 2v2" if teams == 2 else "Tock 2v2v2") + (", quick start" if quick_start else ""),
            variant={"seats": seats, "mode": "teams", "quick_start": quick_start},
            entrants_per_table=teams,
            players_per_entrant=2,
            result_mode=SCORE,
            score_min=0,
            score_max=8,
            placing_points=(2.0, 0.0) if teams == 2 else (3.0, 1.0, 0.0),
            forfeit_winner_score=8,
            forfeit_loser_score=4,
            description=f"{teams} teams of two; score = marbles home (0-8).",
        )
    raise ProfileError("Tock: 'mode' must be 'ffa' or 'teams'.")


def _taki(variant: Mapping[str, Any]) -> GameProfile:
    _only_keys(variant, {"seats", "tournament"}, "taki")
    seats = _int_in(variant, "seats", 4, 2, 10, "taki")
    # The seed's "TAKI-TURNIER": one long game through phases 8 to 1; records carry `phases`.
    phases = _bool(variant, "tournament", "taki")
    return GameProfile(
        game="taki",
        label=f"TAKI phase game ({seats})" if phases else f"TAKI ({seats})",
        # plain TAKI keeps its stored variant {"seats": n}; the phase game adds "tournament": true
        variant={"seats": seats, "tournament": True} if phases else {"seats": seats},
        entrants_per_table=seats,
        players_per_entrant=1,
        result_mode=PLACING,
        min_table_size=max(2, seats - 1),
        placing_points=_descending_points(seats),
        has_time_limit_result=True,
        description=(f"{seats} single players, one game through phases 8 to 1; placing by phase reached, "
                     "then cards in hand." if phases else f"{seats} single players; placing per seat."),
    )


def _zack(variant: Mapping[str, Any]) -> GameProfile:
    _only_keys(variant, {"seats"}, "zack")
    seats = _int_in(variant, "seats", 4, 3, 6, "zack")
    return GameProfile(
        game="zack",
        label=f"ZACK! ({seats})",
        variant={"seats": seats},
        entrants_per_table=seats,
        players_per_entrant=1,
        result_mode=PLACING,
        min_table_size=max(3, seats - 1),
        placing_points=_descending_points(seats),
        description=f"{seats} single players; placing per seat.",
    )


_BUILDERS: dict[str, Callable[[Mapping[str, Any]], GameProfile]] = {
    "tac": _tac,
    "tactik": _tactik,
    "tock": _tock,
    "taki": _taki,
    "zack": _zack,
}


def profile_for(game: str, variant: Mapping[str, Any] | None = None) -> GameProfile:
    """The profile of `game` with `variant` (missing keys take their defaults).

    Raises ProfileError for an unknown game or an unknown/inconsistent variant.
    """
    if game not in _BUILDERS:
        raise ProfileError(f"Unknown game '{game}'. Known games: {', '.join(sorted(_BUILDERS))}.")
    if variant is None:
        variant = {}
    if not isinstance(variant, Mapping):
        raise ProfileError("The variant must be a JSON object.")
    return _BUILDERS[game](variant)


def all_profiles() -> tuple[GameProfile, ...]:
    """One profile per table shape, for listings, tests and the simulation."""
    return (
        profile_for("tac", {}),
        profile_for("tac", {"master": True}),
        profile_for("tactik", {"seats": 4}),
        profile_for("tactik", {"seats": 6}),
        *(profile_for("tock", {"mode": "ffa", "seats": n}) for n in range(2, 7)),
        profile_for("tock", {"mode": "ffa", "seats": 4, "quick_start": True}),
        profile_for("tock", {"mode": "teams", "seats": 4}),
        profile_for("tock", {"mode": "teams", "seats": 6}),
        *(profile_for("taki", {"seats": n}) for n in range(2, 11)),
        profile_for("taki", {"seats": 4, "tournament": True}),
        *(profile_for("zack", {"seats": n}) for n in range(3, 7)),
    )
