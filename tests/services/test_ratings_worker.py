"""Ratings computed by a real Celery worker over RabbitMQ, on PostgreSQL: a confirmed result enqueues
ratings_recompute on commit (tournaments.services.results_final), the worker applies it, and the
stored stream equals a from-scratch recomputation."""

from __future__ import annotations

import time
from typing import Any

import pytest
from django.contrib.auth import get_user_model

from tournaments import services
from tournaments.models import Player
from tournaments.rankings.models import PlayerRating, RatedGame, RatingEvent
from tournaments.rankings.services import ratings_out_of_date, ratings_rebuild

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]


def _snapshot() -> list[tuple[Any, ...]]:
    return list(RatingEvent.objects.filter(pool="tac").order_by("key", "player_id").values_list(
        "key", "player_id", "mu_before", "sigma_before", "mu_after", "sigma_after"))


def _wait_for_games(count: int, timeout: float = 60) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if RatedGame.objects.filter(pool="tac").count() == count:
            return
        time.sleep(0.2)
    raise AssertionError(f"{RatedGame.objects.filter(pool='tac').count()} rated games, expected {count}")


def test_a_confirmed_result_updates_ratings_through_the_worker(worker_factory: Any) -> None:
    worker_factory()
    organiser = get_user_model().objects.create_user("org-ratings")
    tournament = services.tournament_create(actor=organiser, name="Rated Cup", game="tac")
    for i in range(4):
        services.entrant_register(actor=organiser, tournament=tournament, name=f"R{i}",
                                  player_names=[f"r{i}a", f"r{i}b"], seed=i + 1)
    round_ = services.round_publish(actor=organiser, round=services.round_generate(actor=organiser,
                                                                                  tournament=tournament))
    table = round_.tables.order_by("number").first()
    assert table is not None
    seats = list(table.seats.order_by("position").select_related("entrant"))
    first, second = seats[0].entrant, seats[1].entrant
    result = services.result_report(table=table, token=first.report_token, scores={first.pk: 8, second.pk: 2})
    services.result_confirm(result=result, token=second.report_token)
    _wait_for_games(1)
    winners = Player.objects.filter(memberships__entrant=first)
    for rating in PlayerRating.objects.filter(pool="tac", player__in=winners):
        assert rating.games == 1 and rating.mu > 25.0

    # A correction by the organiser is replayed by the worker too.
    services.result_override(actor=organiser, table=table, scores={first.pk: 3, second.pk: 8})
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline and PlayerRating.objects.filter(
            pool="tac", player__in=winners, mu__gt=25.0).exists():
        time.sleep(0.2)
    assert not PlayerRating.objects.filter(pool="tac", player__in=winners, mu__gt=25.0).exists()
    assert ratings_out_of_date() == []
    incremental = _snapshot()
    ratings_rebuild(pool="tac")
    assert _snapshot() == incremental
