"""Root URLs: the web UI (games.urls_web, tournaments.urls_web), the API under /api/ (tournaments, games), the admin, language switching."""

from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.urls import include, path
from django.views.decorators.csrf import csrf_exempt
from django.views.i18n import set_language

from config.health import healthz

urlpatterns = [
    path("healthz", healthz, name="healthz"),
    path("admin/", admin.site.urls),
    # The language switcher needs no CSRF token (it sets the display language cookie, nothing else), so a
    # public page's shell carries none and is the same for every anonymous reader (tournaments/page_cache.py).
    path("i18n/setlang/", csrf_exempt(set_language), name="set_language"),
    path("accounts/login/", auth_views.LoginView.as_view(), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(), name="logout"),
    path("embed/", include("tournaments.urls_embed")),
    path("api/", include("tournaments.urls_api")),
    path("api/", include("tournaments.rankings.urls_api")),
    path("api/", include("tournaments.webhooks.urls_api")),
    path("", include("tournaments.rankings.urls_web")),
    path("api/", include("games.urls_api")),
    path("", include("games.urls_web")),
    path("", include("tournaments.urls_web")),
]

# /api/ answers JSON errors only, also for unknown URLs and the non-DRF exports (tournaments/api_errors.py).
handler400 = "tournaments.api_errors.bad_request"
handler403 = "tournaments.api_errors.permission_denied"
handler404 = "tournaments.api_errors.page_not_found"
handler500 = "tournaments.api_errors.server_error"
