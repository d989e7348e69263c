"""Accessibility in the browser: every page kind and scoresheet state, in every language, at 390 and 1280 px,
checked by axe-core (WCAG 2.0/2.1 A and AA and axe's best practices) and by our own rules
(tests/e2e/a11y_support.py: skip link, aria ids that exist, one name one destination, no sideways scroll,
also at 320 px). Any problem fails the test, listed page by page.

The page kinds are found, not listed: starting from a few seeds the test follows the links of every
HTML page (Django's test client, logged in as the organiser, so the manage pages are reached too) and
keeps the first URL of each URL pattern (its view name). A page another branch adds is checked as soon
as a page links to it. The scoresheet's states (start form, deal facts, turn, a card chosen, game over)
and the pages that no page links to (the embeds, the 404 page, an unsubscribe page) are seeds.

One page load per (page kind, width, language); the 320 px check narrows the 390 px page without a reload;
French and Hebrew (right to left) are checked in dark mode (prefers-color-scheme), German and English light.
"""

from __future__ import annotations

import contextlib
import re
import time
from collections import deque
from typing import Any
from urllib.parse import urldefrag, urlparse

import pytest

from tests.e2e.a11y_support import audit, fits
from tests.e2e.test_e2e_organiser import browser_page  # noqa: F401  (the fixture)

WIDTHS = (390, 1280)
SKIP_PREFIXES = ("/api/", "/admin/", "/i18n/", "/accounts/logout", "/static/", "/media/")
SKIP_SUFFIXES = (".csv", ".json", ".ics", ".xlsx", ".svg", ".png", ".pdf", ".txt")
HREF = re.compile(r"""href="([^"#]+)""")


def _scoresheet_states(organiser: Any) -> dict[str, str]:
    """A TAC tournament of four tables with a sheet in each state; the URLs (player's private link) by state."""
    from games.models import Scoresheet
    from rules import scoresheet
    from tests.games.conftest import random_record, relabel
    from tests.games.scoresheet_support import public_entries
    from tests.tournaments.conftest import make_tournament, published_round

    tournament = make_tournament(organiser, game="tac", entrants=8, name="Sheet Cup")
    tables = list(published_round(organiser, tournament).tables.filter(is_bye=False).order_by("number"))
    urls = {}
    for table, (state_name, entries_kept) in zip(tables, [("start", None), ("deal-facts", 0), ("turn", "turn"),
                                                          ("over", "all")], strict=False):
        token = table.seats.order_by("position").first().entrant.report_token
        urls[f"scoresheet:{state_name}"] = f"/report/{token}/tables/{table.pk}/scoresheet/"
        if entries_kept is None:
            continue
        record = relabel(random_record("tac", {}, seed=31 + table.number), table)
        entries = public_entries(record)
        state = scoresheet.sheet_start(game="tac", variant=dict(tournament.variant),
                                       players=sorted(record["players"], key=lambda p: p["seats"][0]),
                                       dealer=record["deals"][0]["dealer"])
        if entries_kept == "turn":
            entries = entries[: next(i for i, e in enumerate(entries) if "card" in e) + 3]
        elif entries_kept == 0:
            entries = []
        for entry in entries:
            state = scoresheet.sheet_add(state, entry)
        Scoresheet.objects.create(tournament=tournament, table=table, game="tac", variant=dict(tournament.variant),
                                  state=state, players=record["players"], version=len(entries) + 1,
                                  entries=len(entries))
    return urls


def _page_kinds(client: Any, seeds: dict[str, str]) -> dict[str, str]:
    """Kind -> URL: the seeds, then the first URL of every URL pattern reached by following links."""
    from django.urls import Resolver404, resolve

    kinds: dict[str, str] = {}
    seen_views: set[str] = set()
    queue: deque[str] = deque()
    for kind, url in seeds.items():
        kinds[kind] = url
        queue.append(url)
        if kind.startswith("error:"):  # a 404 of a real pattern: the pattern's page is still to be found
            continue
        with contextlib.suppress(Resolver404):
            seen_views.add(resolve(urlparse(url).path).view_name)
    fetched: set[str] = set()
    while queue:
        url = queue.popleft()
        if url in fetched:
            continue
        fetched.add(url)
        response = client.get(url)
        body = response.content.decode("utf-8", "replace") if response.get("Content-Type", "").startswith("text/html") else ""
        if "<html" not in body:
            kinds = {k: v for k, v in kinds.items() if v != url or k.startswith(("scoresheet:", "error:"))}
            continue
        for href in HREF.findall(body):
            href = urldefrag(href.replace("&amp;", "&"))[0]
            path = urlparse(href).path
            if urlparse(href).netloc or not path.startswith("/") or path.startswith(SKIP_PREFIXES) or path.endswith(SKIP_SUFFIXES):
                continue
            try:
                view = resolve(path).view_name
            except Resolver404:
                continue
            if view in seen_views:
                continue
            seen_views.add(view)
            kinds[view] = href
            queue.append(href)
    return kinds


@pytest.mark.e2e
@pytest.mark.timeout(1800)  # about 320 page loads: 100 s idle, 240 s with two cores shared by eight
@pytest.mark.django_db(transaction=True)
def test_every_page_kind_passes_axe_in_every_language_and_width(
    live_server: Any, browser_page: Any, settings: Any  # noqa: F811
) -> None:
    from django.conf import settings as django_settings
    from django.contrib.auth import get_user_model
    from django.core.management import call_command
    from django.test import Client

    from tournaments.models import Entrant, Round, Tournament
    from tournaments.notifications import unsubscribe_token

    settings.SCORESHEET_THROTTLE_RATE = "100000/min"
    call_command("demo", stdout=open("/dev/null", "w"))  # noqa: SIM115
    call_command("demo_records", stdout=open("/dev/null", "w"))  # noqa: SIM115
    tournament = Tournament.objects.get(slug="tac-club-cup")
    organiser = get_user_model().objects.get(username="organiser")
    played = Round.objects.filter(tournament=tournament, number=3).get()
    seeds = {
        "tournament-list": "/",
        "embed:standings": f"/embed/t/{tournament.slug}/standings/",
        "embed:round": f"/embed/t/{tournament.slug}/rounds/{played.number}/",
        "login": "/accounts/login/",
        "error:404": "/t/no-such-tournament/",
        "email-unsubscribe": f"/email/unsubscribe/{unsubscribe_token('anna@example.org')}/",
        "token-home": f"/report/{Entrant.objects.filter(tournament=tournament).order_by('pk').first().report_token}/",
    }
    seeds.update(_scoresheet_states(organiser))
    client = Client()
    client.force_login(organiser)
    started = time.monotonic()
    kinds = _page_kinds(client, seeds)
    # A card chosen on the scoresheet: the first tap link of the turn state.
    turn_page = client.get(kinds["scoresheet:turn"]).content.decode()
    chosen = re.search(r'<a class="tap[^"]*" href="([^"]+)"', turn_page)
    assert chosen, "the turn state shows the cards to tap"
    kinds["scoresheet:card-chosen"] = chosen.group(1).replace("&amp;", "&")
    assert len(kinds) >= 30, sorted(kinds)  # the crawl reached the site (not just the seeds)

    languages = [code for code, _ in django_settings.LANGUAGES]
    assert {"de", "fr", "en", "he"} <= set(languages)
    session = client.cookies[django_settings.SESSION_COOKIE_NAME].value
    context = browser_page.context
    context.add_cookies([{"name": django_settings.SESSION_COOKIE_NAME, "value": session, "url": live_server.url}])
    page = browser_page
    problems: list[str] = []
    loads = 0
    for index, language in enumerate(languages):
        context.add_cookies([{"name": django_settings.LANGUAGE_COOKIE_NAME, "value": language, "url": live_server.url}])
        # Every other language in dark mode (fr and he): the dark colours pass the same contrast rules.
        scheme = "dark" if index % 2 else "light"
        page.emulate_media(color_scheme=scheme)
        for width in WIDTHS:
            page.set_viewport_size({"width": width, "height": 844})
            for kind, url in sorted(kinds.items()):
                page.goto(live_server.url + url)
                loads += 1
                assert page.evaluate("document.documentElement.lang") == language, (kind, language)
                found = audit(page, width=width)
                if width == WIDTHS[0]:
                    narrow = fits(page, 320)
                    if narrow:
                        found.append(narrow)
                    page.set_viewport_size({"width": width, "height": 844})
                problems.extend(f"{kind} [{language}, {scheme}, {width} px] {url}: {p}" for p in found)
    elapsed = time.monotonic() - started
    print(f"accessibility: {len(kinds)} page kinds, {loads} page loads in {elapsed:.1f} s")
    assert not problems, f"{len(problems)} accessibility problems:\n" + "\n".join(problems)
