"""Web URLs of game records, mounted at the site root next to tournaments.urls_web. Namespace "games".

Public (visibility decided per record): /t/<slug>/records/..., the same record pages for a private
report link under /report/<token>/records/...; players submit under /t/<slug>/tables/<id>/records/submit/
(or /report/<token>/tables/<id>/record/); organisers import under /t/<slug>/manage/records/import/.
"""

from django.urls import path

from games import views
from games.scoresheet import hall as scoresheet_hall
from games.scoresheet import views as scoresheet_views
from tournaments.idempotency import honour_idempotency_key

app_name = "games"

urlpatterns = [
    path("t/<slug:slug>/records/", views.records_list, name="records"),
    path("t/<slug:slug>/records/<int:record_id>/", views.record_detail, name="record-detail"),
    path("t/<slug:slug>/records/<int:record_id>/record.json", views.record_json, name="record-json"),
    path("t/<slug:slug>/records/<int:record_id>/steps/<int:n>/", views.record_step, name="record-step"),
    path(
        "t/<slug:slug>/records/<int:record_id>/steps/<int:n>.svg",
        views.record_step_svg,
        name="record-step-svg",
    ),
    path("t/<slug:slug>/tables/<int:table_id>/records/", views.table_records, name="table-records"),
    path(
        "t/<slug:slug>/tables/<int:table_id>/records/submit/", views.record_submit_view, name="record-submit"
    ),
    path("t/<slug:slug>/tables/<int:table_id>/scoresheet/", honour_idempotency_key(scoresheet_views.scoresheet_page),
         name="scoresheet"),
    path("t/<slug:slug>/hall/boards/", scoresheet_hall.hall_boards, name="hall-boards"),
    path("t/<slug:slug>/manage/records/import/", views.records_import_view, name="records-import"),
    path("t/<slug:slug>/manage/records/import/<int:batch_id>/", views.import_detail, name="import-detail"),
    path(
        "t/<slug:slug>/manage/records/import/<int:batch_id>/progress/",
        views.import_progress,
        name="import-progress",
    ),
    # The same record pages for a player's private report link.
    path(
        "report/<str:token>/records/<int:record_id>/", views.token_record_detail, name="token-record-detail"
    ),
    path(
        "report/<str:token>/records/<int:record_id>/record.json",
        views.token_record_json,
        name="token-record-json",
    ),
    path(
        "report/<str:token>/records/<int:record_id>/steps/<int:n>/",
        views.token_record_step,
        name="token-record-step",
    ),
    path(
        "report/<str:token>/records/<int:record_id>/steps/<int:n>.svg",
        views.token_record_step_svg,
        name="token-record-step-svg",
    ),
    path(
        "report/<str:token>/tables/<int:table_id>/record/",
        views.token_record_submit,
        name="token-record-submit",
    ),
    path(
        "report/<str:token>/tables/<int:table_id>/scoresheet/",
        honour_idempotency_key(scoresheet_views.token_scoresheet_page),  # taps kept offline (issue 30)
        name="token-scoresheet",
    ),
]
