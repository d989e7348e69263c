"""Game profiles: table shapes of every game and variant, refusals of bad variants."""

from __future__ import annotations

import pytest

from tournaments.profiles import PLACING, SCORE, ProfileError, all_profiles, profile_for


@pytest.mark.parametrize(
    ("game", "variant", "entrants", "players", "mode"),
    [
        ("tac", {}, 2, 2, SCORE),
        ("tac", {"master": True}, 2, 2, SCORE),
        ("tactik", {"seats": 4}, 2, 2, SCORE),
        ("tactik", {"seats": 6}, 3, 2, SCORE),
        ("tock", {"mode": "ffa", "seats": 5}, 5, 1, PLACING),
        ("tock", {"mode": "teams", "seats": 4}, 2, 2, SCORE),
        ("tock", {"mode": "teams", "seats": 6}, 3, 2, SCORE),
        ("tock", {"quick_start": True}, 4, 1, PLACING),
        ("taki", {"seats": 10}, 10, 1, PLACING),
        ("taki", {"seats": 2}, 2, 1, PLACING),
        ("zack", {"seats": 3}, 3, 1, PLACING),
        ("zack", {}, 4, 1, PLACING),
    ],
)
def test_table_shapes(game: str, variant: dict, entrants: int, players: int, mode: str) -> None:
    profile = profile_for(game, variant)
    assert (profile.entrants_per_table, profile.players_per_entrant, profile.result_mode) == (entrants, players, mode)
    assert len(profile.placing_points) == entrants


def test_tac_forfeit_default_is_8_to_4() -> None:
    profile = profile_for("tac")
    assert (profile.forfeit_winner_score, profile.forfeit_loser_score, profile.score_max) == (8, 4, 8)


def test_smaller_table_allowed_for_taki_but_not_for_team_games() -> None:
    assert profile_for("taki", {"seats": 4}).min_table_size == 3
    assert profile_for("tac").min_table_size is None


@pytest.mark.parametrize(
    ("game", "variant"),
    [
        ("chess", {}),
        ("tac", {"master": "yes"}),
        ("tac", {"colour": 1}),
        ("tactik", {"seats": 5}),
        ("tock", {"mode": "teams", "seats": 5}),
        ("tock", {"mode": "solo"}),
        ("taki", {"seats": 11}),
        ("taki", {"seats": True}),
        ("zack", {"seats": 2}),
    ],
)
def test_bad_games_and_variants_are_refused(game: str, variant: dict) -> None:
    with pytest.raises(ProfileError):
        profile_for(game, variant)


def test_every_listed_profile_has_consistent_points() -> None:
    for profile in all_profiles():
        points = list(profile.placing_points)
        assert points == sorted(points, reverse=True)
        assert profile.seats_per_table == profile.entrants_per_table * profile.players_per_entrant
