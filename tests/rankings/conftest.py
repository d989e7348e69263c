"""Fixtures for the rankings tests: tournaments whose entrants are given players (so the same people
play in several tournaments), rounds played by organiser overrides."""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from typing import Any

import pytest
from django.contrib.auth import get_user_model

from tournaments import services
from tournaments.models import Club, Player, Round, Table, Tournament


@pytest.fixture
def organiser(db: Any) -> Any:
    return get_user_model().objects.create_user("org", password="org-password-1")


def make_players(count: int, *, prefix: str = "P", club: Club | None = None) -> list[Player]:
    return [Player.objects.create(name=f"{prefix}{i:03d}", club=club) for i in range(count)]


def tournament_with(organiser: Any, teams: Sequence[Sequence[Player]], *, game: str = "tac",
                    variant: dict[str, Any] | None = None, day: dt.date = dt.date(2026, 1, 10),
                    name: str = "Cup", **kwargs: Any) -> Tournament:
    tournament = services.tournament_create(actor=organiser, name=name, game=game, variant=variant or {},
                                            starts_on=day, **kwargs)
    for i, team in enumerate(teams, start=1):
        services.entrant_register(actor=organiser, tournament=tournament, name=f"E{i:02d} {name}",
                                  player_ids=[p.pk for p in team], seed=i)
    return tournament


def next_round(organiser: Any, tournament: Tournament) -> Round:
    return services.round_publish(actor=organiser, round=services.round_generate(actor=organiser,
                                                                                tournament=tournament))


def played_tables(round_: Round) -> list[Table]:
    return list(round_.tables.filter(is_bye=False).order_by("number"))


def seated(table: Table) -> list[int]:
    return list(table.seats.order_by("position").values_list("entrant_id", flat=True))


def play_scores(organiser: Any, table: Table, scores: Sequence[int], kind: str = "normal") -> None:
    ids = seated(table)
    services.result_override(actor=organiser, table=table, kind=kind, scores=dict(zip(ids, scores, strict=True)))


def play_placings(organiser: Any, table: Table, placings: Sequence[int], kind: str = "normal") -> None:
    ids = seated(table)
    services.result_override(actor=organiser, table=table, kind=kind,
                             placings=dict(zip(ids, placings, strict=True)))
