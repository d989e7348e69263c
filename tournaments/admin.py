"""Django admin: read-mostly views for support. Organisers use the web UI and the API."""

from django.contrib import admin

from tournaments import models


@admin.register(models.Tournament)
class TournamentAdmin(admin.ModelAdmin):
    list_display = ["name", "game", "format", "status", "is_public", "created_at"]
    list_filter = ["game", "format", "status"]
    search_fields = ["name", "slug"]


@admin.register(models.Entrant)
class EntrantAdmin(admin.ModelAdmin):
    list_display = ["name", "tournament", "status", "seed"]
    list_filter = ["status"]
    search_fields = ["name"]
    exclude = ["report_token"]


@admin.register(models.Registration)
class RegistrationAdmin(admin.ModelAdmin):
    list_display = ("name", "tournament", "state", "waitlist_position", "created_at")
    list_filter = ("state",)
    search_fields = ("name", "email")
    raw_id_fields = ("tournament", "entrant")


@admin.register(models.AuditLog)
class AuditLogAdmin(admin.ModelAdmin):
    list_display = ["created_at", "action", "object_type", "object_id", "actor", "tournament"]
    list_filter = ["action"]

    def has_change_permission(self, request, obj=None):  # type: ignore[no-untyped-def]
        return False

    def has_delete_permission(self, request, obj=None):  # type: ignore[no-untyped-def]
        return False


admin.site.register([models.Club, models.Player, models.Round, models.Table, models.Result])
