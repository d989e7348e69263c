"""Tournament archive (issue 17): export/import round trip gives byte-identical standings and the same
results history; a malformed or hostile archive is refused whole and writes nothing; CLI, API, page."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.core.management import CommandError, call_command
from django.test import Client
from django.urls import reverse

from tournaments.archive import archive_export, archive_import
from tournaments.errors import TournamentError
from tournaments.exports import standings_rows
from tournaments.models import Entrant, Result, Tournament
from tournaments.services.entrants import entrant_drop

pytestmark = pytest.mark.django_db


@pytest.fixture
def organiser() -> Any:
    return get_user_model().objects.create_user("archivist", password="archive-pass-1")


@pytest.fixture
def played(organiser: Any) -> Tournament:
    return simulate_tournament_for(organiser)


def simulate_tournament_for(organiser: Any) -> Tournament:
    from tournaments.services.entrants import entrant_register
    from tournaments.services.results import result_override, result_reject, result_report
    from tournaments.services.rounds import round_generate, round_publish
    from tournaments.services.standings import standings_recompute
    from tournaments.services.tournaments import tournament_create

    tournament = tournament_create(actor=organiser, name="Archive Cup", game="tac", format="swiss", rounds_planned=3)
    for i in range(6):
        entrant_register(actor=organiser, tournament=tournament, name=f"Team {i}", player_names=[f"A{i}", f"B{i}"],
                         seed=i + 1, club="Club X" if i % 2 else None)
    for number in range(2):
        round_ = round_publish(actor=organiser, round=round_generate(actor=organiser, tournament=tournament))
        for index, table in enumerate(round_.tables.filter(is_bye=False).order_by("number")):
            a, b = [s.entrant for s in table.seats.order_by("position")]
            if index == 0:  # a rejected report, then the organiser's decision: history to carry over
                pending = result_report(table=table, token=a.report_token, scores={a.pk: 8, b.pk: 1})
                result_reject(result=pending, token=b.report_token)
            result_override(actor=organiser, table=table, scores={a.pk: 7 - number, b.pk: 8} if index % 2
                            else {a.pk: 8, b.pk: 3 + index})
    entrant_drop(actor=organiser, entrant=tournament.entrants.order_by("name").last())
    standings_recompute(tournament_id=tournament.pk)
    return Tournament.objects.get(pk=tournament.pk)


def _standings_csv(tournament: Tournament) -> str:
    header, rows = standings_rows(tournament)
    return json.dumps([header, *rows])


def _history(tournament: Tournament) -> list[Any]:
    return [(r.table.round.number, r.table.number, r.kind, r.state, r.note,
             sorted((s.entrant.name, s.score, s.placing, s.is_winner) for s in r.scores.all()))
            for r in Result.objects.filter(table__round__tournament=tournament).order_by(
                "table__round__number", "table__number", "created_at", "pk")]


def test_round_trip_gives_identical_standings_and_history(organiser: Any, played: Tournament) -> None:
    document = json.loads(json.dumps(archive_export(played)))
    assert document["format"] == "tournament-archive/1"
    assert "report_token" not in json.dumps(document) and played.entrants.first().report_token not in json.dumps(document)
    copy_ = archive_import(actor=organiser, data=document, slug="archive-cup-copy")
    assert _standings_csv(copy_) == _standings_csv(played)
    assert _history(copy_) == _history(played)
    assert copy_.entrants.get(name=played.entrants.order_by("name").last().name).status == Entrant.Status.DROPPED
    assert set(copy_.entrants.values_list("report_token", flat=True)).isdisjoint(
        played.entrants.values_list("report_token", flat=True))
    again = archive_export(copy_)
    for key in ("exported_at", "source_slug"):
        again.pop(key), document.pop(key)
    assert again["tournament"] == document["tournament"]  # every setting carried over
    assert len(again["rounds"]) == len(document["rounds"]) and again["boards"] == document["boards"]


def _mutations(document: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    cases = []

    def case(name: str, change: Any) -> None:
        doc = copy.deepcopy(document)
        change(doc)
        cases.append((name, doc))

    case("wrong format", lambda d: d.update(format="tournament-archive/99"))
    case("unknown key", lambda d: d["tournament"].update(owner="me"))
    case("score as text", lambda d: d["rounds"][0]["tables"][0]["results"][-1]["lines"][0].update(score="8"))
    case("seat of a stranger", lambda d: d["rounds"][0]["tables"][0]["seats"][0].update(entrant=999999))
    case("two final results", lambda d: d["rounds"][0]["tables"][0]["results"].append(
        {**copy.deepcopy(d["rounds"][0]["tables"][0]["results"][-1]), "id": 10**12}))  # the constraint's case
    case("duplicate entrant names", lambda d: d["entrants"][1].update(name=d["entrants"][0]["name"]))
    case("huge name", lambda d: d["entrants"][0].update(name="x" * 10_000))
    case("bad game", lambda d: d["tournament"].update(game="chess"))
    case("not an object", lambda d: d.update(rounds="all of them"))
    case("player twice", lambda d: d["entrants"][1]["players"].__setitem__(0, d["entrants"][0]["players"][0]))
    case("deep variant", lambda d: d["tournament"].update(variant={"a": [[[[[[[[[[[1]]]]]]]]]]]}))
    case("NUL in note", lambda d: d["rounds"][0]["tables"][0]["results"][-1].update(note="a\x00b"))
    case("half a surrogate pair in a name", lambda d: d["entrants"][0].update(name="Team \udc00"))
    case("half a surrogate pair in a player", lambda d: d["players"][0].update(name="\ud83d"))
    return cases


def assert_each_refused_whole(organiser: Any, cases: list[tuple[str, Any]], *models: Any) -> None:
    """Each archive is refused with `invalid_archive` and leaves the rows of `models` as they were."""
    def counts() -> list[int]:
        return [model.objects.count() for model in models]

    before = counts()
    for name, bad in cases:
        with pytest.raises(TournamentError) as caught:
            archive_import(actor=organiser, data=bad, slug="bad-copy")
        assert caught.value.code == "invalid_archive", name
        assert counts() == before, name


def test_malformed_or_hostile_archives_are_refused_whole(organiser: Any, played: Tournament) -> None:
    document = json.loads(json.dumps(archive_export(played)))
    assert_each_refused_whole(organiser, _mutations(document), Tournament, Entrant, Result)


def test_command_line_round_trip_and_refusal(tmp_path: Path, organiser: Any, played: Tournament) -> None:
    target = tmp_path / "archive.json"
    call_command("tournament_export", played.slug, output=str(target))
    call_command("tournament_import", str(target), organiser="archivist", slug="cli-copy")
    assert _standings_csv(Tournament.objects.get(slug="cli-copy")) == _standings_csv(played)
    target.write_text("{not json", encoding="utf-8")
    with pytest.raises(CommandError):
        call_command("tournament_import", str(target), organiser="archivist", slug="cli-copy-2")
    assert not Tournament.objects.filter(slug="cli-copy-2").exists()


def test_api_and_page(client: Client, organiser: Any, played: Tournament) -> None:
    stranger = get_user_model().objects.create_user("stranger-a", password="x-pass-123")
    client.force_login(stranger)
    assert client.get(reverse("api-archive", args=[played.slug])).status_code == 403
    client.force_login(organiser)
    response = client.get(reverse("api-archive", args=[played.slug]))
    assert response.status_code == 200 and response["Content-Disposition"].startswith("attachment")
    created = client.post(reverse("api-archive-import") + "?slug=api-copy", response.content,
                          content_type="application/json")
    assert created.status_code == 201, created.content
    assert created.json()["slug"] == "api-copy"
    refused = client.post(reverse("api-archive-import"), b'{"format": "nope"}', content_type="application/json")
    assert refused.status_code == 422 and refused.json()["error"]["code"] == "invalid_archive"
    from django.core.files.uploadedfile import SimpleUploadedFile

    page = client.post(reverse("web:archive-import"), {
        "file": SimpleUploadedFile("a.json", client.get(reverse("web:archive-download", args=[played.slug])).content),
        "slug": "page-copy"})
    assert page.status_code == 302 and Tournament.objects.filter(slug="page-copy").exists()
    bad = client.post(reverse("web:archive-import"), {"file": SimpleUploadedFile("a.json", b"\xff\xfe")})
    assert bad.status_code == 400
    schema = client.get("/api/schema/").content.decode()
    assert "/api/tournaments/{slug}/archive.json" in schema and "/api/tournament-imports/" in schema


def test_game_records_travel_with_the_archive_and_keep_their_verdicts(
    organiser: Any, django_capture_on_commit_callbacks: Any
) -> None:
    pytest.importorskip("games")
    from games.demo import record_for_table
    from games.models import GameRecord
    from games.services import record_submit
    from tests.games.conftest import one_table_tournament

    tournament, table = one_table_tournament(organiser, "tac", {})
    valid = record_for_table(table, game="tac", variant={}, seed=3)
    with django_capture_on_commit_callbacks(execute=True):
        record_submit(table=table, actor=organiser, data=json.dumps(valid), source="upload")
    broken = copy.deepcopy(valid)
    broken["deals"][0]["turns"] = broken["deals"][0]["turns"][:3] + [{"card": "X"}]
    with django_capture_on_commit_callbacks(execute=True):
        record_submit(table=table, actor=organiser, data=json.dumps(broken), source="upload")
    verdicts = sorted(GameRecord.objects.filter(tournament=tournament).values_list("status", "error_code", "complete"))
    assert [v[0] for v in verdicts] == ["invalid", "valid"]
    document = json.loads(json.dumps(archive_export(tournament)))
    assert len(document["records"]) == 2
    copy_ = archive_import(actor=organiser, data=document, slug="records-copy")
    assert sorted(GameRecord.objects.filter(tournament=copy_).values_list("status", "error_code", "complete")) == verdicts
    assert _standings_csv(copy_) == _standings_csv(Tournament.objects.get(pk=tournament.pk))
    unreadable = copy.deepcopy(document)
    unreadable["records"][0]["raw"] = "{" * 100
    before = GameRecord.objects.count()
    with pytest.raises(TournamentError):
        archive_import(actor=organiser, data=unreadable, slug="records-copy-2")
    assert GameRecord.objects.count() == before and not Tournament.objects.filter(slug="records-copy-2").exists()
