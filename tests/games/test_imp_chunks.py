"""Bulk import in chunks (games.import_pipeline): the same items, records, verdicts, results and audit as
one by one, whatever the order the chunks run in and however often each runs."""

from __future__ import annotations

import copy
import json
import re
from collections import Counter
from datetime import UTC, datetime
from typing import Any

import pytest

from games import import_pipeline, services, tasks
from games.bulk_writes import insert_records, write_fields, write_settlements
from games.models import GameRecord, ImportBatch, ImportItem, RecordVerdict
from rules.core.trace import verify_with_final_snapshot
from tests.games.conftest import GAME_CASES, random_record, relabel
from tests.games.test_api_submit import mutate_forged_result
from tests.tournaments.conftest import make_tournament, published_round
from tournaments.models import AuditLog, Result, Tournament

pytestmark = pytest.mark.django_db


def season(round_: Any) -> str:
    """Ten items over four chunks of three: duplicates within and across chunks, an unreadable line, an
    invalid record, a missing table, a table's second record (same result) and a third (another result)."""
    tables = list(round_.tables.order_by("number"))
    good = [relabel(random_record("taki", {"seats": 3}, seed=table.number), table) for table in tables]
    meta = {"round": round_.number, "table": 1}
    other = relabel(random_record("taki", {"seats": 3}, seed=99), tables[0])
    lines = [
        {**good[0], "meta": meta},                                   # 0 table 1, settles it
        good[1],                                                     # 1 table 2, found by its players
        good[1],                                                     # 2 duplicate of 1 (same chunk)
        {**good[0], "meta": meta},                                   # 3 duplicate of 0 (next chunk)
        "not json",                                                  # 4
        mutate_forged_result(good[2]),                               # 5 stored, invalid
        {**good[1], "meta": {**meta, "table": 2, "notes": "copy"}},  # 6 table 2 again: same result
        {**good[2], "meta": {"round": 9, "table": 9}},               # 7 no such table
        good[2],                                                     # 8 table 3, settles it
        {**other, "meta": {**meta, "notes": "other game"}},          # 9 table 1 again: another result
    ]
    return "\n".join(line if isinstance(line, str) else json.dumps(line) for line in lines)


def new_batch(organiser: Any, name: str) -> tuple[Tournament, ImportBatch]:
    tournament = make_tournament(organiser, game="taki", variant={"seats": 3}, entrants=9, name=name)
    round_ = published_round(organiser, tournament)
    batch = services.records_import(tournament=tournament, actor=organiser, filename="season.jsonl",
                                    data=season(round_).encode())
    return tournament, batch


def verdict_of(record: GameRecord) -> dict[str, Any] | None:
    """The record's stored verdict, its file name (the record's id) checked and left out."""
    stored = record.verdicts.first()
    if stored is None:
        return None
    verdict = dict(stored.verdict)
    assert verdict.pop("file") == f"record-{record.pk}"
    return verdict


def state(tournament: Tournament) -> dict[str, Any]:
    """Everything an import leaves behind, with database ids replaced by item indexes and table numbers."""
    index_of = dict(ImportItem.objects.filter(batch__tournament=tournament).values_list("record_id", "index"))

    def note(text: str) -> str:
        return re.sub(r"#(\d+)", lambda m: f"item {index_of.get(int(m.group(1)))}", text)

    items = [
        (item.index, item.name, item.error_code, item.error_message,
         item.record.status if item.record else None, item.record.error_code if item.record else None,
         item.record.settlement if item.record else None, item.record.settlement_note if item.record else None,
         item.record.derived_table_result is not None if item.record else None,
         item.record.verdicts.count() if item.record else None,
         verdict_of(item.record) if item.record else None,
         index_of.get(item.record.result.game_records.order_by("pk").first().pk)
         if item.record and item.record.result else None)
        for item in ImportItem.objects.filter(batch__tournament=tournament).select_related("record__result")
        .order_by("index")
    ]
    results = sorted(
        (result.table.number, result.kind, result.state, note(result.note),
         sorted((s.entrant.name, s.score, s.placing, s.is_winner) for s in result.scores.all()))
        for result in Result.objects.filter(table__round__tournament=tournament, table__is_bye=False)
        .select_related("table").prefetch_related("scores__entrant")
    )
    audit = Counter(
        (row.action, row.object_type, json.dumps({k: v for k, v in row.data.items() if k not in ("table", "sha256")},
                                                 sort_keys=True, default=str) if row.object_type == "gamerecord" else "")
        for row in AuditLog.objects.filter(tournament=tournament)
        if row.action not in ("tournament_created", "entrant_registered", "round_generated", "round_published")
    )
    return {"items": items, "results": results, "audit": audit}


def one_by_one(batch: ImportBatch) -> None:
    """The import as it was before chunks: each item stored in its own transaction, then verified."""
    for index, entry in enumerate(services.import_entries(bytes(batch.upload))):
        record_id = services._import_one(batch, index, entry)
        if record_id is not None:
            services.record_verify(record_id=record_id)


def test_chunks_in_any_order_and_twice_end_as_one_by_one(organiser: Any, settings: Any) -> None:
    settings.GAMES_IMPORT_CHUNK_ITEMS = 3
    reference, plain = new_batch(organiser, "One by one")
    one_by_one(plain)
    expected = state(reference)
    assert [item[2] or item[4] for item in expected["items"]] == [
        "valid", "valid", "record_duplicate", "record_duplicate", "record_unreadable", "invalid", "valid",
        "record_table_not_found", "valid", "valid",
    ]
    assert [item[6] for item in expected["items"] if item[4] == "valid"] == [
        "settled", "settled", "unchanged", "settled", "conflict"]

    tournament, batch = new_batch(organiser, "Chunked")
    chunks = import_pipeline.import_batch_start(batch_id=batch.pk)
    assert chunks == [(0, 3), (3, 6), (6, 9), (9, 10)]

    def run(chunk: tuple[int, int]) -> str:
        return import_pipeline.import_chunk_process(batch_id=batch.pk, start=chunk[0], stop=chunk[1])

    # A chunk taken before the one ahead of it has stored its items stores nothing and waits its turn.
    assert run(chunks[1]) == import_pipeline.WAITING
    assert not ImportItem.objects.filter(batch=batch).exists()
    # The first chunk stored without its replay (as a batch begun by the previous version, which
    # stored and verified in two steps): the items are there, their records pending.
    first = import_pipeline._parse(0, services.import_entries(bytes(batch.upload), start=0, stop=3))
    assert import_pipeline._store(batch, 0, first, in_order=True)
    assert ImportBatch.objects.get(pk=batch.pk).processed == 1  # the duplicate; the two records are pending
    # The second chunk's only record (table 3) has no earlier record pending: stored verified and settled.
    assert run(chunks[1]) == "running"
    assert GameRecord.objects.filter(batch=batch, status="pending").count() == 2
    # The third stores its records pending, then waits: table 2's first record (item 1) is still pending.
    assert run(chunks[2]) == import_pipeline.WAITING
    assert GameRecord.objects.filter(batch=batch, status="pending").count() == 4
    for chunk in [chunks[0], chunks[0], chunks[3], chunks[2], chunks[1], chunks[2], chunks[3]]:
        run(chunk)  # each chunk again, in another order
    batch.refresh_from_db()
    assert (batch.status, batch.processed, batch.total, batch.upload) == ("done", 10, 10, b"")
    assert state(tournament) == expected
    assert RecordVerdict.objects.filter(record__batch=batch).count() == 6
    # Redelivered once more after the end: nothing changes.
    assert [run(chunk) for chunk in chunks] == ["done"] * 4
    assert state(tournament) == expected


def test_the_batch_task_enqueues_one_task_per_chunk(organiser: Any, settings: Any,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    settings.GAMES_IMPORT_CHUNK_ITEMS = 4
    reference, plain = new_batch(organiser, "One by one")
    one_by_one(plain)
    tournament, batch = new_batch(organiser, "Task")
    enqueued: list[tuple[Any, ...]] = []
    monkeypatch.setattr(tasks.import_chunk_process, "delay", lambda *args: enqueued.append(args))
    assert tasks.import_batch_process(batch.pk) == "3 chunks"
    assert enqueued == [(batch.pk, 0, 4), (batch.pk, 4, 8), (batch.pk, 8, 10)]
    assert ImportBatch.objects.get(pk=batch.pk).status == "running"
    monkeypatch.undo()
    for args in reversed(enqueued):  # eagerly (as in tests): a chunk never waits, and the end state is the same
        tasks.import_chunk_process.delay(*args)
    assert ImportBatch.objects.get(pk=batch.pk).status == "done"
    assert [item[2] or item[4] for item in state(tournament)["items"]] == [
        item[2] or item[4] for item in state(reference)["items"]]


def test_an_unreadable_upload_fails_the_batch_without_chunks(organiser: Any) -> None:
    tournament = make_tournament(organiser, game="taki", variant={"seats": 3}, entrants=3, name="Broken")
    batch = ImportBatch.objects.create(tournament=tournament, created_by=organiser, filename="x.zip", total=1,
                                       upload=b"PK\x03\x04 broken archive")
    assert import_pipeline.import_batch_start(batch_id=batch.pk) == []
    batch.refresh_from_db()
    assert batch.status == "failed" and batch.error_message.startswith("The ZIP file cannot be read")


def test_a_chunk_stores_its_records_verified_and_settled_in_one_step(organiser: Any) -> None:
    """The replay runs before the chunk stores: no record of the batch is ever pending in between."""
    tournament, batch = new_batch(organiser, "One step")
    for start, stop in import_pipeline.import_batch_start(batch_id=batch.pk):
        import_pipeline.import_chunk_process(batch_id=batch.pk, start=start, stop=stop)
        assert not GameRecord.objects.filter(batch=batch, status="pending").exists()
        verified = GameRecord.objects.filter(batch=batch, verdicts__isnull=False)
        assert verified.count() == GameRecord.objects.filter(batch=batch).count() > 0
    assert ImportBatch.objects.get(pk=batch.pk).status == "done"


@pytest.mark.parametrize(("sizes", "items", "limit", "expected"), [
    # the first chunk holds 8 items at most, each next one twice as many, up to GAMES_IMPORT_CHUNK_ITEMS
    ([10] * 300, 100, 10_000, [(0, 8), (8, 24), (24, 56), (56, 120), (120, 220), (220, 300)]),
    # and GAMES_IMPORT_CHUNK_BYTES at most (long records: TAC)
    ([400] * 5, 100, 1_000, [(0, 2), (2, 4), (4, 5)]),
    # an item larger than the byte limit makes a chunk of its own
    ([5_000, 10, 10], 100, 1_000, [(0, 1), (1, 3)]),
    ([10] * 10, 3, 10_000, [(0, 3), (3, 6), (6, 9), (9, 10)]),
])
def test_chunk_plan(settings: Any, sizes: list[int], items: int, limit: int, expected: list[tuple[int, int]]) -> None:
    settings.GAMES_IMPORT_CHUNK_ITEMS, settings.GAMES_IMPORT_CHUNK_BYTES = items, limit
    assert import_pipeline.import_chunks(sizes) == expected


@pytest.mark.parametrize(("game", "variant"), [(game, record_variant) for game, _t, record_variant in GAME_CASES])
def test_the_engines_leave_the_document_they_replay_unchanged(game: str, variant: dict[str, Any]) -> None:
    """The bulk import replays the document it parsed, then reads its players and meta from it."""
    for seed in range(3):
        doc = random_record(game, variant, seed=seed)
        before = copy.deepcopy(doc)
        verdict, _final = verify_with_final_snapshot(doc)
        assert verdict.valid and doc == before


def test_write_settlements_writes_each_records_own_values(organiser: Any) -> None:
    _tournament, batch = new_batch(organiser, "Settlements")
    for start, stop in import_pipeline.import_batch_start(batch_id=batch.pk):
        import_pipeline.import_chunk_process(batch_id=batch.pk, start=start, stop=stop)
    records = list(GameRecord.objects.filter(batch=batch).order_by("pk"))
    result = next(record.result for record in records if record.result is not None)
    first, second, *_rest = records
    first.result, first.settlement, first.settlement_note = None, "none", "first's own note"
    second.result, second.settlement, second.settlement_note = result, "conflict", ""
    write_settlements([first, second])
    assert list(GameRecord.objects.filter(pk__in=[first.pk, second.pk]).order_by("pk").values_list(
        "result_id", "settlement", "settlement_note")) == [(None, "none", "first's own note"),
                                                           (result.pk, "conflict", "")]
    write_settlements([])  # nothing to write: no statement


def test_write_fields_stores_what_save_stores(organiser: Any) -> None:
    """`write_fields` (one UPDATE for many records, as a burst's verification writes its verdicts) against
    Django's own `save(update_fields=...)`, every field of a verdict: a time with microseconds, JSON with
    nulls and non-ASCII, SQL NULL, a boolean, a result or none."""
    _tournament, batch = new_batch(organiser, "Fields")
    for start, stop in import_pipeline.import_batch_start(batch_id=batch.pk):
        import_pipeline.import_chunk_process(batch_id=batch.pk, start=start, stop=stop)
    records = list(GameRecord.objects.filter(batch=batch).order_by("pk"))
    result = next(record.result for record in records if record.result is not None)
    saved, written, written_too, saved_too = records[:4]
    when = datetime(2026, 11, 24, 19, 3, 4, 567891, tzinfo=UTC)
    for first, second, values in (
        (saved, written, dict(status="invalid", complete=False, error_code="x_y", error_path="/deals/0/turns/3",
                              error_message="Zug \u00fcbersprungen \u2013 \"quoted\"\n", derived_result=None,
                              derived_table_result=None, engine_version="taki-9", verified_at=when, result=None,
                              settlement="none", settlement_note="")),
        (saved_too, written_too, dict(status="valid", complete=True, error_code="", error_path="", error_message="",
                                      derived_result={"winner": None, "scores": [0, 12], "note": "\u00e9t\u00e9"},
                                      derived_table_result={"kind": "normal", "scores": {"3": 1, "4": None}},
                                      engine_version="taki-9", verified_at=None, result=result,
                                      settlement="conflict", settlement_note="Eine Notiz")),
    ):
        for record in (first, second):
            for name, value in values.items():
                setattr(record, name, value)
        first.save(update_fields=services.VERDICT_FIELDS)
    write_fields([written, written_too], services.VERDICT_FIELDS)
    stored = {row["pk"]: row for row in GameRecord.objects.filter(pk__in=[r.pk for r in records[:4]])
              .values("pk", *[f"{name}_id" if name == "result" else name for name in services.VERDICT_FIELDS])}
    for first, second in ((saved, written), (saved_too, written_too)):
        assert {**stored[second.pk], "pk": None} == {**stored[first.pk], "pk": None}
    assert stored[written.pk]["verified_at"] == when


def test_insert_records_stores_what_an_insert_stores(organiser: Any) -> None:
    """`insert_records` (one COPY on PostgreSQL) against Django's own INSERT, field by field, with the
    characters COPY's text format escapes (tab, newline, backslash), JSON with nulls and non-ASCII, and
    the ids it takes from the sequence."""
    _tournament, batch = new_batch(organiser, "Copy")
    for start, stop in import_pipeline.import_batch_start(batch_id=batch.pk):
        import_pipeline.import_chunk_process(batch_id=batch.pk, start=start, stop=stop)
    stored = list(GameRecord.objects.filter(batch=batch).order_by("pk"))
    result = next(record.result for record in stored if record.result is not None)
    odd_text = 'line\tone\nline two \\ "quoted" \\N é ü 🂡'

    def fresh(index: int) -> GameRecord:
        model = stored[0]
        return GameRecord(
            tournament=model.tournament, table=model.table, submitted_by=organiser, submitted_for=None,
            source=GameRecord.Source.IMPORT, batch=batch, raw=odd_text + model.raw, sha256=f"{index:064x}",
            game=model.game, variant={"seats": 2, "note": "tab\there"}, seat_entrants=[3, None],
            status=GameRecord.Status.VALID, complete=True, error_message=odd_text,
            derived_result={"winners": [0], "nested": {"null": None, "text": odd_text}},
            derived_table_result=None, engine_version="x-1", result=result, settlement="unchanged",
            settlement_note=odd_text[:40])

    by_copy = [fresh(1), fresh(2)]
    by_orm = [fresh(3)]
    insert_records(by_copy)
    GameRecord.objects.bulk_create(by_orm)
    after = GameRecord(**{**{f.attname: getattr(by_orm[0], f.attname) for f in GameRecord._meta.concrete_fields},
                          "id": None, "sha256": f"{4:064x}"})
    after.save()  # the sequence moved past the ids COPY took: the next INSERT takes a new one
    ids = [record.pk for record in [*by_copy, *by_orm, after]]
    assert None not in ids and len(set(ids)) == 4 and not any(record._state.adding for record in by_copy)

    def row(record_id: int) -> dict[str, Any]:
        values = GameRecord.objects.filter(pk=record_id).values().get()
        return {k: v for k, v in values.items() if k not in ("id", "sha256", "created_at")}

    assert row(by_copy[0].pk) == row(by_copy[1].pk) == row(by_orm[0].pk)
    assert row(by_copy[0].pk)["raw"].startswith(odd_text) and row(by_copy[0].pk)["result_id"] == result.pk
    assert GameRecord.objects.get(pk=by_copy[0].pk).created_at is not None
    insert_records([])  # nothing to insert: no statement


def test_an_item_the_database_cannot_store_is_an_error_and_the_batch_finishes(organiser: Any) -> None:
    """A record spelling U+0000 or half a surrogate pair is refused as its item's error; the chunk stores
    the rest (on PostgreSQL the chunk's transaction failed before and the batch never finished)."""
    tournament = make_tournament(organiser, game="taki", variant={"seats": 3}, entrants=9, name="Unstorable")
    round_ = published_round(organiser, tournament)
    lines = season(round_).splitlines()
    lines[0] = lines[0].replace('"format"', '"meta2": {"note": "a\\u0000b"}, "format"', 1)
    lines[1] = lines[1].replace('"format"', '"\\udc00": 1, "format"', 1)
    batch = services.records_import(tournament=tournament, actor=organiser, filename="odd\x00name.jsonl",
                                    data="\n".join(lines).encode())
    for start, stop in import_pipeline.import_batch_start(batch_id=batch.pk):
        import_pipeline.import_chunk_process(batch_id=batch.pk, start=start, stop=stop)
    batch.refresh_from_db()
    assert (batch.status, batch.processed, batch.filename) == ("done", 10, "oddname.jsonl")
    errors = dict(ImportItem.objects.filter(batch=batch, index__in=[0, 1]).values_list("index", "error_code"))
    assert errors == {0: "record_unreadable", 1: "record_unreadable"}
    assert ImportItem.objects.filter(batch=batch, record__isnull=False).exists()


def test_a_settled_table_notifies_only_where_an_entrant_has_an_address(
        organiser: Any, monkeypatch: Any, django_capture_on_commit_callbacks: Any) -> None:
    """The chunk reads who has an address with the seats (`addresses_at_table`'s condition): an entrant's
    own address (table 2) or one of its players' (table 3) enqueues the result's notification; a table
    with none (table 1) enqueues nothing."""
    from tournaments import tasks as tournament_tasks
    from tournaments.models import Entrant, Player

    tournament, batch = new_batch(organiser, "Addresses")
    tables = {table.number: table for table in tournament.rounds.get().tables.all()}
    Entrant.objects.filter(pk=tables[2].seats.order_by("position").values("entrant_id")[:1]).update(
        email="two@example.org")
    Player.objects.filter(pk=Player.objects.filter(memberships__entrant__seats__table=tables[3]).order_by("pk")
                          .values("pk")[:1]).update(email="three@example.org")
    sent: list[tuple[str, int]] = []
    monkeypatch.setattr(tournament_tasks.notification_send, "delay", lambda event, pk: sent.append((event, pk)))
    with django_capture_on_commit_callbacks(execute=True):
        for start, stop in import_pipeline.import_batch_start(batch_id=batch.pk):
            import_pipeline.import_chunk_process(batch_id=batch.pk, start=start, stop=stop)
    results = {result.table.number: result.pk for result in Result.objects.filter(table__in=tables.values())}
    assert set(results) == {1, 2, 3}
    assert sorted(sent) == sorted([("result_reported", results[2]), ("result_reported", results[3])])


def test_tables_of_reads_only_the_members_a_chunk_names_by_id(organiser: Any) -> None:
    """A chunk whose players all give their ids reads those players' memberships only; one player named
    without an id reads every member. Either way each record finds the same table (or error)."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    tournament = make_tournament(organiser, game="taki", variant={"seats": 3}, entrants=9, name="Members")
    round_ = published_round(organiser, tournament)
    tables = list(round_.tables.order_by("number"))
    by_id = {n: relabel(random_record("taki", {"seats": 3}, seed=n), table) for n, table in enumerate(tables)}
    stranger = copy.deepcopy(by_id[0])
    stranger["players"][0]["id"] = 10**12  # no such player in the tournament
    by_id[len(tables)] = stranger
    huge = copy.deepcopy(by_id[1])
    huge["players"][1]["id"] = 10**40  # no such player either, nor such a number in the database
    by_id[len(tables) + 1] = huge
    by_name = copy.deepcopy(by_id)
    for doc in by_name.values():
        for player in doc["players"]:
            player.pop("id")

    def members_query(docs: dict[int, dict[str, Any]]) -> tuple[dict[int, Any], str]:
        with CaptureQueriesContext(connection) as queries:
            found = import_pipeline.tables_of(tournament, docs)
        members = [q["sql"] for q in queries.captured_queries if "entrantmember" in q["sql"].lower()]
        assert len(members) == 1, members
        return {k: v.pk if not isinstance(v, Exception) else v.code for k, v in found.items()}, members[0]

    found_by_id, sql_by_id = members_query(by_id)
    found_by_name, sql_by_name = members_query(by_name)
    unknown = {len(tables): "record_players_mismatch", len(tables) + 1: "record_players_mismatch"}
    assert found_by_id == {n: table.pk for n, table in enumerate(tables)} | unknown
    assert found_by_name == {n: table.pk for n, table in enumerate(tables)} | {len(tables): tables[0].pk,
                                                                                len(tables) + 1: tables[1].pk}
    assert '"player_id" IN' in sql_by_id and '"player_id" IN' not in sql_by_name
    mixed = {**by_id, len(tables): by_name[0]}  # one record names its players only
    found_mixed, sql_mixed = members_query(mixed)
    assert found_mixed == found_by_name | {len(tables) + 1: "record_players_mismatch"}
    assert '"player_id" IN' not in sql_mixed


def test_an_upload_is_stored_byte_for_byte(organiser: Any) -> None:
    """`upload_store` (a binary parameter and result on PostgreSQL) keeps every byte value, a large upload
    too; on PostgreSQL the column is stored out of line, uncompressed."""
    from django.db import connection

    from games.upload_store import upload_read, upload_write

    _tournament, batch = new_batch(organiser, "Upload")
    assert upload_read(batch.pk) == season(batch.tournament.rounds.get()).encode()
    for data in (bytes(range(256)) * 3 + b"\\x\\\\'\"\x00", b"", b"{}\n" * 400_000):
        upload_write(batch.pk, data)
        assert upload_read(batch.pk) == data
    with pytest.raises(ImportBatch.DoesNotExist):
        upload_read(batch.pk + 1000)
    if connection.vendor == "postgresql":
        with connection.cursor() as cursor:
            cursor.execute("SELECT attstorage FROM pg_attribute WHERE attrelid = 'games_importbatch'::regclass "
                           "AND attname = 'upload'")
            assert cursor.fetchone() == ("e",)
