"""Results: validation per game, report/confirm/reject/override, conflicts, constraints, audit."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import IntegrityError, transaction

from tests.tournaments.conftest import (
    first_table,
    make_tournament,
    published_round,
    seated_entrants,
    user_for_entrant,
)
from tournaments import services
from tournaments.errors import ErrorCode, TournamentError
from tournaments.models import AuditLog, Result, Round, StandingRow, Tournament

pytestmark = pytest.mark.django_db


@pytest.fixture
def table_and_players(organiser: Any, tac: Tournament) -> tuple[Any, Any, Any, Any, Any]:
    table = first_table(published_round(organiser, tac))
    home, away = seated_entrants(table)
    return table, home, away, user_for_entrant(home, "home"), user_for_entrant(away, "away")


def code_of(call: Any, **kwargs: Any) -> str:
    with pytest.raises(TournamentError) as info:
        call(**kwargs)
    return str(info.value.code)


@pytest.mark.parametrize(
    ("kwargs", "fragment"),
    [
        ({"scores": {"H": 8, "A": 8}}, "exactly one winner"),
        ({"scores": {"H": 7, "A": 5}}, "exactly one winner"),
        ({"scores": {"H": 9, "A": 5}}, "from 0 to 8"),
        ({"scores": {"H": 8}}, "exactly the entrants"),
        ({"scores": {"H": 8, "A": -1}}, "from 0 to 8"),
        ({"scores": {"H": 8, "A": "x"}}, "whole number"),
        ({"scores": {"H": 8, "A": 3}, "winner": "A"}, "winner is the entrant"),
        ({"kind": "time_limit", "scores": {"H": 8, "A": 3}}, "no winner"),
        ({"kind": "forfeit", "forfeited": []}, "some, not all"),
        ({"kind": "bye"}, "kind must be"),
        ({"scores": {"H": 8, "A": 2}, "placings": {"H": 1, "A": 2}}, "ranked by score"),
    ],
)
def test_invalid_tac_results_are_refused(table_and_players: Any, kwargs: dict, fragment: str) -> None:
    table, home, away, home_user, _ = table_and_players
    ids = {"H": home.pk, "A": away.pk}
    for key in ("scores", "placings"):
        if key in kwargs:
            kwargs[key] = {ids.get(k, k): v for k, v in kwargs[key].items()}
    if kwargs.get("winner") in ids:
        kwargs["winner"] = ids[kwargs["winner"]]
    if "scores" not in kwargs and kwargs.get("kind") != "forfeit" and "placings" not in kwargs:
        kwargs["scores"] = {home.pk: 8, away.pk: 2}
    with pytest.raises(TournamentError) as info:
        services.result_report(table=table, actor=home_user, **kwargs)
    assert info.value.code == ErrorCode.INVALID_RESULT
    assert fragment in info.value.message
    assert not Result.objects.filter(table=table).exists()


def test_time_limit_and_forfeit_results(organiser: Any, table_and_players: Any) -> None:
    table, home, away, home_user, away_user = table_and_players
    result = services.result_report(table=table, actor=home_user, kind="time_limit", scores={home.pk: 6, away.pk: 6})
    lines = {s.entrant_id: (s.score, s.placing, s.is_winner) for s in result.scores.all()}
    assert lines == {home.pk: (6, 1, False), away.pk: (6, 1, False)}
    services.result_reject(result=result, actor=away_user)
    forfeit = services.result_report(table=table, actor=away_user, kind="forfeit", forfeited=[home.pk])
    lines = {s.entrant_id: (s.score, s.placing, s.is_winner, s.forfeited) for s in forfeit.scores.all()}
    assert lines == {home.pk: (4, 2, False, True), away.pk: (8, 1, True, False)}


def test_report_by_token_and_identical_opponent_report_confirms(table_and_players: Any) -> None:
    table, home, away, _, _ = table_and_players
    first = services.result_report(table=table, token=home.report_token, scores={home.pk: 8, away.pk: 1})
    assert first.state == Result.State.REPORTED and first.reported_for == home
    second = services.result_report(table=table, token=away.report_token, scores={home.pk: 8, away.pk: 1})
    assert second.pk == first.pk and second.state == Result.State.CONFIRMED


def test_conflicting_second_report_is_a_conflict(table_and_players: Any) -> None:
    table, home, away, home_user, away_user = table_and_players
    services.result_report(table=table, actor=home_user, scores={home.pk: 8, away.pk: 1})
    assert code_of(services.result_report, table=table, actor=away_user,
                   scores={home.pk: 3, away.pk: 8}) == "result_already_reported"
    assert Result.objects.filter(table=table).count() == 1


def test_report_after_final_is_refused(table_and_players: Any) -> None:
    table, home, away, home_user, away_user = table_and_players
    result = services.result_report(table=table, actor=home_user, scores={home.pk: 8, away.pk: 1})
    services.result_confirm(result=result, actor=away_user)
    assert code_of(services.result_report, table=table, actor=away_user,
                   scores={home.pk: 8, away.pk: 1}) == "result_already_final"


def test_reporter_cannot_confirm_own_report_and_outsiders_cannot_report(
    table_and_players: Any, other_user: Any
) -> None:
    table, home, away, home_user, _ = table_and_players
    result = services.result_report(table=table, actor=home_user, scores={home.pk: 8, away.pk: 1})
    assert code_of(services.result_confirm, result=result, actor=home_user) == "confirm_own_report"
    assert code_of(services.result_confirm, result=result, actor=other_user) == "permission_denied"
    assert code_of(services.result_confirm, result=result, token="not-a-token") == "permission_denied"
    assert code_of(services.result_report, table=table, actor=other_user,
                   scores={home.pk: 8, away.pk: 1}) == "permission_denied"


def test_player_of_another_table_cannot_report_even_with_own_token(organiser: Any, tac: Tournament) -> None:
    round_ = published_round(organiser, tac)
    tables = list(round_.tables.filter(is_bye=False).order_by("number"))
    stranger = seated_entrants(tables[1])[0]
    home, away = seated_entrants(tables[0])
    assert code_of(services.result_report, table=tables[0], token=stranger.report_token,
                   scores={home.pk: 8, away.pk: 1}) == "permission_denied"


def test_override_supersedes_final_and_standings_follow(
    organiser: Any, tac: Tournament, table_and_players: Any, django_capture_on_commit_callbacks: Any
) -> None:
    table, home, away, home_user, away_user = table_and_players
    with django_capture_on_commit_callbacks(execute=True):
        result = services.result_report(table=table, actor=home_user, scores={home.pk: 8, away.pk: 1})
        services.result_confirm(result=result, actor=away_user)
        override = services.result_override(actor=organiser, table=table, scores={home.pk: 2, away.pk: 8},
                                            note="scoresheet")
    result.refresh_from_db()
    assert result.state == Result.State.SUPERSEDED
    assert override.state == Result.State.OVERRIDDEN
    assert StandingRow.objects.get(tournament=tac, entrant=away).values["match_points"] == 2
    assert StandingRow.objects.get(tournament=tac, entrant=home).values["match_points"] == 0
    tac.refresh_from_db()
    assert tac.standings_version == tac.results_version == 2
    actions = list(AuditLog.objects.filter(tournament=tac).values_list("action", flat=True))
    assert actions.count("result_overridden") == 1


def test_only_organisers_override(table_and_players: Any) -> None:
    table, home, away, home_user, _ = table_and_players
    assert code_of(services.result_override, actor=home_user, table=table,
                   scores={home.pk: 8, away.pk: 1}) == "permission_denied"


def test_database_allows_one_open_result_per_table(table_and_players: Any) -> None:
    """One pending or one final result per table, never both (issue 29: a pending result beside a final
    one was allowed by the database); closed ones (rejected, superseded) any number."""
    table, *_ = table_and_players
    pending = Result.objects.create(table=table, state=Result.State.REPORTED)
    with pytest.raises(IntegrityError), transaction.atomic():
        Result.objects.create(table=table, state=Result.State.REPORTED)
    with pytest.raises(IntegrityError), transaction.atomic():
        Result.objects.create(table=table, state=Result.State.CONFIRMED)
    Result.objects.filter(pk=pending.pk).update(state=Result.State.CONFIRMED)
    with pytest.raises(IntegrityError), transaction.atomic():
        Result.objects.create(table=table, state=Result.State.OVERRIDDEN)
    with pytest.raises(IntegrityError), transaction.atomic():
        Result.objects.create(table=table, state=Result.State.REPORTED)
    Result.objects.create(table=table, state=Result.State.REJECTED)
    Result.objects.create(table=table, state=Result.State.SUPERSEDED)


def test_round_finishes_when_every_table_is_final(organiser: Any, tac: Tournament) -> None:
    round_ = published_round(organiser, tac)
    for table in round_.tables.filter(is_bye=False):
        home, away = seated_entrants(table)
        services.result_override(actor=organiser, table=table, scores={home.pk: 8, away.pk: 0})
    round_.refresh_from_db()
    assert round_.status == Round.Status.FINISHED


def test_draft_round_cannot_be_reported(organiser: Any, tac: Tournament) -> None:
    round_ = services.round_generate(actor=organiser, tournament=tac)
    table = first_table(round_)
    home, away = seated_entrants(table)
    assert code_of(services.result_report, table=table, token=home.report_token,
                   scores={home.pk: 8, away.pk: 1}) == "round_not_published"


def test_free_for_all_placings(organiser: Any) -> None:
    taki = make_tournament(organiser, game="taki", variant={"seats": 4}, entrants=4, name="Taki night")
    table = first_table(published_round(organiser, taki))
    seated = [e.pk for e in seated_entrants(table)]
    token = seated_entrants(table)[0].report_token
    with pytest.raises(TournamentError, match="consistent"):
        services.result_report(table=table, token=token, placings=dict(zip(seated, [1, 3, 3, 3], strict=True)))
    with pytest.raises(TournamentError, match="exactly one first place"):
        services.result_report(table=table, token=token, placings=dict(zip(seated, [1, 1, 3, 4], strict=True)))
    result = services.result_report(table=table, token=token, placings=dict(zip(seated, [2, 1, 4, 3], strict=True)))
    assert {s.entrant_id: s.is_winner for s in result.scores.all()}[seated[1]] is True
    services.result_confirm(result=result, token=seated_entrants(table)[2].report_token)
    services.standings_recompute(tournament_id=taki.pk)
    points = {r.entrant_id: r.values["match_points"] for r in StandingRow.objects.filter(tournament=taki)}
    assert points == {seated[1]: 3, seated[0]: 2, seated[3]: 1, seated[2]: 0}


def test_audit_log_is_append_only(table_and_players: Any) -> None:
    row = AuditLog.objects.first()
    assert row is not None
    with pytest.raises(ValueError):
        row.save()
    with pytest.raises(ValueError):
        row.delete()
