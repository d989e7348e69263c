"""The input checks of a rated game and of team keys, each on its own (pure functions, no database)."""

from __future__ import annotations

import pytest

from tournaments.rankings.compute import (
    INITIAL,
    POOL_NAMES,
    RatedGameInput,
    Rating,
    games_of_pool,
    parse_team_key,
    pool_for,
    rate_game,
    rate_stream,
    team_key,
    team_rating,
    validate_game,
)


@pytest.mark.parametrize(
    ("teams", "ranks", "message"),
    [
        (((1,),), (1,), "A rated game needs at least two teams."),
        ((), (), "A rated game needs at least two teams."),
        (((1,), (2,)), (1,), "One rank per team."),
        (((1,), (2,)), (1, 2, 3), "One rank per team."),
        (((1,), ()), (1, 2), "Every team needs at least one player."),
        (((1, 2), (3, 2)), (1, 2), "A player appears twice in one game."),
        (((1,), (2,)), (0, 1), "Ranks start at 1."),
        (((1,), (2,), (3,)), (1, 2, -1), "Ranks start at 1."),
    ],
)
def test_each_bad_rated_game_is_refused_with_its_reason(teams, ranks, message) -> None:
    game = RatedGameInput(key="k", teams=teams, ranks=ranks)
    with pytest.raises(ValueError) as raised:
        validate_game(game)
    assert str(raised.value) == message
    # rating it is refused the same way, before openskill is asked
    with pytest.raises(ValueError, match=message.replace(".", r"\.")):
        rate_game(game, {})
    with pytest.raises(ValueError, match=message.replace(".", r"\.")):
        rate_stream([game], {})


def test_the_smallest_valid_games_pass() -> None:
    validate_game(RatedGameInput(key="k", teams=((1,), (2,)), ranks=(1, 1)))  # a tie of two
    validate_game(RatedGameInput(key="k", teams=((1, 2), (3, 4), (5, 6)), ranks=(3, 1, 2)))


def test_updates_name_each_player_with_its_team_rank_and_rating_before() -> None:
    start = {2: Rating(30.0, 4.0)}
    outcome = rate_game(RatedGameInput(key="g7", teams=((1,), (2, 3)), ranks=(2, 1)), start)
    assert outcome.key == "g7"
    assert [(u.player_id, u.team_index, u.rank, u.before) for u in outcome.updates] == [
        (1, 0, 2, INITIAL), (2, 1, 1, Rating(30.0, 4.0)), (3, 1, 1, INITIAL)
    ]
    assert Rating(25.0, 25 / 3) == INITIAL
    # the winning team gains, the loser loses, and everybody's uncertainty shrinks
    after = {u.player_id: u.after for u in outcome.updates}
    assert after[1].mu < 25.0 and after[2].mu > 30.0 and after[3].mu > 25.0
    assert after[1].sigma < INITIAL.sigma and after[2].sigma < 4.0


def test_a_stream_starts_unknown_players_at_the_initial_rating_and_keeps_the_start() -> None:
    start = {9: Rating(40.0, 2.0)}
    outcomes, final = rate_stream([RatedGameInput(key="a", teams=((1,), (2,)), ranks=(1, 2))], start)
    assert final[9] == Rating(40.0, 2.0)  # not playing: unchanged
    assert outcomes[0].updates[0].before == INITIAL
    assert final[1] == outcomes[0].updates[0].after and final[2] == outcomes[0].updates[1].after


def test_pools_and_their_games() -> None:
    assert [pool_for(game) for game in ("tac", "tactik", "tock", "taki", "zack")] == list(POOL_NAMES)
    with pytest.raises(ValueError, match=r"^Unknown game 'chess'\.$"):
        pool_for("chess")
    assert games_of_pool("tock") == ["tock"] and games_of_pool("nothing") == []


def test_team_rating_and_team_keys_refuse_empty_teams() -> None:
    assert team_rating([Rating(20.0, 3.0)]) == Rating(20.0, 3.0)
    assert team_rating([Rating(20.0, 3.0), Rating(10.0, 4.0)]).conservative == 30.0 - 3 * 5.0
    with pytest.raises(ValueError, match=r"^A team needs at least one player\.$"):
        team_rating([])
    with pytest.raises(ValueError, match=r"^A team needs at least one player\.$"):
        team_key([])


@pytest.mark.parametrize(
    ("key", "message"),
    [
        ("", "Not a team key."),
        ("12-", "Not a team key."),
        ("a-12", "Not a team key."),
        ("1-2-3-4-5-6-7-8-9", "Not a team key."),
        ("1" * 19, "Not a team key."),
        ("012", "Not a canonical team key."),
        ("12-12", "Not a canonical team key."),
        ("40-12", "Not a canonical team key."),
    ],
)
def test_parse_team_key_accepts_only_canonical_keys(key: str, message: str) -> None:
    with pytest.raises(ValueError) as raised:
        parse_team_key(key)
    assert str(raised.value) == message


def test_parse_team_key_round_trips_the_longest_keys() -> None:
    eight = "-".join(str(i) for i in range(1, 9))
    assert parse_team_key(eight) == tuple(range(1, 9))
    assert parse_team_key("9" * 18) == (int("9" * 18),)
    assert team_key(parse_team_key("3-7")) == "3-7"
