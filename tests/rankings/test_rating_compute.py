"""compute.py against openskill's own `PlackettLuce.rate`, for every table shape, and services that
store exactly those updates: 2v2, 2v2v2, free-for-all with ties; forfeits and byes rate nothing;
the time-limit policy."""

from __future__ import annotations

from typing import Any

import pytest
from openskill.models import PlackettLuce

from tests.rankings.conftest import (
    make_players,
    next_round,
    play_placings,
    play_scores,
    played_tables,
    seated,
    tournament_with,
)
from tournaments import services
from tournaments.models import Entrant
from tournaments.rankings.compute import (
    INITIAL,
    RatedGameInput,
    Rating,
    parse_team_key,
    rate_game,
    rate_stream,
    team_key,
    team_rating,
)
from tournaments.rankings.models import PlayerRating, RatedGame, RatingEvent, RatingPolicy
from tournaments.rankings.services import rating_policy_update, ratings_recompute

OPENSKILL = PlackettLuce()


def _openskill(teams: list[list[tuple[float, float]]], ranks: list[float]) -> list[list[tuple[float, float]]]:
    rated = OPENSKILL.rate([[OPENSKILL.rating(mu=m, sigma=s) for m, s in team] for team in teams], ranks=ranks)
    return [[(r.mu, r.sigma) for r in team] for team in rated]


def _ours(game: RatedGameInput, start: dict[int, Rating]) -> list[list[tuple[float, float]]]:
    outcome = rate_game(game, start)
    by_player = {u.player_id: (u.after.mu, u.after.sigma) for u in outcome.updates}
    return [[by_player[p] for p in team] for team in game.teams]


def test_2v2_matches_openskill_and_winners_gain() -> None:
    start = {1: Rating(30.0, 5.0), 2: Rating(22.0, 7.0), 3: INITIAL, 4: Rating(26.0, 4.0)}
    game = RatedGameInput(key="k", teams=((1, 2), (3, 4)), ranks=(2, 1))
    expected = _openskill([[(30.0, 5.0), (22.0, 7.0)], [(INITIAL.mu, INITIAL.sigma), (26.0, 4.0)]], [2.0, 1.0])
    assert _ours(game, start) == expected
    assert expected[1][0][0] > INITIAL.mu and expected[0][0][0] < 30.0


def test_2v2v2_matches_openskill() -> None:
    game = RatedGameInput(key="k", teams=((1, 2), (3, 4), (5, 6)), ranks=(3, 1, 2))
    expected = _openskill([[(25.0, 25 / 3)] * 2] * 3, [3.0, 1.0, 2.0])
    assert _ours(game, {}) == expected
    middle = expected[2][0][0]
    assert expected[1][0][0] > middle > expected[0][0][0]


def test_free_for_all_with_ties_matches_openskill() -> None:
    start = {i: Rating(20.0 + i, 6.0 + i / 10) for i in range(1, 7)}
    game = RatedGameInput(key="k", teams=tuple((i,) for i in range(1, 7)), ranks=(1, 2, 2, 4, 5, 5))
    expected = _openskill([[(20.0 + i, 6.0 + i / 10)] for i in range(1, 7)], [1.0, 2.0, 2.0, 4.0, 5.0, 5.0])
    assert _ours(game, start) == expected


def test_stream_and_team_aggregation() -> None:
    games = [RatedGameInput(key=str(i), teams=((1, 2), (3, 4)), ranks=(1, 2) if i % 3 else (2, 1)) for i in range(7)]
    outcomes, final = rate_stream(games, {})
    current: dict[int, tuple[float, float]] = {}
    for game in games:
        teams = [[current.get(p, (INITIAL.mu, INITIAL.sigma)) for p in team] for team in game.teams]
        for team, rated in zip(game.teams, _openskill(teams, [float(r) for r in game.ranks]), strict=True):
            current.update(zip(team, rated, strict=True))
    assert {p: (r.mu, r.sigma) for p, r in final.items()} == current
    assert len(outcomes) == 7
    team = team_rating([Rating(20.0, 3.0), Rating(22.0, 4.0)])
    assert team == Rating(42.0, 5.0) and team.conservative == 27.0
    assert team_key([40, 12, 40]) == "12-40" and parse_team_key("12-40") == (12, 40)
    with pytest.raises(ValueError):
        parse_team_key("40-12")
    with pytest.raises(ValueError):
        rate_game(RatedGameInput(key="k", teams=((1,), (1,)), ranks=(1, 2)), {})


def _events(pool: str) -> list[tuple[int, str, float, float, float, float]]:
    return list(RatingEvent.objects.filter(pool=pool).order_by("key", "player_id").values_list(
        "player_id", "key", "mu_before", "sigma_before", "mu_after", "sigma_after"))


@pytest.mark.django_db
def test_service_stores_openskill_updates_for_2v2(organiser: Any) -> None:
    players = make_players(8)
    teams = [players[i:i + 2] for i in range(0, 8, 2)]
    tournament = tournament_with(organiser, teams)
    round_ = next_round(organiser, tournament)
    for table in played_tables(round_):
        play_scores(organiser, table, [8, 5])
    outcome = ratings_recompute(pool="tac")
    assert outcome.games_replayed == 2
    for table in played_tables(round_):
        home, away = (Entrant.objects.get(pk=e) for e in seated(table))
        home_ids = sorted(home.members.values_list("player_id", flat=True))
        away_ids = sorted(away.members.values_list("player_id", flat=True))
        teams_in = [[(INITIAL.mu, INITIAL.sigma)] * 2] * 2
        expected = _openskill(teams_in, [1.0, 2.0])
        for ids, rated in ((home_ids, expected[0]), (away_ids, expected[1])):
            for player_id, (mu, sigma) in zip(ids, rated, strict=True):
                rating = PlayerRating.objects.get(pool="tac", player_id=player_id)
                assert (rating.mu, rating.sigma, rating.games) == (mu, sigma, 1)
    assert ratings_recompute(pool="tac").from_key is None  # idempotent: nothing left to do


@pytest.mark.django_db
def test_service_2v2v2_and_ffa_with_ties(organiser: Any) -> None:
    players = make_players(6)
    tactik = tournament_with(organiser, [players[0:2], players[2:4], players[4:6]], game="tactik",
                             variant={"seats": 6})
    table = played_tables(next_round(organiser, tactik))[0]
    play_scores(organiser, table, [3, 8, 5])
    ratings_recompute(pool="tactik")
    events = RatingEvent.objects.filter(pool="tactik")
    assert sorted(events.values_list("rank", flat=True)) == [1, 1, 2, 2, 3, 3]
    expected = _openskill([[(INITIAL.mu, INITIAL.sigma)] * 2] * 3, [3.0, 1.0, 2.0])
    order = seated(table)
    for position, entrant_id in enumerate(order):
        for event in events.filter(entrant_id=entrant_id):
            assert (event.mu_after, event.sigma_after) == expected[position][0]

    singles = make_players(4, prefix="T")
    taki = tournament_with(organiser, [[p] for p in singles], game="taki", variant={"seats": 4}, name="Taki")
    table = played_tables(next_round(organiser, taki))[0]
    play_placings(organiser, table, [1, 2, 2, 4])
    ratings_recompute(pool="taki")
    order = seated(table)
    expected = _openskill([[(INITIAL.mu, INITIAL.sigma)]] * 4, [1.0, 2.0, 2.0, 4.0])
    for position, entrant_id in enumerate(order):
        event = RatingEvent.objects.get(pool="taki", entrant_id=entrant_id)
        assert (event.mu_after, event.sigma_after) == expected[position][0]
        assert event.rank == [1, 2, 2, 4][position]


@pytest.mark.django_db
def test_forfeits_and_byes_do_not_change_ratings(organiser: Any) -> None:
    players = make_players(10)
    tournament = tournament_with(organiser, [players[i:i + 2] for i in range(0, 10, 2)])  # 5 teams: a bye
    round_ = next_round(organiser, tournament)
    assert round_.tables.filter(is_bye=True).count() == 1
    tables = played_tables(round_)
    services.result_override(actor=organiser, table=tables[0], kind="forfeit", forfeited=[seated(tables[0])[1]])
    play_scores(organiser, tables[1], [8, 2])
    ratings_recompute(pool="tac")
    assert RatedGame.objects.filter(pool="tac").count() == 1
    rated_players = set(RatingEvent.objects.values_list("player_id", flat=True))
    forfeit_and_bye = set(
        Entrant.objects.filter(seats__table__in=[tables[0], *round_.tables.filter(is_bye=True)])
        .values_list("members__player_id", flat=True)
    )
    assert len(rated_players) == 4 and not rated_players & forfeit_and_bye


@pytest.mark.django_db
def test_time_limit_policy(organiser: Any) -> None:
    players = make_players(4)
    tournament = tournament_with(organiser, [players[0:2], players[2:4]])
    table = played_tables(next_round(organiser, tournament))[0]
    play_scores(organiser, table, [6, 3], kind="time_limit")
    ratings_recompute(pool="tac")
    assert list(RatingEvent.objects.order_by("team_index").values_list("rank", flat=True)) == [1, 1, 2, 2]
    policy = rating_policy_update(actor=organiser, tournament=tournament, time_limit_games="ignore")
    assert policy.time_limit_games == RatingPolicy.TimeLimitGames.IGNORE
    outcome = ratings_recompute(pool="tac")
    assert outcome.games_deleted == 1 and outcome.games_replayed == 0
    assert not RatingEvent.objects.exists() and not PlayerRating.objects.exists()
    with pytest.raises(services_error()):
        rating_policy_update(actor=organiser, tournament=tournament, time_limit_games="sometimes")


def services_error() -> type[Exception]:
    from tournaments.errors import TournamentError

    return TournamentError


def test_compute_imports_no_django() -> None:
    import subprocess
    import sys

    code = ("import sys, tournaments.rankings.compute; "
            "sys.exit(1 if any(m == 'django' or m.startswith('django.') for m in sys.modules) else 0)")
    assert subprocess.run([sys.executable, "-c", code], check=False).returncode == 0


SHAPES = [
    ("tac", {"master": True}, "score", [8, 2]),
    ("tactik", {"seats": 4}, "score", [1, 8]),
    ("tock", {"mode": "teams", "seats": 4}, "score", [8, 8 - 1]),
    ("tock", {"mode": "teams", "seats": 6}, "score", [2, 8, 2]),
    ("tock", {"mode": "ffa", "seats": 5}, "placing", [3, 1, 2, 3, 5]),
    ("zack", {"seats": 4}, "placing", [2, 1, 4, 2]),
]


@pytest.mark.django_db
@pytest.mark.parametrize(("game", "variant", "mode", "outcome"), SHAPES)
def test_every_table_shape_is_rated_like_openskill(organiser: Any, game: str, variant: dict[str, Any], mode: str,
                                                   outcome: list[int]) -> None:
    from tournaments.rankings.compute import pool_for
    from tournaments.services import tournament_profile

    probe = services.tournament_create(actor=organiser, name="Probe", game=game, variant=variant)
    profile = tournament_profile(probe)
    size, per = profile.entrants_per_table, profile.players_per_entrant
    players = make_players(size * per)
    teams = [players[i * per:(i + 1) * per] for i in range(size)]
    tournament = tournament_with(organiser, teams, game=game, variant=variant, name="Shape")
    table = played_tables(next_round(organiser, tournament))[0]
    if mode == "score":
        play_scores(organiser, table, outcome)
    else:
        play_placings(organiser, table, outcome)
    pool = pool_for(game)
    ratings_recompute(pool=pool)
    lines = {s.entrant_id: s.placing for s in table.results.get(state="overridden").scores.all()}
    order = seated(table)
    ranks = [float(lines[e]) for e in order]
    expected = _openskill([[(INITIAL.mu, INITIAL.sigma)] * per] * size, ranks)
    for position, entrant_id in enumerate(order):
        events = list(RatingEvent.objects.filter(pool=pool, entrant_id=entrant_id).order_by("player_id"))
        assert len(events) == per
        assert [(e.mu_after, e.sigma_after) for e in events] == expected[position]
