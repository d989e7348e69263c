"""Submitting and verifying a record costs the same number of queries whatever the table size (no N+1)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from rest_framework.test import APIClient

from tests.games.conftest import one_table_tournament, random_record, relabel
from tests.tournaments.conftest import seated_entrants

pytestmark = pytest.mark.django_db


def _queries(organiser: Any, seats: int, capture: Any) -> int:
    tournament, table = one_table_tournament(organiser, "taki", {"seats": seats}, name=f"Q{seats}")
    record = relabel(random_record("taki", {"seats": seats}, seed=1), table)
    client = APIClient()
    token = seated_entrants(table)[0].report_token
    with CaptureQueriesContext(connection) as queries, capture(execute=True):
        response = client.post(f"/api/tables/{table.pk}/records/", data=json.dumps(record),
                               content_type="application/json", HTTP_X_REPORT_TOKEN=token)
    assert response.status_code == 201
    with CaptureQueriesContext(connection) as reads:
        listing = client.get(f"/api/tournaments/{tournament.slug}/records/")
    assert listing.status_code == 200 and listing.json()["count"] == 1 and len(listing.json()["results"]) == 1
    return len(queries) + len(reads)


def test_submission_queries_do_not_grow_with_the_table(organiser: Any, django_capture_on_commit_callbacks: Any) -> None:
    small = _queries(organiser, 3, django_capture_on_commit_callbacks)
    large = _queries(organiser, 8, django_capture_on_commit_callbacks)
    assert large <= small + 2, (small, large)


def test_lists_and_import_progress_never_read_the_stored_texts(
    organiser: Any, django_capture_on_commit_callbacks: Any
) -> None:
    """A record's text is up to a megabyte and an import upload up to 50 MB: pages and API answers that
    list records or poll an import's progress select neither column."""
    from django.urls import reverse

    from games import services

    tournament, table = one_table_tournament(organiser, "taki", {"seats": 3}, name="Lists")
    record = relabel(random_record("taki", {"seats": 3}, seed=2), table)
    with django_capture_on_commit_callbacks(execute=True):
        batch = services.records_import(tournament=tournament, actor=organiser, filename="r.jsonl",
                                        data=json.dumps(record).encode())
    assert batch.items.get().record_id is not None
    client = APIClient()
    client.force_login(organiser)
    urls = [
        f"/api/tournaments/{tournament.slug}/records/",
        f"/api/tables/{table.pk}/records/",
        f"/api/tournaments/{tournament.slug}/records/conflicts/",
        f"/api/record-imports/{batch.pk}/",
        reverse("games:records", args=[tournament.slug]),
        reverse("games:table-records", args=[tournament.slug, table.pk]),
        reverse("games:records-import", args=[tournament.slug]),
        reverse("games:import-detail", args=[tournament.slug, batch.pk]),
        reverse("games:import-progress", args=[tournament.slug, batch.pk]),
    ]
    for url in urls:
        with CaptureQueriesContext(connection) as queries:
            assert client.get(url).status_code == 200, url
        sql = " ".join(query["sql"] for query in queries)
        assert '"games_gamerecord"."raw"' not in sql, url
        assert '"games_importbatch"."upload"' not in sql, url


def test_admin_changelists_never_read_the_stored_texts(django_capture_on_commit_callbacks: Any) -> None:
    from django.contrib.auth import get_user_model

    from games import services

    admin = get_user_model().objects.create_superuser("admin", password="admin-password-1")
    tournament, table = one_table_tournament(admin, "taki", {"seats": 3}, name="Admin")
    record = relabel(random_record("taki", {"seats": 3}, seed=3), table)
    with django_capture_on_commit_callbacks(execute=True):
        services.records_import(tournament=tournament, actor=admin, filename="r.jsonl", data=json.dumps(record).encode())
    client = APIClient()
    client.force_login(admin)
    for url in ["/admin/games/gamerecord/", "/admin/games/importbatch/"]:
        with CaptureQueriesContext(connection) as queries:
            assert client.get(url).status_code == 200, url
        sql = " ".join(query["sql"] for query in queries)
        assert '"games_gamerecord"."raw"' not in sql and '"games_importbatch"."upload"' not in sql, url


def test_a_running_imports_progress_poll_skips_the_item_report(organiser: Any) -> None:
    """The page polls every second while the batch runs and shows the per-record report only at the end."""
    from django.urls import reverse

    from games import services

    tournament, table = one_table_tournament(organiser, "taki", {"seats": 3}, name="Poll")
    record = relabel(random_record("taki", {"seats": 3}, seed=4), table)
    batch = services.records_import(tournament=tournament, actor=organiser, filename="r.jsonl",
                                    data=json.dumps(record).encode())  # queued: the task is not run
    client = APIClient()
    client.force_login(organiser)
    with CaptureQueriesContext(connection) as queries:
        response = client.get(reverse("games:import-progress", args=[tournament.slug, batch.pk]))
    assert response.status_code == 200 and "hx-trigger" in response.content.decode()
    assert not any("games_importitem" in query["sql"] for query in queries)


def test_an_import_post_answers_without_reading_the_upload_back(organiser: Any) -> None:
    tournament, table = one_table_tournament(organiser, "taki", {"seats": 3}, name="Post")
    record = relabel(random_record("taki", {"seats": 3}, seed=5), table)
    client = APIClient()
    client.force_login(organiser)
    with CaptureQueriesContext(connection) as queries:
        response = client.post(f"/api/tournaments/{tournament.slug}/records/import/?filename=r.jsonl",
                               data=json.dumps(record).encode(), content_type="application/octet-stream")
    assert response.status_code == 202, response.content
    assert not any('"games_importbatch"."upload"' in query["sql"] for query in queries)
