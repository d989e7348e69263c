"""Bulk import, spread over the workers (docs/games.md, "Bulk import").

The batch task (`import_batch_start`) cuts the items into chunks `[start, stop)` (`import_chunks`: at most
`GAMES_IMPORT_CHUNK_ITEMS` items and `GAMES_IMPORT_CHUNK_BYTES` bytes, the first ones smaller) and enqueues
one task per chunk; any worker takes any chunk. A chunk (`import_chunk_process`):

1. Parses and replays its items outside any transaction (the workers do this in parallel): the verdict and
   the final position come from one replay of the parsed document.
2. Stores them under one tournament lock, once every item before `start` is stored (else it answers
   `WAITING` and its task is retried shortly): so the items are stored in file order, and a duplicate or
   a table's second record is judged against the same earlier items as one by one. Every item not
   stored yet becomes an `ImportItem` (unique (batch, index)) with its `GameRecord` or its error; the
   checks and their order are those of `services._import_one` (parse, table, round published, not a bye,
   game, players, duplicate); the tables, seats, players and duplicates the chunk needs are read in a
   few queries, not per item. In the same transaction each record gets its verdict (`RecordVerdict`,
   unique per record and engine version) and the valid complete ones settle their tables in file order
   (`results_report_from_records` for the plain reports, `services._settle` for the others); the
   records, items, verdicts and audit rows are written one COPY per model on PostgreSQL
   (`tournaments.bulk_copy`).
3. Replays and settles any record of the chunk still pending (`_verify`): one stored by an earlier version
   (which stored, then verified), or one stored behind such a record of one of its tables (of any table
   in a rolling-round tournament), which waits (`WAITING`) until that earlier record is settled: each
   table is settled by its records in file order, as one by one.

Every step is safe to run twice or at the same time as another: stored items and verified records are
skipped under the tournament lock. The chunk that finds every item stored and no record pending marks
the batch done. `processed` counts the items whose record (if any) is verified.
"""

from __future__ import annotations

import logging
import time
from collections import defaultdict
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.db import transaction
from django.db.models import BooleanField, Count, ExpressionWrapper, F, OuterRef, Subquery
from django.db.models.functions import Coalesce
from django.utils import translation
from django.utils.translation import gettext as _

from games import services
from games.bulk_writes import insert_records, write_settlements
from games.models import GameRecord, ImportBatch, ImportItem, RecordVerdict
from games.upload_store import upload_read
from rules.core.trace import verify_with_final_snapshot
from tournaments.bulk_copy import copy_insert
from tournaments.errors import ErrorCode, TournamentError
from tournaments.models import AuditLog, Entrant, EntrantMember, Round, Seat, Table, Tournament
from tournaments.notifications import has_address
from tournaments.profiles import GameProfile
from tournaments.services.audit import audit_entry, audit_write
from tournaments.services.locking import lock_tournament
from tournaments.services.tournaments import tournament_profile

logger = logging.getLogger(__name__)

WAITING = "waiting"  # a chunk's answer when an earlier chunk must store or settle first
POLL_SECONDS = 0.02


def import_chunk_items() -> int:
    return max(1, int(getattr(settings, "GAMES_IMPORT_CHUNK_ITEMS", 100)))


def import_chunk_bytes() -> int:
    return max(1, int(getattr(settings, "GAMES_IMPORT_CHUNK_BYTES", 1_048_576)))


FIRST_CHUNK_ITEMS = 8


def import_chunks(sizes: list[int]) -> list[tuple[int, int]]:
    """The chunks `[start, stop)` of a batch whose items have these sizes (bytes), in file order.

    A chunk holds at most `GAMES_IMPORT_CHUNK_ITEMS` items and `GAMES_IMPORT_CHUNK_BYTES` bytes (one item
    at least). The first holds at most `FIRST_CHUNK_ITEMS`, and each next one at most twice its
    predecessor's limit: the first chunk is stored soon, while the second worker replays the next one
    (the tournament lock lets one chunk store at a time; replaying is what the workers share). Large
    chunks spread the per-chunk work (about 20 queries and reading the upload) over many records; the
    byte limit bounds a chunk's memory and replay time where records are long (TAC: 30 KB; at most
    `GAMES_RECORD_MAX_BYTES`)."""
    most_items, most_bytes = import_chunk_items(), import_chunk_bytes()
    limit = min(FIRST_CHUNK_ITEMS, most_items)
    chunks: list[tuple[int, int]] = []
    start = 0
    while start < len(sizes):
        stop, size = start + 1, sizes[start]
        while stop < len(sizes) and stop - start < limit and size + sizes[stop] <= most_bytes:
            size += sizes[stop]
            stop += 1
        chunks.append((start, stop))
        start, limit = stop, min(2 * limit, most_items)
    return chunks


# --- parse and store ------------------------------------------------------------------------------


@dataclass
class _Item:
    index: int
    entry: services.ImportEntry
    parsed: services.ParsedRecord | None = None
    table: Table | None = None
    code: str = ""
    message: str = ""
    # The replay's verdict (`Verdict.to_json`, its `file` set once the record has an id) and, for a
    # valid complete record, its final position: None when not replayed (the record is stored pending).
    verdict: dict[str, Any] | None = None
    snapshot: dict[str, Any] | None = None

    def refuse(self, err: TournamentError) -> None:
        self.code, self.message = str(err.code), err.message


def _tables_by_meta(tournament: Tournament, keys: set[tuple[int, int]]) -> dict[tuple[int, int], Table]:
    if not keys:
        return {}
    tables = Table.objects.select_related("round").filter(
        round__tournament=tournament, round__number__in={r for r, _t in keys}, number__in={t for _r, t in keys})
    return {(table.round.number, table.number): table for table in tables}


def _tables_by_players(tournament: Tournament, wanted: list[frozenset[int]]) -> dict[frozenset[int], int]:
    """For each set of entrants, the published table seating exactly them, latest round first, then the
    lowest table number."""
    entrants = set().union(*wanted) if wanted else set()
    if not entrants:
        return {}
    near = Seat.objects.filter(round__tournament=tournament, entrant_id__in=entrants).values("table_id")
    seats = (Seat.objects.filter(table_id__in=near).exclude(round__status=Round.Status.DRAFT)
             .values_list("table_id", "entrant_id", "round__number", "table__number"))
    seated: dict[int, set[int]] = defaultdict(set)
    order: dict[int, tuple[int, int]] = {}
    for table_id, entrant_id, round_number, table_number in seats:
        seated[table_id].add(entrant_id)
        order[table_id] = (-round_number, table_number)
    found: dict[frozenset[int], int] = {}
    for table_id in sorted(seated, key=order.__getitem__):
        found.setdefault(frozenset(seated[table_id]), table_id)
    return found


class _Members:
    """The tournament's players, indexed by id and by folded name: `candidates` narrows the list that
    `services._match_player` searches to the members it could match, so it answers the same, faster.
    `player_ids`: when every player to match gives an id, those ids (only their members are read; a
    chunk of a large tournament reads its own players, not every member)."""

    def __init__(self, tournament: Tournament, player_ids: set[int] | None = None) -> None:
        self.by_id: dict[int, list[services._SeatedPlayer]] = defaultdict(list)
        self.by_name: dict[str, list[services._SeatedPlayer]] = defaultdict(list)
        members = EntrantMember.objects.filter(tournament=tournament)
        if player_ids is not None:
            members = members.filter(player_id__in=player_ids)
        for player_id, name, entrant_id in members.values_list("player_id", "player__name", "entrant_id"):
            member = services._SeatedPlayer(player_id=player_id, name=name, entrant_id=entrant_id)
            self.by_id[member.player_id].append(member)
            self.by_name[member.name.strip().casefold()].append(member)

    @staticmethod
    def by_id_only(records: Iterable[list[tuple[str, Any, list[int]]]]) -> set[int] | None:
        """The player ids `candidates` will look up for these records' players (`services._record_players`),
        or None when a player is named without an id (every member is then read)."""
        ids: set[int] = set()
        for players in records:
            for _name, pid, _seats in players:
                if pid is None or isinstance(pid, bool):
                    return None
                wanted = services._whole_number(pid, max_digits=18)
                # (no player has an id outside a positive bigint, which the query could not even pass)
                if wanted is not None and 0 < wanted < 2**63:
                    ids.add(wanted)
        return ids

    def candidates(self, name: str, pid: Any) -> list[services._SeatedPlayer]:
        if pid is not None and not isinstance(pid, bool):
            wanted = services._whole_number(pid, max_digits=18)
            return self.by_id.get(wanted, []) if wanted is not None else []
        return self.by_name.get(name.strip().casefold(), [])


def tables_of(tournament: Tournament, docs: dict[int, dict[str, Any]]) -> dict[int, Table | TournamentError]:
    """Each record's table (keyed as given), or the error saying why there is none: `meta.round` +
    `meta.table`, else the published table of the latest round (then the lowest number) whose seated
    entrants are exactly the record's players' entrants. Read for all the records at once."""
    by_meta: dict[int, tuple[int, int]] = {}
    by_players: dict[int, frozenset[int]] = {}
    found: dict[int, Table | TournamentError] = {}
    unplaced: dict[int, list[tuple[str, Any, list[int]]]] = {}  # the players of those found by players
    for key, doc in docs.items():
        meta = doc.get("meta") if isinstance(doc.get("meta"), dict) else {}
        round_no, table_no = services._meta_number(meta.get("round")), services._meta_number(meta.get("table"))
        if round_no is not None and table_no is not None:
            by_meta[key] = (round_no, table_no)
            continue
        try:
            unplaced[key] = services._record_players(doc)
        except TournamentError as err:
            found[key] = err
    members = _Members(tournament, _Members.by_id_only(unplaced.values())) if unplaced else None
    for key, players in unplaced.items():
        assert members is not None
        try:
            by_players[key] = frozenset(
                services._match_player(name, pid, i, members.candidates(name, pid), at_table=False).entrant_id
                for i, (name, pid, _seats) in enumerate(players)
            )
        except TournamentError as err:
            found[key] = err
    meta_tables = _tables_by_meta(tournament, set(by_meta.values()))
    player_tables = _tables_by_players(tournament, list(by_players.values()))
    fetched = {t.pk: t for t in Table.objects.select_related("round").filter(pk__in=set(player_tables.values()))}
    for key, (round_no, table_no) in by_meta.items():
        found[key] = meta_tables.get((round_no, table_no)) or TournamentError(
            ErrorCode.RECORD_TABLE_NOT_FOUND,
            _("There is no table %(table)s in round %(round)s.") % {"table": table_no, "round": round_no},
        )
    for key, entrants in by_players.items():
        table_id = player_tables.get(entrants)
        table = fetched.get(table_id) if table_id is not None else None
        found[key] = table or TournamentError(
            ErrorCode.RECORD_TABLE_NOT_FOUND, _("No table seats exactly these players; give meta.round and meta.table."))
    return found


def _find_tables(tournament: Tournament, items: list[_Item]) -> None:
    """Every parsed item's table (`tables_of`, for the whole chunk at once), or its error."""
    found = tables_of(tournament, {item.index: item.parsed.doc for item in items if item.parsed is not None})
    for item in items:
        outcome = found.get(item.index)
        if isinstance(outcome, TournamentError):
            item.refuse(outcome)
        elif outcome is not None:
            item.table = outcome


def _seated_by_table(table_ids: set[int]) -> tuple[dict[int, list[services.SeatedEntrant]], set[int]]:
    """Per table, its entrants in seat order with their players (`services._seated`); and the tables where
    an entrant has an address (`addresses_at_table`, for the notifications of a settled table). One query."""
    rows = (
        Seat.objects.filter(table_id__in=table_ids).select_related("entrant")
        .annotate(member_player_id=F("entrant__members__player_id"), member_name=F("entrant__members__player__name"),
                  member_user_id=F("entrant__members__player__user_id"),
                  has_address=ExpressionWrapper(has_address("entrant__"), output_field=BooleanField()))
        .order_by("table_id", "position", "entrant__members__id")
    )
    seats: dict[int, dict[int, tuple[Entrant, list[services._SeatedPlayer], set[int]]]] = defaultdict(dict)
    addressed: set[int] = set()
    for row in rows:
        if row.has_address:  # type: ignore[attr-defined]
            addressed.add(row.table_id)
        entrant, players, users = seats[row.table_id].setdefault(row.pk, (row.entrant, [], set()))
        if row.member_player_id is not None:  # type: ignore[attr-defined]
            players.append(services._SeatedPlayer(player_id=row.member_player_id,  # type: ignore[attr-defined]
                                                  name=row.member_name, entrant_id=entrant.pk))  # type: ignore[attr-defined]
            if row.member_user_id is not None:  # type: ignore[attr-defined]
                users.add(row.member_user_id)  # type: ignore[attr-defined]
    return {
        table_id: [services.SeatedEntrant(entrant=e, players=tuple(p), user_ids=frozenset(u)) for e, p, u in by_seat.values()]
        for table_id, by_seat in seats.items()
    }, addressed


def _check_record(tournament: Tournament, profile: GameProfile, item: _Item, seated: list[services.SeatedEntrant],
                  taken: set[tuple[int, str]]) -> list[int]:
    """The checks of `services._create_record`, in its order; the record's seat entrants."""
    assert item.table is not None and item.parsed is not None
    if item.table.round.status == Round.Status.DRAFT:
        raise TournamentError(ErrorCode.ROUND_NOT_PUBLISHED, _("The round is not published yet."))
    if item.table.is_bye:
        raise TournamentError(ErrorCode.INVALID_INPUT, _("A bye has no game to record."))
    services._check_game(item.parsed.doc, tournament, profile, len(seated))
    seat_entrants = services.seat_entrants_for(item.parsed.doc, profile, seated)
    if (item.table.pk, item.parsed.sha256) in taken:
        raise TournamentError(ErrorCode.RECORD_DUPLICATE, _("This record was already submitted for this table."))
    return seat_entrants


def _parse(start: int, entries: list[services.ImportEntry]) -> list[_Item]:
    """The chunk's items, each parsed or refused (`services.record_parse`); no query."""
    items = [_Item(start + offset, entry) for offset, entry in enumerate(entries)]
    for item in items:
        if item.entry.data is None:
            item.code, item.message = item.entry.error_code, item.entry.error_message
            continue
        try:
            item.parsed = services.record_parse(item.entry.data)
        except TournamentError as err:
            item.refuse(err)
    return items


def _replay(items: list[_Item]) -> None:
    """Each parsed item's verdict and final position, from one replay of the document already read (no
    query; the engines never change the document they replay). Items later refused (no table, a
    duplicate) are replayed for nothing: they are few, and this keeps the replay out of the lock."""
    for item in items:
        if item.parsed is not None:
            verdict, final = verify_with_final_snapshot(item.parsed.doc)
            item.verdict = verdict.to_json()
            item.snapshot = final if verdict.valid and verdict.complete else None


def _store(batch: ImportBatch, start: int, parsed: list[_Item], *, in_order: bool) -> bool:
    """Store the items not stored yet, with their records, under one tournament lock; False (nothing
    done) while an item before `start` is not stored yet and `in_order`. A replayed item's record is
    stored with its verdict and settles its table in the same transaction (file order); one not
    replayed is stored pending (`_verify` replays it)."""
    stop = start + len(parsed)
    with transaction.atomic():
        tournament = lock_tournament(batch.tournament_id)
        if in_order and start and ImportItem.objects.filter(batch=batch, index__lt=start).count() < start:
            return False
        stored = set(ImportItem.objects.filter(batch=batch, index__gte=start, index__lt=stop)
                     .values_list("index", flat=True))
        items = [item for item in parsed if item.index not in stored]
        if not items:
            return True
        _find_tables(tournament, items)
        placed = [item for item in items if item.table is not None and item.parsed is not None]
        table_ids = {item.table.pk for item in placed if item.table is not None}
        seated, addressed = _seated_by_table(table_ids)
        taken = set(GameRecord.objects.filter(table_id__in=table_ids,
                                              sha256__in={item.parsed.sha256 for item in placed if item.parsed})
                    .values_list("table_id", "sha256"))
        if _earlier_pending(batch, start, table_ids, tournament.rolling_rounds):
            for item in items:  # stored pending: `_verify` settles them after the earlier record, in file order
                item.verdict = item.snapshot = None
        actor = batch.created_by
        profile = tournament_profile(tournament)
        version = services.engine_version(tournament.game)
        records: dict[int, GameRecord] = {}
        for item in placed:
            assert item.table is not None and item.parsed is not None
            try:
                seat_entrants = _check_record(tournament, profile, item, seated.get(item.table.pk, []), taken)
            except TournamentError as err:
                item.refuse(err)
                continue
            taken.add((item.table.pk, item.parsed.sha256))
            variant = item.parsed.doc.get("variant", {})
            record = records[item.index] = GameRecord(
                tournament=tournament, table=item.table, submitted_by=actor, submitted_for=None,
                source=GameRecord.Source.IMPORT, batch=batch, raw=item.parsed.text, sha256=item.parsed.sha256,
                game=tournament.game, variant=variant if isinstance(variant, dict) else {},
                seat_entrants=seat_entrants,
            )
            if item.verdict is not None:
                services._apply_verdict(record, item.verdict, version, item.snapshot, profile)
        insert_records(list(records.values()))
        audit = [
            audit_entry(action="game_record_submitted", tournament=tournament, obj=record, actor=actor,
                        data={"table": record.table_id, "source": GameRecord.Source.IMPORT, "sha256": record.sha256})
            for record in records.values()
        ]
        verified = [(item, records[item.index]) for item in items
                    if item.index in records and item.verdict is not None]
        if verified:
            _settle_verified(tournament, version, verified, audit, addressed)
        audit_write(audit)
        copy_insert(ImportItem, [
            ImportItem(batch=batch, index=item.index, name=item.entry.name, record=records.get(item.index),
                       error_code=item.code, error_message=item.message[:500])
            for item in items
        ])
        _count_processed(batch.pk)
    return True


def _settle_verified(tournament: Tournament, version: str, verified: list[tuple[_Item, GameRecord]],
                     audit: list[AuditLog], addressed: set[int]) -> None:
    """The records just stored with their replay's verdict: keep each verdict (`RecordVerdict`), settle
    the tables of the valid complete ones in file order, as `_verify` does for records stored pending;
    their settlement is written in one UPDATE (`write_settlements`). `addressed`: the tables where an
    entrant has an address (`_seated_by_table`)."""
    for item, record in verified:
        assert item.verdict is not None
        item.verdict["file"] = f"record-{record.pk}"
    copy_insert(RecordVerdict, [
        RecordVerdict(record=record, engine_version=version, verdict=item.verdict) for item, record in verified])
    settling = [record for _item, record in verified if record.status == GameRecord.Status.VALID and record.complete]
    if settling:
        # The tables as read under this tournament lock (nothing changes one meanwhile), one instance per
        # table (an item found by its players and one by `meta` read it apart); their rounds, then they,
        # are locked (after the tournament, as every writer).
        tables: dict[int, Table] = {}
        for record in settling:
            record.table = tables.setdefault(record.table_id, record.table)
        for model, ids in ((Round, {table.round_id for table in tables.values()}), (Table, set(tables))):
            list(model.objects.select_for_update().filter(pk__in=ids).values_list("pk", flat=True))
        for table in tables.values():
            table.has_addresses = table.pk in addressed  # type: ignore[attr-defined]
        services.settle_records(tournament, settling, audit)
        write_settlements(settling)
    for _item, record in verified:
        audit.append(services.verified_entry(tournament, record))


def _count_processed(batch_id: int) -> None:
    """`processed`: the items stored whose record, if any, is verified (in the caller's transaction; one
    statement)."""
    done = (ImportItem.objects.filter(batch_id=OuterRef("pk")).exclude(record__status=GameRecord.Status.PENDING)
            .order_by().values("batch_id").annotate(count=Count("pk")).values("count"))
    ImportBatch.objects.filter(pk=batch_id).update(processed=Coalesce(Subquery(done), 0))


# --- verify and settle -------------------------------------------------------------------------------


def _rolling(batch: ImportBatch) -> bool:
    return Tournament.objects.filter(pk=batch.tournament_id, rolling_rounds=True).exists()


def _chunk_records(batch: ImportBatch, start: int, stop: int) -> list[int]:
    return list(ImportItem.objects.filter(batch=batch, index__gte=start, index__lt=stop, record__isnull=False)
                .values_list("record_id", flat=True))


def _earlier_pending(batch: ImportBatch, start: int, tables: Any, rolling: bool) -> bool:
    """Is a record of an item before `start` still pending at one of `tables` (table ids, or a query of
    them), or at any table in a rolling-round tournament? Within a batch only a record stored without
    its replay (`_verify` replays it) is pending: stored by an earlier version, or behind such a record."""
    earlier = ImportItem.objects.filter(batch=batch, index__lt=start, record__status=GameRecord.Status.PENDING)
    if not rolling:
        earlier = earlier.filter(record__table_id__in=tables)
    return earlier.exists()


def _tables_of_records(record_ids: list[int]) -> Any:
    return GameRecord.objects.filter(pk__in=record_ids).values("table_id")


def _verify(batch: ImportBatch, start: int, stop: int, *, in_order: bool) -> bool:
    """Replay the chunk's records still pending, then store their verdicts and settle their tables under
    one lock; False (nothing done) while an earlier record of one of their tables is pending and `in_order`."""
    pending = list(GameRecord.objects.filter(
        batch=batch, status=GameRecord.Status.PENDING,
        pk__in=ImportItem.objects.filter(batch=batch, index__gte=start, index__lt=stop, record__isnull=False)
        .values("record_id"),
    ).values_list("pk", "raw", "game"))
    if not pending:
        return True
    rolling = _rolling(batch)
    if in_order and _earlier_pending(batch, start, _tables_of_records([pk for pk, _raw, _game in pending]), rolling):
        return False  # (checked again under the lock below; this saves a replay that would wait)
    checked: dict[int, services.Checked] = {}
    for record_id, raw, game in pending:
        verdict, final = services.verify_record_text(raw, file=f"record-{record_id}")
        snapshot = final if verdict.valid and verdict.complete else None
        checked[record_id] = services.Checked(services.engine_version(game), verdict.to_json(), snapshot)
    order = dict(ImportItem.objects.filter(batch=batch, record_id__in=checked).values_list("record_id", "index"))
    with transaction.atomic():
        tournament = lock_tournament(batch.tournament_id)
        if in_order and _earlier_pending(batch, start, _tables_of_records(list(checked)), rolling):
            return False
        if services.store_checked(tournament, checked, order=order):
            _count_processed(batch.pk)
    return True


def _finish(batch_id: int) -> None:
    """Mark the batch done once every item is stored and no record of it is pending (any chunk may be last)."""
    batch = ImportBatch.objects.only("total", "status").get(pk=batch_id)
    if batch.status != ImportBatch.Status.RUNNING:
        return
    stored = ImportItem.objects.filter(batch_id=batch_id).count()
    if stored < batch.total or GameRecord.objects.filter(batch_id=batch_id, status=GameRecord.Status.PENDING).exists():
        return
    ImportBatch.objects.filter(pk=batch_id, status=ImportBatch.Status.RUNNING).update(
        status=ImportBatch.Status.DONE, upload=b"", processed=stored)


@translation.override("en")
def import_batch_start(*, batch_id: int) -> list[tuple[int, int]]:
    """Mark the batch running and return its chunks; none if it is done, or failed because its upload
    cannot be read (it then says why)."""
    batch = ImportBatch.objects.defer("upload").get(pk=batch_id)
    if batch.status in (ImportBatch.Status.DONE, ImportBatch.Status.FAILED):
        return []
    ImportBatch.objects.filter(pk=batch.pk).update(status=ImportBatch.Status.RUNNING)
    upload = upload_read(batch.pk)
    try:
        sizes = services.import_item_sizes(upload)
    except TournamentError as err:
        ImportBatch.objects.filter(pk=batch.pk).update(status=ImportBatch.Status.FAILED, error_message=err.message[:500])
        return []
    return import_chunks(sizes)


def _stored_before(batch: ImportBatch, start: int) -> bool:
    return not start or ImportItem.objects.filter(batch=batch, index__lt=start).count() >= start


def _poll(ready: Callable[[], bool], deadline: float) -> bool:
    """Wait (without any lock) until `ready()`, at most until `deadline` (time.monotonic())."""
    while not ready():
        if time.monotonic() >= deadline:
            return False
        time.sleep(POLL_SECONDS)
    return True


@translation.override("en")
def import_chunk_process(*, batch_id: int, start: int, stop: int, in_order: bool = True,
                         wait_seconds: float = 0.0) -> str:
    """Store, verify and settle the items `[start, stop)` of a batch: the batch's status after it, or
    `WAITING` when an earlier chunk must store or settle first and did not within `wait_seconds` (the
    earlier chunk runs on another worker; try again later). `in_order=False` never waits (chunks run one
    after the other, or one that waited too long). Safe to run twice or beside the batch's other chunks."""
    batch = ImportBatch.objects.defer("upload").select_related("created_by").get(pk=batch_id)
    if batch.status != ImportBatch.Status.RUNNING:
        return str(batch.status)
    deadline = time.monotonic() + wait_seconds
    upload = upload_read(batch.pk)
    if not upload:  # another chunk finished the batch meanwhile (its upload is emptied when done)
        return str(ImportBatch.objects.filter(pk=batch.pk).values_list("status", flat=True).get())
    began = time.perf_counter()
    items = _parse(start, services.import_entries(upload, start=start, stop=stop))
    _replay(items)
    replayed = time.perf_counter()
    while not _store(batch, start, items, in_order=in_order):
        if not _poll(lambda: _stored_before(batch, start), deadline):
            return WAITING
    logger.info("import batch %s items [%s, %s): read and replayed in %.0f ms, stored in %.0f ms (lock waits included)",
                batch.pk, start, stop, (replayed - began) * 1000, (time.perf_counter() - replayed) * 1000)
    while not _verify(batch, start, stop, in_order=in_order):
        if not _poll(lambda: not _earlier_pending(batch, start, _tables_of_records(_chunk_records(batch, start, stop)),
                                                  _rolling(batch)), deadline):
            return WAITING
    _finish(batch.pk)
    return str(ImportBatch.objects.filter(pk=batch.pk).values_list("status", flat=True).get())
