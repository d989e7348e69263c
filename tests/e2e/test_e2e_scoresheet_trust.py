"""Browser tests (chromium at 390 px) of a scoresheet the table trusts: Finish lands on the record page
with its verdict, replay and table (not a blank page); a wrong announcement is refused at once in
German naming the player and is corrected in place; German and French card names on the card taps.

Skipped when chromium (or Playwright) is missing, except under REQUIRE_SERVICES=1.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.e2e.test_e2e_organiser import browser_page  # noqa: F401  (the fixture)
from tests.e2e.test_e2e_scoresheet import _version, _wait_path, _wait_version
from tests.games.conftest import random_record, relabel
from tests.games.scoresheet_support import public_entries


def _tap_entry(page: Any, entry: dict[str, Any], language: str) -> None:
    """Tap an entry's steps as the page labels them in `language` (the last tap posts it)."""
    from django.utils import translation

    from games.scoresheet.choices import entry_steps

    with translation.override(language):
        steps = entry_steps(entry)
    for depth, step in enumerate(steps):
        tap = page.locator("[data-testid=tap]").filter(has_text=re.compile(f"^\\s*{re.escape(step.label)}"))
        if depth == len(steps) - 1:
            tap = page.locator("button[data-testid=tap]").filter(has_text=re.compile(f"^\\s*{re.escape(step.label)}"))
        tap.first.click()
        if depth < len(steps) - 1:
            _wait_path(page, depth + 1)


def _setup(organiser_name: str, game_variant: dict[str, Any], seed: int, upto: int | None, *, mutate: Any = None
           ) -> tuple[Any, Any, dict[str, Any], list[dict[str, Any]]]:
    from django.contrib.auth import get_user_model

    from games.models import Scoresheet
    from rules import scoresheet
    from tests.tournaments.conftest import make_tournament, published_round

    organiser = get_user_model().objects.create_user(organiser_name, password="sheeter-password-1")
    tournament = make_tournament(organiser, game="tac", variant=game_variant, entrants=4, name="Trust Cup")
    table = list(published_round(organiser, tournament).tables.order_by("number"))[0]
    record = relabel(random_record("tac", game_variant, seed=seed), table)
    entries = public_entries(record)
    if mutate is not None:
        entries = mutate(entries)
    state = scoresheet.sheet_start(game="tac", variant=game_variant,
                                   players=sorted(record["players"], key=lambda p: p["seats"][0]),
                                   dealer=record["deals"][0]["dealer"])
    for entry in entries[:upto]:
        state = scoresheet.sheet_add(state, entry)
    Scoresheet.objects.create(tournament=tournament, table=table, game="tac", variant=game_variant, state=state,
                              players=record["players"], version=3)
    return tournament, table, record, entries


def _language(page: Any, base: str, language: str) -> None:
    """The visitor's language, as the language switcher sets it (Django's language cookie)."""
    from django.conf import settings

    page.context.add_cookies([{"name": settings.LANGUAGE_COOKIE_NAME, "value": language, "url": base}])


def _no_sideways_scroll(page: Any) -> None:
    assert page.evaluate("document.documentElement.scrollWidth") <= 390


@pytest.mark.e2e
@pytest.mark.django_db(transaction=True)
def test_finish_shows_the_record_page_with_verdict_replay_and_table(
    live_server: Any, browser_page: Any, settings: Any  # noqa: F811
) -> None:
    from tests.tournaments.conftest import seated_entrants

    settings.SCORESHEET_THROTTLE_RATE = "100000/min"
    _tournament, table, _record, entries = _setup("finisher", {}, 22, -2)
    page = browser_page
    page.goto(f"{live_server.url}/report/{seated_entrants(table)[0].report_token}/tables/{table.pk}/scoresheet/")
    for entry in entries[-2:]:
        version = _version(page)
        _tap_entry(page, entry, "en")
        _wait_version(page, version + 1)
    assert "The game is over." in page.locator("[data-testid=status]").inner_text()
    page.locator("[data-testid=finish]").click()
    page.wait_for_url(re.compile(r".*/records/\d+/"))
    # what the person sees, not only the URL: the verdict, which table it settled, the replay
    page.wait_for_function("() => document.querySelector('#verdict') && "
                           "!document.querySelector('#verdict').classList.contains('verdict-pending')")
    heading = page.locator("h1").inner_text()
    assert heading.startswith("Game record")
    body = page.locator("main").inner_text() if page.locator("main").count() else page.inner_text("body")
    assert f"Round 1, table {table.number}" in body
    verdict = page.locator("#verdict").inner_text()
    assert "valid" in verdict and "complete" in verdict
    assert "This record settled the table" in verdict
    assert page.locator("#replay").is_visible() and page.locator("#replay svg").count() >= 1
    _no_sideways_scroll(page)
    page.screenshot(path="/tmp/h27/e2e-finish-record.png", full_page=True)


@pytest.mark.e2e
@pytest.mark.django_db(transaction=True)
def test_a_wrong_announcement_is_refused_in_german_and_corrected_in_place(
    live_server: Any, browser_page: Any, settings: Any  # noqa: F811
) -> None:
    from games.models import Scoresheet
    from tests.tournaments.conftest import seated_entrants

    settings.SCORESHEET_THROTTLE_RATE = "100000/min"

    def wrong_yes(entries: list[dict[str, Any]]) -> list[dict[str, Any]]:
        said = list(entries[0]["announce"])
        assert said[0] is False  # seed 11: seat 0 holds no 1 or 13
        return [{"announce": [True, *said[1:]]}, *entries[1:]]

    _tournament, table, record, entries = _setup("corrector", {}, 11, 2, mutate=wrong_yes)
    page = browser_page
    _language(page, live_server.url, "de")
    url = f"{live_server.url}/report/{seated_entrants(table)[0].report_token}/tables/{table.pk}/scoresheet/"
    page.goto(url)
    status = page.locator("[data-testid=status]").inner_text()
    assert "Austeilen 1" in status and "Runde" not in status and "Platz" not in status
    first = entries[2]
    assert first["seat"] == 0
    version = _version(page)
    _tap_entry(page, first, "de")
    _wait_version(page, version)  # refused: nothing changed
    notice = page.locator("[data-testid=notice]").inner_text()
    name = next(p["name"] for p in record["players"] if 0 in p["seats"])
    assert name in notice and "„ich kann“" in notice and "abgeworfen" in notice
    page.screenshot(path="/tmp/h27/e2e-refusal-de.png", full_page=True)
    # correct the announcement in place: seat 0 said "no"
    page.locator("[data-testid=correct] summary").click()
    page.locator("[data-testid=correct-announce-0-no]").check()
    page.locator("[data-testid=correct-announce]").click()
    _wait_version(page, version + 1)
    assert "Korrigiert" in page.locator("[data-testid=notice]").inner_text()
    assert Scoresheet.objects.get(table=table).state["entries"][0]["announce"][0] is False
    _tap_entry(page, first, "de")
    _wait_version(page, version + 2)
    _no_sideways_scroll(page)
    page.screenshot(path="/tmp/h27/e2e-corrected-de.png", full_page=True)


@pytest.mark.e2e
@pytest.mark.django_db(transaction=True)
def test_card_names_in_german_and_french_on_the_card_taps(
    live_server: Any, browser_page: Any, settings: Any  # noqa: F811
) -> None:
    from tests.tournaments.conftest import seated_entrants

    settings.SCORESHEET_THROTTLE_RATE = "100000/min"
    _tournament, table, _record, _entries = _setup("namer", {"master": True}, 12, 2)
    page = browser_page
    url = f"{live_server.url}/report/{seated_entrants(table)[0].report_token}/tables/{table.pk}/scoresheet/"
    for language, names in (("de", ["Engel", "Trickser"]), ("fr", ["Ange", "Trickser"])):
        _language(page, live_server.url, language)
        page.goto(url)
        labels = [t.strip() for t in page.locator("a[data-testid=tap]").all_inner_texts()]
        for name in names:
            assert name in labels, (language, labels)
        assert not {"engel", "trickser", "tac", "narr", "teufel", "krieger"} & set(labels)
        numbers = [int(x) for x in labels if x.isdigit()]
        assert numbers == sorted(numbers)
        _no_sideways_scroll(page)
        page.screenshot(path=f"/tmp/h27/e2e-cards-{language}.png", full_page=True)
