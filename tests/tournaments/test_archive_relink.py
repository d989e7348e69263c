"""Tournament archive: a game record keeps the result it settled (`GameRecord.result`) through an
export/import round trip, so that the copy's records point to the copy's results exactly as in the
original; older archives without the link still import (unlinked); a hostile link refuses the whole
archive and writes nothing."""

from __future__ import annotations

import copy
import json
from typing import Any

import pytest

from tests.tournaments.conftest import make_tournament, published_round, seated_entrants
from tests.tournaments.test_archive import assert_each_refused_whole
from tournaments.archive import archive_export, archive_import
from tournaments.exports import standings_rows
from tournaments.models import Result, Table, Tournament

pytest.importorskip("games")

from games.demo import record_for_table, record_with_illegal_move  # noqa: E402
from games.models import GameRecord  # noqa: E402
from games.services import record_submit  # noqa: E402

pytestmark = pytest.mark.django_db


def _submit(table: Table, capture: Any, *, seed: int, token: str | None = None, actor: Any = None,
            document: dict[str, Any] | None = None) -> GameRecord:
    data = document if document is not None else record_for_table(table, game="tac", variant={}, seed=seed)
    with capture(execute=True):
        record = record_submit(table=table, actor=actor, token=token, data=json.dumps(data), source="upload")
    return GameRecord.objects.get(pk=record.pk)


@pytest.fixture
def linked(organiser: Any, django_capture_on_commit_callbacks: Any) -> Tournament:
    """A TAC round of four tables whose records settled, found or never reached a result:
    table 1: a player's record reported the result, the opponent confirmed it (then a second record found it);
    table 2: a player's record reported a confirmed result the organiser later overrode (it is superseded);
    table 3: a player's record reported a result the opponent rejected (the organiser then decided);
    table 4: the organiser decided first; a valid record then found that result, an invalid one none."""
    from tournaments.services.results import result_confirm, result_override, result_reject

    capture = django_capture_on_commit_callbacks
    tournament = make_tournament(organiser, entrants=8, name="Relink Cup", rounds_planned=2)
    tables = list(published_round(organiser, tournament).tables.filter(is_bye=False).order_by("number"))
    assert len(tables) == 4
    seats = {table.number: seated_entrants(table) for table in tables}

    one = _submit(tables[0], capture, seed=11, token=seats[1][0].report_token)
    result_confirm(result=one.result, token=seats[1][1].report_token)
    _submit(tables[0], capture, seed=12, actor=organiser)

    two = _submit(tables[1], capture, seed=21, token=seats[2][0].report_token)
    result_confirm(result=two.result, token=seats[2][1].report_token)
    a, b = seats[2]
    result_override(actor=organiser, table=tables[1], scores={a.pk: 2, b.pk: 8})
    assert Result.objects.get(pk=two.result_id).state == Result.State.SUPERSEDED

    three = _submit(tables[2], capture, seed=31, token=seats[3][0].report_token)
    result_reject(result=three.result, token=seats[3][1].report_token)
    a, b = seats[3]
    result_override(actor=organiser, table=tables[2], scores={a.pk: 8, b.pk: 5})

    a, b = seats[4]
    result_override(actor=organiser, table=tables[3], scores={a.pk: 8, b.pk: 6})
    _submit(tables[3], capture, seed=41, actor=organiser)
    illegal = record_with_illegal_move(record_for_table(tables[3], game="tac", variant={}, seed=42))
    assert illegal is not None
    _submit(tables[3], capture, seed=42, actor=organiser, document=illegal)

    from tournaments.services.standings import standings_recompute

    standings_recompute(tournament_id=tournament.pk)
    return Tournament.objects.get(pk=tournament.pk)


def _result_identity(result: Result | None) -> Any:
    """A result as the same in both tournaments: its table, its place in the table's history, its content."""
    if result is None:
        return None
    history = list(Result.objects.filter(table=result.table).order_by("created_at", "pk").values_list("pk", flat=True))
    return (result.table.round.number, result.table.number, history.index(result.pk), result.kind, result.state,
            sorted((s.entrant.name, s.score, s.is_winner) for s in result.scores.all()))


def _links(tournament: Tournament) -> list[Any]:
    records = (GameRecord.objects.filter(tournament=tournament)
               .select_related("table__round", "result__table__round").order_by("created_at", "pk"))
    return [(r.table.round.number, r.table.number, r.sha256, r.status, r.settlement, _result_identity(r.result))
            for r in records]


def _standings_csv(tournament: Tournament) -> str:
    header, rows = standings_rows(tournament)
    return json.dumps([header, *rows])


def test_records_keep_the_results_they_settled(organiser: Any, linked: Tournament) -> None:
    original = _links(linked)
    # The fixture holds every case: settled (confirmed, superseded, rejected), found and unlinked.
    states = {(status, settlement, link[4] if link else None) for _r, _t, _s, status, settlement, link in original}
    assert {("valid", "settled", "confirmed"), ("valid", "settled", "superseded"), ("valid", "settled", "rejected"),
            ("invalid", "none", None)} <= states
    assert any(settlement in ("unchanged", "conflict") and link is not None
               for *_, settlement, link in original)
    document = json.loads(json.dumps(archive_export(linked)))
    copy_ = archive_import(actor=organiser, data=document, slug="relink-copy")
    assert _links(copy_) == original
    # The copy's records point to the copy's own results, never to the original's.
    assert not GameRecord.objects.filter(tournament=copy_, result__table__round__tournament=linked).exists()
    assert GameRecord.objects.filter(tournament=copy_, result__isnull=False).count() == sum(
        1 for *_, link in original if link is not None)
    assert _standings_csv(copy_) == _standings_csv(linked)
    # Importing did not report anything: the copy's results are the archived ones.
    assert Result.objects.filter(table__round__tournament=copy_).count() == Result.objects.filter(
        table__round__tournament=linked).count()
    # And the copy exports the same links again.
    again = archive_export(copy_)
    assert [r["result"] is None for r in again["records"]] == [r["result"] is None for r in document["records"]]


def test_an_archive_without_links_imports_unlinked(organiser: Any, linked: Tournament) -> None:
    """An archive written before results carried an id and records their result (same format)."""
    document = json.loads(json.dumps(archive_export(linked)))
    assert document["format"] == "tournament-archive/1"
    for round_ in document["rounds"]:
        for table in round_["tables"]:
            for result in table["results"]:
                del result["id"]
    for record in document["records"]:
        del record["result"]
    copy_ = archive_import(actor=organiser, data=document, slug="relink-old")
    assert not GameRecord.objects.filter(tournament=copy_, result__isnull=False).exists()
    assert [link[:5] for link in _links(copy_)] == [link[:5] for link in _links(linked)]
    assert _standings_csv(copy_) == _standings_csv(linked)


def _first_linked(document: dict[str, Any]) -> dict[str, Any]:
    return next(r for r in document["records"] if r["result"] is not None)


def _result_ids_of_other_tables(document: dict[str, Any], table_id: int) -> list[int]:
    return [result["id"] for round_ in document["rounds"] for table in round_["tables"] if table["id"] != table_id
            for result in table["results"]]


def _hostile_links(document: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    cases = []

    def case(name: str, change: Any) -> None:
        doc = copy.deepcopy(document)
        change(doc)
        cases.append((name, doc))

    def other_table(doc: dict[str, Any]) -> None:
        record = _first_linked(doc)
        record["result"] = _result_ids_of_other_tables(doc, record["table"])[0]

    def ids_dropped(doc: dict[str, Any]) -> None:  # results without ids, records still linking them
        for round_ in doc["rounds"]:
            for table in round_["tables"]:
                for result in table["results"]:
                    del result["id"]

    def duplicate_result_id(doc: dict[str, Any]) -> None:
        record = _first_linked(doc)
        other = next(result for round_ in doc["rounds"] for table in round_["tables"]
                     if table["id"] != record["table"] for result in table["results"])
        other["id"] = record["result"]

    def duplicate_table_id(doc: dict[str, Any]) -> None:  # the link's table id given to another table too
        record = _first_linked(doc)
        other = next(table for round_ in doc["rounds"] for table in round_["tables"] if table["id"] != record["table"])
        other["id"] = record["table"]

    case("link to a result of another table", other_table)
    case("link to a missing result", lambda d: _first_linked(d).update(result=10**12))
    case("link as text", lambda d: _first_linked(d).update(result=str(_first_linked(d)["result"])))
    case("link as true", lambda d: _first_linked(d).update(result=True))
    case("link as a list", lambda d: _first_linked(d).update(result=[_first_linked(d)["result"]]))
    case("link to results without ids", ids_dropped)
    case("two results with one id", duplicate_result_id)
    case("result id as text", lambda d: d["rounds"][0]["tables"][0]["results"][0].update(id="1"))
    case("result id zero", lambda d: d["rounds"][0]["tables"][0]["results"][0].update(id=0))
    case("two tables with one id", duplicate_table_id)
    return cases


def test_hostile_links_are_refused_whole(organiser: Any, linked: Tournament) -> None:
    document = json.loads(json.dumps(archive_export(linked)))
    assert_each_refused_whole(organiser, _hostile_links(document), Tournament, Result, GameRecord)
    # The unchanged document still imports: each refusal was the mutation's.
    archive_import(actor=organiser, data=document, slug="relink-good")
