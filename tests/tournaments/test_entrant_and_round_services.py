"""Entrants (register, CSV import, check-in/drop/readmit) and rounds (generate, edit, publish)."""

from __future__ import annotations

from typing import Any

import pytest

from tests.tournaments.conftest import make_tournament, published_round, seated_entrants
from tournaments import services
from tournaments.errors import ErrorCode, TournamentError
from tournaments.models import AuditLog, Entrant, Result, Round, Seat, Tournament

pytestmark = pytest.mark.django_db


def error(call: Any, **kwargs: Any) -> TournamentError:
    with pytest.raises(TournamentError) as info:
        call(**kwargs)
    return info.value


def test_team_names_are_unique_per_tournament_ignoring_case_and_at_most_48(organiser: Any, tac: Tournament) -> None:
    exc = error(services.entrant_register, actor=organiser, tournament=tac, name="team 01", player_names=["x", "y"])
    assert exc.code == ErrorCode.ENTRANT_NAME_TAKEN
    exc = error(services.entrant_register, actor=organiser, tournament=tac, name="N" * 49, player_names=["x", "y"])
    assert exc.code == ErrorCode.INVALID_INPUT
    services.entrant_register(actor=organiser, tournament=tac, name="N" * 48, player_names=["x", "y"])


def test_a_tac_team_has_two_players_and_a_player_one_team(organiser: Any, tac: Tournament) -> None:
    exc = error(services.entrant_register, actor=organiser, tournament=tac, name="Solo", player_names=["x"])
    assert "2 player" in exc.message
    player = Entrant.objects.get(tournament=tac, name="Team 01").players.first()
    exc = error(services.entrant_register, actor=organiser, tournament=tac, name="New pair",
                player_names=["y"], player_ids=[player.pk])
    assert exc.code == ErrorCode.PLAYER_ALREADY_ENTERED


def test_only_organisers_register(tac: Tournament, other_user: Any) -> None:
    exc = error(services.entrant_register, actor=other_user, tournament=tac, name="X", player_names=["a", "b"])
    assert exc.code == ErrorCode.PERMISSION_DENIED


def test_csv_import_reports_every_bad_row_and_imports_nothing(organiser: Any) -> None:
    tournament = services.tournament_create(actor=organiser, name="Import", game="tac")
    csv_text = (
        "name,player1,player2,club,seed\n"
        "Alpha,Ann,Bob,Bern,1\n"
        "Beta,Cid,,Bern,2\n"          # one player only
        "alpha,Dan,Eve,,3\n"          # duplicate name (case-insensitive)
        "Gamma,Fay,Gus,,x\n"          # bad seed
        "Delta,Hal,Ida,,\n"
    )
    exc = error(services.entrants_import_csv, actor=organiser, tournament=tournament, csv_text=csv_text)
    assert exc.code == ErrorCode.INVALID_CSV
    assert [row["row"] for row in exc.details["rows"]] == [3, 4, 5]
    assert not tournament.entrants.exists()
    good = "name;players;club\nAlpha;Ann;Bob;Bern\n"
    exc = error(services.entrants_import_csv, actor=organiser, tournament=tournament, csv_text=good)
    assert exc.details["rows"][0]["row"] == 2  # 4 cells for 3 columns
    imported = services.entrants_import_csv(
        actor=organiser, tournament=tournament, csv_text="name,players,club\nAlpha,Ann;Bob,Bern\nBeta,Cid;Dan,\n"
    )
    assert [e.name for e in imported] == ["Alpha", "Beta"]
    assert sorted(p.name for p in imported[0].players.all()) == ["Ann", "Bob"]


@pytest.mark.parametrize("text", ["", "   ", "nom,club\nA,B\n", "name,colour\nA,red\n"])
def test_csv_import_refuses_files_without_a_usable_header(organiser: Any, tac: Tournament, text: str) -> None:
    assert error(services.entrants_import_csv, actor=organiser, tournament=tac, csv_text=text).code == "invalid_csv"


def test_check_in_drop_readmit(organiser: Any, tac: Tournament) -> None:
    entrant = Entrant.objects.get(tournament=tac, name="Team 01")
    entrant = services.entrant_check_in(actor=organiser, entrant=entrant)
    assert entrant.status == Entrant.Status.CHECKED_IN
    assert error(services.entrant_check_in, actor=organiser, entrant=entrant).code == "entrant_already_checked_in"
    entrant = services.entrant_drop(actor=organiser, entrant=entrant)
    assert error(services.entrant_check_in, actor=organiser, entrant=entrant).code == "entrant_dropped"
    assert error(services.entrant_drop, actor=organiser, entrant=entrant).code == "entrant_dropped"
    round_ = services.round_generate(actor=organiser, tournament=tac)
    assert not Seat.objects.filter(round=round_, entrant=entrant).exists()
    entrant = services.entrant_readmit(actor=organiser, entrant=entrant)
    assert entrant.status == Entrant.Status.REGISTERED
    assert error(services.entrant_readmit, actor=organiser, entrant=entrant).code == "entrant_not_dropped"
    actions = set(AuditLog.objects.filter(tournament=tac).values_list("action", flat=True))
    assert {"entrant_checked_in", "entrant_dropped", "entrant_readmitted"} <= actions


def test_odd_field_gets_a_bye_scored_at_publication(organiser: Any, django_capture_on_commit_callbacks: Any) -> None:
    tournament = make_tournament(organiser, entrants=5)
    with django_capture_on_commit_callbacks(execute=True):
        round_ = published_round(organiser, tournament)
    byes = list(round_.tables.filter(is_bye=True))
    assert len(byes) == 1
    result = Result.objects.get(table=byes[0])
    assert result.kind == Result.Kind.BYE and result.is_final
    tournament.refresh_from_db()
    assert tournament.results_version == 1
    rows = {r.entrant_id: r for r in tournament.standing_rows.all()}
    bye_entrant = byes[0].seats.get().entrant_id
    assert rows[bye_entrant].values["match_points"] == tournament.bye_points == 2


def test_generate_replaces_a_draft_and_refuses_while_a_round_is_played(organiser: Any, tac: Tournament) -> None:
    first = services.round_generate(actor=organiser, tournament=tac)
    again = services.round_generate(actor=organiser, tournament=tac)
    assert not Round.objects.filter(pk=first.pk).exists()
    assert again.number == 1
    services.round_publish(actor=organiser, round=again)
    assert error(services.round_generate, actor=organiser, tournament=tac).code == "round_in_progress"
    assert error(services.round_publish, actor=organiser, round=again).code == "round_not_draft"


def test_manual_edit_warns_of_rematches_and_refuses_double_bookings(organiser: Any, tac: Tournament) -> None:
    round_ = published_round(organiser, tac)
    for table in round_.tables.filter(is_bye=False):
        home, away = seated_entrants(table)
        services.result_override(actor=organiser, table=table, scores={home.pk: 8, away.pk: 3})
    previous = [[e.pk for e in seated_entrants(t)] for t in round_.tables.order_by("number")]
    draft = services.round_generate(actor=organiser, tournament=tac)
    draft, warnings = services.round_edit(actor=organiser, round=draft, tables=previous)
    assert [w["code"] for w in warnings].count("rematch") == 2
    assert Round.objects.get(pk=draft.pk).warnings == warnings
    ids = [e for t in previous for e in t]
    exc = error(services.round_edit, actor=organiser, round=draft, tables=[ids[:2], [ids[0], ids[2]]])
    assert exc.code == ErrorCode.PAIRING_INVALID
    exc = error(services.round_edit, actor=organiser, round=draft, tables=[[ids[0], 999999]])
    assert exc.code == ErrorCode.PAIRING_INVALID
    _, warnings = services.round_edit(actor=organiser, round=draft, tables=[ids[:2]], byes=[ids[2]])
    missing = [w for w in warnings if w["code"] == "entrant_missing"]
    assert missing and set(missing[0]["entrant_ids"]) == {ids[3]}
    services.round_publish(actor=organiser, round=draft)
    assert services.round_edit is not None
    assert error(services.round_edit, actor=organiser, round=draft, tables=[ids[:2]]).code == "round_not_draft"


def test_a_draft_round_can_be_discarded_and_then_the_tournament_finished(organiser: Any, tac: Tournament) -> None:
    draft = services.round_generate(actor=organiser, tournament=tac)
    assert error(services.tournament_finish, actor=organiser, tournament=tac).code == "round_in_progress"
    services.round_discard(actor=organiser, round=draft)
    assert not Round.objects.filter(pk=draft.pk).exists()
    assert services.tournament_finish(actor=organiser, tournament=tac).status == Tournament.Status.FINISHED
    assert error(services.round_generate, actor=organiser, tournament=tac).code == "tournament_finished"


def test_late_entrants_join_a_swiss_but_not_a_round_robin(organiser: Any) -> None:
    swiss = make_tournament(organiser, entrants=4, name="Swiss")
    services.round_generate(actor=organiser, tournament=swiss)
    services.entrant_register(actor=organiser, tournament=swiss, name="Late", player_names=["l1", "l2"])
    robin = make_tournament(organiser, entrants=4, format="round_robin", name="Robin")
    services.round_generate(actor=organiser, tournament=robin)
    exc = error(services.entrant_register, actor=organiser, tournament=robin, name="Late",
                player_names=["l3", "l4"])
    assert exc.code == ErrorCode.REGISTRATION_CLOSED
    assert exc.http_status == 409


def test_swiss_stops_after_the_planned_rounds(organiser: Any) -> None:
    tournament = make_tournament(organiser, entrants=4, rounds_planned=1)
    round_ = published_round(organiser, tournament)
    for table in round_.tables.filter(is_bye=False):
        home, away = seated_entrants(table)
        services.result_override(actor=organiser, table=table, scores={home.pk: 8, away.pk: 3})
    assert error(services.round_generate, actor=organiser, tournament=tournament).code == "rounds_complete"


def test_tournament_create_validates_its_settings(organiser: Any, other_user: Any) -> None:
    assert error(services.tournament_create, actor=organiser, name="X", game="tactik",
                 variant={"seats": 5}).code == "invalid_variant"
    assert error(services.tournament_create, actor=organiser, name="X", game="tac",
                 placing_points=[0, 2]).code == "invalid_input"
    assert error(services.tournament_create, actor=organiser, name="X", game="tac",
                 tiebreak_order=["buchholz"]).code == "invalid_input"
    assert error(services.tournament_create, actor=organiser, name="X", game="tac",
                 format="stages").code == "invalid_input"
    assert error(services.tournament_create, actor=None, name="X", game="tac").code == "permission_denied"
    tournament = services.tournament_create(actor=organiser, name="Tac-Tik six", game="tactik", variant={"seats": 6})
    assert tournament.placing_points == [3, 1, 0]
    assert tournament.forfeit_winner_score == 8 and tournament.forfeit_loser_score == 4
    assert services.tournament_create(actor=organiser, name="Tac-Tik six", game="tac").slug == "tac-tik-six-2"


@pytest.mark.parametrize(
    ("game", "variant", "entrants", "fmt"),
    [
        ("tactik", {"seats": 6}, 7, "swiss"),
        ("taki", {"seats": 4}, 11, "swiss"),
        ("zack", {"seats": 3}, 9, "round_robin"),
        ("tock", {"mode": "teams", "seats": 4}, 6, "round_robin"),
    ],
)
def test_rounds_for_other_table_shapes(organiser: Any, game: str, variant: dict, entrants: int, fmt: str) -> None:
    tournament = make_tournament(organiser, game=game, variant=variant, entrants=entrants, format=fmt)
    round_ = published_round(organiser, tournament)
    seated = Seat.objects.filter(round=round_).values_list("entrant_id", flat=True)
    assert sorted(seated) == sorted(tournament.entrants.values_list("pk", flat=True))
    profile = services.tournament_profile(tournament)
    for table in round_.tables.filter(is_bye=False):
        assert 2 <= table.seats.count() <= profile.entrants_per_table
        assert table.seats.filter(is_starting=True).count() == 1


def test_tournament_update_recomputes_standings_for_new_points(
    organiser: Any, tac: Tournament, django_capture_on_commit_callbacks: Any
) -> None:
    round_ = published_round(organiser, tac)
    with django_capture_on_commit_callbacks(execute=True):
        for table in round_.tables.filter(is_bye=False):
            home, away = seated_entrants(table)
            services.result_override(actor=organiser, table=table, scores={home.pk: 8, away.pk: 3})
        tournament = services.tournament_update(actor=organiser, tournament=tac, placing_points=[3, 0],
                                                tiebreak_order=["match_points", "buchholz"], venue="Hall 2")
    assert tournament.placing_points == [3.0, 0.0]
    tac.refresh_from_db()
    assert tac.standings_version == tac.results_version
    assert max(r.values["match_points"] for r in tac.standing_rows.all()) == 3
    assert error(services.tournament_update, actor=organiser, tournament=tac, game="taki").code == "invalid_input"
    assert error(services.tournament_update, actor=organiser, tournament=tac,
                 first_round="random").code == "round_in_progress"
    assert error(services.tournament_update, actor=organiser, tournament=tac,
                 placing_points=[1, 2]).code == "invalid_input"
    assert AuditLog.objects.filter(tournament=tac, action="tournament_updated").count() == 1
