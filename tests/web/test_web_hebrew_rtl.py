"""Hebrew (issue 30, look and languages): `he` is a language of the site, its pages are laid out right to
left (`<html dir="rtl">`, CSS logical properties), and TAKI's players get their e-mails in Hebrew, right
to left too. Other languages keep `<html lang=..>` without a direction."""

from __future__ import annotations

from typing import Any

import pytest
from django.core import mail
from django.test import Client

from tournaments.models import Round, Tournament

pytestmark = pytest.mark.django_db


def test_hebrew_pages_are_right_to_left_and_translated(tac_tournament: Tournament, published_round: Round) -> None:
    client = Client()
    for url in ("/", f"/t/{tac_tournament.slug}/standings/", f"/t/{tac_tournament.slug}/rounds/1/",
                f"/embed/t/{tac_tournament.slug}/standings/"):
        page = client.get(url, HTTP_ACCEPT_LANGUAGE="he").content.decode()
        assert '<html lang="he" dir="rtl">' in page, url
        assert "דילוג לתוכן" in page  # "Skip to the content"
    round_page = client.get(f"/t/{tac_tournament.slug}/rounds/1/", HTTP_ACCEPT_LANGUAGE="he").content.decode()
    assert "סבב 1" in round_page and "שולחן 1" in round_page  # "Round 1", "Table 1"
    english = client.get("/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert '<html lang="en">' in english and 'dir="rtl"' not in english


def test_round_published_mail_in_hebrew_is_right_to_left(organiser: Any, django_capture_on_commit_callbacks: Any) -> None:
    from tournaments.services.entrants import entrant_register
    from tournaments.services.rounds import round_generate, round_publish
    from tournaments.services.tournaments import tournament_create

    tournament = tournament_create(actor=organiser, name="TAKI Cup", game="tac", format="swiss", rounds_planned=1)
    for i in range(4):
        entrant_register(actor=organiser, tournament=tournament, name=f"Team {i + 1}", player_names=[f"A{i}", f"B{i}"],
                         seed=i + 1, email=f"team{i + 1}@example.test", language="he" if i == 0 else "en")
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        round_publish(actor=organiser, round=round_generate(actor=organiser, tournament=tournament))
    hebrew = next(m for m in mail.outbox if m.to == ["team1@example.test"])
    assert "סבב 1" in hebrew.subject  # "round 1"
    html = hebrew.alternatives[0][0]
    assert '<html lang="he" dir="rtl">' in html and '<body dir="rtl"' in html
    english = next(m for m in mail.outbox if m.to == ["team2@example.test"])
    assert 'dir="rtl"' not in english.alternatives[0][0]
