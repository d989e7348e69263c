"""Every page string has a German and a French translation, and service sentences are translated."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse
from django.utils import translation

from tournaments.models import Tournament
from tournaments.views.service_messages import translated_sentence

LOCALE = Path(settings.BASE_DIR) / "locale"


@pytest.mark.parametrize("language", ["de", "fr", "en"])
def test_catalogue_is_complete_and_compiled(language: str) -> None:
    po = (LOCALE / language / "LC_MESSAGES" / "django.po").read_text(encoding="utf-8")
    assert (LOCALE / language / "LC_MESSAGES" / "django.mo").stat().st_size > 1000
    assert '#, fuzzy\nmsgid "' not in po
    # An untranslated entry is `msgstr ""` followed by a blank line (the header is the only exception).
    empty = po.count('msgstr ""\n\n') + po.count('msgstr[0] ""\n')
    assert empty == 0, f"{empty} untranslated entries in {language}"


def test_service_sentences_are_translated() -> None:
    with translation.override("de"):
        assert (
            translated_sentence("The entrant is already checked in.")
            == "Der Teilnehmer ist bereits eingecheckt."
        )
        assert translated_sentence("An entrant named 'Kugelblitz' is already registered.") == (
            "Ein Teilnehmer namens „Kugelblitz“ ist bereits angemeldet."
        )
        assert translated_sentence("Something new.") == "Something new."
    with translation.override("fr"):
        assert translated_sentence("Scores run from 0 to 8.") == "Les scores vont de 0 à 8."


@pytest.mark.django_db
def test_organiser_error_in_german(client: Client, tac_tournament: Tournament, organiser: object) -> None:
    client.force_login(organiser)  # type: ignore[arg-type]
    client.post(reverse("set_language"), {"language": "de", "next": "/"})
    url = reverse("web:entrant-add", args=[tac_tournament.slug])
    page = client.post(url, {"name": "Team 1", "player_1": "X", "player_2": "Y"}).content.decode()
    assert "Ein Teilnehmer namens „Team 1“ ist bereits angemeldet." in page
    assert "Team anmelden" not in page and "Teilnehmer anmelden" in page
