"""Final places through the services, the API, the CSV and the pages (docs/formats.md).

Every tournament is played with scripted results: the better seed wins unless the script names an
upset, so the expected places are worked out by hand in each test.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Mapping
from typing import Any

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from tests.tournaments.conftest import make_tournament
from tournaments import services
from tournaments.errors import TournamentError
from tournaments.models import Entrant, Round, StandingRow, Tournament

pytestmark = pytest.mark.django_db


def seed_of(tournament: Tournament) -> dict[int, int]:
    return dict(tournament.entrants.values_list("pk", "seed"))


def play_round(organiser: Any, tournament: Tournament, upsets: Mapping[frozenset[int], int] | None = None,
               close: frozenset[frozenset[int]] = frozenset()) -> Round:
    """Generate, publish and play the next round. Tables of 2 (TAC): the better seed wins 8:4 unless
    `upsets` (pair of seeds -> winning seed) says otherwise; pairs in `close` end 8:7. Placing games:
    places by seed."""
    upsets = upsets or {}
    seeds = seed_of(tournament)
    by_seed = {seed: pk for pk, seed in seeds.items()}
    round_ = services.round_publish(actor=organiser, round=services.round_generate(actor=organiser, tournament=tournament))
    profile = services.tournament_profile(tournament)
    for table in round_.tables.filter(is_bye=False).order_by("number"):
        ids = [s.entrant_id for s in table.seats.all()]
        order = sorted(ids, key=lambda pk: seeds[pk])
        upset = upsets.get(frozenset(seeds[pk] for pk in ids))
        if upset is not None:
            order.remove(by_seed[upset])
            order.insert(0, by_seed[upset])
        if profile.result_mode == "placing":
            services.result_override(actor=organiser, table=table,
                                     placings={pk: place for place, pk in enumerate(order, start=1)})
        else:
            loser = 7 if frozenset(seeds[pk] for pk in ids) in close else 4
            services.result_override(actor=organiser, table=table,
                                     scores={pk: 8 if pk == order[0] else loser for pk in order})
    return round_


def play_all(organiser: Any, tournament: Tournament, upsets: Mapping[frozenset[int], int] | None = None) -> None:
    while True:
        try:
            play_round(organiser, tournament, upsets)
        except TournamentError as exc:
            if exc.code == "rounds_complete":
                break
            raise
    services.standings_recompute(tournament_id=tournament.pk)


def places(tournament: Tournament) -> list[tuple[int, int, bool, str]]:
    """(seed, rank, shared, decided_by) in final-ranking order."""
    seeds = seed_of(tournament)
    return [
        (seeds[row.entrant_id], row.rank, row.shared_rank, row.decided_by)
        for row in StandingRow.objects.filter(tournament=tournament).order_by("rank", "entrant__seed")
    ]


def api_rows(tournament: Tournament, **params: Any) -> Any:
    return APIClient().get(f"/api/tournaments/{tournament.slug}/standings/", params)


# --- an 8-team knockout with scripted results ------------------------------------------------------

KO_UPSETS = {
    frozenset({4, 5}): 5, frozenset({3, 6}): 6,  # quarter-finals: 1v8 1, 4v5 5, 2v7 2, 3v6 6
    frozenset({1, 5}): 5,  # semi-finals: 5 beats 1, 2 beats 6
    frozenset({2, 5}): 5,  # final: 5 beats 2
    frozenset({1, 6}): 1,  # third place: 1 beats 6
}


def test_eight_team_knockout_final_places_in_api_csv_and_pages(organiser: Any) -> None:
    tournament = make_tournament(organiser, entrants=8, format="knockout")
    play_all(organiser, tournament, KO_UPSETS)
    assert places(tournament) == [
        (5, 1, False, "knockout"), (2, 2, False, "knockout"), (1, 3, False, "knockout"), (6, 4, False, "knockout"),
        (3, 5, True, "knockout"), (4, 5, True, "knockout"), (7, 5, True, "knockout"), (8, 5, True, "knockout"),
    ]
    # the API: rank, shared_rank, decided_by; group fields null without groups
    rows = api_rows(tournament).json()["rows"]
    names = {e.name: e.seed for e in tournament.entrants.all()}
    assert [(names[r["name"]], r["rank"], r["shared_rank"], r["decided_by"]) for r in rows][:4] == [
        (5, 1, False, "knockout"), (2, 2, False, "knockout"), (1, 3, False, "knockout"), (6, 4, False, "knockout")
    ]
    assert {(r["group"], r["group_rank"]) for r in rows} == {(None, None)}
    assert api_rows(tournament, group=1).json()["error"]["code"] == "invalid_input"
    # the CSV: the same order
    response = APIClient().get(reverse("api-export", args=[tournament.slug, "standings"]))
    table = list(csv.reader(io.StringIO(response.content.decode())))
    header, body = table[0], table[1:]
    assert header[:2] == ["rank", "entrant"] and header[-3:] == ["decided_by", "group", "group_rank"]
    assert [line[1] for line in body] == [r["name"] for r in rows]
    assert [line[0] for line in body][:5] == ["1", "2", "3", "4", "5"]
    # the standings page lists the same order; the bracket page shows who met whom with scores
    page = APIClient().get(reverse("web:standings", args=[tournament.slug])).content.decode()
    positions = [page.index(f">{r['name']}<") for r in rows]
    assert positions == sorted(positions)
    assert "Places decided by the knockout" in page
    # a verified record of the final is linked from its card; an invalid one of the third-place match is not
    from games.models import GameRecord

    final_round = tournament.rounds.order_by("-number").first()
    final_table, third_table = final_round.tables.order_by("number")
    valid = GameRecord.objects.create(tournament=tournament, table=final_table, source="paste", raw="{}",
                                      sha256="a" * 64, game="tac", status="valid", complete=True)
    GameRecord.objects.create(tournament=tournament, table=third_table, source="paste", raw="{}",
                              sha256="b" * 64, game="tac", status="invalid", complete=True)
    bracket = APIClient().get(reverse("web:bracket", args=[tournament.slug])).content.decode()
    for label in ("Quarter-finals", "Semi-finals", "Final", "Third-place match"):
        assert label in bracket
    assert bracket.count('class="won') == 4 + 2 + 2
    assert bracket.count("Verified record") == 1
    assert reverse("games:record-detail", args=[tournament.slug, valid.pk]) in bracket
    assert f"/rounds/{final_round.number}/#table-{final_table.pk}" in bracket


def test_shared_places_ordered_by_seed_in_a_pure_knockout_when_asked(organiser: Any) -> None:
    tournament = make_tournament(organiser, entrants=8, format="knockout")
    play_all(organiser, tournament, KO_UPSETS)
    services.tournament_update(actor=organiser, tournament=tournament, shared_places_by_standings=True)
    services.standings_recompute(tournament_id=tournament.pk)
    assert places(tournament)[4:] == [
        (3, 5, False, "standings"), (4, 6, False, "standings"), (7, 7, False, "standings"), (8, 8, False, "standings")
    ]


def test_placement_matches_play_for_every_place(organiser: Any) -> None:
    tournament = make_tournament(organiser, entrants=8, format="knockout", placement_matches=True)
    play_all(organiser, tournament)
    # quarter-final losers 5..8 play 5v8, 6v7 (by bracket position), then for 5th and 7th: seeds win
    assert places(tournament) == [
        (1, 1, False, "knockout"), (2, 2, False, "knockout"), (3, 3, False, "knockout"), (4, 4, False, "knockout"),
        (5, 5, False, "placement"), (6, 6, False, "placement"), (7, 7, False, "placement"),
        (8, 8, False, "placement"),
    ]
    with pytest.raises(TournamentError, match="knockout has started"):
        services.tournament_update(actor=organiser, tournament=tournament, placement_matches=False)


# --- Swiss 5 rounds, then the top 8 -------------------------------------------------------------


def test_swiss_then_top_eight(organiser: Any) -> None:
    tournament = make_tournament(organiser, entrants=12, format="stages", rounds_planned=5, knockout_size=8)
    for _ in range(5):
        play_round(organiser, tournament)
    services.standings_recompute(tournament_id=tournament.pk)
    stage_order = [seed for seed, *_ in places(tournament)]
    assert {seed for seed, *_ in places(tournament)[:8]} == set(stage_order[:8])
    # while the quarter-finals are being drawn nobody out of the top 8 ranks above a qualifier
    play_all(organiser, tournament, KO_UPSETS)
    got = places(tournament)
    top8 = [seed for seed, *_ in got[:8]]
    assert set(top8) == set(stage_order[:8])
    assert [row[3] for row in got[:8]] == ["knockout"] * 8
    # the four out after the Swiss: places 9-12 in their Swiss order, decided by the standings
    assert [(seed, rank, decided) for seed, rank, _, decided in got[8:]] == [
        (seed, 9 + i, "standings") for i, seed in enumerate(stage_order[8:])
    ]
    assert [rank for _, rank, *_ in got[:8]] == [1, 2, 3, 4, 5, 5, 5, 5]
    # the organiser orders 5-8 by the Swiss standings
    services.tournament_update(actor=organiser, tournament=tournament, shared_places_by_standings=True)
    services.standings_recompute(tournament_id=tournament.pk)
    ordered = places(tournament)
    quarter_losers = [seed for seed, *_ in ordered[4:8]]
    assert quarter_losers == sorted(quarter_losers, key=stage_order.index)
    assert [(rank, decided) for _, rank, _, decided in ordered[4:8]] == [(5 + i, "standings") for i in range(4)]


# --- 4 groups of 4, then a knockout ---------------------------------------------------------------


def groups_tournament(organiser: Any) -> Tournament:
    tournament = services.tournament_create(actor=organiser, name="Groups Cup", game="tac", format="stages",
                                            group_count=4, knockout_size=8)
    for i in range(1, 17):
        services.entrant_register(actor=organiser, tournament=tournament, name=f"Team {i:02d}",
                                  player_names=[f"P{i}-a", f"P{i}-b"], seed=i, group=1 + (i - 1) % 4)
    return tournament


def test_four_groups_of_four_then_knockout(organiser: Any) -> None:
    tournament = groups_tournament(organiser)
    # group g holds seeds g, g+4, g+8, g+12: the better seed always wins, so the group places are
    # 1st: seeds 1-4, 2nd: 5-8, 3rd: 9-12, 4th: 13-16
    for _ in range(3):
        round_ = play_round(organiser, tournament)
        assert round_.stage == Round.Stage.GROUPS
    services.standings_recompute(tournament_id=tournament.pk)
    group_rows = api_rows(tournament, group=2).json()["rows"]
    assert [(r["group"], r["group_rank"], r["name"]) for r in group_rows] == [
        (2, 1, "Team 02"), (2, 2, "Team 06"), (2, 3, "Team 10"), (2, 4, "Team 14")
    ]
    # before the knockout: the group places are shared across groups (1-4, 5-8, ...)
    assert [(seed, rank, shared) for seed, rank, shared, _ in places(tournament)][:5] == [
        (1, 1, True), (2, 1, True), (3, 1, True), (4, 1, True), (5, 5, True)
    ]
    play_all(organiser, tournament)
    got = places(tournament)
    assert [(seed, rank) for seed, rank, *_ in got[:4]] == [(1, 1), (2, 2), (3, 3), (4, 4)]
    assert {(rank, shared, decided) for _, rank, shared, decided in got[4:8]} == {(5, True, "knockout")}
    assert {seed for seed, *_ in got[4:8]} == {5, 6, 7, 8}
    # out after the groups: third places share 9-12, fourth places 13-16, below every knockout entrant
    assert {(seed, rank, decided) for seed, rank, _, decided in got[8:12]} == {
        (seed, 9, "standings") for seed in (9, 10, 11, 12)
    }
    assert {(seed, rank) for seed, rank, *_ in got[12:]} == {(seed, 13) for seed in (13, 14, 15, 16)}
    # the API: group and group_rank on every row; bad filters are 400
    rows = api_rows(tournament).json()["rows"]
    assert all(r["group"] in (1, 2, 3, 4) and r["group_rank"] in (1, 2, 3, 4) for r in rows)
    assert api_rows(tournament, group=5).status_code == 422  # a group the tournament does not have
    assert api_rows(tournament, group="x").status_code == 400
    # the CSV per group, the page's group tables
    response = APIClient().get(reverse("api-export", args=[tournament.slug, "standings"]), {"group": 3})
    body = list(csv.reader(io.StringIO(response.content.decode())))[1:]
    assert [(line[1], line[-2], line[-1]) for line in body] == [
        ("Team 03", "3", "1"), ("Team 07", "3", "2"), ("Team 11", "3", "3"), ("Team 15", "3", "4")
    ]
    page = APIClient().get(reverse("web:standings", args=[tournament.slug])).content.decode()
    assert all(f'id="group-{g}"' in page for g in (1, 2, 3, 4))


def test_groups_ordered_across_groups_by_the_documented_rule(organiser: Any) -> None:
    tournament = groups_tournament(organiser)
    # Group 1 (seeds 1, 5, 9, 13): 13 beats 9, so 13 is third and 9 fourth. Group 2's third (seed 10)
    # loses 7:8 to seed 2 and so has the best marble difference of the thirds (-1 against -4); the
    # other thirds (11, 12, 13) are equal on every tiebreak; the fourths (9, 14, 15, 16) too.
    for _ in range(3):
        play_round(organiser, tournament, {frozenset({9, 13}): 13}, close=frozenset({frozenset({2, 10})}))
    services.standings_recompute(tournament_id=tournament.pk)
    shared = {seed: (rank, shared) for seed, rank, shared, _ in places(tournament)}
    assert {shared[seed] for seed in (10, 11, 12, 13)} == {(9, True)}
    services.tournament_update(actor=organiser, tournament=tournament, shared_places_by_standings=True)
    services.standings_recompute(tournament_id=tournament.pk)
    got = {seed: (rank, shared) for seed, rank, shared, _ in places(tournament)}
    assert got[10] == (9, False)
    assert {got[seed] for seed in (11, 12, 13)} == {(10, True)}
    assert {got[seed] for seed in (9, 14, 15, 16)} == {(13, True)}
    assert {decided for *_, decided in places(tournament)} == {"standings"}


# --- an N-player (TAKI) knockout -------------------------------------------------------------------


def test_taki_knockout_consolation_table_never_ranks_above_a_finalist(organiser: Any) -> None:
    tournament = make_tournament(organiser, game="taki", variant={"seats": 4}, entrants=16, format="knockout")
    play_all(organiser, tournament)
    got = places(tournament)
    # round 1: four tables of 4 (seeds dealt in serpentine), winners 1-4 reach the final table;
    # second places (5-8) play the consolation table for places 5-8; thirds share 9-12, fourths 13-16
    assert [(seed, rank, decided) for seed, rank, _, decided in got[:4]] == [
        (1, 1, "knockout"), (2, 2, "knockout"), (3, 3, "knockout"), (4, 4, "knockout")
    ]
    assert [(seed, rank, decided) for seed, rank, _, decided in got[4:8]] == [
        (5, 5, "placement"), (6, 6, "placement"), (7, 7, "placement"), (8, 8, "placement")
    ]
    assert {(rank, shared) for _, rank, shared, _ in got[8:12]} == {(9, True)}
    assert {(rank, shared) for _, rank, shared, _ in got[12:]} == {(13, True)}
    bracket = APIClient().get(reverse("web:bracket", args=[tournament.slug])).content.decode()
    assert "Places 5–8" in bracket and "Knockout round 1" in bracket


def test_taki_knockout_with_placement_tables_decides_every_place(organiser: Any) -> None:
    tournament = make_tournament(organiser, game="taki", variant={"seats": 4}, entrants=16, format="knockout",
                                 placement_matches=True)
    play_all(organiser, tournament)
    assert [(seed, rank, shared) for seed, rank, shared, _ in places(tournament)] == [
        (seed, seed, False) for seed in range(1, 17)
    ]


# --- dropped entrants -----------------------------------------------------------------------------


def test_dropped_entrant_ranks_below_those_who_played_on_unless_the_organiser_chooses(organiser: Any) -> None:
    tournament = make_tournament(organiser, entrants=6, rounds_planned=3)
    play_round(organiser, tournament)
    leader = Entrant.objects.get(tournament=tournament, seed=1)
    services.entrant_drop(actor=organiser, entrant=leader)
    play_all(organiser, tournament)
    got = places(tournament)
    assert got[-1][:2] == (1, 6)
    services.tournament_update(actor=organiser, tournament=tournament, dropped_rank_last=False)
    services.standings_recompute(tournament_id=tournament.pk)
    assert [seed for seed, *_ in places(tournament)][-1] != 1


# --- simulate_tournament --json -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (["--format", "knockout", "--entrants", "8", "--placement-matches"], list(range(1, 9))),
        (["--format", "stages", "--entrants", "8", "--groups", "2", "--knockout-size", "4"],
         [1, 2, 3, 4, 5, 5, 7, 7]),
    ],
)
def test_simulate_reports_final_ranking_for_knockouts(args: list[str], expected: list[int]) -> None:
    import json

    from django.core.management import call_command

    out = io.StringIO()
    call_command("simulate_tournament", "--game", "tac", *args, "--json", stdout=out)
    figures = json.loads(out.getvalue().strip().splitlines()[-1])
    ranking = figures["final_ranking"]
    assert [row["rank"] for row in ranking] == expected
    tournament = Tournament.objects.get(slug=figures["tournament"])
    assert [row["entrant"] for row in ranking] == list(
        StandingRow.objects.filter(tournament=tournament).order_by("rank", "entrant_id").values_list("entrant_id", flat=True)
    )
    assert {row["decided_by"] for row in ranking} <= {"knockout", "placement", "standings"}


def test_best_thirds_qualify_by_the_cross_group_rule(organiser: Any) -> None:
    # 3 groups of 4 (group g: seeds g, g+3, g+6, g+9), top 8: the 3 winners, the 3 runners-up and the
    # 2 best thirds. The thirds (7, 8, 9) each win once 8:4 (equal points per game); 9 loses 7:8 twice,
    # 8 once: marble differences 9: +2, 8: -1, 7: -4, so 9 and 8 go through, seeded in that order.
    tournament = services.tournament_create(actor=organiser, name="Three Groups", game="tac", format="stages",
                                            group_count=3, knockout_size=8)
    for i in range(1, 13):
        services.entrant_register(actor=organiser, tournament=tournament, name=f"Team {i:02d}",
                                  player_names=[f"P{i}-a", f"P{i}-b"], seed=i, group=1 + (i - 1) % 3)
    close = frozenset({frozenset({3, 9}), frozenset({6, 9}), frozenset({2, 8})})
    for _ in range(3):
        play_round(organiser, tournament, close=close)
    play_round(organiser, tournament)  # the quarter-finals are drawn from one seeded list
    tournament.refresh_from_db()
    seeds = seed_of(tournament)
    # seeded A1 B1 C1 A2 B2 C2 + thirds 9 (C), 8 (B); the runners-up trade places so that no group
    # meets itself in the quarter-finals (the plain order gave 3 v 6, C1 v C2): 1-8, 2-9, 3-4, 6-5
    assert [[seeds[pk] for pk in lst] for lst in tournament.knockout_seeding] == [[1, 2, 3, 6, 5, 4, 9, 8]]
    play_all(organiser, tournament)
    got = places(tournament)
    assert {seed for seed, *_ in got[:8]} == {1, 2, 3, 4, 5, 6, 8, 9}
    assert got[8][:4] == (7, 9, False, "standings")  # the third left out ranks below every knockout entrant
    assert {(seed, rank) for seed, rank, *_ in got[9:]} == {(10, 10), (11, 10), (12, 10)}
