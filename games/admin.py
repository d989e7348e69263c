from typing import Any

from django.contrib import admin
from django.db.models import QuerySet
from django.http import HttpRequest

from games.models import GameRecord, ImportBatch, ImportItem, RecordVerdict


@admin.register(GameRecord)
class GameRecordAdmin(admin.ModelAdmin):
    list_display = (
        "id",
        "tournament",
        "table",
        "game",
        "status",
        "complete",
        "settlement",
        "engine_version",
        "created_at",
    )
    list_filter = ("status", "settlement", "game")
    raw_id_fields = ("tournament", "table", "submitted_by", "submitted_for", "batch", "result")
    readonly_fields = ("sha256", "created_at", "verified_at")

    def get_queryset(self, request: HttpRequest) -> QuerySet[Any]:
        return super().get_queryset(request).defer("raw")  # up to a megabyte a row; the change form loads it


@admin.register(RecordVerdict)
class RecordVerdictAdmin(admin.ModelAdmin):
    list_display = ("id", "record", "engine_version", "created_at")
    raw_id_fields = ("record",)


class ImportItemInline(admin.TabularInline):
    model = ImportItem
    raw_id_fields = ("record",)
    extra = 0


@admin.register(ImportBatch)
class ImportBatchAdmin(admin.ModelAdmin):
    list_display = ("id", "tournament", "filename", "status", "processed", "total", "created_at")
    raw_id_fields = ("tournament", "created_by")
    inlines = [ImportItemInline]

    def get_queryset(self, request: HttpRequest) -> QuerySet[Any]:
        return super().get_queryset(request).defer("upload")  # up to 50 MB while the import runs
