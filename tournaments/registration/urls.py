"""Sign-up pages, added to the "web" namespace by tournaments/urls_web.py."""

from django.urls import path

from tournaments.registration import views

urlpatterns = [
    path("t/<slug:slug>/sign-up/", views.sign_up, name="sign-up"),
    path("t/<slug:slug>/sign-up/<str:token>/", views.registration_status, name="registration-status"),
    path("t/<slug:slug>/sign-up/<str:token>/withdraw/", views.registration_withdraw_view,
         name="registration-withdraw"),
    path("t/<slug:slug>/sign-up/<str:token>/check-in/", views.registration_check_in_view,
         name="registration-check-in"),
    path("t/<slug:slug>/check-in/", views.desk_check_in, name="desk-check-in"),
    path("t/<slug:slug>/manage/sign-up/", views.manage_registrations, name="manage-registrations"),
    path("t/<slug:slug>/manage/sign-up/<int:registration_id>/<str:decision>/", views.registration_decide,
         name="registration-decide"),
]
