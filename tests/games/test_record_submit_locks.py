"""A record POSTed for a table of a published round waits for no tournament lock (issue 26, fourth pass):
while a verification batch stores its verdicts and settles other tables under the tournament lock, the
POSTs of the room's other tables go on. A draft round's table is still read again under the lock."""

from __future__ import annotations

import json
import time
from typing import Any

import pytest
from django.db import connection
from rest_framework.test import APIClient

from games.models import GameRecord
from tests.games.conftest import random_record, relabel
from tests.held_elsewhere import held_elsewhere
from tests.tournaments.conftest import make_tournament, published_round, seated_entrants
from tournaments.services.locking import lock_tournament


@pytest.fixture
def postgres(require_services: None) -> None:
    assert connection.vendor == "postgresql"


def _post(table: Any, seed: int) -> Any:
    client = APIClient()
    client.credentials(HTTP_X_REPORT_TOKEN=seated_entrants(table)[0].report_token)
    record = relabel(random_record("tac", {}, seed=seed), table)
    return client.post(f"/api/tables/{table.pk}/records/", data=json.dumps(record), content_type="application/json")


@pytest.mark.services
@pytest.mark.django_db(transaction=True)
def test_a_record_is_stored_while_the_tournament_is_locked(postgres: None, monkeypatch: pytest.MonkeyPatch) -> None:
    from django.contrib.auth import get_user_model

    from games import services

    queued: list[tuple[Any, ...]] = []  # the verification (eager in tests) would wait for the lock itself
    monkeypatch.setattr(services, "_enqueue", lambda *task: queued.append(task))

    organiser = get_user_model().objects.create_user("org-records-lock")
    tournament = make_tournament(organiser, game="tac", entrants=4, name="Lock Cup")
    one, two = published_round(organiser, tournament).tables.filter(is_bye=False).order_by("number")

    def take() -> None:  # a second connection: what a verification batch holds while it settles a table
        lock_tournament(tournament.pk)
        list(type(two).objects.select_for_update(no_key=True).filter(pk=two.pk))

    with held_elsewhere(take) as released:
        started = time.monotonic()
        answer = _post(one, seed=1)
        waited = time.monotonic() - started
        still_held = not released.is_set()
    assert answer.status_code == 201, answer.json()
    assert still_held and waited < 5, waited  # it did not wait for the lock (held up to 15 s)
    assert GameRecord.objects.get(pk=answer.json()["id"]).table_id == one.pk
    assert all(task[:2] == ("record_verify", answer.json()["id"]) for task in queued), queued


@pytest.mark.services
@pytest.mark.django_db(transaction=True)
def test_a_draft_tables_record_still_waits_for_the_tournament(postgres: None) -> None:
    """The round of a draft table may be published or discarded meanwhile: that POST takes the lock and
    reads the table again, so it answers after the holder is done (here: refused, the round is a draft)."""
    from django.contrib.auth import get_user_model

    from tournaments import services

    organiser = get_user_model().objects.create_user("org-records-draft")
    tournament = make_tournament(organiser, game="tac", entrants=4, name="Draft Cup")
    draft = services.round_generate(actor=organiser, tournament=tournament)
    table = draft.tables.filter(is_bye=False).order_by("number").first()

    with held_elsewhere(lambda: lock_tournament(tournament.pk), seconds=1.0):
        started = time.monotonic()
        client = APIClient()
        client.force_authenticate(organiser)
        record = relabel(random_record("tac", {}, seed=2), table)
        answer = client.post(f"/api/tables/{table.pk}/records/", data=json.dumps(record),
                             content_type="application/json")
        waited = time.monotonic() - started
    assert answer.status_code == 409 and answer.json()["error"]["code"] == "round_not_published", answer.json()
    assert waited >= 0.5, waited  # it waited for the holder's lock
    assert not GameRecord.objects.filter(table=table).exists()
