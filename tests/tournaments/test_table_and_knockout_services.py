"""Table scheduling, forbidden pairs, and knockout results that must decide who advances."""

from __future__ import annotations

import datetime
from typing import Any

import pytest

from tests.tournaments.conftest import make_tournament, published_round, seated_entrants
from tournaments import services
from tournaments.errors import TournamentError
from tournaments.models import AuditLog, ForbiddenPair, Round

pytestmark = pytest.mark.django_db


def test_knockout_needs_a_decided_game_and_advances_the_winner(organiser: Any) -> None:
    tournament = make_tournament(organiser, entrants=4, format="knockout")
    round_ = published_round(organiser, tournament)
    assert round_.stage == Round.Stage.KNOCKOUT
    tables = list(round_.tables.filter(is_bye=False).order_by("number"))
    home, away = seated_entrants(tables[0])
    with pytest.raises(TournamentError, match="decide who advances"):
        services.result_override(actor=organiser, table=tables[0], kind="time_limit",
                                 scores={home.pk: 5, away.pk: 5})
    winners = []
    for table in tables:
        home, away = seated_entrants(table)
        services.result_override(actor=organiser, table=table, scores={home.pk: 3, away.pk: 8})
        winners.append(away.pk)
    final_round = published_round(organiser, tournament)
    seated_final = {s.entrant_id for t in final_round.tables.all() for s in t.seats.all()}
    assert set(winners) <= seated_final


def test_table_schedule_sets_board_and_time_with_audit(organiser: Any, tac: Any, other_user: Any) -> None:
    table = published_round(organiser, tac).tables.first()
    when = datetime.datetime(2026, 11, 22, 14, 0, tzinfo=datetime.UTC)
    table = services.table_schedule(actor=organiser, table=table, physical_table=" Board  7 ", starts_at=when)
    assert (table.physical_table, table.starts_at) == ("Board 7", when)
    assert AuditLog.objects.filter(action="table_scheduled", object_id=table.pk).exists()
    with pytest.raises(TournamentError, match="40 characters"):
        services.table_schedule(actor=organiser, table=table, physical_table="x" * 41)
    with pytest.raises(TournamentError) as info:
        services.table_schedule(actor=other_user, table=table, physical_table="B")
    assert info.value.code == "permission_denied"


def test_forbidden_pairs_are_stored_once_and_reach_the_pairing(organiser: Any, tac: Any) -> None:
    first, second, *_ = list(tac.entrants.order_by("pk"))
    services.forbidden_pair_add(actor=organiser, tournament=tac, first=second, second=first)
    services.forbidden_pair_add(actor=organiser, tournament=tac, first=first, second=second)
    assert ForbiddenPair.objects.filter(tournament=tac).count() == 1
    request = services.pairing_request_build(tac)
    assert frozenset((first.pk, second.pk)) in request.forbidden_pairs
    round_ = services.round_generate(actor=organiser, tournament=tac)
    together = [
        {s.entrant_id for s in t.seats.all()} for t in round_.tables.all()
    ]
    assert {first.pk, second.pk} not in together
    with pytest.raises(TournamentError, match="different"):
        services.forbidden_pair_add(actor=organiser, tournament=tac, first=first, second=first)
    other = make_tournament(organiser, entrants=2, name="Other")
    with pytest.raises(TournamentError, match="belong"):
        services.forbidden_pair_add(actor=organiser, tournament=tac, first=first,
                                    second=other.entrants.first())
    services.forbidden_pair_remove(actor=organiser, pair=ForbiddenPair.objects.get(tournament=tac))
    assert not ForbiddenPair.objects.filter(tournament=tac).exists()


def test_boards_are_assigned_with_accessibility_and_start_times(organiser: Any) -> None:
    from rest_framework.test import APIClient

    tournament = make_tournament(organiser, entrants=6)
    services.board_add(actor=organiser, tournament=tournament, name="Board 1")
    services.board_add(actor=organiser, tournament=tournament, name="Board 2")
    services.board_add(actor=organiser, tournament=tournament, name="Ramp", accessible=True)
    with pytest.raises(TournamentError, match="already"):
        services.board_add(actor=organiser, tournament=tournament, name="Board 1")
    needy = tournament.entrants.order_by("pk").last()
    services.entrant_accessibility_set(actor=organiser, entrant=needy, needs_accessible_table=True)
    round_ = published_round(organiser, tournament)
    start = datetime.datetime(2026, 11, 22, 13, 30, tzinfo=datetime.UTC)
    services.round_assign_boards(actor=organiser, round=round_, start=start)
    tables = list(round_.tables.filter(is_bye=False).prefetch_related("seats"))
    assert sorted(t.physical_table for t in tables) == ["Board 1", "Board 2", "Ramp"]
    needy_table = next(t for t in tables if needy.pk in {s.entrant_id for s in t.seats.all()})
    assert needy_table.physical_table == "Ramp"
    assert all(t.starts_at == start for t in tables)
    with pytest.raises(TournamentError, match="time zone"):
        services.round_assign_boards(actor=organiser, round=round_, start=datetime.datetime(2026, 11, 22, 13, 30))

    api = APIClient()
    feed = api.get(f"/api/tournaments/{tournament.slug}/calendar.ics")
    assert feed.status_code == 200 and feed["Content-Type"].startswith("text/calendar")
    assert feed.content.decode().count("BEGIN:VEVENT") == 3
    mine = api.get(f"/api/tournaments/{tournament.slug}/entrants/{needy.pk}/calendar.ics").content.decode()
    assert mine.count("BEGIN:VEVENT") == 1 and "Ramp" in mine
    assert api.get(f"/api/tournaments/{tournament.slug}/entrants/999999/calendar.ics").status_code == 404


def test_too_few_boards_is_a_clear_error(organiser: Any) -> None:
    tournament = make_tournament(organiser, entrants=4)
    services.board_add(actor=organiser, tournament=tournament, name="Only one")
    round_ = published_round(organiser, tournament)
    with pytest.raises(TournamentError, match="boards") as info:
        services.round_assign_boards(actor=organiser, round=round_)
    assert info.value.code == "invalid_input"
