"""A record settles a table only if it is exactly the table's game: every variant key the record carries
counts (TAKI phase game or not, ZACK! basic or with the pros' Stopp cards, a TAC deal schedule)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from rest_framework.test import APIClient

from games.models import GameRecord
from games.services import _other_game
from games.variant_check import variant_differences
from tests.games.conftest import one_table_tournament, random_record, relabel

pytestmark = pytest.mark.django_db


def _post(client: APIClient, table_id: int, record: dict[str, Any], capture: Any) -> Any:
    with capture(execute=True):
        return client.post(f"/api/tables/{table_id}/records/", data=json.dumps(record),
                           content_type="application/json")


@pytest.mark.parametrize(("game", "table_variant", "record_variant", "key"), [
    ("taki", {"seats": 4}, {"seats": 4, "tournament": True}, "tournament"),
    ("zack", {"seats": 4}, {"seats": 4, "stop_cards": True}, "stop_cards"),
])
def test_a_record_of_another_game_is_refused_at_its_table(
    organiser: Any, django_capture_on_commit_callbacks: Any, game: str, table_variant: dict[str, Any],
    record_variant: dict[str, Any], key: str,
) -> None:
    _tournament, table = one_table_tournament(organiser, game, table_variant)
    record = relabel(random_record(game, record_variant, seed=2), table)
    assert record.get("variant", {}).get(key) is True
    client = APIClient()
    client.force_authenticate(organiser)
    response = _post(client, table.pk, record, django_capture_on_commit_callbacks)
    assert response.status_code == 422, response.json()  # the table's rules refuse it (tournaments/errors.py)
    error = response.json()["error"]
    assert error["code"] == "record_game_mismatch" and error["details"]["keys"] == [key]
    assert key in error["message"]
    assert not GameRecord.objects.exists()


def test_the_same_game_written_out_in_full_is_accepted(organiser: Any, django_capture_on_commit_callbacks: Any) -> None:
    _tournament, table = one_table_tournament(organiser, "zack", {"seats": 4})
    record = relabel(random_record("zack", {"seats": 4}, seed=4), table)
    record["variant"] = {**record.get("variant", {}), "stop_cards": False, "comment": "the basic game"}
    client = APIClient()
    client.force_authenticate(organiser)
    response = _post(client, table.pk, record, django_capture_on_commit_callbacks)
    assert response.status_code == 201, response.json()


def test_a_stored_record_of_another_game_settles_nothing(organiser: Any, django_capture_on_commit_callbacks: Any) -> None:
    # a record stored before the exact check (or a tournament whose variant changed): settlement says so
    tournament, table = one_table_tournament(organiser, "taki", {"seats": 4})
    record = relabel(random_record("taki", {"seats": 4}, seed=3), table)
    client = APIClient()
    client.force_authenticate(organiser)
    response = _post(client, table.pk, record, django_capture_on_commit_callbacks)
    assert response.status_code == 201
    row = GameRecord.objects.get(pk=response.json()["id"])
    assert _other_game(row) == []
    row.variant = {"seats": 4, "tournament": True}
    assert _other_game(row) == ["tournament"]


def test_variant_differences_reads_defaults() -> None:
    assert variant_differences("tac", {"master": False}, {}) == []
    assert variant_differences("tac", {"mode": "coop"}, {}) == ["mode"]
    assert variant_differences("tac", {"deal_sizes": [5, 5, 5, 5, 5]}, {}) == []  # the default, written out
    assert variant_differences("tock", {"seats": 4, "mode": "ffa"}, {"seats": 4, "mode": "ffa", "quick_start": False}) == []
    assert variant_differences("tock", {"seats": 4, "seven": "single"}, {"seats": 4}) == ["seven"]
