"""The hall display's live boards (issue 30, games/scoresheet/hall.py): the open scoresheets of the current
round as board positions, never a hand; their own ETag (an entry does not bump the tournament's version)."""

from __future__ import annotations

import json
import re
from typing import Any

import pytest
from django.test import Client

from games.models import Scoresheet
from games.scoresheet.hall import public_position
from tests.games.conftest import one_table_tournament, random_record, relabel
from tests.games.scoresheet_support import public_entries
from tests.tournaments.conftest import seated_entrants

pytestmark = pytest.mark.django_db

CARD_IN_HAND = re.compile(r'class="[^"]*\bhand(-card)?\b')


def _sheet_with_entries(organiser: Any, settings: Any, count: int) -> dict[str, Any]:
    settings.SCORESHEET_THROTTLE_RATE = "100000/min"
    tournament, table = one_table_tournament(organiser, "tac", {})
    record = relabel(random_record("tac", {}, seed=31), table)
    entries = public_entries(record)
    url = f"/report/{seated_entrants(table)[0].report_token}/tables/{table.pk}/scoresheet/"
    keeper = Client()
    keeper.post(url, {"action": "start", "dealer": record["deals"][0]["dealer"]})
    sheet = Scoresheet.objects.get(table=table)
    for index in range(count):
        keeper.post(url, {"action": "add", "sheet": sheet.pk, "version": index + 1, "entry": json.dumps(entries[index])})
    sheet.refresh_from_db()
    assert sheet.version == count + 1
    return {"tournament": tournament, "table": table, "sheet": sheet, "entries": entries, "url": url,
            "keeper": keeper, "boards": f"/t/{tournament.slug}/hall/boards/"}


def test_the_hall_shows_the_board_and_follows_the_entries(organiser: Any, settings: Any) -> None:
    case = _sheet_with_entries(organiser, settings, 3)
    tournament, sheet = case["tournament"], case["sheet"]
    version_before = type(tournament).objects.get(pk=tournament.pk).public_version
    wall = Client()
    first = wall.get(case["boards"])
    assert first.status_code == 200 and first["ETag"]
    html = first.content.decode()
    assert f'data-sheet="{sheet.pk}" data-version="4"' in html and "<svg" in html
    assert not CARD_IN_HAND.search(html)
    assert wall.get(case["boards"], HTTP_IF_NONE_MATCH=first["ETag"]).status_code == 304
    case["keeper"].post(case["url"], {"action": "add", "sheet": sheet.pk, "version": 4,
                                      "entry": json.dumps(case["entries"][3])})
    assert type(tournament).objects.get(pk=tournament.pk).public_version == version_before  # issue 26
    later = wall.get(case["boards"], HTTP_IF_NONE_MATCH=first["ETag"])
    assert later.status_code == 200 and later["ETag"] != first["ETag"]
    assert f'data-sheet="{sheet.pk}" data-version="5"' in later.content.decode()
    assert later.content != first.content
    hall = wall.get(f"/t/{tournament.slug}/hall/").content.decode()
    assert f'data-hall-boards="/t/{tournament.slug}/hall/boards/"' in hall


def test_no_hand_reaches_the_hall(organiser: Any, settings: Any, monkeypatch: Any) -> None:
    """Even a position that carries hands (a trace snapshot does) is drawn without them."""
    from games.scoresheet import hall

    case = _sheet_with_entries(organiser, settings, 2)
    seen: list[dict[str, Any]] = []
    real = hall.render_svg

    def spy(snapshot: Any, **kwargs: Any) -> str:
        seen.append(snapshot)
        return real(snapshot, **kwargs)

    monkeypatch.setattr(hall, "render_svg", spy)
    assert Client().get(case["boards"]).status_code == 200
    assert seen and all("hands" not in snapshot and "hand" not in snapshot for snapshot in seen)
    assert public_position({"kind": "taki", "hands": [["g1"]], "hand": ["r2"], "stock_count": 3}) == {
        "kind": "taki", "stock_count": 3}


def test_private_tournaments_stay_hidden(organiser: Any, settings: Any) -> None:
    case = _sheet_with_entries(organiser, settings, 1)
    type(case["tournament"]).objects.filter(pk=case["tournament"].pk).update(is_public=False)
    assert Client().get(case["boards"]).status_code == 404
    owner = Client()
    owner.force_login(organiser)
    assert owner.get(case["boards"]).status_code == 200


def test_an_empty_hall_says_so(organiser: Any, settings: Any) -> None:
    tournament, _table = one_table_tournament(organiser, "tac", {})
    answer = Client().get(f"/t/{tournament.slug}/hall/boards/")
    assert answer.status_code == 200 and b'data-hall-boards-count="0"' in answer.content
