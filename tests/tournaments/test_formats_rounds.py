"""Issue 13 (rounds half), through services and the API: round robin at tables of 3, Tac-Tik 6 Swiss byes,
check-in, drops mid-round and their undo, the TAKI phase game, rolling release and the game length."""

from __future__ import annotations

import datetime
from typing import Any

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from tests.tournaments.conftest import make_tournament, published_round
from tournaments import services
from tournaments.errors import TournamentError
from tournaments.models import AuditLog, Entrant, Result, Round, Table, Tournament
from tournaments.simulation import group_meetings, tournament_simulate


def _api(user: Any) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def _seated(table: Table) -> list[int]:
    return list(table.seats.order_by("position").values_list("entrant_id", flat=True))


def _report_win(table: Table, winner_index: int = 0) -> Result:
    """A TAC/Tock-teams win for the entrant at `winner_index`, reported and confirmed by tokens."""
    seats = list(table.seats.select_related("entrant").order_by("position"))
    scores = {s.entrant_id: (8 if i == winner_index else 3) for i, s in enumerate(seats)}
    result = services.result_report(table=table, token=seats[0].entrant.report_token, kind="normal", scores=scores)
    return services.result_confirm(result=result, token=seats[1].entrant.report_token)


# --- round robin at tables of 3 ------------------------------------------------------------------


def test_tock_2v2v2_round_robin_in_groups_of_six_shows_meetings_and_says_no_even_schedule(organiser: Any) -> None:
    api = _api(organiser)
    created = api.post("/api/tournaments/", {"name": "Tock groups", "game": "tock",
                                              "variant": {"mode": "teams", "seats": 6}, "format": "round_robin",
                                              "group_count": 2, "schedule_rounds": 5}, format="json")
    assert created.status_code == 201, created.json()
    slug = created.json()["slug"]
    assert created.json()["schedule_rounds"] == 5
    tournament = Tournament.objects.get(slug=slug)
    for i in range(1, 13):
        services.entrant_register(actor=organiser, tournament=tournament, name=f"T{i:02d}",
                                  player_names=[f"A{i}", f"B{i}"], seed=i, group=1 + (i - 1) % 2)
    before = api.get(f"/api/tournaments/{slug}/schedule/meetings/").json()  # before round 1 exists
    assert [(g["group"], g["rounds"], g["min_meetings"], g["max_meetings"], g["even_possible"]) for g in before] == [
        (1, 5, 1, 3, False), (2, 5, 1, 3, False)]
    draft = api.post(f"/api/tournaments/{slug}/rounds/generate/").json()
    shown = [w for w in draft["warnings"] if w["code"] == "meetings"]
    assert [(w["group"], w["min_meetings"], w["max_meetings"]) for w in shown] == [(1, 1, 3), (2, 1, 3)]
    assert "No more even schedule exists" in shown[0]["message"]
    services.round_discard(actor=organiser, round=Round.objects.get(pk=draft["id"]))
    report = tournament_simulate(tournament=tournament, actor=organiser, rounds=None)
    assert report.rounds == 5 and all(t == 4 for t in report.tables_per_round)
    assert group_meetings(tournament) == {1: (1, 3), 2: (1, 3)}


def test_round_robin_rounds_are_refused_at_tables_of_two(organiser: Any) -> None:
    response = _api(organiser).post("/api/tournaments/", {"name": "RR", "game": "tac", "format": "round_robin",
                                                          "schedule_rounds": 3}, format="json")
    assert response.status_code == 422 and response.json()["error"]["code"] == "invalid_input"


def test_simulate_command_reports_meetings_per_group(organiser: Any, capsys: Any) -> None:
    import json

    from django.core.management import call_command

    call_command("simulate_tournament", "--game", "tactik", "--variant", '{"seats": 6}', "--entrants", "6",
                 "--format", "round_robin", "--json")
    figures = json.loads(capsys.readouterr().out.strip().splitlines()[-1])
    assert figures["min_meetings"] == {"1": 0} and figures["max_meetings"] == {"1": 2}


# --- Swiss at tables of 3: byes ------------------------------------------------------------------


def test_tactik6_swiss_of_ten_teams_has_no_avoidable_rematch(organiser: Any) -> None:
    tournament = make_tournament(organiser, game="tactik", variant={"seats": 6}, entrants=10, rounds_planned=4)
    report = tournament_simulate(tournament=tournament, actor=organiser, rounds=4, seed=1)
    assert report.rematches == [0, 0, 0, 0]
    assert report.byes == [1, 1, 1, 1]
    assert Table.objects.filter(round__tournament=tournament, is_bye=True).values("seats__entrant").distinct().count() == 4


# --- check-in ------------------------------------------------------------------------------------


def test_checkin_required_pairs_only_checked_in_and_lists_who_was_left_out(organiser: Any) -> None:
    api = _api(organiser)
    tournament = make_tournament(organiser, entrants=5, checkin_required=True)
    assert api.get(f"/api/tournaments/{tournament.slug}/").json()["checkin_required"] is True
    entrants = list(tournament.entrants.order_by("seed"))
    for entrant in entrants[:4]:
        assert api.post(f"/api/entrants/{entrant.pk}/check-in/").status_code == 200
    draft = api.post(f"/api/tournaments/{tournament.slug}/rounds/generate/").json()
    paired = {s["entrant"] for t in draft["tables"] for s in t["seats"]}
    assert paired == {e.pk for e in entrants[:4]}
    left_out = [w for w in draft["warnings"] if w["code"] == "left_out"]
    assert [(w["entrant_ids"], w["reason"]) for w in left_out] == [([entrants[4].pk], "not_checked_in")]
    dropped = api.post(f"/api/tournaments/{tournament.slug}/entrants/drop-absent/").json()
    assert [e["id"] for e in dropped] == [entrants[4].pk] and dropped[0]["status"] == "dropped"
    draft = api.post(f"/api/tournaments/{tournament.slug}/rounds/generate/").json()
    assert [w["reason"] for w in draft["warnings"] if w["code"] == "left_out"] == ["dropped"]
    # switched off: everyone not dropped is paired again
    assert api.patch(f"/api/tournaments/{tournament.slug}/", {"checkin_required": False},
                     format="json").json()["checkin_required"] is False


# --- drops during a round ------------------------------------------------------------------------


def test_drop_mid_round_ends_the_table_by_forfeit_and_can_be_undone(organiser: Any) -> None:
    api = _api(organiser)
    tournament = make_tournament(organiser, entrants=4)
    round_ = published_round(organiser, tournament)
    first, second = round_.tables.filter(is_bye=False).order_by("number")
    _report_win(second)
    leaver, stayer = _seated(first)
    pending = services.result_report(table=first, token=Entrant.objects.get(pk=stayer).report_token,
                                     kind="normal", scores={leaver: 2, stayer: 8})
    assert api.post(f"/api/entrants/{leaver}/drop/").json()["status"] == "dropped"
    final = Result.objects.get(table=first, state=Result.State.OVERRIDDEN)
    assert final.kind == "forfeit" and final.closed_by_drop_id == leaver
    assert {s.entrant_id: (s.score, s.forfeited) for s in final.scores.all()} == {leaver: (4, True), stayer: (8, False)}
    pending.refresh_from_db()
    assert pending.state == Result.State.REJECTED
    round_.refresh_from_db()
    assert round_.status == Round.Status.FINISHED
    assert AuditLog.objects.filter(action="result_forfeit_by_drop", object_id=final.pk).exists()

    undone = api.post(f"/api/entrants/{leaver}/drop/undo/")
    assert undone.status_code == 200 and undone.json()["status"] == "registered"
    final.refresh_from_db()
    pending.refresh_from_db()
    round_.refresh_from_db()
    assert final.state == Result.State.SUPERSEDED and pending.state == Result.State.REPORTED
    assert round_.status == Round.Status.PUBLISHED
    assert AuditLog.objects.filter(action="entrant_drop_undone", object_id=leaver).exists()


def test_tournament_forfeit_score_is_used_and_undo_ends_with_the_round(organiser: Any) -> None:
    tournament = make_tournament(organiser, entrants=4, forfeit_winner_score=8, forfeit_loser_score=0)
    round_ = published_round(organiser, tournament)
    first, second = round_.tables.filter(is_bye=False).order_by("number")
    leaver = _seated(first)[0]
    services.entrant_drop(actor=organiser, entrant=Entrant.objects.get(pk=leaver))
    assert Result.objects.get(table=first, state="overridden").scores.get(entrant_id=leaver).score == 0
    _report_win(second)
    published_round(organiser, tournament)
    with pytest.raises(TournamentError) as info:
        services.entrant_drop_undo(actor=organiser, entrant=Entrant.objects.get(pk=leaver))
    assert info.value.code == "drop_not_undoable"


# --- TAKI phase game -----------------------------------------------------------------------------


def test_taki_phase_game_is_a_tournament_and_refuses_plain_records(organiser: Any) -> None:
    api = _api(organiser)
    created = api.post("/api/tournaments/", {"name": "Taki Turnier", "game": "taki",
                                              "variant": {"seats": 4, "tournament": True}}, format="json")
    assert created.status_code == 201, created.json()
    assert created.json()["variant"] == {"seats": 4, "tournament": True}
    from games.settle import table_result
    from tournaments.profiles import profile_for

    profile = profile_for("taki", {"seats": 4, "tournament": True})
    settled = table_result(profile=profile, derived={"winners": [0], "phases": [1, 5, 2, 4]},
                           seat_entrants=[11, 12, 13, 14], snapshot={"hands": [[], ["x"], ["x"], ["x"]]})
    assert settled == {"kind": "normal", "placings": {11: 1, 12: 4, 13: 2, 14: 3}, "winner": 11}


# --- rolling rounds and game length ---------------------------------------------------------------


def test_rolling_release_lets_a_table_start_when_its_entrants_are_free(organiser: Any) -> None:
    api = _api(organiser)
    tournament = make_tournament(organiser, entrants=6, format="round_robin", rolling_rounds=True, game_minutes=60)
    start = timezone.now() - datetime.timedelta(minutes=30)
    round_ = services.round_generate(actor=organiser, tournament=tournament)
    Round.objects.filter(pk=round_.pk).update(starts_at=start)
    services.round_publish(actor=organiser, round=round_)
    first, second, third = round_.tables.filter(is_bye=False).order_by("number")
    _report_win(first)
    _report_win(second)
    following = api.post(f"/api/tournaments/{tournament.slug}/rounds/generate/")
    assert following.status_code == 201, following.json()
    next_round = Round.objects.get(pk=following.json()["id"])
    services.round_publish(actor=organiser, round=next_round)
    data = api.get(f"/api/rounds/{next_round.pk}/").json()
    free = set(_seated(first)) | set(_seated(second))
    for table in data["tables"]:
        seated = {s["entrant"] for s in table["seats"]}
        assert table["release"] == ("waiting" if seated - free else "playing")
    assert sorted(t["release"] for t in data["tables"]) == ["playing", "waiting", "waiting"]
    waiting = next(Table.objects.get(pk=t["id"]) for t in data["tables"] if t["release"] == "waiting")
    seats = list(waiting.seats.select_related("entrant").order_by("position"))
    response = APIClient().post(f"/api/tables/{waiting.pk}/report/",
                                {"kind": "normal", "scores": {str(s.entrant_id): 8 if i == 0 else 1
                                                             for i, s in enumerate(seats)},
                                 "token": seats[0].entrant.report_token}, format="json")
    assert response.status_code == 409 and response.json()["error"]["code"] == "table_not_released"
    # a third round must wait for the second; the iCal feed puts the waiting table after the game before it
    assert api.post(f"/api/tournaments/{tournament.slug}/rounds/generate/").status_code == 409
    ics = APIClient().get(f"/api/tournaments/{tournament.slug}/calendar.ics").content.decode()
    assert ics.count("BEGIN:VEVENT") == 6
    third_end = (start + datetime.timedelta(minutes=60)).astimezone(datetime.UTC).strftime("%Y%m%dT%H%M%SZ")
    assert ics.count(f"DTSTART:{third_end}") == 2  # the waiting tables start when table 3 of round 1 is due to end
    page = api.get(f"/t/{tournament.slug}/rounds/2/")
    assert "May start" in page.content.decode() and "Waiting" in page.content.decode()


def test_game_length_sets_calendar_end_and_the_time_limit_result(organiser: Any) -> None:
    tournament = make_tournament(organiser, entrants=2, game_minutes=45)
    assert tournament.game_minutes == 45
    assert make_tournament(organiser, entrants=2, name="Default").game_minutes == 90
    round_ = published_round(organiser, tournament)
    table = round_.tables.get(is_bye=False)
    start = timezone.now() - datetime.timedelta(minutes=30)
    services.table_schedule(actor=organiser, table=table, starts_at=start)
    seats = list(table.seats.select_related("entrant").order_by("position"))
    scores = {seats[0].entrant_id: 5, seats[1].entrant_id: 3}
    with pytest.raises(TournamentError) as info:
        services.result_report(table=table, token=seats[0].entrant.report_token, kind="time_limit", scores=scores)
    assert info.value.code == "time_limit_not_reached"
    ics = APIClient().get(f"/api/tournaments/{tournament.slug}/calendar.ics").content.decode()
    end = (start + datetime.timedelta(minutes=45)).astimezone(datetime.UTC).strftime("%Y%m%dT%H%M%SZ")
    assert f"DTEND:{end}" in ics
    services.table_schedule(actor=organiser, table=table, starts_at=start - datetime.timedelta(minutes=20))
    result = services.result_report(table=table, token=seats[0].entrant.report_token, kind="time_limit",
                                    scores=scores)
    assert result.kind == "time_limit"
