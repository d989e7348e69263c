"""`demo` (idempotent) and `simulate_tournament` (every game shape and format, JSON last line);
the standings task and the reconciler."""

from __future__ import annotations

import io
import json
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command

from tournaments import services
from tournaments.models import Round, StandingRow, Tournament
from tournaments.tasks import standings_recompute, standings_reconcile

pytestmark = pytest.mark.django_db


def simulate(*args: str) -> dict[str, Any]:
    out = io.StringIO()
    call_command("simulate_tournament", *args, stdout=out)
    return json.loads(out.getvalue().strip().splitlines()[-1])


def test_demo_creates_a_played_tac_swiss_once() -> None:
    call_command("demo", stdout=io.StringIO())
    call_command("demo", stdout=io.StringIO())
    tournament = Tournament.objects.get(slug="tac-club-cup")
    assert Tournament.objects.filter(name="TAC Club Cup").count() == 1
    assert tournament.entrants.count() == 16
    assert tournament.rounds.filter(status=Round.Status.FINISHED).count() == 3
    assert StandingRow.objects.filter(tournament=tournament).count() == 16
    tournament.refresh_from_db()
    assert tournament.standings_version == tournament.results_version > 0
    organiser = get_user_model().objects.get(username="organiser")
    assert organiser.check_password("demo-organiser")
    assert tournament.organisers.filter(pk=organiser.pk).exists()


def test_simulate_tac_swiss_reports_the_figures() -> None:
    figures = simulate("--game", "tac", "--entrants", "16", "--rounds", "3", "--format", "swiss", "--json")
    assert figures["entrants"] == 16 and figures["rounds"] == 3
    assert figures["tables_per_round"] == [8, 8, 8]
    assert figures["byes"] == [0, 0, 0]
    assert figures["rematches"] == 0
    assert len(figures["pairing_seconds"]) == len(figures["standings_seconds"]) == 3


@pytest.mark.parametrize(
    "args",
    [
        ["--game", "tactik", "--variant", '{"seats": 6}', "--entrants", "10", "--rounds", "2"],
        ["--game", "tock", "--variant", '{"mode": "ffa", "seats": 5}', "--entrants", "11", "--rounds", "2"],
        ["--game", "tock", "--variant", '{"mode": "teams", "seats": 6}', "--entrants", "9", "--rounds", "2"],
        ["--game", "taki", "--variant", '{"seats": 3}', "--entrants", "9", "--format", "round_robin"],
        ["--game", "zack", "--entrants", "8", "--rounds", "2"],
        ["--game", "tac", "--entrants", "6", "--format", "knockout"],
        ["--game", "tac", "--entrants", "8", "--format", "stages", "--rounds", "2", "--knockout-size", "4"],
        ["--game", "tac", "--entrants", "8", "--format", "stages", "--groups", "2", "--knockout-size", "4"],
    ],
)
def test_simulate_every_shape_and_format(args: list[str]) -> None:
    figures = simulate(*args, "--json")
    assert figures["rounds"] >= 1
    assert len(figures["tables_per_round"]) == figures["rounds"]
    assert all(t >= 1 for t in figures["tables_per_round"])


def test_simulate_refuses_bad_options() -> None:
    with pytest.raises(CommandError, match="seats"):
        simulate("--game", "tactik", "--variant", '{"seats": 5}')
    with pytest.raises(CommandError, match="JSON"):
        simulate("--game", "tac", "--variant", "{seats")
    with pytest.raises(CommandError, match="entrants"):
        simulate("--game", "tac", "--entrants", "1")


def test_standings_task_is_idempotent_and_the_reconciler_catches_stale_tournaments(organiser: Any) -> None:
    simulate("--game", "tac", "--entrants", "8", "--rounds", "2", "--json")
    tournament = Tournament.objects.latest("pk")
    first = list(StandingRow.objects.filter(tournament=tournament).values_list("entrant_id", "rank", "values"))
    standings_recompute.apply(args=[tournament.pk])
    again = list(StandingRow.objects.filter(tournament=tournament).values_list("entrant_id", "rank", "values"))
    assert first == again
    StandingRow.objects.filter(tournament=tournament).delete()
    Tournament.objects.filter(pk=tournament.pk).update(standings_version=0)
    assert standings_reconcile.apply().get() == [tournament.pk]
    tournament.refresh_from_db()
    assert tournament.standings_version == tournament.results_version
    restored = list(StandingRow.objects.filter(tournament=tournament).values_list("entrant_id", "rank", "values"))
    assert restored == first
    assert standings_recompute.apply(args=[999999]).get() is None
    assert services.standings_compute(tournament)


def test_beat_schedule_names_a_registered_task() -> None:
    from django.conf import settings

    from config.celery import app

    app.loader.import_default_modules()
    for entry in settings.CELERY_BEAT_SCHEDULE.values():
        assert entry["task"] in app.tasks
    assert standings_recompute.acks_late and standings_recompute.reject_on_worker_lost
