"""Keyboard only (issue 31): a player enters a scoresheet turn with Tab and Enter, and after every tap the
focus lands on the next thing to do (not on <body>) while the polite live region says what happened and
whose turn it is; the same after Drop / Undo drop on the manage page's check-in list (htmx row swaps).
The skip link is the first Tab stop and leads into the main content."""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.e2e.test_e2e_organiser import PASSWORD, browser_page, log_in  # noqa: F401  (the fixture)

FOCUSED = """() => { const e = document.activeElement; if (!e || e === document.body) return null;
  return {tag: e.tagName.toLowerCase(), text: (e.innerText || e.value || '').trim(), testid: e.dataset.testid || '',
          inSheet: !!e.closest('#sheet'), inTaps: !!e.closest('.sheet-taps'), row: (e.closest('tr') || {}).id || '',
          id: e.id || '', name: e.getAttribute('name') || ''}; }"""


def _tab_to(page: Any, test: Any, limit: int = 120) -> dict[str, Any]:
    """Press Tab until the focused element passes `test`; its description."""
    for _ in range(limit):
        page.keyboard.press("Tab")
        focused = page.evaluate(FOCUSED)
        if focused and test(focused):
            return focused
    raise AssertionError("the keyboard never reached the element")


def _focus_after_swap(page: Any) -> dict[str, Any] | None:
    """The focused element once htmx has settled the swap (focus.js moves it on htmx:afterSettle)."""
    try:
        page.wait_for_function("() => document.activeElement && document.activeElement !== document.body",
                               timeout=15000)
    except Exception:  # noqa: BLE001 - the assertion after this says what is wrong
        return None
    return page.evaluate(FOCUSED)


def _live(page: Any) -> str:
    page.wait_for_function("() => document.getElementById('live-status').textContent.trim().length > 0")
    return page.evaluate("document.getElementById('live-status').textContent")


def _version(page: Any) -> int:
    return int(page.locator("#sheet").get_attribute("data-version") or 0)


@pytest.mark.e2e
@pytest.mark.django_db(transaction=True)
def test_keyboard_only_scoresheet_entry_keeps_focus_and_announces(
    live_server: Any, browser_page: Any, settings: Any  # noqa: F811
) -> None:
    from django.contrib.auth import get_user_model
    from django.utils import translation

    from games.models import Scoresheet
    from games.scoresheet.choices import entry_steps
    from rules import scoresheet
    from tests.games.conftest import random_record, relabel
    from tests.games.scoresheet_support import public_entries
    from tests.tournaments.conftest import make_tournament, published_round, seated_entrants

    settings.SCORESHEET_THROTTLE_RATE = "100000/min"
    organiser = get_user_model().objects.create_user("keys", password=PASSWORD)
    tournament = make_tournament(organiser, game="tac", entrants=4, name="Keys Cup")
    fresh, prepared = list(published_round(organiser, tournament).tables.order_by("number"))
    page = browser_page

    # 1. The skip link is the first Tab stop; Enter moves into <main>.
    page.goto(f"{live_server.url}/report/{seated_entrants(fresh)[0].report_token}/tables/{fresh.pk}/scoresheet/")
    page.keyboard.press("Tab")
    assert page.evaluate(FOCUSED)["text"] == "Skip to the content"
    page.keyboard.press("Enter")
    assert page.evaluate("document.activeElement.id") == "main"

    # 2. Start by keyboard: the focus goes to the deal's first field, the live region says what to enter.
    _tab_to(page, lambda f: f["testid"] == "start")
    page.keyboard.press("Enter")
    page.wait_for_function("() => document.querySelector('#sheet').dataset.version === '1'")
    focused = _focus_after_swap(page)
    assert focused and focused["inSheet"] and focused["tag"] in ("input", "select"), focused
    assert focused["name"].startswith("seat-"), focused  # the first announcement / exchange field
    assert re.search(r"Enter the (announcements|exchanged cards)\.", _live(page))

    # 3. A turn by keyboard on a sheet standing at its first turn: card, then move; focus follows each tap.
    record = relabel(random_record("tac", {}, seed=41), prepared)
    entries = public_entries(record)
    first_turn = next(i for i, e in enumerate(entries) if "card" in e)
    state = scoresheet.sheet_start(game="tac", variant={}, players=sorted(record["players"], key=lambda p: p["seats"][0]),
                                   dealer=record["deals"][0]["dealer"])
    for entry in entries[:first_turn]:
        state = scoresheet.sheet_add(state, entry)
    Scoresheet.objects.create(tournament=tournament, table=prepared, game="tac", variant={}, state=state,
                              players=record["players"], version=3, entries=first_turn)
    page.goto(f"{live_server.url}/report/{seated_entrants(prepared)[0].report_token}/tables/{prepared.pk}/scoresheet/")
    loads: list[str] = []
    page.on("load", lambda: loads.append(page.url))
    with translation.override("en"):
        steps = entry_steps(entries[first_turn])
    version = _version(page)
    for depth, step in enumerate(steps):
        last = depth == len(steps) - 1
        wanted = {step.label, f"{step.label} (done)"} if last else {step.label}
        _tab_to(page, lambda f, wanted=wanted: f["inTaps"] and f["text"] in wanted)
        page.keyboard.press("Enter")
        if last:
            page.wait_for_function("(v) => document.querySelector('#sheet').dataset.version === String(v)",
                                   arg=version + 1)
        else:
            # (an empty path is no step: without the filter the first wait passed before the swap)
            page.wait_for_function("(d) => (document.querySelector('#sheet').dataset.path || '').split('|')"
                                   ".filter(Boolean).length === d", arg=depth + 1)
        focused = _focus_after_swap(page)
        # never dropped to <body>: on the next tap to make (the next turn's cards after the entry)
        assert focused and focused["inTaps"] and focused["tag"] in ("a", "button"), (depth, focused, loads)
    message = _live(page)
    move_words = page.locator(".board-words .move-words").inner_text()
    assert message.startswith(move_words) and "plays." in message, message  # the move in words, then whose turn
    to_move = page.locator("[data-testid=status]").inner_text()
    # the player named as the sheet names a seat: name and colour, "P4-0 (orange) plays."
    whose_turn = re.search(r"([^\n]+?) plays\.", to_move)
    assert whose_turn and f"{whose_turn.group(1)} plays." in message, (to_move, message)
    assert Scoresheet.objects.get(table=prepared).state["entries"] == entries[: first_turn + 1]


@pytest.mark.e2e
@pytest.mark.django_db(transaction=True)
def test_keyboard_drop_and_undo_drop_keep_focus_on_the_row(live_server: Any, browser_page: Any) -> None:  # noqa: F811
    from django.contrib.auth import get_user_model

    from tests.tournaments.conftest import make_tournament
    from tournaments.models import Entrant

    organiser = get_user_model().objects.create_user("organiser", password=PASSWORD)
    tournament = make_tournament(organiser, entrants=3, name="Drop Cup")
    entrant = Entrant.objects.get(tournament=tournament, seed=2)
    page = browser_page
    log_in(page, live_server.url)
    page.goto(f"{live_server.url}/t/{tournament.slug}/manage/")
    page.on("dialog", lambda dialog: dialog.accept())  # hx-confirm
    row = f"entrant-{entrant.pk}"
    _tab_to(page, lambda f: f["row"] == row and f["text"] == "Drop")
    page.keyboard.press("Enter")
    page.wait_for_function("(id) => document.getElementById(id).innerText.includes('Undo drop')", arg=row)
    focused = _focus_after_swap(page)
    assert focused and focused["row"] == row and focused["text"] == "Undo drop", focused
    assert _live(page) == f"{entrant.name}: Dropped"
    page.keyboard.press("Enter")  # Undo drop, from where the focus landed
    page.wait_for_function("(id) => !document.getElementById(id).innerText.includes('Undo drop')", arg=row)
    focused = _focus_after_swap(page)
    assert focused and focused["row"] == row and focused["tag"] == "button", focused
    page.wait_for_function("(t) => document.getElementById('live-status').textContent === t",
                           arg=f"{entrant.name}: Registered")


DESCRIBED = """() => { const e = document.activeElement; if (!e) return '';
  const ids = (e.getAttribute('aria-describedby') || '').split(/\\s+/).filter(Boolean);
  return ids.map((id) => (document.getElementById(id) || {}).textContent || '').join(' ').trim(); }"""


def _heard(page: Any) -> str:
    """What a screen reader says on the focused element: its role and name (Playwright's aria snapshot of
    the element) and its description."""
    snapshot = page.locator(":focus").aria_snapshot().splitlines()[0].lstrip("- ").rstrip(":")
    description = page.evaluate(DESCRIBED)
    return snapshot + (f" — {description}" if description else "")


@pytest.mark.e2e
@pytest.mark.django_db(transaction=True)
def test_keyboard_walk_of_a_whole_tac_deal(live_server: Any, browser_page: Any, settings: Any) -> None:  # noqa: F811
    """A whole first deal of TAC on the scoresheet by keyboard: after every entry the focus is on the next
    thing to do and the live region speaks. With A11Y_WALK=<file> the transcript (what a screen-reader user
    hears at each step) is written there as a Markdown table (docs/accessibility.md shows one)."""
    import os

    from django.contrib.auth import get_user_model
    from django.utils import translation

    from games.models import Scoresheet
    from games.scoresheet.choices import entry_steps
    from tests.games.conftest import random_record, relabel
    from tests.games.scoresheet_support import public_entries
    from tests.tournaments.conftest import make_tournament, published_round, seated_entrants

    settings.SCORESHEET_THROTTLE_RATE = "100000/min"
    organiser = get_user_model().objects.create_user("walker", password=PASSWORD)
    tournament = make_tournament(organiser, game="tac", entrants=2, name="Walk Cup")
    table = published_round(organiser, tournament).tables.get(number=1)
    record = relabel(random_record("tac", {}, seed=21), table)
    deal = record["deals"][0]
    entries = public_entries({"deals": [deal]})
    page = browser_page
    page.goto(f"{live_server.url}/report/{seated_entrants(table)[0].report_token}/tables/{table.pk}/scoresheet/")
    walk: list[tuple[str, str, str]] = []

    def after_swap(version: int | None = None, depth: int | None = None) -> None:
        if version is not None:
            page.wait_for_function("(v) => document.querySelector('#sheet').dataset.version === String(v)", arg=version)
        if depth is not None:
            page.wait_for_function("(d) => (document.querySelector('#sheet').dataset.path || '').split('|')"
                                   ".filter(Boolean).length === d", arg=depth)
        focused = _focus_after_swap(page)
        assert focused and focused["inSheet"], (len(walk), focused)

    page.locator(f"input[name=dealer][value='{deal['dealer']}']").check()
    _tab_to(page, lambda f: f["testid"] == "start")
    walk.append(("Enter on “Start”", "", ""))
    page.keyboard.press("Enter")
    after_swap(version=1)
    walk[-1] = (walk[-1][0], _heard(page), _live(page))
    with translation.override("en"):
        for entry in entries:
            version = _version(page)
            if "card" not in entry:
                kind = "announce" if "announce" in entry else "exchange"
                for seat, value in enumerate(entry[kind]):
                    if kind == "announce" and value:
                        page.locator(f"[data-testid=announce-{seat}-yes]").check()
                    elif kind == "exchange" and value is not None:
                        page.locator(f"[data-testid=exchange-{seat}]").select_option(value)
                _tab_to(page, lambda f, kind=kind: f["testid"] == kind)
                label = page.evaluate(FOCUSED)["text"]
                page.keyboard.press("Enter")
                after_swap(version=version + 1)
                walk.append((f"Enter on “{label}”", _heard(page), _live(page)))
                continue
            steps = entry_steps(entry)
            for depth, step in enumerate(steps):
                last = depth == len(steps) - 1
                wanted = {step.label, f"{step.label} (done)"} if last else {step.label}
                _tab_to(page, lambda f, wanted=wanted: f["inTaps"] and f["text"] in wanted)
                label = page.evaluate(FOCUSED)["text"]
                page.keyboard.press("Enter")
                after_swap(version=version + 1 if last else None, depth=None if last else depth + 1)
                walk.append((f"Enter on “{label}”", _heard(page), _live(page)))
    assert Scoresheet.objects.get(table=table).state["entries"] == entries
    assert all(heard and said for _, heard, said in walk)
    out = os.environ.get("A11Y_WALK")
    if out:
        with open(out, "w", encoding="utf-8") as handle:
            handle.write("| # | Key | Focus lands on (role, name — description) | Live region says |\n|---|---|---|---|\n")
            for number, (key, heard, said) in enumerate(walk, 1):
                cells = [c.replace("|", "\\|").replace("\n", " ") for c in (key, heard, said)]
                handle.write(f"| {number} | {cells[0]} | {cells[1]} | {cells[2]} |\n")


@pytest.mark.e2e
@pytest.mark.django_db(transaction=True)
def test_keyboard_replay_next_step_keeps_the_focus_and_the_words_follow(
    live_server: Any, browser_page: Any  # noqa: F811
) -> None:
    """Enter on the replay's "Next step" swaps the step (htmx): the focus stays on the new "Next step", and the
    board in words beside the picture follows the step."""
    import json

    from django.contrib.auth import get_user_model

    from games.services import record_submit
    from tests.games.conftest import one_table_tournament, random_record, relabel

    organiser = get_user_model().objects.create_user("replayer", password=PASSWORD)
    tournament, table = one_table_tournament(organiser, "tac", {}, name="Replay Keys Cup")
    record = record_submit(table=table, actor=organiser, data=json.dumps(relabel(random_record("tac", {}, seed=3), table)),
                           source="api")
    page = browser_page
    page.goto(f"{live_server.url}/t/{tournament.slug}/records/{record.pk}/?step=5#replay")
    before = page.locator("[data-testid=board-words]").inner_text()
    _tab_to(page, lambda f: page.evaluate("document.activeElement.dataset.nav || ''") == "next")
    page.keyboard.press("Enter")
    page.wait_for_function("() => document.querySelector('#replay-step').dataset.step === '6'")
    _focus_after_swap(page)
    assert page.evaluate("document.activeElement.dataset.nav") == "next"
    after = page.locator("[data-testid=board-words]").inner_text()
    assert after != before and "in the prefield" in after
