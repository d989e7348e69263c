"""Coalesced standings recomputation (issue 14): a burst of N results leads to one or two recomputations,
and the rows always equal a computation from scratch."""

from __future__ import annotations

from typing import Any

import pytest

from tests.tournaments.conftest import make_tournament, published_round
from tournaments import services, tasks
from tournaments.models import StandingRow, Tournament
from tournaments.services import standings as standings_service

pytestmark = pytest.mark.django_db


def _rows(tournament: Tournament) -> list[tuple[int, int, dict]]:
    return [(r.entrant_id, r.rank, r.values) for r in StandingRow.objects.filter(tournament=tournament)
            .order_by("rank", "entrant_id")]


def _from_scratch(tournament: Tournament) -> list[tuple[int, int, dict]]:
    tournament.refresh_from_db()
    return sorted(((r.entrant_id, r.rank, dict(r.values)) for r in services.standings_compute(tournament)),
                  key=lambda row: (row[1], row[0]))


def _finalise(organiser: Any, table: Any, callbacks: Any) -> None:
    seats = list(table.seats.order_by("position").values_list("entrant_id", flat=True))
    with callbacks(execute=True):  # its own transaction, its on-commit request for a recomputation
        services.result_override(actor=organiser, table=table, kind="normal",
                                  scores={seats[0]: 8, seats[1]: 2}, winner=seats[0])


@pytest.fixture
def computations(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    done: list[int] = []
    real = standings_service.standings_recompute_locked

    def counting(tournament: Tournament) -> int:
        done.append(tournament.pk)
        return real(tournament)

    monkeypatch.setattr(standings_service, "standings_recompute_locked", counting)
    return done


def test_a_burst_of_results_is_one_recomputation(
    organiser: Any, monkeypatch: pytest.MonkeyPatch, computations: list[int], django_capture_on_commit_callbacks: Any
) -> None:
    tournament = make_tournament(organiser, entrants=16)
    tables = list(published_round(organiser, tournament).tables.filter(is_bye=False).order_by("number"))
    queued: list[int] = []
    monkeypatch.setattr(tasks.standings_recompute, "delay", queued.append)  # the broker: nothing runs yet
    for table in tables:
        _finalise(organiser, table, django_capture_on_commit_callbacks)
    assert queued == [tournament.pk]  # 8 results, one message: the later requests were absorbed
    tasks.standings_recompute(tournament.pk)  # the worker takes the message
    assert computations == [tournament.pk]
    assert _rows(tournament) and _rows(tournament) == _from_scratch(tournament)
    tournament.refresh_from_db()
    assert tournament.standings_version == tournament.results_version
    tasks.standings_recompute(tournament.pk)  # a duplicate message (redelivery, reconciler) does nothing
    assert computations == [tournament.pk]


def test_results_committed_while_a_run_is_running_get_a_second_run(
    organiser: Any, monkeypatch: pytest.MonkeyPatch, computations: list[int], django_capture_on_commit_callbacks: Any
) -> None:
    tournament = make_tournament(organiser, entrants=8)
    tables = list(published_round(organiser, tournament).tables.filter(is_bye=False).order_by("number"))
    queued: list[int] = []
    monkeypatch.setattr(tasks.standings_recompute, "delay", queued.append)
    _finalise(organiser, tables[0], django_capture_on_commit_callbacks)
    assert queued == [tournament.pk]
    real = standings_service.standings_compute
    arrived: list[bool] = []

    def slow_compute(tournament_row: Tournament) -> Any:
        rows = real(tournament_row)  # the run has read the results...
        if not arrived:  # ...when three more arrive: their requests are absorbed (the flag is held)
            arrived.append(True)
            for table in tables[1:]:
                _finalise(organiser, table, django_capture_on_commit_callbacks)
        return rows

    monkeypatch.setattr(standings_service, "standings_compute", slow_compute)
    tasks.standings_recompute(tournament.pk)
    assert queued == [tournament.pk]  # absorbed, not enqueued...
    assert computations == [tournament.pk, tournament.pk]  # ...and run again by the same task
    assert _rows(tournament) == _from_scratch(tournament)
    tournament.refresh_from_db()
    assert tournament.standings_version == tournament.results_version


def test_after_a_run_the_next_result_asks_again(
    organiser: Any, monkeypatch: pytest.MonkeyPatch, django_capture_on_commit_callbacks: Any
) -> None:
    tournament = make_tournament(organiser, entrants=4)
    tables = list(published_round(organiser, tournament).tables.filter(is_bye=False).order_by("number"))
    queued: list[int] = []
    monkeypatch.setattr(tasks.standings_recompute, "delay", queued.append)
    _finalise(organiser, tables[0], django_capture_on_commit_callbacks)
    tasks.standings_recompute(tournament.pk)
    _finalise(organiser, tables[1], django_capture_on_commit_callbacks)
    assert queued == [tournament.pk, tournament.pk]
