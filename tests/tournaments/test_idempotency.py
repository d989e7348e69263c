"""Idempotency-Key on result reports and decisions (issue 30): the same key from the same client writes
once and answers the same; another client's key is its own; refusals are replayed too; a bad key is 400."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from rest_framework.test import APIClient

from tests.tournaments.conftest import first_table, make_tournament, published_round, seated_entrants
from tournaments.models import IdempotentRequest, Result

pytestmark = pytest.mark.django_db


@pytest.fixture
def table(organiser: Any) -> Any:
    return first_table(published_round(organiser, make_tournament(organiser)))


def test_the_same_key_reports_once_through_the_api(table: Any) -> None:
    a, b = seated_entrants(table)[:2]
    api = APIClient()
    body = {"token": a.report_token, "scores": {str(a.pk): 8, str(b.pk): 6}}
    first = api.post(f"/api/tables/{table.pk}/report/", body, format="json", HTTP_IDEMPOTENCY_KEY="tap-000001")
    again = api.post(f"/api/tables/{table.pk}/report/", body, format="json", HTTP_IDEMPOTENCY_KEY="tap-000001")
    assert first.status_code == 201 and again.status_code == 201
    assert again.json() == first.json() and again["Idempotent-Replayed"] == "true"
    assert Result.objects.filter(table=table).count() == 1
    other = api.post(f"/api/tables/{table.pk}/report/", body, format="json", HTTP_IDEMPOTENCY_KEY="tap-000002")
    assert other.status_code == 409  # a new key is a new write: the table already has this report pending
    assert Result.objects.filter(table=table).count() == 1


def test_the_same_key_reports_once_through_the_page(table: Any) -> None:
    a, b = seated_entrants(table)[:2]
    client = Client()
    url = f"/report/{a.report_token}/tables/{table.pk}/"
    client.get(url)
    form = {"action": "report", "kind": "normal", f"score_{a.pk}": "8", f"score_{b.pk}": "2"}
    first = client.post(url, form, HTTP_IDEMPOTENCY_KEY="page-tap-1")
    again = client.post(url, form, HTTP_IDEMPOTENCY_KEY="page-tap-1")
    assert first.status_code == again.status_code == 302 and again["Location"] == first["Location"]
    assert Result.objects.filter(table=table).count() == 1
    # without JavaScript a form field carries the key
    b_url = f"/report/{b.report_token}/tables/{table.pk}/"
    pending = Result.objects.get(table=table)
    decision = {"action": "confirm", "result": str(pending.pk), "idempotency_key": "form-key-1"}
    assert client.post(b_url, decision).status_code == 302
    assert client.post(b_url, decision)["Idempotent-Replayed"] == "true"
    assert Result.objects.get(pk=pending.pk).state == Result.State.CONFIRMED


def test_a_refusal_is_replayed_and_keys_belong_to_their_client(table: Any) -> None:
    a, b = seated_entrants(table)[:2]
    api = APIClient()
    bad = {"token": a.report_token, "scores": {str(a.pk): 9, str(b.pk): 6}}
    refused = api.post(f"/api/tables/{table.pk}/report/", bad, format="json", HTTP_IDEMPOTENCY_KEY="same-key-9")
    assert refused.status_code == 422
    assert api.post(f"/api/tables/{table.pk}/report/", bad, format="json",
                    HTTP_IDEMPOTENCY_KEY="same-key-9").json() == refused.json()
    good = {"token": b.report_token, "scores": {str(a.pk): 3, str(b.pk): 8}}
    answer = api.post(f"/api/tables/{table.pk}/report/", good, format="json", HTTP_IDEMPOTENCY_KEY="same-key-9",
                      HTTP_X_REPORT_TOKEN=b.report_token)
    assert answer.status_code == 201  # another client (another private link): the key is not shared
    assert IdempotentRequest.objects.count() == 2


def test_a_malformed_key_is_refused(table: Any) -> None:
    a, b = seated_entrants(table)[:2]
    answer = APIClient().post(f"/api/tables/{table.pk}/report/", {"token": a.report_token, "scores": {
        str(a.pk): 8, str(b.pk): 1}}, format="json", HTTP_IDEMPOTENCY_KEY="x y")
    assert answer.status_code == 400
    assert not Result.objects.exists()


def test_a_compressed_answer_is_kept_as_text_postgresql_can_store() -> None:
    """The scoresheet page answers gzip-compressed (`gzip_page`): its kept answer is the page's text, not
    the compressed bytes (whose NUL bytes PostgreSQL refuses: a 500 on every offline tap replayed there)."""
    import gzip

    from django.http import HttpResponse

    from tournaments.idempotency import stored_body

    page = "<main><p class=\"notice-err\">Stale: the sheet moved on.</p></main>"
    response = HttpResponse(gzip.compress(page.encode()), content_type="text/html")
    response["Content-Encoding"] = "gzip"
    assert stored_body(response) == page
    assert "\x00" not in stored_body(HttpResponse(b"a\x00b"))
