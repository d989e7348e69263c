"""A scoresheet's state (`games.json_fields.TextJSONField`): plain text on PostgreSQL since issue 26's fifth
pass, written by orjson and read back as the same values on every database, through the ORM and the
sheet's own read (`games.scoresheet.rows.sheet_read`)."""

from __future__ import annotations

from typing import Any

import pytest
from django.db import connection

from games.models import Scoresheet
from games.scoresheet.rows import guarded_write, sheet_read
from tests.tournaments.conftest import make_tournament, published_round

pytestmark = pytest.mark.django_db

# What a state can hold: nesting, non-ASCII text and escapes, numbers of every kind JSON has, null and
# booleans, an empty object and array, and an integer beyond 64 bits (orjson writes none: `json` does).
STATE: dict[str, Any] = {
    "format": "scoresheet/1", "game": "tac", "variant": {}, "dealer": 3,
    "players": [{"name": "Zoë \"Z\" Ä", "seats": [0, 2]}, {"name": "שרה", "seats": [1, 3]}],
    "entries": [{"seat": 0, "card": "7", "moves": [{"marble": 1, "to": 12}, {"marble": 2, "to": 5}]},
                {"exchange": [["1", "T"], ["5", "J"]]}, {"note": "tab\t, newline\n, \\ and \u2603"}],
    "numbers": [0, -1, 1.5, 1e-7, 2**63 - 1], "flags": [True, False, None], "empty": [{}, []],
    "digest": "ab" * 32,
}
BIG = {**STATE, "huge": 2**70}


def _sheet(organiser: Any) -> Scoresheet:
    tournament = make_tournament(organiser, game="tac", entrants=4, name="Json Cup")
    table = published_round(organiser, tournament).tables.filter(is_bye=False).order_by("number").first()
    assert table is not None
    return Scoresheet.objects.create(tournament=tournament, table=table, game="tac", state=STATE)


@pytest.mark.parametrize("state", [STATE, BIG], ids=["state", "beyond-64-bits"])
def test_a_state_reads_back_as_written(organiser: Any, state: dict[str, Any]) -> None:
    sheet = _sheet(organiser)
    assert Scoresheet.objects.get(pk=sheet.pk).state == STATE
    guarded_write(sheet, sheet.version, state=state)
    assert Scoresheet.objects.get(pk=sheet.pk).state == state
    assert sheet_read(sheet.pk).state == state


def test_the_state_column_is_text_on_postgresql(organiser: Any) -> None:
    if connection.vendor != "postgresql":
        pytest.skip("SQLite keeps Django's JSON column")
    sheet = _sheet(organiser)
    with connection.cursor() as cursor:
        cursor.execute("SELECT data_type FROM information_schema.columns "
                       "WHERE table_name = 'games_scoresheet' AND column_name = 'state'")
        assert cursor.fetchone() == ("text",)
        cursor.execute("SELECT state FROM games_scoresheet WHERE id = %s", [sheet.pk])
        stored = cursor.fetchone()[0]
    assert isinstance(stored, str) and stored.startswith('{"format":"scoresheet/1"')  # orjson's compact text
