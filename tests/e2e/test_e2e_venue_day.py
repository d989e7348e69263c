"""Browser tests of the venue day (issue 17), in Debian's chromium through Playwright.

1. Phones: every kind of public page of the demo (crawled from the home page, the first two pages of
   each URL pattern) and every organiser page has no sideways scroll at 390 px: neither the page nor a
   scrolling box inside it (a table wider than its box).
2. The new pages at 390 and 1280 px: whole-round result entry saves one table with Enter through htmx
   and moves on to the next table; result slips, report-link sheet and embeds fit the width.
Screenshots go to $VENUE_SCREENSHOTS when it is set (never into the repository).
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterator
from typing import Any
from urllib.parse import urljoin, urlparse

import pytest

from tests.e2e.test_e2e_organiser import CHROMIUM_ARGS, CHROMIUM_PATH, _browser_missing, log_in

OVERFLOW_JS = """() => {
  const vw = document.documentElement.clientWidth;
  const problems = [];
  if (document.documentElement.scrollWidth > vw + 1)
    problems.push('page ' + document.documentElement.scrollWidth + '>' + vw);
  for (const el of document.querySelectorAll('main *')) {
    const style = getComputedStyle(el);
    if ((style.overflowX === 'auto' || style.overflowX === 'scroll') && el.scrollWidth > el.clientWidth + 1)
      problems.push('scrolls: ' + el.tagName + '.' + el.className + ' ' + el.scrollWidth + '>' + el.clientWidth);
  }
  return problems;
}"""
SKIPPED_PREFIXES = ("/api/", "/admin/", "/i18n/", "/accounts/", "/embed/", "/static/", "/email/")
SKIPPED_SUFFIXES = (".csv", ".ics", ".json", ".jsonl", ".zip", ".xlsx", ".svg", ".png")
ORGANISER = ("organiser", "demo-organiser")  # the demo's login (tournaments/management/commands/demo.py)


def _pattern(path: str) -> str:
    return re.sub(r"/[A-Za-z0-9_-]{20,}/", "/TOKEN/", re.sub(r"\d+", "N", path))


def crawl(page: Any, base: str, starts: list[str], *, per_pattern: int, limit: int) -> tuple[set[str], dict[str, Any]]:
    """Visit same-site HTML pages breadth-first (at most `per_pattern` per URL pattern) and return the
    visited paths and, per path, what scrolls sideways."""
    seen: dict[str, int] = {}
    queue = list(starts)
    visited: set[str] = set()
    problems: dict[str, Any] = {}
    while queue and len(visited) < limit:
        path = queue.pop(0)
        pattern = _pattern(path)
        if path in visited or seen.get(pattern, 0) >= per_pattern:
            continue
        seen[pattern] = seen.get(pattern, 0) + 1
        visited.add(path)
        try:
            response = page.goto(base + path)
        except Exception as exc:  # a download (a replay frame as SVG, ...)
            if "Download" in str(exc):
                continue
            raise
        assert response is not None and response.status < 500, path
        if "text/html" not in (response.headers.get("content-type") or ""):
            continue
        found = page.evaluate(OVERFLOW_JS)
        if found:
            problems[path] = found
        for href in page.eval_on_selector_all("a[href]", "els => els.map(e => e.getAttribute('href'))"):
            url = urlparse(urljoin(base + path, href))
            target = url.path + (f"?{url.query}" if url.query else "")
            if url.netloc != urlparse(base).netloc or target.startswith(SKIPPED_PREFIXES):
                continue
            if url.path.endswith(SKIPPED_SUFFIXES) or target in visited:
                continue
            queue.append(target)
    return visited, problems


@pytest.fixture
def chromium() -> Iterator[Any]:
    missing = _browser_missing()
    if missing:
        if os.environ.get("REQUIRE_SERVICES") == "1":
            pytest.fail(f"Browser test required (REQUIRE_SERVICES=1) but {missing}.")
        pytest.skip(missing)
    previous = os.environ.get("DJANGO_ALLOW_ASYNC_UNSAFE")
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    from playwright.sync_api import sync_playwright

    try:
        with sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=CHROMIUM_PATH, args=CHROMIUM_ARGS)
            try:
                yield browser
            finally:
                from django.db import connections

                connections.close_all()
                browser.close()
    finally:
        if previous is None:
            os.environ.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
        else:
            os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = previous


def _shot(page: Any, name: str) -> None:
    folder = os.environ.get("VENUE_SCREENSHOTS")
    if folder:
        os.makedirs(folder, exist_ok=True)
        page.screenshot(path=os.path.join(folder, f"{name}.png"), full_page=True)


@pytest.mark.e2e
@pytest.mark.django_db(transaction=True)
def test_demo_pages_fit_a_phone_and_the_venue_pages_work_at_both_widths(live_server: Any, chromium: Any) -> None:
    from django.core.management import call_command

    from tournaments.models import Result, Round, Tournament

    call_command("demo", verbosity=0)
    call_command("demo_records", verbosity=0)
    tournament = Tournament.objects.get(slug="tac-club-cup")
    base = live_server.url

    phone = chromium.new_context(viewport={"width": 390, "height": 844}, locale="en-GB")
    page = phone.new_page()
    page.set_default_timeout(20_000)
    visited, problems = crawl(page, base, ["/"], per_pattern=2, limit=150)
    assert len(visited) >= 20, sorted(visited)
    assert any("/rankings/" in p for p in visited) and any("/records/" in p for p in visited)
    assert problems == {}
    log_in(page, base, *ORGANISER)
    managed, problems = crawl(page, base, [f"/t/{tournament.slug}/manage/"], per_pattern=1, limit=80)
    assert any("/manage/rounds/" in p and p.endswith("/results/") for p in managed), sorted(managed)
    assert any(p.endswith("/slips/") for p in managed) and any(p.endswith("/report-links/") for p in managed)
    assert problems == {}

    # Whole-round entry with the keyboard: Enter in a table saves it (htmx) and moves to the next one.
    open_round = tournament.rounds.filter(status=Round.Status.PUBLISHED).order_by("-number").first()
    assert open_round is not None
    page.goto(f"{base}/t/{tournament.slug}/manage/rounds/{open_round.number}/results/")
    _shot(page, "round-results-390")
    first = page.locator("fieldset.entry-table").first
    table_id = int(first.get_attribute("id").split("-")[1])
    scores = first.locator("input[type=number]")
    scores.nth(0).fill("8")
    scores.nth(1).fill("3")
    scores.nth(1).press("Enter")
    page.wait_for_selector(f"#entry-{table_id}.entry-saved")
    assert page.url.endswith("/results/")  # no page load: htmx swapped the table
    assert Result.objects.filter(table_id=table_id, state="overridden").exists()
    focused = page.evaluate("document.activeElement && document.activeElement.closest('fieldset')?.id")
    assert focused and focused != f"entry-{table_id}"

    for width in (390, 1280):
        context = phone if width == 390 else chromium.new_context(viewport={"width": 1280, "height": 900})
        view = page if width == 390 else context.new_page()
        if width == 1280:
            log_in(view, base, *ORGANISER)
        for name, path in [
            ("round-results", f"/t/{tournament.slug}/manage/rounds/{open_round.number}/results/"),
            ("slips", f"/t/{tournament.slug}/manage/rounds/{open_round.number}/slips/"),
            ("report-links", f"/t/{tournament.slug}/manage/report-links/"),
            ("embed-standings", f"/embed/t/{tournament.slug}/standings/"),
            ("embed-round", f"/embed/t/{tournament.slug}/rounds/{open_round.number}/"),
            ("standings", f"/t/{tournament.slug}/standings/"),
            ("entrant", f"/t/{tournament.slug}/entrants/{tournament.entrants.order_by('pk').first().pk}/"),
            ("pairing-sheet", f"/t/{tournament.slug}/rounds/{open_round.number}/sheet/"),
        ]:
            response = view.goto(base + path)
            assert response is not None and response.status == 200, path
            assert view.evaluate(OVERFLOW_JS) == [], (width, path)
            _shot(view, f"{name}-{width}")
        if name == "pairing-sheet":
            cards = view.evaluate("getComputedStyle(document.querySelector('table.pairing tbody tr')).display")
            assert (cards == "block") == (width == 390)
    phone.close()
