"""Venue day (issue 17): standings say "after round N" / provisional and mark dropped entrants; the
entrant page lists board and start per round; CSV numbers are numbers; XLSX standings; iCal links;
`make run` honours PORT; no broker warning without a broker."""

from __future__ import annotations

import csv
import io
import logging
import subprocess
from pathlib import Path
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse
from openpyxl import load_workbook

from tournaments.models import Round, Tournament
from tournaments.services.entrants import entrant_drop, entrant_register
from tournaments.services.results import result_override
from tournaments.services.standings import standings_recompute

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.django_db


def _finish_first_table(organiser: Any, round_: Round) -> list[int]:
    table = round_.tables.filter(is_bye=False).order_by("number").first()
    seated = [s.entrant_id for s in table.seats.order_by("position")]
    result_override(actor=organiser, table=table, scores={seated[0]: 8, seated[1]: 2})
    return seated


def test_standings_say_after_which_round_and_mark_dropped_entrants(
    client: Client, organiser: Any, tac_tournament: Tournament, published_round: Round
) -> None:
    seated = _finish_first_table(organiser, published_round)
    # an entrant whose table is final drops (a drop at an open table would end that table by forfeit,
    # docs/formats.md, and the round would no longer be provisional)
    dropped = tac_tournament.entrants.get(pk=seated[1])
    entrant_drop(actor=organiser, entrant=dropped)
    standings_recompute(tournament_id=tac_tournament.pk)
    page = client.get(reverse("web:standings", args=[tac_tournament.slug])).content.decode()
    assert "Standings after round 1" in page and "provisional" in page
    assert page.count('class="badge badge-err dropped"') == 1
    for table in published_round.tables.filter(is_bye=False):
        if not table.results.exists():
            seated = [s.entrant_id for s in table.seats.order_by("position")]
            result_override(actor=organiser, table=table, scores={seated[0]: 3, seated[1]: 8})
    standings_recompute(tournament_id=tac_tournament.pk)
    page = client.get(reverse("web:tournament-detail", args=[tac_tournament.slug])).content.decode()
    assert "Standings after round 1" in page and "provisional" not in page
    with_german = client.get(reverse("web:standings", args=[tac_tournament.slug]), HTTP_ACCEPT_LANGUAGE="de")
    assert "Stand nach Runde 1" in with_german.content.decode()


def test_entrant_page_lists_board_start_seat_and_opponents_and_links_its_calendar(
    client: Client, tac_tournament: Tournament, published_round: Round
) -> None:
    entrant = tac_tournament.entrants.order_by("name").first()
    page = client.get(reverse("web:entrant-detail", args=[tac_tournament.slug, entrant.pk])).content.decode()
    assert 'data-label="Board"' in page and 'data-label="Start"' in page and 'data-label="At the table"' in page
    assert reverse("api-entrant-calendar", args=[tac_tournament.slug, entrant.pk]) in page
    detail = client.get(reverse("web:tournament-detail", args=[tac_tournament.slug])).content.decode()
    assert reverse("api-calendar", args=[tac_tournament.slug]) in detail
    assert reverse("api-export-standings-xlsx", args=[tac_tournament.slug]) in detail


def test_csv_numbers_are_numbers_and_text_stays_guarded(
    client: Client, organiser: Any, tac_tournament: Tournament, published_round: Round
) -> None:
    _finish_first_table(organiser, published_round)
    entrant_register(actor=organiser, tournament=tac_tournament, name="=HYPERLINK(1)", player_names=["x", "y"])
    standings_recompute(tournament_id=tac_tournament.pk)
    text = client.get(reverse("api-export", args=[tac_tournament.slug, "standings"])).content.decode()
    rows = list(csv.DictReader(io.StringIO(text)))
    loser = next(row for row in rows if row["marble_difference"].startswith(("-", "'")))
    assert loser["marble_difference"] == "-6.0" or loser["marble_difference"] == "-6"
    assert all(row["rank"].isdigit() for row in rows)
    entrants = client.get(reverse("api-export", args=[tac_tournament.slug, "entrants"])).content.decode()
    assert "'=HYPERLINK(1)" in entrants


def test_xlsx_standings_have_numeric_cells_and_text_never_becomes_a_formula(
    client: Client, organiser: Any, tac_tournament: Tournament, published_round: Round
) -> None:
    _finish_first_table(organiser, published_round)
    table = published_round.tables.filter(is_bye=False).order_by("number").first()
    first = table.seats.order_by("position").first().entrant
    first.name = "=1+1"
    first.save(update_fields=["name"])
    standings_recompute(tournament_id=tac_tournament.pk)
    response = client.get(reverse("api-export-standings-xlsx", args=[tac_tournament.slug]))
    assert response.status_code == 200
    assert response["Content-Type"].startswith("application/vnd.openxmlformats")
    sheet = load_workbook(io.BytesIO(response.content)).active
    header = [c.value for c in sheet[1]]
    assert header[:3] == ["rank", "entrant", "games"]
    diffs = [row[header.index("marble_difference")] for row in sheet.iter_rows(min_row=2, values_only=True)]
    assert -6 in diffs and all(isinstance(v, int | float) for v in diffs if v is not None)
    names = {sheet.cell(row=r, column=2).value: sheet.cell(row=r, column=2).data_type for r in range(2, sheet.max_row + 1)}
    assert names["=1+1"] == "s"
    assert client.get(reverse("api-export-standings-xlsx", args=["nope"])).status_code == 404
    schema = client.get("/api/schema/").content.decode()
    assert "/api/tournaments/{slug}/export/standings.xlsx" in schema


def test_eager_celery_connects_without_the_kombu_hostname_warning(caplog: pytest.LogCaptureFixture) -> None:
    from config.celery import app

    with caplog.at_level(logging.WARNING):
        app.connection_for_write().info()
    assert not [r for r in caplog.records if "No hostname" in r.getMessage()]


def test_make_run_serves_on_port_from_the_environment() -> None:
    done = subprocess.run(["make", "-n", "run", "PORT=8765"], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert "runserver 127.0.0.1:8765" in done.stdout
    default = subprocess.run(["make", "-n", "run"], cwd=ROOT, capture_output=True, text=True, timeout=60,
                             env={"PATH": "/usr/bin:/bin"})
    assert "runserver 127.0.0.1:8000" in default.stdout


def test_game_and_mode_names_are_translated(client: Client, organiser: Any) -> None:
    from tournaments.services.tournaments import tournament_create

    tournament_create(actor=organiser, name="Tock Night", game="tock", variant={"seats": 4, "quick_start": True},
                      format="swiss", rounds_planned=2)
    english = client.get("/").content.decode()
    assert "Tock free-for-all (4), quick start" in english
    german = client.get("/", HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert "Tock jeder gegen jeden (4), Schnellstart" in german
    client.force_login(organiser)
    french = client.get(reverse("web:tournament-create"), HTTP_ACCEPT_LANGUAGE="fr").content.decode()
    assert "Tock chacun pour soi (4), départ rapide" in french


def test_api_errors_speak_german_and_french(client: Client, tac_tournament: Tournament) -> None:
    from rest_framework.test import APIClient

    api = APIClient()
    cases = [
        (lambda: api.get("/api/tournaments/nope/", HTTP_ACCEPT_LANGUAGE="de"), "Dieses Turnier gibt es nicht."),
        (lambda: api.get(f"/api/tournaments/{tac_tournament.slug}/export/pairings.csv?round=x",
                         HTTP_ACCEPT_LANGUAGE="fr"), "ronde"),
    ]
    for call, word in cases:
        body = call().content.decode()
        assert word in body, body
    from django.contrib.auth import get_user_model
    from rest_framework.authtoken.models import Token

    user = get_user_model().objects.create_user("api-de", password="x-pass-123")
    api.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=user).key}")
    invalid = api.post("/api/tournaments/", {"name": ""}, format="json", HTTP_ACCEPT_LANGUAGE="de").json()
    assert invalid["error"]["code"] == "invalid_input" and invalid["error"]["message"] == "Die Eingabe ist ungültig; siehe Details."
    french = api.post("/api/tournaments/", {"name": ""}, format="json", HTTP_ACCEPT_LANGUAGE="fr").json()
    assert french["error"]["message"] == "L'entrée n'est pas valide ; voir les détails."


def test_verdict_shows_its_meaning_in_the_page_language(
    client: Client, organiser: Any, django_capture_on_commit_callbacks: Any
) -> None:
    import json

    from games.demo import record_for_table
    from games.models import GameRecord
    from games.services import record_submit
    from tests.games.conftest import one_table_tournament

    tournament, table = one_table_tournament(organiser, "tac", {})
    broken = record_for_table(table, game="tac", variant={}, seed=5)
    broken["deals"][0]["turns"] = broken["deals"][0]["turns"][:2] + [{"card": "X"}]
    with django_capture_on_commit_callbacks(execute=True):
        record_submit(table=table, actor=organiser, data=json.dumps(broken), source="upload")
    record = GameRecord.objects.get(table=table)
    assert record.status == "invalid" and record.error_message
    url = reverse("games:record-detail", args=[tournament.slug, record.pk])
    german = client.get(url, HTTP_ACCEPT_LANGUAGE="de").content.decode()
    from django.utils import translation

    from games.verdict_labels import VERDICT_LABELS

    with translation.override("de"):
        meaning = str(VERDICT_LABELS[record.error_code])
    assert meaning in german and "Meldung der Prüfung (englisch):" in german
    assert record.error_message.split(" ")[0] in german  # the engine's exact English message stays
