"""Fixtures for the web UI tests: an organiser, a TAC Swiss with entrants, a published round."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from django.contrib.auth import get_user_model

from tournaments.models import Entrant, Player, Round, StandingRow, Tournament
from tournaments.services.entrants import entrant_register
from tournaments.services.rounds import round_generate, round_publish
from tournaments.services.tournaments import tournament_create

PASSWORD = "correct-horse-battery"


@pytest.fixture
def organiser(db: Any) -> Any:
    return get_user_model().objects.create_user("orga", password=PASSWORD)


@pytest.fixture
def stranger(db: Any) -> Any:
    return get_user_model().objects.create_user("stranger", password=PASSWORD)


@pytest.fixture
def tac_tournament(organiser: Any) -> Tournament:
    tournament = tournament_create(
        actor=organiser, name="Spring Cup", game="tac", format="swiss", rounds_planned=3
    )
    for index in range(4):
        entrant_register(
            actor=organiser,
            tournament=tournament,
            name=f"Team {index + 1}",
            player_names=[f"Player {index + 1}a", f"Player {index + 1}b"],
            seed=index + 1,
        )
    return tournament


@pytest.fixture
def published_round(tac_tournament: Tournament, organiser: Any) -> Round:
    round_ = round_generate(actor=organiser, tournament=tac_tournament)
    return round_publish(actor=organiser, round=round_)


@pytest.fixture
def user_playing_for(db: Any) -> Callable[[Entrant, str], Any]:
    """A factory: a login linked to the entrant's first player."""
    return _user_playing_for


def _user_playing_for(entrant: Entrant, username: str) -> Any:
    user = get_user_model().objects.create_user(username, password=PASSWORD)
    player: Player = entrant.members.order_by("position").first().player  # type: ignore[union-attr]
    player.user = user
    player.save(update_fields=["user"])
    return user


def with_standings(tournament: Tournament, extra: int = 0) -> Tournament:
    """Standings rows for the tournament's entrants (and `extra` more entrants), ranked by seed."""
    for index in range(extra):
        Entrant.objects.create(tournament=tournament, name=f"Extra {index:03d}")
    entrants = list(tournament.entrants.order_by("pk"))
    StandingRow.objects.bulk_create(
        StandingRow(tournament=tournament, entrant=entrant, rank=rank, games_played=1,
                    values={"match_points": float(len(entrants) - rank)}, results_version=1)
        for rank, entrant in enumerate(entrants, start=1))
    Tournament.objects.filter(pk=tournament.pk).update(results_version=1, standings_version=1)
    return Tournament.objects.get(pk=tournament.pk)

