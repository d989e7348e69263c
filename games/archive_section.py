"""The game records' part of the tournament archive (tournaments.archive, key "records").

Each record keeps its text, table, submitting entrant, source and how it settled its table, with
`result`: the archive id of the result it reported or found (`GameRecord.result`), or null. On import
the record is stored again (its text unchanged; the seats' entrants mapped), the settlement and its
result carried over (so importing never reports a result twice, and the copy's record points to the
copy's result), and verified with this instance's engine inside the import transaction: the verdict is
recomputed, not trusted. A record that does not read (too large, not JSON), or whose `result` is not a
result of its own table in the archive, refuses the whole archive. Archives written before `result`
was added import unlinked.
"""

from __future__ import annotations

from typing import Any

from games.models import GameRecord
from tournaments.archive import ArchiveError, ArchiveSection, archive_section_register
from tournaments.errors import TournamentError
from tournaments.models import Tournament

KEYS = {"table", "submitted_for", "seat_entrants", "source", "raw", "status", "error_code", "settlement",
        "settlement_note"}
OPTIONAL_KEYS = {"result"}  # absent in archives written before it was added


def _export(tournament: Tournament) -> list[dict[str, Any]]:
    return [
        {"table": r.table_id, "submitted_for": r.submitted_for_id, "seat_entrants": r.seat_entrants,
         "source": r.source, "raw": r.raw,
         "status": r.status, "error_code": r.error_code, "settlement": r.settlement,
         "settlement_note": r.settlement_note, "result": r.result_id}
        for r in GameRecord.objects.filter(tournament=tournament).order_by("pk")
    ]


def _check(items: Any, ids: dict[str, Any]) -> None:
    from games.services import record_parse

    if not isinstance(items, list):
        raise ArchiveError("records", "must be a list")
    for index, item in enumerate(items):
        path = f"records[{index}]"
        if not isinstance(item, dict) or not KEYS <= set(item) <= KEYS | OPTIONAL_KEYS:
            raise ArchiveError(path, f"must have the keys {', '.join(sorted(KEYS))} (and optionally "
                                     f"{', '.join(sorted(OPTIONAL_KEYS))}), no others")
        if item["table"] not in ids["tables"]:
            raise ArchiveError(f"{path}.table", "is not a table of the archive")
        if item["submitted_for"] is not None and item["submitted_for"] not in ids["entrants"]:
            raise ArchiveError(f"{path}.submitted_for", "is not an entrant of the archive")
        seats = item["seat_entrants"]
        if not isinstance(seats, list) or len(seats) > 100 or any(e not in ids["entrants"] for e in seats):
            raise ArchiveError(f"{path}.seat_entrants", "must list entrants of the archive")
        if item["source"] not in GameRecord.Source.values:
            raise ArchiveError(f"{path}.source", "is not a record source")
        if item["settlement"] not in GameRecord.Settlement.values:
            raise ArchiveError(f"{path}.settlement", "is not a settlement")
        _check_result_link(item, path, ids["results"])
        for key in ("status", "error_code", "settlement_note"):
            if not isinstance(item[key], str) or len(item[key]) > 500:
                raise ArchiveError(f"{path}.{key}", "must be a short text")
        if not isinstance(item["raw"], str):
            raise ArchiveError(f"{path}.raw", "must be the record's text")
        try:
            record_parse(item["raw"])
        except TournamentError as exc:
            raise ArchiveError(f"{path}.raw", exc.message) from exc


def _check_result_link(item: dict[str, Any], path: str, result_tables: dict[int, int]) -> None:
    """`result` is null or the id of a result of the record's own table."""
    link = item.get("result")
    if link is None:
        return
    if isinstance(link, bool) or not isinstance(link, int):
        raise ArchiveError(f"{path}.result", "must be the id of a result or null")
    if link not in result_tables:
        raise ArchiveError(f"{path}.result", "is not a result of the archive")
    if result_tables[link] != item["table"]:
        raise ArchiveError(f"{path}.result", "is a result of another table")


def _load(tournament: Tournament, items: Any, maps: dict[str, dict[int, Any]], actor: Any) -> None:
    from games.services import record_parse, record_verify

    for item in items:
        table = maps["tables"][item["table"]]
        parsed = record_parse(item["raw"])
        # The players' ids inside the text are the exporting instance's: the seats' entrants are mapped.
        seat_entrants = [maps["entrants"][e].pk for e in item["seat_entrants"]]
        variant = parsed.doc.get("variant", {})
        record = GameRecord.objects.create(
            tournament=tournament, table=table, submitted_by=None,
            submitted_for=maps["entrants"][item["submitted_for"]] if item["submitted_for"] is not None else None,
            source=item["source"], raw=parsed.text, sha256=parsed.sha256, game=tournament.game,
            variant=variant if isinstance(variant, dict) else {}, seat_entrants=seat_entrants,
            settlement=item["settlement"], settlement_note=item["settlement_note"],
            result=maps["results"][item["result"]] if item.get("result") is not None else None,
        )
        record_verify(record_id=record.pk)


def register() -> None:
    archive_section_register(ArchiveSection(key="records", export=_export, check=_check, load=_load))
