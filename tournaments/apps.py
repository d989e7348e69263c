from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "tournaments"
    verbose_name = "Tournaments"

    def ready(self) -> None:
        from corsheaders.signals import check_request_enabled

        from tournaments import login_protection  # noqa: F401  (connects the lockout security log)
        from tournaments.embedding import cors_read_only

        check_request_enabled.connect(cors_read_only, dispatch_uid="tournaments.cors_read_only")
