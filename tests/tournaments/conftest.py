"""Fixtures for the tournaments tests: users, tournaments with entrants, published rounds."""

from __future__ import annotations

from typing import Any

import pytest
from django.contrib.auth import get_user_model

from tournaments import services
from tournaments.models import Entrant, Player, Round, Table, Tournament


@pytest.fixture
def organiser(db: Any) -> Any:
    return get_user_model().objects.create_user("org", password="org-password-1")


@pytest.fixture
def other_user(db: Any) -> Any:
    return get_user_model().objects.create_user("someone", password="someone-password-1")


def make_tournament(organiser: Any, *, game: str = "tac", variant: dict | None = None, entrants: int = 4,
                    **kwargs: Any) -> Tournament:
    tournament = services.tournament_create(actor=organiser, name=kwargs.pop("name", "Test Cup"), game=game,
                                            variant=variant or {}, **kwargs)
    profile = services.tournament_profile(tournament)
    for i in range(1, entrants + 1):
        services.entrant_register(
            actor=organiser, tournament=tournament, name=f"Team {i:02d}",
            player_names=[f"P{i}-{k}" for k in range(profile.players_per_entrant)], seed=i,
        )
    return tournament


def user_for_entrant(entrant: Entrant, username: str) -> Any:
    """Link the entrant's first player to a new login and return it."""
    user = get_user_model().objects.create_user(username, password=f"{username}-password-1")
    player = Player.objects.filter(memberships__entrant=entrant).order_by("memberships__position").first()
    assert player is not None
    player.user = user
    player.save()
    return user


def published_round(organiser: Any, tournament: Tournament) -> Round:
    round_ = services.round_generate(actor=organiser, tournament=tournament)
    return services.round_publish(actor=organiser, round=round_)


def first_table(round_: Round) -> Table:
    return round_.tables.filter(is_bye=False).order_by("number").first()  # type: ignore[return-value]


def seated_entrants(table: Table) -> list[Entrant]:
    return [seat.entrant for seat in table.seats.select_related("entrant").order_by("position")]


@pytest.fixture
def tac(organiser: Any) -> Tournament:
    return make_tournament(organiser)


def play_all_rounds(organiser: Any, tournament: Tournament) -> None:
    """Generate, publish and play every round the tournament offers; the better seed wins 8:4."""
    from tournaments.services.rounds import next_round_possible

    while True:
        tournament.refresh_from_db()
        if not next_round_possible(tournament):
            break
        round_ = services.round_publish(actor=organiser,
                                        round=services.round_generate(actor=organiser, tournament=tournament))
        for table in round_.tables.filter(is_bye=False).order_by("number"):
            seats = sorted(table.seats.select_related("entrant"), key=lambda s: s.entrant.seed)
            services.result_override(actor=organiser, table=table,
                                     scores={s.entrant_id: 8 if i == 0 else 4 for i, s in enumerate(seats)})
