"""The entrant CSV import reads standard CSV (issue 29): quoted fields with the delimiter, doubled quotes,
newlines and a byte order mark, whatever the header row looks like."""

from __future__ import annotations

from typing import Any

import pytest

from tests.tournaments.conftest import make_tournament
from tournaments import services

pytestmark = pytest.mark.django_db

HOSTILE = [
    ('"He said ""hi"""', 'He said "hi"'),
    ('"Smith, ""Jr."", and Co"', 'Smith, "Jr.", and Co'),
    ('"Two\nlines"', "Two lines"),
    ('"=cmd|\' /C calc\'!A0"', "=cmd|' /C calc'!A0"),
    ('"""quoted"""', '"quoted"'),
    ("O'Brien", "O'Brien"),
    ('"semi;colon"', "semi;colon"),
]


@pytest.mark.parametrize("delimiter", [",", ";", "\t"])
@pytest.mark.parametrize("bom", ["", "\ufeff"])
def test_hostile_names_are_read_as_written(organiser: Any, delimiter: str, bom: str) -> None:
    tournament = make_tournament(organiser, game="taki", entrants=0)
    lines = [f"name{delimiter}club"]
    for i, (raw, _expected) in enumerate(HOSTILE):
        raw = raw if delimiter != ";" or raw.startswith('"') else f'"{raw}"'
        lines.append(f'{raw}{delimiter}"Club {i}, ""the"" one"')
    imported = services.entrants_import_csv(actor=organiser, tournament=tournament,
                                            csv_text=bom + "\r\n".join(lines) + "\r\n")
    assert [e.name for e in imported] == [expected for _raw, expected in HOSTILE]
    assert [e.club.name for e in imported] == [f'Club {i}, "the" one' for i in range(len(HOSTILE))]


def test_a_quoted_field_with_a_comma_is_not_an_extra_column(organiser: Any) -> None:
    tournament = make_tournament(organiser, entrants=0)
    imported = services.entrants_import_csv(
        actor=organiser, tournament=tournament,
        csv_text='name,players\n"A ""B"", C","p ""one"", x;p2"\n')
    assert imported[0].name == 'A "B", C'
    assert sorted(m.player.name for m in imported[0].members.select_related("player")) == ['p "one", x', "p2"]
