"""Every page string has a German and a French translation, and service sentences are translated."""

from __future__ import annotations

from pathlib import Path

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse
from django.utils import translation

from tournaments.errors import ErrorCode, TournamentError
from tournaments.models import Tournament
from tournaments.services import entrant_check_in, entrant_register

LOCALE = Path(settings.BASE_DIR) / "locale"


@pytest.mark.parametrize("language", ["de", "fr", "en"])
def test_catalogue_is_complete_and_compiled(language: str) -> None:
    po = (LOCALE / language / "LC_MESSAGES" / "django.po").read_text(encoding="utf-8")
    assert (LOCALE / language / "LC_MESSAGES" / "django.mo").stat().st_size > 1000
    assert '#, fuzzy\nmsgid "' not in po
    # An untranslated entry is `msgstr ""` followed by a blank line (the header is the only exception).
    empty = po.count('msgstr ""\n\n') + po.count('msgstr[0] ""\n')
    assert empty == 0, f"{empty} untranslated entries in {language}"


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("language", "checked_in", "name_taken"),
    [
        ("de", "Der Teilnehmer ist bereits eingecheckt.", "Ein Teilnehmer namens „team 1“ ist bereits angemeldet."),
        ("fr", "Le participant est déjà pointé.", "Un participant nommé « team 1 » est déjà inscrit."),
        ("en", "The entrant is already checked in.", "An entrant named “team 1” is already registered."),
    ],
)
def test_service_sentences_are_translated(
    tac_tournament: Tournament, organiser: object, language: str, checked_in: str, name_taken: str
) -> None:
    """A service raises its sentence in the active language: a fixed one and one with a value."""
    entrant = tac_tournament.entrants.get(name="Team 1")
    entrant_check_in(actor=organiser, entrant=entrant)
    with translation.override(language):
        with pytest.raises(TournamentError) as again:
            entrant_check_in(actor=organiser, entrant=entrant)
        with pytest.raises(TournamentError) as taken:
            entrant_register(actor=organiser, tournament=tac_tournament, name="team 1", player_names=["A", "B"])
    assert again.value.code == ErrorCode.ENTRANT_ALREADY_CHECKED_IN and again.value.message == checked_in
    # names clash case-insensitively; the sentence quotes the name that was asked for
    assert taken.value.code == ErrorCode.ENTRANT_NAME_TAKEN and taken.value.message == name_taken


@pytest.mark.django_db
def test_organiser_error_in_german(client: Client, tac_tournament: Tournament, organiser: object) -> None:
    client.force_login(organiser)  # type: ignore[arg-type]
    client.post(reverse("set_language"), {"language": "de", "next": "/"})
    url = reverse("web:entrant-add", args=[tac_tournament.slug])
    page = client.post(url, {"name": "Team 1", "player_1": "X", "player_2": "Y"}).content.decode()
    assert "Ein Teilnehmer namens „Team 1“ ist bereits angemeldet." in page
    assert "Team anmelden" not in page and "Teilnehmer anmelden" in page
