"""Settlement: conflicts with existing results, unchanged results, conflicts computed at read time, and the
pure derivation of a table's result (games.settle)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from rest_framework.test import APIClient

from games import selectors, services, settle
from games.models import GameRecord
from tests.games.conftest import one_table_tournament, random_record, relabel
from tests.tournaments.conftest import seated_entrants
from tournaments import services as tournament_services
from tournaments.models import AuditLog, Result
from tournaments.profiles import profile_for


def _submit(table: Any, actor: Any, record: dict[str, Any], capture: Any) -> GameRecord:
    with capture(execute=True):
        record_id = services.record_submit(table=table, actor=actor, data=json.dumps(record), source="api").pk
    return GameRecord.objects.get(pk=record_id)


@pytest.mark.django_db
def test_a_different_final_result_is_left_alone_and_flagged(
    organiser: Any, django_capture_on_commit_callbacks: Any
) -> None:
    tournament, table = one_table_tournament(organiser, "zack", {"seats": 4})
    entrants = seated_entrants(table)
    record = relabel(random_record("zack", {"seats": 4}, seed=21), table)
    winner_entrant = entrants[record["result"]["winners"][0]]
    loser_first = [e for e in entrants if e != winner_entrant]
    manual = {e.pk: i + 1 for i, e in enumerate([*loser_first, winner_entrant])}
    with django_capture_on_commit_callbacks(execute=True):
        final = tournament_services.result_override(actor=organiser, table=table, placings=manual)
    row = _submit(table, organiser, record, django_capture_on_commit_callbacks)
    assert (row.status, row.settlement, row.result_id) == ("valid", "conflict", final.pk)
    assert Result.objects.filter(table=table).count() == 1
    conflicts = selectors.record_conflicts(tournament=tournament)
    assert [(c["table"].pk, c["record"].pk, c["result"].pk) for c in conflicts] == [(table.pk, row.pk, final.pk)]
    client = APIClient()
    client.force_authenticate(organiser)
    assert client.get(f"/api/tournaments/{tournament.slug}/records/conflicts/").json()[0]["record"] == row.pk

    # the organiser corrects the result to what the record proves: no conflict any more
    expected = row.derived_table_result
    with django_capture_on_commit_callbacks(execute=True):
        tournament_services.result_override(actor=organiser, table=table, placings=expected["placings"])
    assert selectors.record_conflicts(tournament=tournament) == []


@pytest.mark.django_db
def test_same_result_already_final_is_unchanged(organiser: Any, django_capture_on_commit_callbacks: Any) -> None:
    tournament, table = one_table_tournament(organiser, "tock", {"mode": "ffa", "seats": 4})
    record = relabel(random_record("tock", {"mode": "ffa", "seats": 4}, seed=8), table)
    first = _submit(table, organiser, record, django_capture_on_commit_callbacks)
    with django_capture_on_commit_callbacks(execute=True):
        tournament_services.result_confirm(result=first.result, actor=organiser)
    second = _submit(table, organiser, {**record, "meta": {"notes": "copy"}}, django_capture_on_commit_callbacks)
    assert (second.settlement, second.result_id) == ("unchanged", first.result_id)
    assert AuditLog.objects.filter(action="result_reported_from_record").count() == 1


@pytest.mark.django_db
def test_a_later_manual_report_is_flagged_at_read_time(
    organiser: Any, django_capture_on_commit_callbacks: Any
) -> None:
    tournament, table = one_table_tournament(organiser, "taki", {"seats": 4})
    entrants = seated_entrants(table)
    record = relabel(random_record("taki", {"seats": 4}, seed=13), table)
    row = _submit(table, organiser, record, django_capture_on_commit_callbacks)
    assert row.settlement == "settled" and selectors.record_conflicts(tournament=tournament) == []
    tournament_services.result_reject(result=row.result, token=entrants[0].report_token)
    winner = row.seat_entrants[record["result"]["winners"][0]]
    others = [e.pk for e in entrants if e.pk != winner]
    tournament_services.result_report(table=table, token=entrants[0].report_token,
                                      placings={others[0]: 1, others[1]: 2, others[2]: 3, winner: 4})
    assert [c["record"].pk for c in selectors.record_conflicts(tournament=tournament)] == [row.pk]


@pytest.mark.django_db
def test_partial_record_never_changes_a_result(organiser: Any, django_capture_on_commit_callbacks: Any) -> None:
    tournament, table = one_table_tournament(organiser, "tac", {})
    record = relabel(random_record("tac", {}, seed=3), table)
    del record["result"]
    record["deals"] = record["deals"][:1]
    row = _submit(table, organiser, record, django_capture_on_commit_callbacks)
    assert (row.status, row.complete, row.settlement) == ("valid", False, "none")
    assert not Result.objects.filter(table=table).exists()


def test_table_result_scores_sum_team_seats() -> None:
    result = settle.table_result(profile=profile_for("tactik", {"seats": 6}), derived={"winners": [1, 4]},
                                 seat_entrants=[10, 11, 12, 10, 11, 12],
                                 snapshot={"home_count": [2, 4, 1, 3, 4, 0]})
    assert result == {"kind": "normal", "scores": {10: 5, 11: 8, 12: 1}, "winner": 11}


def test_table_result_score_game_needs_the_final_position() -> None:
    assert settle.table_result(profile=profile_for("tac", {}), derived={"winners": [0, 2]},
                               seat_entrants=[1, 2, 1, 2], snapshot=None) is None


def test_table_result_placings_share_ties_and_follow_the_final_position() -> None:
    tock = settle.table_result(profile=profile_for("tock", {"mode": "ffa", "seats": 4}), derived={"winners": [2]},
                               seat_entrants=[5, 6, 7, 8], snapshot={"home_count": [1, 3, 4, 1]})
    assert tock == {"kind": "normal", "placings": {5: 3, 6: 2, 7: 1, 8: 3}, "winner": 7}
    taki = settle.table_result(profile=profile_for("taki", {"seats": 3}), derived={"winners": [0]},
                               seat_entrants=[5, 6, 7], snapshot={"finished": [0, 2], "hands": [[], ["a"], ["b", "c"]]})
    assert taki is not None and taki["placings"] == {5: 1, 6: 3, 7: 2}
    zack = settle.table_result(profile=profile_for("zack", {"seats": 3}), derived={"winners": [1]},
                               seat_entrants=[5, 6, 7], snapshot=None)
    assert zack is not None and zack["placings"] == {5: 2, 6: 1, 7: 2}


def test_table_result_refuses_winners_of_two_entrants() -> None:
    assert settle.table_result(profile=profile_for("taki", {"seats": 3}), derived={"winners": [0, 1]},
                               seat_entrants=[5, 6, 7], snapshot=None) is None


def test_result_matches() -> None:
    expected = {"kind": "normal", "scores": {"1": 8, "2": 3}, "winner": 1}
    lines = [{"entrant": 1, "score": 8, "placing": 1, "is_winner": True, "forfeited": False},
             {"entrant": 2, "score": 3, "placing": 2, "is_winner": False, "forfeited": False}]
    assert settle.result_matches(expected, lines)
    assert not settle.result_matches(expected, [lines[0], {**lines[1], "score": 4}])
    assert not settle.result_matches(expected, [lines[0]])


@pytest.mark.django_db
def test_same_side_identical_pending_is_unchanged(organiser: Any, django_capture_on_commit_callbacks: Any) -> None:
    tournament, table = one_table_tournament(organiser, "taki", {"seats": 4})
    record = relabel(random_record("taki", {"seats": 4}, seed=17), table)
    first = _submit(table, organiser, record, django_capture_on_commit_callbacks)
    second = _submit(table, organiser, {**record, "meta": {"notes": "again"}}, django_capture_on_commit_callbacks)
    assert (first.settlement, second.settlement) == ("settled", "unchanged")
    assert second.result_id == first.result_id
    assert Result.objects.get(pk=first.result_id).state == Result.State.REPORTED


@pytest.mark.django_db
def test_result_report_from_record_refuses_an_entrant_of_another_table(organiser: Any) -> None:
    from tests.tournaments.conftest import make_tournament, published_round
    from tournaments.errors import TournamentError

    tournament = make_tournament(organiser, game="taki", variant={"seats": 3}, entrants=6, name="Two tables")
    table, other = list(published_round(organiser, tournament).tables.order_by("number"))
    stranger = seated_entrants(other)[0]
    placings = {e.pk: i + 1 for i, e in enumerate(seated_entrants(table))}
    with pytest.raises(TournamentError) as err:
        tournament_services.result_report_from_record(table=table, entrant=stranger, placings=placings)
    assert err.value.code == "permission_denied"
    assert not Result.objects.filter(table=table).exists()
    result = tournament_services.result_report_from_record(table=table, entrant=None, placings=placings).result
    assert (result.state, result.reported_for_id) == (Result.State.REPORTED, None)
    assert AuditLog.objects.filter(action="result_reported_from_record", object_id=result.pk).exists()


@pytest.mark.django_db
def test_broker_down_keeps_the_record_pending_and_the_reconciler_catches_up(
    organiser: Any, monkeypatch: pytest.MonkeyPatch, django_capture_on_commit_callbacks: Any
) -> None:
    from datetime import timedelta

    from django.utils import timezone

    from games import tasks

    tournament, table = one_table_tournament(organiser, "taki", {"seats": 4})
    record = relabel(random_record("taki", {"seats": 4}, seed=31), table)

    def broker_down(*args: Any, **kwargs: Any) -> None:
        raise ConnectionError("broker down")

    monkeypatch.setattr(tasks.record_verify, "delay", broker_down)
    response = None
    with django_capture_on_commit_callbacks(execute=True):
        response = APIClient().post(f"/api/tables/{table.pk}/records/", data=json.dumps(record),
                                    content_type="application/json",
                                    HTTP_X_REPORT_TOKEN=seated_entrants(table)[0].report_token)
    assert response.status_code == 201
    row = GameRecord.objects.get(pk=response.json()["id"])
    assert row.status == "pending"
    monkeypatch.undo()
    assert services.records_reconcile() == {"records": [], "batches": []}  # too recent to be lost
    GameRecord.objects.filter(pk=row.pk).update(created_at=timezone.now() - timedelta(minutes=5))
    assert services.records_reconcile()["records"] == [row.pk]
    row.refresh_from_db()
    assert (row.status, row.settlement) == ("valid", "settled")


SCORE_CASES = [("tac", {}), ("tactik", {"seats": 6}), ("tock", {"mode": "teams", "seats": 4})]


@pytest.mark.django_db
@pytest.mark.parametrize(("game", "variant"), SCORE_CASES, ids=["tac", "tactik6", "tock-teams"])
def test_scores_are_the_marbles_home_in_the_final_position(
    organiser: Any, game: str, variant: dict[str, Any], django_capture_on_commit_callbacks: Any
) -> None:
    from rules.core.trace import final_snapshot, trace_document

    tournament, table = one_table_tournament(organiser, game, variant)
    record = relabel(random_record(game, variant, seed=41), table)
    row = _submit(table, organiser, record, django_capture_on_commit_callbacks)
    assert row.settlement == "settled"
    snapshot = final_snapshot(record)
    assert snapshot is not None
    home: dict[str, int] = {}
    for seat, entrant in enumerate(row.seat_entrants):
        tokens = snapshot["marbles"][seat]
        home[str(entrant)] = home.get(str(entrant), 0) + sum(1 for t in tokens if str(t).startswith("H"))
    assert row.derived_table_result["scores"] == home
    assert sorted(home.values())[-1] == 8 and sorted(home.values())[-2] < 8
    lines = {s.entrant_id: s.score for s in row.result.scores.all()}
    assert {str(e): s for e, s in lines.items()} == home
    # the stored verdict is the trace's verdict (the replay viewer and the verdict never disagree)
    traced = trace_document(row.document(), file=f"record-{row.pk}").verdict.to_json()
    assert row.verdicts.get().verdict == traced


@pytest.mark.django_db
def test_a_verification_that_runs_out_of_time_is_stored_as_such(
    organiser: Any, monkeypatch: pytest.MonkeyPatch, django_capture_on_commit_callbacks: Any
) -> None:
    from celery.exceptions import SoftTimeLimitExceeded

    from games import tasks

    tournament, table = one_table_tournament(organiser, "taki", {"seats": 4})
    record = relabel(random_record("taki", {"seats": 4}, seed=51), table)

    def too_slow(data: Any, *, file: str = "-") -> Any:
        raise SoftTimeLimitExceeded()

    monkeypatch.setattr(services, "verify_record_text", too_slow)
    row = _submit(table, organiser, record, django_capture_on_commit_callbacks)
    assert (row.status, row.error_code, row.settlement) == ("invalid", "verification_timeout", "none")
    assert "60 seconds" in row.error_message
    assert not Result.objects.filter(table=table).exists()
    verified = AuditLog.objects.filter(action="game_record_verified", object_id=row.pk)
    assert [entry.data["error_code"] for entry in verified] == ["verification_timeout"]
    assert tasks.record_verify(row.pk) == "invalid"  # a redelivery changes nothing
    assert row.verdicts.count() == 1
    assert verified.count() == 1
    assert services.records_needing_verification() == []
