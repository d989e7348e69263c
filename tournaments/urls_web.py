"""Web UI URLs (server-rendered pages), mounted at the site root. Namespace "web".

Split by audience like the views: public pages, organiser pages under /t/<slug>/manage/, result
pages for players (account or private link /report/<token>/).
"""

from django.urls import include, path

from tournaments.idempotency import honour_idempotency_key
from tournaments.registration import urls as registration_urls
from tournaments.views import (
    archive,
    final_places,
    hall,
    organiser,
    public,
    results,
    round_results,
    slips,
    unsubscribe,
    venue,
)

app_name = "web"

urlpatterns = [
    # Public
    path("", public.tournament_list, name="tournament-list"),
    path("t/<slug:slug>/", public.tournament_detail, name="tournament-detail"),
    path("t/<slug:slug>/standings/", public.standings, name="standings"),
    path("t/<slug:slug>/bracket/", final_places.bracket, name="bracket"),
    path("t/<slug:slug>/hall/", hall.hall, name="hall"),
    path("t/<slug:slug>/rounds/<int:number>/", public.round_detail, name="round-detail"),
    path("t/<slug:slug>/rounds/<int:number>/sheet/", public.pairing_sheet, name="pairing-sheet"),
    path("t/<slug:slug>/entrants/<int:entrant_id>/", public.entrant_detail, name="entrant-detail"),
    # Organisers
    path("new/", organiser.tournament_create_view, name="tournament-create"),
    path("t/<slug:slug>/manage/", organiser.manage, name="manage"),
    path("t/<slug:slug>/manage/organisers/", organiser.organiser_add, name="organiser-add"),
    path("t/<slug:slug>/manage/finish/", organiser.tournament_finish_view, name="tournament-finish"),
    path("t/<slug:slug>/manage/final-places/", final_places.final_places_settings, name="final-places"),
    path("t/<slug:slug>/manage/venue/", venue.venue, name="venue"),
    path("t/<slug:slug>/manage/venue/boards/", venue.venue_board_add, name="venue-board-add"),
    path("t/<slug:slug>/manage/venue/pairs/", venue.venue_pair_add, name="venue-pair-add"),
    path("t/<slug:slug>/manage/venue/pairs/<int:pair_id>/remove/", venue.venue_pair_remove, name="venue-pair-remove"),
    path("t/<slug:slug>/manage/venue/entrants/<int:entrant_id>/accessibility/", venue.venue_accessibility,
         name="venue-accessibility"),
    path("t/<slug:slug>/manage/venue/rounds/", venue.venue_round_boards, name="venue-round-boards"),
    path("t/<slug:slug>/manage/entrants/add/", organiser.entrant_add, name="entrant-add"),
    path("t/<slug:slug>/manage/entrants/<int:entrant_id>/edit/", organiser.entrant_edit, name="entrant-edit"),
    path("t/<slug:slug>/manage/entrants/<int:entrant_id>/delete/", organiser.entrant_delete_view,
         name="entrant-delete"),
    path("t/<slug:slug>/manage/groups/draw/", organiser.groups_draw_view, name="groups-draw"),
    path("t/<slug:slug>/manage/entrants/import/", organiser.entrants_import, name="entrants-import"),
    path(
        "t/<slug:slug>/manage/entrants/check-in-all/",
        organiser.entrants_check_in_all,
        name="entrants-check-in-all",
    ),
    path("t/<slug:slug>/manage/entrants/drop-absent/", organiser.entrants_drop_absent_view,
         name="entrants-drop-absent"),
    path("t/<slug:slug>/manage/check-in-required/", organiser.checkin_required_view, name="checkin-required"),
    path(
        "t/<slug:slug>/manage/entrants/<int:entrant_id>/<str:action>/",
        organiser.entrant_action,
        name="entrant-action",
    ),
    path("t/<slug:slug>/manage/rounds/generate/", organiser.round_generate_view, name="round-generate"),
    path("t/<slug:slug>/manage/rounds/<int:number>/", organiser.manage_round, name="manage-round"),
    path(
        "t/<slug:slug>/manage/rounds/<int:number>/publish/",
        organiser.round_publish_view,
        name="round-publish",
    ),
    # Venue day (issue 17): whole-round result entry, result slips, report-link sheet
    path("t/<slug:slug>/manage/rounds/<int:number>/results/", round_results.round_results, name="round-results"),
    path("t/<slug:slug>/manage/rounds/<int:number>/results/<int:table_id>/", round_results.round_results_table,
         name="round-results-table"),
    path("t/<slug:slug>/manage/rounds/<int:number>/slips/", slips.result_slips, name="result-slips"),
    path("t/<slug:slug>/manage/report-links/", slips.report_link_sheet, name="report-link-sheet"),
    path("t/<slug:slug>/manage/archive.json", archive.archive_download, name="archive-download"),
    path("import/", archive.archive_import_view, name="archive-import"),
    path(
        "t/<slug:slug>/manage/tables/<int:table_id>/result/",
        honour_idempotency_key(results.result_override_view),
        name="result-override",
    ),
    # Players
    path("t/<slug:slug>/tables/<int:table_id>/report/", honour_idempotency_key(results.result_report_view),
         name="result-report"),
    path("report/<str:token>/", results.token_home, name="token-home"),
    path("email/unsubscribe/<str:token>/", unsubscribe.email_unsubscribe, name="email-unsubscribe"),
    path("report/<str:token>/tables/<int:table_id>/", honour_idempotency_key(results.token_report),
         name="token-report"),
    path("", include("tournaments.webhooks.urls_web")),
    # Sign-up, waiting list, self check-in (issue 28): tournaments/registration/
    *registration_urls.urlpatterns,
]
