"""The sign-up REST API (docs/registration.md; OpenAPI at /api/schema/).

- `GET|PATCH /api/tournaments/<slug>/sign-up/`: the sign-up settings and counts (PATCH: organisers);
- `GET|POST /api/tournaments/<slug>/registrations/`: organisers list every sign-up; anyone signs up
  (POST, no account; rate-limited per client address: 429 `sign_up_throttled`). The answer carries the
  private `token` of the sign-up (also sent by e-mail);
- `POST /api/registrations/<id>/approve/`, `.../reject/`: organisers decide a pending sign-up;
- `GET /api/sign-ups/<token>/`, `POST .../withdraw/`, `POST .../check-in/`: the holder of the private
  link reads the sign-up, withdraws it, checks the team in while self check-in is open.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext as _
from drf_spectacular.utils import extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from tournaments import selectors
from tournaments.apis import ERROR_SCHEMA, ERRORS, EntrantOut, _valid
from tournaments.errors import ErrorCode, TournamentError
from tournaments.models import ENTRANT_NAME_MAX_LENGTH, Registration, Tournament
from tournaments.permissions import is_organiser
from tournaments.registration import services
from tournaments.registration.throttle import sign_up_allowed
from tournaments.registration.tokens import registration_from_token, registration_token

ERRORS_429 = {**ERRORS, 429: ERROR_SCHEMA}


class RegistrationOut(serializers.Serializer):
    id = serializers.IntegerField()
    name = serializers.CharField()
    club = serializers.CharField()
    players = serializers.ListField(child=serializers.CharField(), help_text="The players' names, in order.")
    state = serializers.ChoiceField(choices=Registration.State.choices)
    waitlist_place = serializers.IntegerField(allow_null=True, help_text="1 = next to move up; null if not waiting.")
    entrant = serializers.IntegerField(allow_null=True, help_text="The entrant of an accepted sign-up.")
    entrant_status = serializers.CharField(allow_null=True, help_text="registered, checked_in or dropped.")
    created_at = serializers.DateTimeField()


class RegistrationWithTokenOut(RegistrationOut):
    token = serializers.CharField(help_text="The private link's token: keep it secret.")


class RegistrationOrganiserOut(RegistrationOut):
    email = serializers.EmailField()


def _data(registration: Registration, *, places: dict[int, int] | None = None, token: bool = False,
          email: bool = False) -> dict[str, Any]:
    if places is None:
        places = {r.pk: i + 1 for i, r in enumerate(services.waitlist(registration.tournament))}
    entrant = registration.entrant
    out: dict[str, Any] = {
        "id": registration.pk, "name": registration.name, "club": registration.club,
        "players": [p["name"] for p in registration.players], "state": registration.state,
        "waitlist_place": places.get(registration.pk), "entrant": entrant.pk if entrant else None,
        "entrant_status": entrant.status if entrant else None, "created_at": registration.created_at,
    }
    if token:
        out["token"] = registration_token(registration)
    if email:
        out["email"] = registration.email
    return out


def _settings_data(tournament: Tournament) -> dict[str, Any]:
    return {
        "registration_open": tournament.registration_open, "registration_approval": tournament.registration_approval,
        "entry_limit": tournament.entry_limit, "self_checkin_open": tournament.self_checkin_open,
        "entrants": services.entrants_counted(tournament), "waiting": len(services.waitlist(tournament)),
    }


SETTINGS_SCHEMA = inline_serializer(name="SignUpSettings", fields={
    "registration_open": serializers.BooleanField(), "registration_approval": serializers.BooleanField(),
    "entry_limit": serializers.IntegerField(allow_null=True), "self_checkin_open": serializers.BooleanField(),
    "entrants": serializers.IntegerField(help_text="Entrants taking a place (not dropped)."),
    "waiting": serializers.IntegerField(help_text="Sign-ups on the waiting list."),
})


class SignUpSettingsApi(APIView):
    class SettingsInput(serializers.Serializer):
        registration_open = serializers.BooleanField(required=False)
        registration_approval = serializers.BooleanField(required=False)
        entry_limit = serializers.IntegerField(min_value=2, max_value=services.ENTRY_LIMIT_MAX, required=False,
                                               allow_null=True, help_text="null: no limit.")
        self_checkin_open = serializers.BooleanField(required=False)

    def get_permissions(self) -> list[Any]:
        return [IsAuthenticated()] if self.request.method == "PATCH" else [AllowAny()]

    @extend_schema(responses={200: SETTINGS_SCHEMA, 404: ERROR_SCHEMA})
    def get(self, request: Request, slug: str) -> Response:
        return Response(_settings_data(selectors.tournament_get_visible(user=request.user, slug=slug)))

    @extend_schema(request=SettingsInput, responses={200: SETTINGS_SCHEMA, **ERRORS})
    def patch(self, request: Request, slug: str) -> Response:
        tournament = selectors.tournament_get_visible(user=request.user, slug=slug)
        data = _valid(self.SettingsInput, request.data)
        return Response(_settings_data(services.registration_configure(actor=request.user, tournament=tournament,
                                                                       **data)))


class RegistrationListSubmitApi(APIView):
    class SignUpInput(serializers.Serializer):
        name = serializers.CharField(max_length=ENTRANT_NAME_MAX_LENGTH, help_text="Team name (player name if solo).")
        email = serializers.EmailField(help_text="Contact address: the confirmation and private link go there.")
        players = serializers.ListField(
            child=inline_serializer(name="SignUpPlayer", fields={
                "name": serializers.CharField(max_length=100),
                "email": serializers.EmailField(required=False, allow_blank=True)}),
            required=False, default=list, max_length=10)
        club = serializers.CharField(max_length=100, required=False, allow_blank=True, default="")
        language = serializers.ChoiceField(choices=["", "de", "fr", "en"], required=False, default="")

    permission_classes = [AllowAny]

    @extend_schema(responses={200: RegistrationOrganiserOut(many=True), **ERRORS})
    def get(self, request: Request, slug: str) -> Response:
        tournament = selectors.tournament_get_visible(user=request.user, slug=slug)
        if not is_organiser(request.user, tournament):
            raise TournamentError(ErrorCode.PERMISSION_DENIED, _("Only organisers see the sign-ups."))
        places = {r.pk: i + 1 for i, r in enumerate(services.waitlist(tournament))}
        rows = tournament.registrations.select_related("entrant", "tournament").order_by("created_at", "pk")
        return Response([_data(r, places=places, email=True) for r in rows])

    @extend_schema(request=SignUpInput, responses={201: RegistrationWithTokenOut, **ERRORS_429})
    def post(self, request: Request, slug: str) -> Response:
        tournament = selectors.tournament_get_visible(user=request.user, slug=slug)
        allowed, seconds = sign_up_allowed(request._request)
        if not allowed:
            return Response({"error": {"code": ErrorCode.SIGN_UP_THROTTLED.value,
                                       "message": _("Too many sign-ups from your address; please try again later."),
                                       "details": {"retry_after": seconds}}},
                            status=429, headers={"Retry-After": str(seconds)})
        data = _valid(self.SignUpInput, request.data)
        registration = services.registration_submit(tournament=tournament, **data)
        return Response(_data(registration, token=True), status=201)


def _decision(service: Any, label: str) -> type[APIView]:
    class RegistrationDecisionApi(APIView):
        permission_classes = [IsAuthenticated]

        @extend_schema(request=None, responses={200: RegistrationOut, **ERRORS})
        def post(self, request: Request, registration_id: int) -> Response:
            registration = Registration.objects.select_related("tournament").filter(pk=registration_id).first()
            if registration is None:
                raise TournamentError(ErrorCode.NOT_FOUND, _("No such sign-up."))
            selectors.tournament_get_visible(user=request.user, slug=registration.tournament.slug)
            return Response(_data(service(actor=request.user, registration=registration)))

    RegistrationDecisionApi.__name__ = RegistrationDecisionApi.__qualname__ = f"Registration{label}Api"
    return RegistrationDecisionApi


RegistrationApproveApi = _decision(services.registration_approve, "Approve")
RegistrationRejectApi = _decision(services.registration_reject, "Reject")


def _by_token(token: str) -> Registration:
    registration = registration_from_token(token)
    if registration is None:
        raise TournamentError(ErrorCode.NOT_FOUND, _("No such sign-up."))
    return registration


class SignUpStatusApi(APIView):
    permission_classes = [AllowAny]
    authentication_classes: list[Any] = []

    @extend_schema(responses={200: RegistrationOut, 404: ERROR_SCHEMA})
    def get(self, request: Request, token: str) -> Response:
        return Response(_data(_by_token(token)))


class SignUpWithdrawApi(APIView):
    permission_classes = [AllowAny]
    authentication_classes: list[Any] = []

    @extend_schema(request=None, responses={200: RegistrationOut, **ERRORS})
    def post(self, request: Request, token: str) -> Response:
        registration = services.registration_withdraw(registration=_by_token(token))
        return Response(_data(Registration.objects.select_related("tournament", "entrant").get(pk=registration.pk)))


class SignUpCheckInApi(APIView):
    permission_classes = [AllowAny]
    authentication_classes: list[Any] = []

    @extend_schema(request=None, responses={200: EntrantOut, **ERRORS})
    def post(self, request: Request, token: str) -> Response:
        entrant = services.registration_check_in(registration=_by_token(token))
        return Response(EntrantOut(selectors.entrants_of(entrant.tournament).get(pk=entrant.pk)).data)
