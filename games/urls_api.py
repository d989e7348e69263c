"""API URLs of the game records, mounted under /api/ next to tournaments.urls_api (see games/apis.py)."""

from django.urls import path

from games import apis
from games.scoresheet import apis as scoresheet_apis
from tournaments.idempotency import honour_idempotency_key

urlpatterns = [
    path("tables/<int:table_id>/records/", apis.TableRecordsApi.as_view(), name="api-table-records"),
    path("tournaments/<slug:slug>/records/", apis.TournamentRecordsApi.as_view(), name="api-tournament-records"),
    path("tournaments/<slug:slug>/records/conflicts/", apis.RecordConflictsApi.as_view(),
         name="api-record-conflicts"),
    path("tournaments/<slug:slug>/records/import/", apis.RecordImportApi.as_view(), name="api-record-import"),
    path("records/<int:record_id>/", apis.RecordDetailApi.as_view(), name="api-record"),
    path("records/<int:record_id>/download/", apis.RecordDownloadApi.as_view(), name="api-record-download"),
    path("record-imports/<int:batch_id>/", apis.RecordImportDetailApi.as_view(), name="api-record-import-detail"),
    path("tables/<int:table_id>/scoresheet/", scoresheet_apis.TableScoresheetApi.as_view(), name="api-table-scoresheet"),
    path("scoresheets/<int:sheet_id>/", scoresheet_apis.ScoresheetApi.as_view(), name="api-scoresheet"),
    # Idempotency-Key (tournaments/idempotency.py, issue 30): a tap re-sent after a lost answer is written once
    path("scoresheets/<int:sheet_id>/entries/", honour_idempotency_key(scoresheet_apis.ScoresheetEntriesApi.as_view()),
         name="api-scoresheet-entries"),
    path("scoresheets/<int:sheet_id>/undo/", honour_idempotency_key(scoresheet_apis.ScoresheetUndoApi.as_view()),
         name="api-scoresheet-undo"),
    path("scoresheets/<int:sheet_id>/correct/", honour_idempotency_key(scoresheet_apis.ScoresheetCorrectApi.as_view()),
         name="api-scoresheet-correct"),
    path("scoresheets/<int:sheet_id>/finish/", scoresheet_apis.ScoresheetFinishApi.as_view(),
         name="api-scoresheet-finish"),
    path("scoresheets/<int:sheet_id>/abandon/", scoresheet_apis.ScoresheetAbandonApi.as_view(),
         name="api-scoresheet-abandon"),
]
