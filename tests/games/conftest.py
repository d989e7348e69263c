"""Fixtures for the games tests: a one-table tournament per game, random valid records relabelled to
the table's players."""

from __future__ import annotations

import copy
import random
from typing import Any

import pytest
from django.contrib.auth import get_user_model

from games.demo import table_players
from rules.core.registry import get_engine
from tests.tournaments.conftest import make_tournament, published_round, seated_entrants, user_for_entrant
from tournaments import services
from tournaments.models import Table, Tournament

# (game, tournament variant, record variant for random_record)
GAME_CASES = [
    ("tac", {}, {}),
    ("tactik", {"seats": 4}, {"seats": 4}),
    ("tactik", {"seats": 6}, {"seats": 6}),
    ("tock", {"mode": "ffa", "seats": 4}, {"mode": "ffa", "seats": 4}),
    ("tock", {"mode": "teams", "seats": 4}, {"mode": "teams", "seats": 4}),
    ("taki", {"seats": 4}, {"seats": 4}),
    ("zack", {"seats": 4}, {"seats": 4}),
]
CASE_IDS = ["tac", "tactik4", "tactik6", "tock-ffa", "tock-teams", "taki", "zack"]


@pytest.fixture
def organiser(db: Any) -> Any:
    return get_user_model().objects.create_user("org", password="org-password-1")


@pytest.fixture
def other_organiser(db: Any) -> Any:
    return get_user_model().objects.create_user("org2", password="org2-password-1")


def one_table_tournament(organiser: Any, game: str, variant: dict[str, Any], **kwargs: Any) -> tuple[Tournament, Table]:
    """A tournament with exactly one table's worth of entrants and its first round published."""
    from tournaments.profiles import profile_for

    profile = profile_for(game, variant)
    tournament = make_tournament(organiser, game=game, variant=variant, entrants=profile.entrants_per_table,
                                 name=kwargs.pop("name", f"{game} cup"), **kwargs)
    round_ = published_round(organiser, tournament)
    table = round_.tables.get(number=1)
    return tournament, table


def relabel(record: dict[str, Any], table: Table) -> dict[str, Any]:
    """Give the record's seats to the table's players (see games.demo.table_players)."""
    record = copy.deepcopy(record)
    record["players"] = table_players(table)
    return record


def random_record(game: str, variant: dict[str, Any], seed: int) -> dict[str, Any]:
    return get_engine(game).random_record(dict(variant), random.Random(seed))


__all__ = ["GAME_CASES", "CASE_IDS", "one_table_tournament", "relabel", "random_record", "seated_entrants",
           "user_for_entrant", "services"]


@pytest.fixture
def german_entry() -> Any:
    """Add one entry to the German catalogue for the test (for msgids the integrator has not translated yet)."""
    from django.utils.translation import trans_real

    added: list[str] = []

    def add(msgid: str, msgstr: str) -> None:
        trans_real.translation("de")._catalog._catalogs[0][msgid] = msgstr
        added.append(msgid)

    yield add
    for msgid in added:
        trans_real.translation("de")._catalog._catalogs[0].pop(msgid, None)
