"""Browser test (issue 28) at 390 px: the organiser opens sign-up with approval and an entry limit; a
team signs up and is approved, the next one goes on the waiting list and moves up when the first
withdraws; self check-in from the private page; the groups are drawn on the manage page (htmx) with
the no-show left out; after the groups and the knockout the finished tournament shows its podium.
Asserts what the person sees. (Double elimination joins this flow after merging, issue 28.)"""

from __future__ import annotations

import os
from typing import Any

import pytest

from tests.e2e.test_e2e_organiser import PASSWORD, browser_page, log_in  # noqa: F401 (fixture)


def _play_open_round(organiser: Any, tournament: Any) -> None:
    from tournaments import services

    round_ = services.round_publish(actor=organiser, round=services.round_generate(actor=organiser,
                                                                                  tournament=tournament))
    for table in round_.tables.filter(is_bye=False).order_by("number"):
        first, second = list(table.seats.order_by("position").values_list("entrant_id", flat=True))[:2]
        services.result_override(actor=organiser, table=table, scores={first: 8, second: 3})


def _fits(page: Any) -> bool:
    return bool(page.evaluate("() => document.documentElement.scrollWidth <= window.innerWidth"))


def open_sign_up(page: Any, base: str, slug: str, limit: int, taken: int) -> None:
    """The organiser logs in and opens sign-up with approval and `limit` places; the page says so."""
    log_in(page, base)
    page.goto(f"{base}/t/{slug}/manage/")
    page.click("text=Sign-up and check-in desk")
    page.check("#id_registration_open")
    page.check("#id_registration_approval")
    page.fill("#id_entry_limit", str(limit))
    page.click("main form button[type=submit] >> text=Save")
    assert "Sign-up settings saved." in page.content()
    assert f"{taken} of {limit} places taken." in page.inner_text("main")


def sign_up(visitor: Any, base: str, slug: str, name: str, email: str, players: tuple[str, str],
            *, screenshot: str | None = None) -> str:
    """A team signs up on the public page (fits the phone's width): the address of its status page."""
    visitor.goto(f"{base}/t/{slug}/sign-up/")
    visitor.fill("#id_name", name)
    visitor.fill("#id_email", email)
    visitor.fill("#id_player_1", players[0])
    visitor.fill("#id_player_2", players[1])
    if screenshot:
        visitor.screenshot(path=screenshot, full_page=True)
    assert _fits(visitor)
    visitor.click("main form button[type=submit]")
    visitor.wait_for_url(f"**/t/{slug}/sign-up/*/")
    return str(visitor.url)


@pytest.mark.e2e
@pytest.mark.django_db(transaction=True)
def test_sign_up_waiting_list_check_in_group_draw_podium(live_server: Any, browser_page: Any) -> None:  # noqa: F811
    from django.contrib.auth import get_user_model
    from django.core import mail

    from tests.tournaments.conftest import make_tournament
    from tournaments import services
    from tournaments.models import Entrant, Registration

    shots = os.environ.get("SCREENSHOT_DIR")
    organiser = get_user_model().objects.create_user("organiser", password=PASSWORD)
    tournament = make_tournament(organiser, entrants=4, name="Murmel Cup", format="stages", group_count=2,
                                 knockout_size=2)
    base = live_server.url
    slug = tournament.slug
    page = browser_page
    visitor = page.context.browser.new_context(viewport={"width": 390, "height": 844}, locale="en-GB").new_page()
    visitor.set_default_timeout(15_000)

    # The organiser opens sign-up: approval required, 5 places (4 taken).
    open_sign_up(page, base, slug, limit=5, taken=4)

    kugel_url = sign_up(visitor, base, slug, "Kugelblitz", "kugel@example.org", ("Anna", "Ben"),
                        screenshot=f"{shots}/sign-up-form-390.png" if shots else None)
    assert "The organisers approve each sign-up" in visitor.inner_text("#registration-state")
    spaet_url = sign_up(visitor, base, slug, "Spätzünder", "spaet@example.org", ("Cleo", "Dan"))
    if shots:
        visitor.screenshot(path=f"{shots}/sign-up-status-390.png", full_page=True)
    assert _fits(visitor)

    # The organiser approves both: the first takes the last place, the second waits.
    page.reload()
    page.click("#pending li:has-text('Kugelblitz') >> text=Approve")
    assert "Kugelblitz: Accepted." in page.inner_text("main")
    page.click("#pending li:has-text('Spätzünder') >> text=Approve")
    assert "Spätzünder: On the waiting list." in page.inner_text("main")
    assert "Spätzünder" in page.inner_text("#waiting-list")
    if shots:
        page.screenshot(path=f"{shots}/manage-sign-up-390.png", full_page=True)
    assert _fits(page)
    visitor.goto(spaet_url)
    assert "You are number 1 on the waiting list." in visitor.inner_text("#registration-state")
    assert any(m.to == ["spaet@example.org"] and "waiting list" in m.subject for m in mail.outbox)

    # Kugelblitz withdraws through its private page: Spätzünder moves up and is told by e-mail.
    visitor.goto(kugel_url)
    visitor.click("text=Withdraw")
    assert "Your sign-up is withdrawn." in visitor.inner_text("#registration-state")
    visitor.goto(spaet_url)
    assert "You are signed up." in visitor.inner_text("#registration-state")
    assert any(m.to == ["spaet@example.org"] and "moved up from the waiting list" in m.body for m in mail.outbox)

    # Self check-in: the organiser opens the window and requires check-in; the team checks in itself.
    page.goto(f"{base}/t/{slug}/manage/sign-up/")
    page.check("#id_self_checkin_open")
    page.click("main form button[type=submit] >> text=Save")
    assert page.locator("#check-in-desk svg").count() == 1  # the desk QR code
    page.goto(f"{base}/t/{slug}/manage/")
    page.check("input[name=checkin_required]")
    page.click("form:has(input[name=checkin_required]) button")
    visitor.goto(spaet_url)
    visitor.click("text=Check in now")
    assert "You are signed up and checked in." in visitor.inner_text("#registration-state")
    spaet = Registration.objects.get(name="Spätzünder").entrant
    assert spaet.status == "checked_in"
    for entrant in Entrant.objects.filter(tournament=tournament, seed__in=[1, 2, 3]):
        services.entrant_check_in(actor=organiser, entrant=entrant)  # Team 04 does not come

    # The group draw on the manage page, in place (htmx): the no-show is left out.
    page.goto(f"{base}/t/{slug}/manage/")
    page.evaluate("window.__marker = 'same page'")
    page.select_option("#id_method", "snake")
    page.fill("#id_seed", "7")
    page.click("#draw-groups")
    page.wait_for_function("() => document.querySelector('#group-draw-info') !== null")
    assert page.evaluate("window.__marker") == "same page"
    info = page.inner_text("#group-draw-info")
    assert "random seed 7" in info and "Left out of the draw (not checked in): Team 04." in info
    groups = page.locator("#groups [data-group]")
    assert groups.count() == 2
    assert all(groups.nth(i).locator("li").count() == 2 for i in range(2))
    if shots:
        page.screenshot(path=f"{shots}/group-draw-390.png", full_page=True)
    assert _fits(page)

    # Groups, then the final; the organiser finishes; the public page shows the podium.
    _play_open_round(organiser, tournament)  # group round
    _play_open_round(organiser, tournament)  # the final
    page.goto(f"{base}/t/{slug}/manage/")
    assert "Generate round" not in page.inner_text("#rounds")
    assert "Every round is played." in page.inner_text("#rounds-complete")
    page.click("button:has-text('Finish the tournament')")
    page.wait_for_url(f"{base}/t/{slug}/")
    podium = page.locator("#podium")
    assert "Champion" in podium.inner_text()
    assert podium.locator(".podium li").count() >= 3
    assert "The final" in podium.inner_text()
    champion = podium.locator(".place-1 strong").inner_text()
    assert champion in podium.locator(".game-table, .game-tables").first.inner_text()
    if shots:
        page.screenshot(path=f"{shots}/podium-390.png", full_page=True)
        page.set_viewport_size({"width": 1280, "height": 900})
        page.screenshot(path=f"{shots}/podium-1280.png", full_page=True)
        page.set_viewport_size({"width": 390, "height": 844})
    assert _fits(page)
    visitor.context.close()
