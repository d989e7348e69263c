from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class RankingsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "tournaments.rankings"
    label = "rankings"
    verbose_name = _("Rankings")
