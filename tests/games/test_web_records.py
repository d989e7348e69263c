"""The web pages of game records: the record page with its replay for every game kind, the step
fragment's bounds, downloads, submitting (account, private link, organiser), lists, bulk import, and
the permission matrix (private tournaments stay invisible, non-players may not submit)."""

from __future__ import annotations

import copy
import io
import json
import xml.etree.ElementTree as ET
import zipfile
from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from games import views
from games.models import GameRecord, ImportBatch
from games.services import record_submit
from tests.games.conftest import CASE_IDS, GAME_CASES, one_table_tournament, random_record, relabel
from tests.tournaments.conftest import seated_entrants, user_for_entrant
from tournaments.models import Result, Round

pytestmark = pytest.mark.django_db


def wrong_seat_at(record: dict[str, Any], turn: int) -> dict[str, Any]:
    """The `turn`-th action of the first deal is played by the wrong seat (a precise, mid-game error)."""
    record = copy.deepcopy(record)
    deal = record["deals"][0]
    key = "events" if "events" in deal else "turns"
    seats = sorted(s for p in record["players"] for s in p["seats"])
    action = deal[key][turn]
    action["seat"] = seats[(seats.index(action["seat"]) + 1) % len(seats)]
    return record


def submitted(table: Any, record: dict[str, Any], actor: Any, capture: Any) -> GameRecord:
    with capture(execute=True):
        stored = record_submit(table=table, actor=actor, data=json.dumps(record), source="api")
    stored.refresh_from_db()
    return stored


def page_url(record: GameRecord, *rest: Any) -> str:
    return reverse("games:record-detail", args=[record.tournament.slug, record.pk]) + "".join(map(str, rest))


def total_steps(html: str) -> int:
    marker = 'data-total="'
    return int(html[html.index(marker) + len(marker) :].split('"', 1)[0])


# Every game kind ------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("game", "tvariant", "rvariant"), GAME_CASES, ids=CASE_IDS)
def test_record_page_and_steps_for_every_game(
    client: Client,
    organiser: Any,
    game: str,
    tvariant: Any,
    rvariant: Any,
    django_capture_on_commit_callbacks: Any,
) -> None:
    tournament, table = one_table_tournament(organiser, game, tvariant)
    record = submitted(
        table,
        relabel(random_record(game, rvariant, seed=3), table),
        organiser,
        django_capture_on_commit_callbacks,
    )
    assert record.status == "valid"
    response = client.get(page_url(record))
    assert response.status_code == 200
    html = response.content.decode()
    kind = {"taki": "taki", "zack": "zack"}.get(game, "marbles")
    assert f"replay-board {kind}" in html, html[html.find("<main") :][:3000]
    assert 'data-testid="step-counter"' in html and "Step 1 of" in html
    assert "badge-ok" in html  # the verdict box says valid
    total = total_steps(html)
    assert total >= 3
    # Fragments: first, middle, last exist; one past the end does not.
    for n in (0, total // 2, total - 1):
        fragment = client.get(page_url(record, f"steps/{n}/"))
        assert fragment.status_code == 200, n
        body = fragment.content.decode()
        assert f'data-step="{n}"' in body and f"Step {n + 1} of {total}" in body
        assert "<html" not in body  # a fragment, not a page
    assert client.get(page_url(record, f"steps/{total}/")).status_code == 404
    assert client.get(page_url(record, "?step=99999")).status_code == 404
    assert client.get(page_url(record, "?step=nonsense")).status_code == 200  # falls back to the start
    # The no-JS link to the next step is a plain page URL.
    assert "?step=1#replay" in html


def test_pending_verdict_box_polls_until_verified(client: Client, organiser: Any) -> None:
    from games.services import record_verify

    tournament, table = one_table_tournament(organiser, "zack", {"seats": 4})
    text = json.dumps(relabel(random_record("zack", {"seats": 4}, seed=12), table))
    record = record_submit(table=table, actor=organiser, data=text, source="api")  # the task is not run yet
    html = client.get(page_url(record)).content.decode()
    assert "being verified" in html and 'hx-trigger="every 2s"' in html and 'hx-select="#verdict"' in html
    record_verify(record_id=record.pk)
    html = client.get(page_url(record)).content.decode()
    assert "being verified" not in html and "hx-trigger" not in html.split('id="replay"')[0]


def test_downloads(client: Client, organiser: Any, django_capture_on_commit_callbacks: Any) -> None:
    tournament, table = one_table_tournament(organiser, "taki", {"seats": 4})
    record = submitted(
        table,
        relabel(random_record("taki", {"seats": 4}, seed=5), table),
        organiser,
        django_capture_on_commit_callbacks,
    )
    response = client.get(page_url(record, "record.json"))
    assert response.status_code == 200
    assert response["Content-Type"].startswith("application/json")
    assert "attachment" in response["Content-Disposition"]
    assert response.content.decode() == record.raw
    svg = client.get(page_url(record, "steps/2.svg"))
    assert svg.status_code == 200
    assert svg["Content-Type"].startswith("image/svg+xml")
    assert "default-src 'none'" in svg["Content-Security-Policy"]
    root = ET.fromstring(svg.content)
    assert root.tag == "{http://www.w3.org/2000/svg}svg"
    assert client.get(page_url(record, "steps/100000.svg")).status_code == 404


def test_invalid_record_shows_the_failing_action_after_the_last_good_step(
    client: Client, organiser: Any, django_capture_on_commit_callbacks: Any
) -> None:
    tournament, table = one_table_tournament(organiser, "tac", {})
    record = submitted(
        table,
        wrong_seat_at(relabel(random_record("tac", {}, seed=3), table), 4),
        organiser,
        django_capture_on_commit_callbacks,
    )
    assert (record.status, record.error_code, record.error_path) == (
        "invalid",
        "wrong_seat",
        "/deals/0/turns/4/seat",
    )
    assert not Result.objects.filter(table=table).exists()  # an invalid record never changes a result
    html = client.get(page_url(record)).content.decode()
    assert "badge-err" in html and "wrong_seat" in html and record.error_message in html
    total = total_steps(html)
    assert total == 1 + 1 + 4 + 1  # start, deal 1, four good actions, then the failing one
    assert "Show the invalid action" in html
    failing = client.get(page_url(record, f"steps/{total - 1}/")).content.decode()
    assert "invalid-action" in failing and "wrong_seat" in failing
    assert (
        "hl-invalid" in failing and "invalid-message" in failing
    )  # highlighted in the SVG, with the message
    good = client.get(page_url(record, f"steps/{total - 2}/")).content.decode()
    assert "invalid-action" not in good and "hl-invalid" not in good


def test_long_record_is_cut_with_a_notice(
    client: Client, organiser: Any, monkeypatch: pytest.MonkeyPatch, django_capture_on_commit_callbacks: Any
) -> None:
    monkeypatch.setattr("games.views.TRACE_MAX_STEPS", 5)
    tournament, table = one_table_tournament(organiser, "tac", {})
    record = submitted(
        table,
        wrong_seat_at(relabel(random_record("tac", {}, seed=3), table), 8),
        organiser,
        django_capture_on_commit_callbacks,
    )
    html = client.get(page_url(record)).content.decode()
    assert total_steps(html) == 5  # no failure step after a cut trace: step 5 is not the last good position
    assert "the replay shows its first steps only" in html
    assert client.get(page_url(record, "steps/5/")).status_code == 404


def test_trace_is_cached_per_text_and_engine(
    client: Client, organiser: Any, monkeypatch: pytest.MonkeyPatch, django_capture_on_commit_callbacks: Any
) -> None:
    tournament, table = one_table_tournament(organiser, "zack", {"seats": 4})
    record = submitted(
        table,
        relabel(random_record("zack", {"seats": 4}, seed=2), table),
        organiser,
        django_capture_on_commit_callbacks,
    )
    calls: list[int] = []
    real = views.trace_bytes
    monkeypatch.setattr(views, "trace_bytes", lambda *a, **k: calls.append(1) or real(*a, **k))
    for n in range(3):
        assert client.get(page_url(record, f"steps/{n}/")).status_code == 200
    html = client.get(page_url(record)).content.decode()
    assert len(calls) == 1
    # Snapshots are cached in chunks; a chunk evicted alone is traced again, and the answer is the same.
    from django.core.cache import cache

    total = total_steps(html)
    last_chunk = (total - 1) // views.SNAPSHOT_CHUNK
    key = views.record_replay(record).key
    before = client.get(page_url(record, f"steps/{total - 1}/")).content
    cache.delete(f"{key}:{last_chunk}")
    assert client.get(page_url(record, f"steps/{total - 1}/")).content == before
    assert len(calls) == 2


# Permissions ----------------------------------------------------------------------------------------------


def test_private_tournament_records_are_invisible_to_outsiders(
    client: Client, organiser: Any, django_capture_on_commit_callbacks: Any
) -> None:
    from django.contrib.auth import get_user_model

    tournament, table = one_table_tournament(organiser, "taki", {"seats": 4}, is_public=False)
    record = submitted(
        table,
        relabel(random_record("taki", {"seats": 4}, seed=1), table),
        organiser,
        django_capture_on_commit_callbacks,
    )
    urls = [
        page_url(record),
        page_url(record, "steps/0/"),
        page_url(record, "steps/0.svg"),
        page_url(record, "record.json"),
        reverse("games:records", args=[tournament.slug]),
        reverse("games:table-records", args=[tournament.slug, table.pk]),
    ]
    for url in urls:
        assert client.get(url).status_code == 404, url  # anonymous
    stranger = get_user_model().objects.create_user("nosy", password="nosy-password-1")
    client.force_login(stranger)
    for url in urls:
        assert client.get(url).status_code == 404, url
    client.force_login(organiser)
    for url in urls:
        assert client.get(url).status_code == 200, url
    client.logout()
    # A player of the table sees the record through the private link; another table's link does not.
    entrants = seated_entrants(table)
    token_url = reverse("games:token-record-detail", args=[entrants[0].report_token, record.pk])
    assert client.get(token_url).status_code == 200
    assert client.get(token_url + "steps/1/").status_code == 200
    assert (
        client.get(reverse("games:token-record-detail", args=["not-a-token", record.pk])).status_code == 404
    )


def test_record_of_another_tournament_is_not_found_under_this_slug(
    client: Client, organiser: Any, django_capture_on_commit_callbacks: Any
) -> None:
    tournament, table = one_table_tournament(organiser, "taki", {"seats": 4}, name="First")
    other, _ = one_table_tournament(organiser, "taki", {"seats": 4}, name="Second")
    record = submitted(
        table,
        relabel(random_record("taki", {"seats": 4}, seed=1), table),
        organiser,
        django_capture_on_commit_callbacks,
    )
    assert client.get(reverse("games:record-detail", args=[other.slug, record.pk])).status_code == 404


def _record_text(table: Any, seed: int = 4) -> str:
    return json.dumps(relabel(random_record("taki", {"seats": 4}, seed=seed), table))


def test_submit_page_permissions(
    client: Client, organiser: Any, django_capture_on_commit_callbacks: Any
) -> None:
    from django.contrib.auth import get_user_model

    tournament, table = one_table_tournament(organiser, "taki", {"seats": 4})
    url = reverse("games:record-submit", args=[tournament.slug, table.pk])
    # Anonymous: to the login page.
    assert client.get(url).status_code == 302
    # A logged-in stranger may not submit (page and POST), and nothing is stored.
    stranger = get_user_model().objects.create_user("stranger2", password="stranger-password-1")
    client.force_login(stranger)
    assert client.get(url).status_code == 403
    assert client.post(url, {"record_text": _record_text(table)}).status_code == 403
    assert not GameRecord.objects.exists()
    # A player of the table may.
    player = user_for_entrant(seated_entrants(table)[1], "player2")
    client.force_login(player)
    assert client.get(url).status_code == 200
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(url, {"record_text": _record_text(table)})
    assert response.status_code == 302
    record = GameRecord.objects.get()
    assert response["Location"] == page_url(record)
    assert (record.source, record.submitted_for_id) == ("paste", seated_entrants(table)[1].pk)
    # The organiser may, by file upload.
    client.force_login(organiser)
    upload = io.BytesIO(_record_text(table, seed=9).encode())
    upload.name = "game.json"
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(url, {"record_file": upload})
    assert response.status_code == 302
    assert GameRecord.objects.filter(source="upload").count() == 1


def test_private_link_submit(client: Client, organiser: Any, django_capture_on_commit_callbacks: Any) -> None:
    tournament, table = one_table_tournament(organiser, "zack", {"seats": 4})
    entrants = seated_entrants(table)
    url = reverse("games:token-record-submit", args=[entrants[2].report_token, table.pk])
    assert client.get(url).status_code == 200
    text = json.dumps(relabel(random_record("zack", {"seats": 4}, seed=6), table))
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(url, {"record_text": text})
    assert response.status_code == 302
    record = GameRecord.objects.get()
    assert response["Location"] == reverse(
        "games:token-record-detail", args=[entrants[2].report_token, record.pk]
    )
    assert record.submitted_for_id == entrants[2].pk
    assert client.get(response["Location"]).status_code == 200
    assert client.get(reverse("games:token-record-submit", args=["bogus", table.pk])).status_code == 404


def test_private_link_of_another_table_cannot_submit(client: Client, organiser: Any) -> None:
    from tests.tournaments.conftest import make_tournament, published_round

    tournament = make_tournament(organiser, game="taki", variant={"seats": 4}, entrants=8)
    round_ = published_round(organiser, tournament)
    first, second = round_.tables.filter(is_bye=False).order_by("number")[:2]
    outsider = seated_entrants(second)[0]
    url = reverse("games:token-record-submit", args=[outsider.report_token, first.pk])
    assert client.get(url).status_code == 404
    assert client.post(url, {"record_text": _record_text(first)}).status_code == 404
    assert not GameRecord.objects.exists()


@pytest.mark.parametrize("case", ["empty", "too_large", "not_json", "wrong_players", "wrong_game"])
def test_submit_bad_input_is_a_clear_4xx(client: Client, organiser: Any, settings: Any, case: str) -> None:
    tournament, table = one_table_tournament(organiser, "taki", {"seats": 4})
    client.force_login(organiser)
    url = reverse("games:record-submit", args=[tournament.slug, table.pk])
    record = relabel(random_record("taki", {"seats": 4}, seed=4), table)
    settings.GAMES_RECORD_MAX_BYTES = 20_000
    expected = {
        "empty": "Choose a record file or paste the record.",
        "too_large": "too large",
        "not_json": "",
        "wrong_players": "",
        "wrong_game": "",
    }[case]
    if case == "empty":
        data = {"record_text": "   "}
    elif case == "too_large":
        data = {"record_text": json.dumps(record) + " " * 20_000}
    elif case == "not_json":
        data = {"record_text": "{not json"}
    elif case == "wrong_players":
        record["players"][0]["name"] = "Somebody Else"
        record["players"][0].pop("id", None)
        data = {"record_text": json.dumps(record)}
    else:
        data = {"record_text": json.dumps(random_record("zack", {"seats": 4}, seed=1))}
    response = client.post(url, data)
    assert 400 <= response.status_code < 500, response.status_code
    html = response.content.decode()
    assert 'class="notice notice-err"' in html and expected in html
    assert not GameRecord.objects.exists()


def test_submit_error_is_shown_in_german(client: Client, organiser: Any) -> None:
    """The service's sentence is raised in the request's language (msgid translated in locale/de)."""
    tournament, table = one_table_tournament(organiser, "taki", {"seats": 4})
    Round.objects.filter(pk=table.round_id).update(status=Round.Status.DRAFT)
    client.force_login(organiser)
    url = reverse("games:record-submit", args=[tournament.slug, table.pk])
    response = client.post(url, {"record_text": _record_text(table)}, HTTP_ACCEPT_LANGUAGE="de")
    assert response.status_code == 409
    html = response.content.decode()
    assert "Die Runde ist noch nicht veröffentlicht." in html and "The round is not published yet." not in html
    assert not GameRecord.objects.exists()


def test_games_sentences_go_through_gettext(
    client: Client, organiser: Any, german_entry: Any, django_capture_on_commit_callbacks: Any
) -> None:
    """A games-only sentence (never listed in the old exact-match table) is looked up in the catalogue."""
    german_entry("This record was already submitted for this table.", "Schon da (Testkatalog).")
    tournament, table = one_table_tournament(organiser, "taki", {"seats": 4})
    client.force_login(organiser)
    url = reverse("games:record-submit", args=[tournament.slug, table.pk])
    with django_capture_on_commit_callbacks(execute=True):
        assert client.post(url, {"record_text": _record_text(table)}).status_code == 302
    again = client.post(url, {"record_text": _record_text(table)}, HTTP_ACCEPT_LANGUAGE="de")
    assert again.status_code == 409 and "Schon da (Testkatalog)." in again.content.decode()
    english = client.post(url, {"record_text": _record_text(table)}, HTTP_ACCEPT_LANGUAGE="en")
    assert "This record was already submitted for this table." in english.content.decode()
    assert GameRecord.objects.count() == 1


# Lists and links --------------------------------------------------------------------------------------------


def test_lists_and_links(client: Client, organiser: Any, django_capture_on_commit_callbacks: Any) -> None:
    tournament, table = one_table_tournament(organiser, "taki", {"seats": 4})
    record = submitted(
        table,
        relabel(random_record("taki", {"seats": 4}, seed=8), table),
        organiser,
        django_capture_on_commit_callbacks,
    )
    for url in (
        reverse("games:records", args=[tournament.slug]),
        reverse("games:table-records", args=[tournament.slug, table.pk]),
    ):
        html = client.get(url).content.decode()
        assert page_url(record) in html
    round_page = client.get(reverse("web:round-detail", args=[tournament.slug, 1])).content.decode()
    assert reverse("games:table-records", args=[tournament.slug, table.pk]) in round_page
    entrant = seated_entrants(table)[0]
    token_home = client.get(reverse("web:token-home", args=[entrant.report_token])).content.decode()
    assert reverse("games:token-record-submit", args=[entrant.report_token, table.pk]) in token_home
    client.force_login(organiser)
    manage = client.get(reverse("web:manage", args=[tournament.slug])).content.decode()
    assert reverse("games:records-import", args=[tournament.slug]) in manage


def test_conflict_shown_on_the_manage_page(
    client: Client, organiser: Any, django_capture_on_commit_callbacks: Any
) -> None:
    from tournaments.services.results import result_override

    tournament, table = one_table_tournament(organiser, "taki", {"seats": 4})
    record = submitted(
        table,
        relabel(random_record("taki", {"seats": 4}, seed=8), table),
        organiser,
        django_capture_on_commit_callbacks,
    )
    assert record.settlement == "settled"
    client.force_login(organiser)
    manage_url = reverse("web:manage", args=[tournament.slug])
    assert "record-conflicts" not in client.get(manage_url).content.decode()
    # The organiser decides a different winner by hand: the record now contradicts the table's result.
    winner_seat = record.derived_result["winners"][0]
    loser = next(e for e in seated_entrants(table) if e.pk != record.seat_entrants[winner_seat])
    others = [e for e in seated_entrants(table) if e.pk != loser.pk]
    placings = {loser.pk: 1} | {e.pk: place for place, e in enumerate(others, start=2)}
    with django_capture_on_commit_callbacks(execute=True):
        result_override(actor=organiser, table=table, kind="normal", placings=placings)
    html = client.get(manage_url).content.decode()
    assert "record-conflicts" in html and page_url(record) in html


# Bulk import ----------------------------------------------------------------------------------------------


def test_bulk_import_page_progress_and_report(
    client: Client, organiser: Any, django_capture_on_commit_callbacks: Any
) -> None:
    from tests.tournaments.conftest import make_tournament, published_round

    tournament = make_tournament(organiser, game="taki", variant={"seats": 4}, entrants=8)
    round_ = published_round(organiser, tournament)
    tables = list(round_.tables.filter(is_bye=False).order_by("number"))
    lines = []
    for number, table in enumerate(tables, start=1):
        doc = relabel(random_record("taki", {"seats": 4}, seed=number), table)
        doc["meta"] = {"round": 1, "table": table.number}
        lines.append(json.dumps(doc))
    lines.append("{broken")
    url = reverse("games:records-import", args=[tournament.slug])
    client.force_login(organiser)
    assert client.get(url).status_code == 200
    upload = io.BytesIO("\n".join(lines).encode())
    upload.name = "round1.jsonl"
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(url, {"import_file": upload})
    assert response.status_code == 302, response.content.decode()[-2000:]
    batch = ImportBatch.objects.get()
    assert response["Location"] == reverse("games:import-detail", args=[tournament.slug, batch.pk])
    page = client.get(response["Location"]).content.decode()
    assert "<progress" in page
    fragment = client.get(reverse("games:import-progress", args=[tournament.slug, batch.pk])).content.decode()
    assert "hx-trigger" not in fragment  # done: no more polling
    assert fragment.count("badge-ok") == len(tables) and "refused" in fragment
    for record in GameRecord.objects.all():
        assert page_url(record) in fragment
    # A zip works too; a non-organiser may not import or watch.
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w") as archive:
        archive.writestr("t1.json", lines[0])
    buffer.seek(0)
    buffer.name = "again.zip"
    with django_capture_on_commit_callbacks(execute=True):
        assert client.post(url, {"import_file": buffer}).status_code == 302
    player = user_for_entrant(seated_entrants(tables[0])[0], "importer")
    client.force_login(player)
    assert client.get(url).status_code == 403
    assert client.get(reverse("games:import-progress", args=[tournament.slug, batch.pk])).status_code == 403


def test_huge_paste_is_a_400_not_a_500(client: Client, organiser: Any) -> None:
    tournament, table = one_table_tournament(organiser, "taki", {"seats": 4})
    client.force_login(organiser)
    url = reverse("games:record-submit", args=[tournament.slug, table.pk])
    response = client.post(url, {"record_text": "x" * (3 * 1024 * 1024)})
    assert response.status_code == 400
    assert not GameRecord.objects.exists()


def test_bulk_import_bad_file_is_a_422(client: Client, organiser: Any) -> None:
    tournament, table = one_table_tournament(organiser, "taki", {"seats": 4})
    client.force_login(organiser)
    upload = io.BytesIO(b"PK\x03\x04 not really a zip")
    upload.name = "broken.zip"
    response = client.post(reverse("games:records-import", args=[tournament.slug]), {"import_file": upload})
    assert response.status_code == 422
    assert 'class="notice notice-err"' in response.content.decode()
    assert not ImportBatch.objects.exists()
