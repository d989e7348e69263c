"""API URLs of the game records, mounted under /api/ next to tournaments.urls_api (see games/apis.py)."""

from django.urls import path

from games import apis

urlpatterns = [
    path("tables/<int:table_id>/records/", apis.TableRecordsApi.as_view(), name="api-table-records"),
    path("tournaments/<slug:slug>/records/", apis.TournamentRecordsApi.as_view(), name="api-tournament-records"),
    path("tournaments/<slug:slug>/records/conflicts/", apis.RecordConflictsApi.as_view(),
         name="api-record-conflicts"),
    path("tournaments/<slug:slug>/records/import/", apis.RecordImportApi.as_view(), name="api-record-import"),
    path("records/<int:record_id>/", apis.RecordDetailApi.as_view(), name="api-record"),
    path("records/<int:record_id>/download/", apis.RecordDownloadApi.as_view(), name="api-record-download"),
    path("record-imports/<int:batch_id>/", apis.RecordImportDetailApi.as_view(), name="api-record-import-detail"),
]
