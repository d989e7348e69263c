"""Game records: the exact text a table submitted, its current verdict and how it settled the table.

Thin rows; invariants are database constraints. Writes go through `games.services`, reads through
`games.selectors`. `RecordVerdict` keeps one verdict per (record, engine version): the idempotency
key of the verify task and the history `reverify` compares against.
"""

from __future__ import annotations

import json
from typing import Any

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from games.json_fields import TextJSONField
from tournaments.models import Entrant, Result, Table, Tournament


class ImportBatch(models.Model):
    """A bulk import (ZIP or JSON Lines) of many records by an organiser, processed in the background."""

    class Status(models.TextChoices):
        QUEUED = "queued", _("Queued")
        RUNNING = "running", _("Running")
        DONE = "done", _("Done")
        FAILED = "failed", _("Failed")

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="record_imports")
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    status = models.CharField(_("status"), max_length=10, choices=Status.choices, default=Status.QUEUED)
    total = models.PositiveIntegerField(default=0)
    processed = models.PositiveIntegerField(default=0)
    filename = models.CharField(_("file name"), max_length=255, blank=True)
    # The uploaded bytes, parsed again (deterministically) by the task; emptied when the batch is done.
    upload = models.BinaryField(default=bytes, blank=True, editable=False)
    error_message = models.CharField(max_length=500, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [
            models.CheckConstraint(
                condition=Q(processed__lte=models.F("total")), name="import_processed_le_total"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.filename or 'import'} ({self.processed}/{self.total})"


class GameRecord(models.Model):
    class Source(models.TextChoices):
        UPLOAD = "upload", _("File upload")
        PASTE = "paste", _("Pasted")
        API = "api", _("API")
        IMPORT = "import", _("Bulk import")
        SCORESHEET = "scoresheet", _("Scoresheet")

    class Status(models.TextChoices):
        PENDING = "pending", _("Pending")
        VALID = "valid", _("Valid")
        INVALID = "invalid", _("Invalid")

    class Settlement(models.TextChoices):
        NONE = "none", _("Not settled")
        SETTLED = "settled", _("Result reported")
        CONFLICT = "conflict", _("Conflicts with the table's result")
        UNCHANGED = "unchanged", _("Result unchanged")

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="game_records")
    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="game_records")
    submitted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    submitted_for = models.ForeignKey(
        Entrant, null=True, blank=True, on_delete=models.SET_NULL, related_name="game_records"
    )
    source = models.CharField(_("source"), max_length=10, choices=Source.choices)
    batch = models.ForeignKey(
        ImportBatch, null=True, blank=True, on_delete=models.SET_NULL, related_name="records"
    )
    raw = models.TextField()
    sha256 = models.CharField(max_length=64)
    game = models.CharField(_("game"), max_length=20)
    variant = models.JSONField(default=dict, blank=True)
    seat_entrants = models.JSONField(default=list)
    created_at = models.DateTimeField(auto_now_add=True)

    status = models.CharField(_("status"), max_length=10, choices=Status.choices, default=Status.PENDING)
    complete = models.BooleanField(default=False)
    error_code = models.CharField(max_length=60, blank=True)
    error_path = models.CharField(max_length=500, blank=True)
    error_message = models.TextField(blank=True)
    derived_result = models.JSONField(null=True, blank=True)
    # The result the record implies for the table ({"kind", "scores"|"placings", "winner"}, entrant ids as
    # string keys), computed by games.settle when the record is valid and complete; None otherwise.
    derived_table_result = models.JSONField(null=True, blank=True)
    engine_version = models.CharField(max_length=40, blank=True)
    verified_at = models.DateTimeField(null=True, blank=True)

    result = models.ForeignKey(
        Result, null=True, blank=True, on_delete=models.SET_NULL, related_name="game_records"
    )
    settlement = models.CharField(max_length=10, choices=Settlement.choices, default=Settlement.NONE)
    settlement_note = models.CharField(max_length=500, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [
            models.UniqueConstraint(fields=["table", "sha256"], name="game_record_unique_per_table"),
            models.CheckConstraint(
                condition=Q(status__in=["pending", "valid", "invalid"]), name="game_record_status_valid"
            ),
            models.CheckConstraint(
                condition=Q(settlement__in=["none", "settled", "conflict", "unchanged"]),
                name="game_record_settlement_valid",
            ),
            models.CheckConstraint(
                condition=~Q(status="valid") | Q(error_code=""), name="game_record_valid_has_no_error"
            ),
        ]
        indexes = [models.Index(fields=["tournament", "status"]), models.Index(fields=["engine_version"])]

    def __str__(self) -> str:
        return f"{self.game} record #{self.pk} ({self.status})"

    def document(self) -> dict[str, Any]:
        """The parsed JSON of the record (checked to be an object when it was submitted)."""
        doc = json.loads(self.raw)
        return doc if isinstance(doc, dict) else {}


class RecordVerdict(models.Model):
    """The verdict one engine version gave a record (rules `Verdict.to_json()`)."""

    record = models.ForeignKey(GameRecord, on_delete=models.CASCADE, related_name="verdicts")
    engine_version = models.CharField(max_length=40)
    verdict = models.JSONField()
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["created_at", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["record", "engine_version"], name="record_verdict_unique_per_engine"
            ),
        ]

    def __str__(self) -> str:
        return f"verdict of record #{self.record_id} by {self.engine_version}"


class ImportItem(models.Model):
    """One item of a bulk import: the record it became, or why it was refused."""

    batch = models.ForeignKey(ImportBatch, on_delete=models.CASCADE, related_name="items")
    index = models.PositiveIntegerField()
    name = models.CharField(max_length=255)
    record = models.ForeignKey(GameRecord, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    error_code = models.CharField(max_length=60, blank=True)
    error_message = models.CharField(max_length=500, blank=True)

    class Meta:
        ordering = ["batch", "index"]
        constraints = [
            models.UniqueConstraint(fields=["batch", "index"], name="import_item_unique_index"),
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.error_code or 'ok'})"


class Scoresheet(models.Model):
    """A game being recorded live at a table (issue 16): the engine's JSON state (`rules.scoresheet`),
    a version that every change increments (two phones: the second write with a stale version is
    refused), and, once finished, the `GameRecord` it became. At most one open sheet per table."""

    class Status(models.TextChoices):
        OPEN = "open", _("Open")
        FINISHED = "finished", _("Finished")
        ABANDONED = "abandoned", _("Abandoned")

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="scoresheets")
    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="scoresheets")
    status = models.CharField(_("status"), max_length=10, choices=Status.choices, default=Status.OPEN)
    game = models.CharField(_("game"), max_length=20)
    variant = models.JSONField(default=dict, blank=True)
    players = models.JSONField(default=list)  # the record's `players` (name, Player id, seats) as confirmed
    state = TextJSONField(default=dict)  # read and written whole on every entry: orjson, text (games/json_fields.py)
    version = models.PositiveIntegerField(default=1)
    entries = models.PositiveIntegerField(default=0)  # how many entries the sheet holds (for lists)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    created_for = models.ForeignKey(
        Entrant, null=True, blank=True, on_delete=models.SET_NULL, related_name="scoresheets"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    time_up = models.BooleanField(default=False)
    record = models.ForeignKey(
        GameRecord, null=True, blank=True, on_delete=models.SET_NULL, related_name="scoresheets"
    )

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [
            models.UniqueConstraint(
                fields=["table"], condition=Q(status="open"), name="scoresheet_one_open_per_table"
            ),
            models.CheckConstraint(
                condition=Q(status__in=["open", "finished", "abandoned"]), name="scoresheet_status_valid"
            ),
            models.CheckConstraint(
                condition=Q(status="open") | Q(finished_at__isnull=False), name="scoresheet_closed_has_time",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.game} scoresheet #{self.pk} ({self.status})"
