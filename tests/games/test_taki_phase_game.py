"""Issue 13: the TAKI phase game ("TAKI-TURNIER") as a tournament: its tables expect phase records and a
record settles by the phase reached (lower is better), then by cards in hand."""

from __future__ import annotations

import json
from typing import Any

from rest_framework.test import APIClient

from games.models import GameRecord
from tests.games.conftest import one_table_tournament, random_record, relabel

PHASES = {"seats": 4, "tournament": True}


def _post(client: APIClient, table_id: int, record: dict[str, Any], capture: Any) -> Any:
    with capture(execute=True):
        return client.post(f"/api/tables/{table_id}/records/", data=json.dumps(record),
                           content_type="application/json")


def test_phase_record_settles_by_phase_then_cards(organiser: Any, django_capture_on_commit_callbacks: Any) -> None:
    tournament, table = one_table_tournament(organiser, "taki", PHASES)
    assert tournament.variant == PHASES
    record = relabel(random_record("taki", PHASES, seed=2), table)  # winners [0], phases [1, 4, 5, 3]
    assert record["result"] == {"winners": [0], "phases": [1, 4, 5, 3]}
    client = APIClient()
    client.force_authenticate(organiser)
    response = _post(client, table.pk, record, django_capture_on_commit_callbacks)
    assert response.status_code == 201, response.json()
    row = GameRecord.objects.get(pk=response.json()["id"])
    seats = list(table.seats.order_by("position").values_list("entrant_id", flat=True))
    assert row.settlement == "settled"
    assert row.derived_table_result["placings"] == {str(seats[0]): 1, str(seats[3]): 2, str(seats[1]): 3,
                                                    str(seats[2]): 4}


def test_phase_table_refuses_a_plain_taki_record(organiser: Any, django_capture_on_commit_callbacks: Any) -> None:
    _tournament, table = one_table_tournament(organiser, "taki", PHASES)
    record = relabel(random_record("taki", {"seats": 4}, seed=3), table)
    client = APIClient()
    client.force_authenticate(organiser)
    response = _post(client, table.pk, record, django_capture_on_commit_callbacks)
    assert response.status_code == 422 and response.json()["error"]["code"] == "record_game_mismatch"
