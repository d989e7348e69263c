"""The board in words (games.replay.describe): each player's marbles counted from their own start, and
a move in the same words, so a screen-reader user can follow the position the picture shows."""

from __future__ import annotations

from typing import Any

import pytest

from games.replay.describe import describe_move, describe_position
from tests.games.test_replay_svg import tac_snapshot

NAMES = ["Tanja Wyss", "Julia Baumann", "Urs Kaufmann", "Kurt Steiner"]


def test_each_player_marbles_prefield_track_counted_from_own_start_and_home() -> None:
    lines = describe_position(tac_snapshot(), NAMES)
    assert lines == [
        "Tanja Wyss: 1 in the prefield; on the track on the start field (protected), 62 fields after the start; "
        "in home 4.",
        "Julia Baumann: 3 in the prefield; on the track 2 fields after the start.",
        "Urs Kaufmann: 2 in the prefield; none on the track; in home 3, 4.",
        "Kurt Steiner: 4 in the prefield; none on the track.",
        "Julia Baumann plays next.",
    ]


def test_a_move_in_the_same_words() -> None:
    # Julia's marble 3 fields after her start (field 19) went 7 forward ... into home 2 is the example;
    # here Tanja's marble from 62 goes 3 forward into home 1, and Julia's from 18 (2 after her start) 4 on.
    after = tac_snapshot(marbles=[[0, "H0:1", "H0:4"], [22], ["H2:3", "H2:4"], []])
    action = {"seat": 0, "card": "7", "moves": [[62, "H0:1"], [18, 22]]}
    assert describe_move(action, after, NAMES) == (
        "Tanja Wyss: 7, marble 62 fields after the start, 3 forward into home 1, "
        "Julia Baumann's marble 2 fields after the start, 4 forward to 6 fields after the start"
    )
    back = tac_snapshot(marbles=[[0, 58, "H0:4"], [18], ["H2:3", "H2:4"], []])
    assert describe_move({"seat": 0, "card": "4", "moves": [[62, 58]]}, back, NAMES) == (
        "Tanja Wyss: 4, marble 62 fields after the start, 4 back to 58 fields after the start"
    )
    assert describe_move({"seat": 1, "card": "13", "enter": True}, tac_snapshot(), NAMES) == (
        "Julia Baumann: 13, a marble from the prefield onto the start field"
    )
    swapped = describe_move({"seat": 0, "card": "trickser", "swap": [62, 18]}, tac_snapshot(), NAMES, after=False)
    assert swapped == ("Tanja Wyss: trickser, Tanja Wyss's marble 62 fields after the start swaps places with "
                       "Julia Baumann's marble 2 fields after the start")


def test_translated_words_and_other_games() -> None:
    texts: dict[str, Any] = {"prefield": "{n} im Vorfeld", "no_track": "keine auf der Bahn",
                             "line": "{name}: {parts}.", "plays": "{name} ist am Zug.", "home": "im Ziel {slots}",
                             "track": "auf der Bahn {where}", "fields_after": "{n} Felder nach dem Start",
                             "protected": "auf dem Startfeld (geschützt)"}
    lines = describe_position(tac_snapshot(), NAMES, texts)
    assert lines[0] == "Tanja Wyss: 1 im Vorfeld; auf der Bahn auf dem Startfeld (geschützt), 62 Felder nach dem Start; im Ziel 4."
    assert lines[-1] == "Julia Baumann ist am Zug."
    broken = {"prefield": "{count} im Vorfeld"}  # a translation with a wrong placeholder falls back to English
    assert describe_position(tac_snapshot(), NAMES, broken)[0].startswith("Tanja Wyss: 1 in the prefield;")
    assert describe_position({"kind": "taki"}, NAMES) == []
    assert describe_move({"seat": 0, "card": "7"}, {"kind": "taki"}, NAMES) == ""


@pytest.mark.django_db
def test_scoresheet_and_replay_pages_show_the_board_in_words(organiser: Any, settings: Any) -> None:
    """Beside the board: each player's marbles and the last move in words; each move tap is described."""
    import re

    from django.test import Client

    from games.models import Scoresheet
    from rules import scoresheet
    from tests.games.conftest import one_table_tournament, random_record, relabel
    from tests.games.scoresheet_support import public_entries
    from tests.tournaments.conftest import seated_entrants

    settings.SCORESHEET_THROTTLE_RATE = "100000/min"
    tournament, table = one_table_tournament(organiser, "tac", {})
    record = relabel(random_record("tac", {}, seed=31), table)
    entries = public_entries(record)
    entries = entries[: next(i for i, e in enumerate(entries) if "card" in e) + 6]
    state = scoresheet.sheet_start(game="tac", variant={}, players=sorted(record["players"], key=lambda p: p["seats"][0]),
                                   dealer=record["deals"][0]["dealer"])
    for entry in entries:
        state = scoresheet.sheet_add(state, entry)
    Scoresheet.objects.create(tournament=tournament, table=table, game="tac", variant={}, state=state,
                              players=record["players"], version=2, entries=len(entries))
    url = f"/report/{seated_entrants(table)[0].report_token}/tables/{table.pk}/scoresheet/"
    page = Client().get(url).content.decode()
    words = re.search(r'<div class="board-words".*?</div>', page, re.S)
    assert words, "the board in words is beside the picture"
    names = [p["name"] for p in sorted(record["players"], key=lambda p: p["seats"][0])]
    for name in names:
        assert f"<li>{name}: " in words.group(0)
    assert "in the prefield" in words.group(0) and "plays next." in words.group(0)
    # A card tapped: the moves offered are described (aria-describedby -> an id that exists).
    card_tap = re.search(r'<a class="tap tap-card" href="([^"]+)"', page)
    assert card_tap
    chosen = Client().get(card_tap.group(1).replace("&amp;", "&")).content.decode()
    described = re.findall(r'aria-describedby="(tap-words-\d+)"', chosen)
    assert described, "the move taps carry their words"
    for ident in described:
        assert f'id="{ident}"' in chosen
    assert re.search(r'id="tap-words-\d+">[^<]*(forward|back|onto the start field)', chosen)
