"""Venue day (issue 17): whole-round result entry (htmx per table, one submit for all without JS),
result slips with QR codes of the private report links, and the report-link sheet."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from tournaments.models import AuditLog, Result, Round, Tournament

pytestmark = pytest.mark.django_db


def _tables(round_: Round) -> list[tuple[int, list[int]]]:
    return [
        (t.pk, [s.entrant_id for s in t.seats.order_by("position")])
        for t in round_.tables.filter(is_bye=False).order_by("number")
    ]


def test_whole_round_page_saves_every_entered_table_with_one_submit(
    client: Client, organiser: Any, tac_tournament: Tournament, published_round: Round
) -> None:
    client.force_login(organiser)
    url = reverse("web:round-results", args=[tac_tournament.slug, 1])
    page = client.get(url).content.decode()
    (t1, s1), (t2, s2) = _tables(published_round)
    assert f'name="t{t1}-score_{s1[0]}"' in page and f'name="t{t2}-score_{s2[1]}"' in page
    assert "2 tables without a final result" in page
    data = {f"t{t1}-kind": "normal", f"t{t1}-score_{s1[0]}": "8", f"t{t1}-score_{s1[1]}": "3",
            f"t{t2}-kind": "normal", f"t{t2}-score_{s2[0]}": "5", f"t{t2}-score_{s2[1]}": "8", "save_all": "1"}
    response = client.post(url, data)
    assert response.status_code == 302
    finals = Result.objects.filter(table__round=published_round, state="overridden")
    assert finals.count() == 2
    assert AuditLog.objects.filter(tournament=tac_tournament, action="result_overridden").count() == 2
    page = client.get(url).content.decode()
    assert "0 tables without a final result" in page and 'class="card-list entry-done"' in page


def test_one_bad_table_is_shown_with_its_error_and_the_good_one_is_saved(
    client: Client, organiser: Any, tac_tournament: Tournament, published_round: Round
) -> None:
    client.force_login(organiser)
    url = reverse("web:round-results", args=[tac_tournament.slug, 1])
    (t1, s1), (t2, s2) = _tables(published_round)
    data = {f"t{t1}-kind": "normal", f"t{t1}-score_{s1[0]}": "8", f"t{t1}-score_{s1[1]}": "8",  # two winners
            f"t{t2}-kind": "normal", f"t{t2}-score_{s2[0]}": "2", f"t{t2}-score_{s2[1]}": "8"}
    response = client.post(url, data)
    assert response.status_code == 400
    page = response.content.decode()
    assert "exactly one winner" in page and f'id="entry-{t1}"' in page and f'id="entry-{t2}"' not in page
    assert not Result.objects.filter(table_id=t1).exists()
    assert Result.objects.get(table_id=t2).state == "overridden"


def test_htmx_saves_one_table_and_returns_its_fieldset(
    client: Client, organiser: Any, tac_tournament: Tournament, published_round: Round
) -> None:
    client.force_login(organiser)
    (t1, s1), (t2, _s2) = _tables(published_round)
    url = reverse("web:round-results-table", args=[tac_tournament.slug, 1, t1])
    data = {f"t{t1}-kind": "normal", f"t{t1}-score_{s1[0]}": "8", f"t{t1}-score_{s1[1]}": "6"}
    response = client.post(url, data, HTTP_HX_REQUEST="true")
    assert response.status_code == 200
    body = response.content.decode()
    assert 'class="card entry-table entry-saved"' in body
    assert "<html" not in body
    assert Result.objects.get(table_id=t1).state == "overridden"
    assert not Result.objects.filter(table_id=t2).exists()
    bad = client.post(url, {f"t{t1}-kind": "normal", f"t{t1}-score_{s1[0]}": "9"}, HTTP_HX_REQUEST="true")
    assert bad.status_code == 200 and "entry-saved" not in bad.content.decode()


def test_round_entry_pages_are_for_organisers_only(
    client: Client, stranger: Any, tac_tournament: Tournament, published_round: Round
) -> None:
    (t1, s1), _ = _tables(published_round)
    client.force_login(stranger)
    for url in (reverse("web:round-results", args=[tac_tournament.slug, 1]),
                reverse("web:result-slips", args=[tac_tournament.slug, 1]),
                reverse("web:report-link-sheet", args=[tac_tournament.slug])):
        assert client.get(url).status_code == 403
    url = reverse("web:round-results-table", args=[tac_tournament.slug, 1, t1])
    assert client.post(url, {f"t{t1}-score_{s1[0]}": "8", f"t{t1}-score_{s1[1]}": "1"}).status_code == 403
    assert not Result.objects.exists()


def test_result_slips_carry_each_teams_report_link_as_qr(
    client: Client, organiser: Any, tac_tournament: Tournament, published_round: Round
) -> None:
    client.force_login(organiser)
    page = client.get(reverse("web:result-slips", args=[tac_tournament.slug, 1])).content.decode()
    assert page.count('class="slip card"') == 2
    assert page.count("<svg") == 4  # one QR per team
    assert "Marbles home" in page and "★" in page and "Signature" in page
    sheet = client.get(reverse("web:report-link-sheet", args=[tac_tournament.slug])).content.decode()
    for entrant in tac_tournament.entrants.all():
        assert f"/report/{entrant.report_token}/" in sheet
    assert sheet.count("<svg") == 4
    # The public pages never show a private link.
    public = client.get(reverse("web:pairing-sheet", args=[tac_tournament.slug, 1])).content.decode()
    assert all(e.report_token not in public for e in tac_tournament.entrants.all())


def test_qr_code_is_inline_svg_of_the_report_link() -> None:
    import segno

    from tournaments.report_links import qr_svg

    url = "http://example.test/report/abc/"
    svg = str(qr_svg(url))
    assert svg.startswith("<svg") and "<?xml" not in svg
    assert svg == segno.make(url, error="m", micro=False).svg_inline(scale=2, border=2)
