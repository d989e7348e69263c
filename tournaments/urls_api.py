"""API URLs, mounted under /api/ (see tournaments/apis.py; schema at /api/schema/, docs at /api/docs/)."""

from csp.decorators import csp_update
from django.urls import path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView

from tournaments import apis, archive_api, exports, spreadsheets
from tournaments.api_errors import read_only_api_view
from tournaments.idempotency import honour_idempotency_key
from tournaments.registration import apis as registration_apis

urlpatterns = [
    path("schema/", SpectacularAPIView.as_view(), name="api-schema"),
    # Swagger UI from the sidecar's static files; its set-up script is a separate file (no inline script
    # under the CSP); Swagger UI sets inline styles, allowed on this page only.
    path("docs/", csp_update({"style-src": ["'unsafe-inline'"]})(
        SpectacularSwaggerSplitView.as_view(url_name="api-schema")), name="api-docs"),
    path("auth/token/", apis.AuthTokenApi.as_view(), name="api-token"),
    path("tournaments/", apis.TournamentListCreateApi.as_view(), name="api-tournaments"),
    path("tournaments/<slug:slug>/", apis.TournamentDetailApi.as_view(), name="api-tournament"),
    path("tournaments/<slug:slug>/finish/", apis.TournamentFinishApi.as_view(), name="api-tournament-finish"),
    path("tournaments/<slug:slug>/entrants/", apis.EntrantListRegisterApi.as_view(), name="api-entrants"),
    path("tournaments/<slug:slug>/entrants/import/", apis.EntrantImportApi.as_view(), name="api-entrants-import"),
    path("tournaments/<slug:slug>/entrants/<int:entrant_id>/", apis.EntrantDetailApi.as_view(), name="api-entrant"),
    path("tournaments/<slug:slug>/groups/", apis.GroupsApi.as_view(), name="api-groups"),
    path("tournaments/<slug:slug>/groups/draw/", apis.GroupDrawApi.as_view(), name="api-groups-draw"),
    # Sign-up, waiting list, self check-in (issue 28; tournaments/registration/apis.py)
    path("tournaments/<slug:slug>/sign-up/", registration_apis.SignUpSettingsApi.as_view(), name="api-sign-up"),
    path("tournaments/<slug:slug>/registrations/", registration_apis.RegistrationListSubmitApi.as_view(),
         name="api-registrations"),
    path("registrations/<int:registration_id>/approve/", registration_apis.RegistrationApproveApi.as_view(),
         name="api-registration-approve"),
    path("registrations/<int:registration_id>/reject/", registration_apis.RegistrationRejectApi.as_view(),
         name="api-registration-reject"),
    path("sign-ups/<str:token>/", registration_apis.SignUpStatusApi.as_view(), name="api-sign-up-status"),
    path("sign-ups/<str:token>/withdraw/", registration_apis.SignUpWithdrawApi.as_view(),
         name="api-sign-up-withdraw"),
    path("sign-ups/<str:token>/check-in/", registration_apis.SignUpCheckInApi.as_view(),
         name="api-sign-up-check-in"),
    path("tournaments/<slug:slug>/rounds/", apis.RoundListApi.as_view(), name="api-rounds"),
    path("tournaments/<slug:slug>/rounds/generate/", apis.RoundGenerateApi.as_view(), name="api-round-generate"),
    path("tournaments/<slug:slug>/standings/", apis.StandingsApi.as_view(), name="api-standings"),
    path("tournaments/<slug:slug>/report-links/", apis.ReportLinksApi.as_view(), name="api-report-links"),
    path("tournaments/<slug:slug>/audit/", apis.AuditLogApi.as_view(), name="api-audit"),
    path("tournaments/<slug:slug>/export/<str:kind>.csv", read_only_api_view(exports.export_csv), name="api-export"),
    path("tournaments/<slug:slug>/archive.json", archive_api.TournamentArchiveApi.as_view(), name="api-archive"),
    path("tournament-imports/", archive_api.TournamentImportApi.as_view(), name="api-archive-import"),
    path("tournaments/<slug:slug>/export/standings.xlsx", spreadsheets.StandingsXlsxApi.as_view(),
         name="api-export-standings-xlsx"),
    path("tournaments/<slug:slug>/boards/", apis.BoardAddApi.as_view(), name="api-boards"),
    path("tournaments/<slug:slug>/boards/<int:board_id>/", apis.BoardDetailApi.as_view(), name="api-board"),
    path("tournaments/<slug:slug>/organisers/", apis.OrganiserListAddApi.as_view(), name="api-organisers"),
    path("tournaments/<slug:slug>/organisers/<int:user_id>/", apis.OrganiserDetailApi.as_view(),
         name="api-organiser"),
    path("tournaments/<slug:slug>/calendar.ics", read_only_api_view(exports.export_calendar), name="api-calendar"),
    path("tournaments/<slug:slug>/entrants/<int:entrant_id>/calendar.ics", read_only_api_view(exports.export_calendar),
         name="api-entrant-calendar"),
    path("rounds/<int:round_id>/assign-boards/", apis.RoundAssignBoardsApi.as_view(), name="api-round-boards"),
    path("entrants/<int:entrant_id>/accessibility/", apis.EntrantAccessibilityApi.as_view(),
         name="api-entrant-accessibility"),
    path("entrants/<int:entrant_id>/check-in/", apis.EntrantCheckInApi.as_view(), name="api-entrant-check-in"),
    path("entrants/<int:entrant_id>/drop/", apis.EntrantDropApi.as_view(), name="api-entrant-drop"),
    path("entrants/<int:entrant_id>/readmit/", apis.EntrantReadmitApi.as_view(), name="api-entrant-readmit"),
    path("entrants/<int:entrant_id>/drop/undo/", apis.EntrantDropUndoApi.as_view(), name="api-entrant-drop-undo"),
    path("tournaments/<slug:slug>/entrants/drop-absent/", apis.EntrantsDropAbsentApi.as_view(),
         name="api-entrants-drop-absent"),
    path("tournaments/<slug:slug>/schedule/meetings/", apis.ScheduleMeetingsApi.as_view(),
         name="api-schedule-meetings"),
    path("rounds/<int:round_id>/", apis.RoundDetailApi.as_view(), name="api-round"),
    path("rounds/<int:round_id>/edit/", apis.RoundEditApi.as_view(), name="api-round-edit"),
    path("rounds/<int:round_id>/discard/", apis.RoundDiscardApi.as_view(), name="api-round-discard"),
    path("rounds/<int:round_id>/publish/", apis.RoundPublishApi.as_view(), name="api-round-publish"),
    path("tables/<int:table_id>/", apis.TableDetailApi.as_view(), name="api-table"),
    path("tables/<int:table_id>/report/", honour_idempotency_key(apis.TableReportApi.as_view()),
         name="api-table-report"),
    path("tables/<int:table_id>/schedule/", apis.TableScheduleApi.as_view(), name="api-table-schedule"),
    path("tournaments/<slug:slug>/forbidden-pairs/", apis.ForbiddenPairApi.as_view(), name="api-forbidden-pairs"),
    path("tournaments/<slug:slug>/forbidden-pairs/<int:pair_id>/", apis.ForbiddenPairDetailApi.as_view(),
         name="api-forbidden-pair"),
    path("tables/<int:table_id>/override/", honour_idempotency_key(apis.TableOverrideApi.as_view()),
         name="api-table-override"),
    path("results/<int:result_id>/confirm/", honour_idempotency_key(apis.ResultConfirmApi.as_view()),
         name="api-result-confirm"),
    path("results/<int:result_id>/reject/", honour_idempotency_key(apis.ResultRejectApi.as_view()),
         name="api-result-reject"),
]
