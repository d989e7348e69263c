"""The REST API: one class per operation; each parses input, calls one selector or service, renders.

Reads are public for public tournaments; writes need authentication (a token:
`Authorization: Token <key>`, from POST /api/auth/token/) except result reports and confirmations made
through an entrant's private report token (`"token"` in the body). Permissions live in the services
and `tournaments.permissions`; errors are mapped once in `tournaments.api_errors`.
"""

from __future__ import annotations

from typing import Any

from django.http import HttpResponse, QueryDict
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiParameter, extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.renderers import JSONRenderer
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from tournaments import public_fast_path, selectors, services
from tournaments.api_components import (
    PLACING_POINTS_FIELD,
    TIEBREAK_ORDER_FIELD,
    VARIANT_FIELD,
    AuditRowOut,
    RoundOut,
    TableOut,
)
from tournaments.api_strict_types import strict_json_types
from tournaments.errors import ErrorCode, TournamentError, refused
from tournaments.models import (
    ENTRANT_NAME_MAX_LENGTH,
    Board,
    Entrant,
    ForbiddenPair,
    Result,
    Round,
    Table,
    Tournament,
)
from tournaments.page_cache import api_not_modified, cached_answer, store_answer, tournament_key
from tournaments.permissions import is_organiser
from tournaments.profiles import GAMES
from tournaments.standings import TIEBREAKS

MAX_GROUPS = 64

ERROR_SCHEMA = inline_serializer(
    name="Error",
    fields={
        "error": inline_serializer(
            name="ErrorBody",
            fields={"code": serializers.CharField(), "message": serializers.CharField(),
                    "details": serializers.DictField()},
        )
    },
)
# 400 malformed (schema), 409 the state does not allow it, 422 refused by the tournament's rules
# (tournaments/errors.py, docs/architecture.md); the body is always {"error": {code, message, details}}.
ERRORS = {400: ERROR_SCHEMA, 401: ERROR_SCHEMA, 403: ERROR_SCHEMA, 404: ERROR_SCHEMA, 409: ERROR_SCHEMA,
          422: ERROR_SCHEMA}


def _valid(serializer_class: type[serializers.Serializer], data: Any) -> dict[str, Any]:
    if not isinstance(data, dict):
        raise TournamentError(ErrorCode.INVALID_INPUT, _("The body must be a JSON object."))
    if not isinstance(data, QueryDict):  # JSON bodies: the types the schema documents
        strict_json_types(serializer_class, data)
    serializer = serializer_class(data=data)
    serializer.is_valid(raise_exception=True)
    return dict(serializer.validated_data)


# --- output -------------------------------------------------------------------------------------


class TournamentOut(serializers.ModelSerializer):
    organisers = serializers.SerializerMethodField()
    variant = VARIANT_FIELD
    placing_points = PLACING_POINTS_FIELD
    tiebreak_order = TIEBREAK_ORDER_FIELD

    class Meta:
        model = Tournament
        fields = [
            "id", "slug", "name", "game", "variant", "format", "status", "is_public", "starts_on", "venue",
            "rounds_planned", "group_count", "double_round_robin", "knockout_size", "knockout_advance",
            "third_place_match", "first_round", "avoid_same_club", "placing_points", "tiebreak_order",
            "forfeit_winner_score", "forfeit_loser_score", "bye_points", "bye_score_for", "bye_score_against",
            "checkin_required", "schedule_rounds", "rolling_rounds", "game_minutes",
            "results_version", "standings_version", "organisers",
            "placement_matches", "shared_places_by_standings", "dropped_rank_last", "bye_tiebreak",
            "knockout_style", "grand_final_reset",
        ]

    def get_organisers(self, obj: Tournament) -> list[str]:
        return [u.get_username() for u in obj.organisers.all()]


class EntrantOut(serializers.ModelSerializer):
    players = serializers.SerializerMethodField()
    club = serializers.SerializerMethodField()

    class Meta:
        model = Entrant
        fields = ["id", "name", "status", "seed", "rating", "group", "club", "players"]

    def get_players(self, obj: Entrant) -> list[dict[str, Any]]:
        return [{"id": m.player_id, "name": m.player.name} for m in obj.members.all()]

    def get_club(self, obj: Entrant) -> str | None:
        return obj.club.name if obj.club else None


def _result_data(result: Result | None) -> dict[str, Any] | None:
    if result is None:
        return None
    return {
        "id": result.pk,
        "kind": result.kind,
        "state": result.state,
        "reported_for": result.reported_for_id,
        "rejection_reason": result.rejection_reason,
        "lines": [
            {"entrant": s.entrant_id, "score": s.score, "placing": s.placing, "is_winner": s.is_winner,
             "forfeited": s.forfeited}
            for s in result.scores.all()
        ],
    }


def table_data(table: Table) -> dict[str, Any]:
    return {
        "id": table.pk,
        "number": table.number,
        "is_bye": table.is_bye,
        "starts_at": table.starts_at,
        "physical_table": table.physical_table,
        "seats": [
            {"position": s.position, "entrant": s.entrant_id, "name": s.entrant.name, "is_starting": s.is_starting}
            for s in table.seats.all()
        ],
        "result": _result_data(selectors.table_final_result(table)),
        "pending": _result_data(selectors.table_pending_result(table)),
    }


def round_data(round_: Round) -> dict[str, Any]:
    tables = [table_data(t) for t in selectors.round_tables(round_)]
    tournament = round_.tournament
    if tournament.rolling_rounds and round_.status == Round.Status.PUBLISHED:
        # rolling rounds: which tables may start ("playing"), wait for earlier tables, or are done
        release = selectors.tables_release(tournament)
        for table in tables:
            table["release"] = release.get(table["id"], "done")
    return {
        "id": round_.pk,
        "number": round_.number,
        "stage": round_.stage,
        "status": round_.status,
        "warnings": round_.warnings,
        "tables": tables,
    }


# --- authentication -------------------------------------------------------------------------------


class AuthTokenApi(APIView):
    """Exchange a username and password for the account's API token (`Authorization: Token <key>`).

    Failed attempts count towards the login lockout (`tournaments.login_protection`): after
    LOGIN_FAILURE_LIMIT failures for the account or from the client, 429 `login_locked` until the
    lockout ends (`Retry-After`)."""

    permission_classes = [AllowAny]
    authentication_classes: list[Any] = []

    class AuthTokenInput(serializers.Serializer):
        username = serializers.CharField(max_length=150)
        password = serializers.CharField(max_length=4096, trim_whitespace=False)

    @extend_schema(request=AuthTokenInput, responses={
        200: inline_serializer(name="AuthToken", fields={"token": serializers.CharField()}),
        400: ERROR_SCHEMA, 401: ERROR_SCHEMA, 429: ERROR_SCHEMA})
    def post(self, request: Request) -> Response:
        from django.contrib.auth import authenticate
        from rest_framework.authtoken.models import Token

        from tournaments.login_protection import lockout_message, lockout_seconds

        data = _valid(self.AuthTokenInput, request.data)
        http_request = request._request
        user = authenticate(request=http_request, username=data["username"], password=data["password"])
        if getattr(http_request, "axes_locked_out", False):
            seconds = lockout_seconds(http_request)
            return Response({"error": {"code": "login_locked", "message": lockout_message(http_request),
                                       "details": {"retry_after": seconds}}},
                            status=429, headers={"Retry-After": str(seconds)})
        if user is None:
            raise TournamentError(ErrorCode.LOGIN_FAILED, _("Unable to log in with these credentials."))
        token, _created = Token.objects.get_or_create(user=user)
        return Response({"token": token.key})


# --- tournaments ----------------------------------------------------------------------------------


class TournamentListCreateApi(APIView):
    class TournamentCreateInput(serializers.Serializer):
        name = serializers.CharField(max_length=120)
        game = serializers.ChoiceField(choices=list(GAMES))
        variant = serializers.DictField(required=False, default=dict)
        format = serializers.ChoiceField(choices=Tournament.Format.choices, default="swiss")
        rounds_planned = serializers.IntegerField(min_value=1, max_value=100, default=5)
        is_public = serializers.BooleanField(default=True)
        group_count = serializers.IntegerField(min_value=1, max_value=64, default=1)
        double_round_robin = serializers.BooleanField(default=False)
        knockout_size = serializers.IntegerField(min_value=2, max_value=1024, required=False, allow_null=True)
        knockout_advance = serializers.IntegerField(min_value=1, max_value=9, default=1)
        knockout_style = serializers.ChoiceField(choices=Tournament.KnockoutStyle.choices, default="single")
        grand_final_reset = serializers.BooleanField(default=True)
        third_place_match = serializers.BooleanField(default=True)
        first_round = serializers.ChoiceField(choices=Tournament.FirstRound.choices, default="seed")
        avoid_same_club = serializers.BooleanField(default=False)
        random_seed = serializers.IntegerField(min_value=0, max_value=2**31 - 1, default=0)
        placing_points = serializers.ListField(child=serializers.FloatField(), required=False, max_length=10)
        tiebreak_order = serializers.ListField(child=serializers.ChoiceField(choices=TIEBREAKS), required=False,
                                               max_length=len(TIEBREAKS))
        forfeit_winner_score = serializers.IntegerField(min_value=0, max_value=1000, required=False)
        forfeit_loser_score = serializers.IntegerField(min_value=0, max_value=1000, required=False)
        bye_points = serializers.FloatField(min_value=0, max_value=1000, required=False)
        bye_score_for = serializers.IntegerField(min_value=0, max_value=1000, required=False)
        bye_score_against = serializers.IntegerField(min_value=0, max_value=1000, required=False)
        starts_on = serializers.DateField(required=False, allow_null=True)
        venue = serializers.CharField(max_length=200, required=False, allow_blank=True, default="")
        placement_matches = serializers.BooleanField(default=False)
        shared_places_by_standings = serializers.BooleanField(default=False)
        dropped_rank_last = serializers.BooleanField(default=True)
        bye_tiebreak = serializers.ChoiceField(choices=Tournament.ByeTiebreak.choices, default="own_score")
        checkin_required = serializers.BooleanField(default=False)
        schedule_rounds = serializers.IntegerField(min_value=1, max_value=60, required=False, allow_null=True)
        rolling_rounds = serializers.BooleanField(default=False)
        game_minutes = serializers.IntegerField(min_value=1, max_value=1440, required=False)

    def get_permissions(self) -> list[Any]:
        return [IsAuthenticated()] if self.request.method == "POST" else [AllowAny()]

    @extend_schema(responses={200: TournamentOut(many=True)})
    def get(self, request: Request) -> Response:
        tournaments = selectors.tournaments_visible_to(request.user).prefetch_related("organisers")[:500]
        return Response(TournamentOut(tournaments, many=True).data)

    @extend_schema(request=TournamentCreateInput, responses={201: TournamentOut, **ERRORS})
    def post(self, request: Request) -> Response:
        data = _valid(self.TournamentCreateInput, request.data)
        tournament = services.tournament_create(actor=request.user, **data)
        return Response(TournamentOut(tournament).data, status=201)


class TournamentDetailApi(APIView):
    class TournamentUpdateInput(serializers.Serializer):
        name = serializers.CharField(max_length=120, required=False)
        is_public = serializers.BooleanField(required=False)
        rounds_planned = serializers.IntegerField(min_value=1, max_value=100, required=False)
        venue = serializers.CharField(max_length=200, required=False, allow_blank=True)
        starts_on = serializers.DateField(required=False, allow_null=True)
        avoid_same_club = serializers.BooleanField(required=False)
        first_round = serializers.ChoiceField(choices=Tournament.FirstRound.choices, required=False)
        random_seed = serializers.IntegerField(min_value=0, max_value=2**31 - 1, required=False)
        placing_points = serializers.ListField(child=serializers.FloatField(), required=False, max_length=10)
        tiebreak_order = serializers.ListField(child=serializers.ChoiceField(choices=TIEBREAKS), required=False,
                                               max_length=len(TIEBREAKS))
        forfeit_winner_score = serializers.IntegerField(min_value=0, max_value=1000, required=False)
        forfeit_loser_score = serializers.IntegerField(min_value=0, max_value=1000, required=False)
        bye_points = serializers.FloatField(min_value=0, max_value=1000, required=False)
        bye_score_for = serializers.IntegerField(min_value=0, max_value=1000, required=False)
        bye_score_against = serializers.IntegerField(min_value=0, max_value=1000, required=False)
        placement_matches = serializers.BooleanField(required=False)
        shared_places_by_standings = serializers.BooleanField(required=False)
        dropped_rank_last = serializers.BooleanField(required=False)
        bye_tiebreak = serializers.ChoiceField(choices=Tournament.ByeTiebreak.choices, required=False)
        checkin_required = serializers.BooleanField(required=False)
        schedule_rounds = serializers.IntegerField(min_value=1, max_value=60, required=False, allow_null=True)
        rolling_rounds = serializers.BooleanField(required=False)
        game_minutes = serializers.IntegerField(min_value=1, max_value=1440, required=False)

    public_read = True  # GET: the hall's throttle (tournaments/api_throttles.py)

    def get_permissions(self) -> list[Any]:
        return [IsAuthenticated()] if self.request.method == "PATCH" else [AllowAny()]

    @extend_schema(responses={200: TournamentOut, 404: ERROR_SCHEMA})
    def get(self, request: Request, slug: str) -> Any:
        tournament = selectors.tournament_get_visible(user=request.user, slug=slug)
        not_modified, validators = api_not_modified(request, tournament_key(tournament, "api-tournament"),
                                                    shared=tournament.is_public)
        return not_modified or validators(Response(TournamentOut(tournament).data))

    @extend_schema(request=TournamentUpdateInput, responses={200: TournamentOut, **ERRORS})
    def patch(self, request: Request, slug: str) -> Response:
        tournament = selectors.tournament_get_visible(user=request.user, slug=slug)
        data = _valid(self.TournamentUpdateInput, request.data)
        return Response(TournamentOut(services.tournament_update(actor=request.user, tournament=tournament,
                                                                 **data)).data)


class TournamentFinishApi(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(request=None, responses={200: TournamentOut, **ERRORS})
    def post(self, request: Request, slug: str) -> Response:
        tournament = selectors.tournament_get_visible(user=request.user, slug=slug)
        return Response(TournamentOut(services.tournament_finish(actor=request.user, tournament=tournament)).data)


# --- entrants ----------------------------------------------------------------------------------


class EntrantListRegisterApi(APIView):
    class EntrantRegisterInput(serializers.Serializer):
        name = serializers.CharField(max_length=ENTRANT_NAME_MAX_LENGTH)
        player_names = serializers.ListField(child=serializers.CharField(max_length=100), required=False,
                                             default=list, max_length=10)
        player_ids = serializers.ListField(child=serializers.IntegerField(min_value=1), required=False,
                                           default=list, max_length=10)
        club = serializers.CharField(max_length=100, required=False, allow_blank=True, allow_null=True)
        seed = serializers.IntegerField(min_value=1, max_value=100000, required=False, allow_null=True)
        rating = serializers.FloatField(min_value=-100000, max_value=100000, required=False, allow_null=True)
        group = serializers.IntegerField(min_value=1, max_value=64, default=1)
        check_in = serializers.BooleanField(default=False)
        email = serializers.EmailField(required=False, allow_blank=True, default="",
                                       help_text="Private notification address of the entrant (never returned).")
        language = serializers.ChoiceField(choices=["", "de", "fr", "en"], required=False, default="")
        player_emails = serializers.ListField(child=serializers.EmailField(allow_blank=True), required=False,
                                              default=list, max_length=10,
                                              help_text="Notification addresses of the named players, in order.")

    def get_permissions(self) -> list[Any]:
        return [IsAuthenticated()] if self.request.method == "POST" else [AllowAny()]

    @extend_schema(responses={200: EntrantOut(many=True), 404: ERROR_SCHEMA})
    def get(self, request: Request, slug: str) -> Response:
        tournament = selectors.tournament_get_visible(user=request.user, slug=slug)
        return Response(EntrantOut(selectors.entrants_of(tournament), many=True).data)

    @extend_schema(request=EntrantRegisterInput, responses={201: EntrantOut, **ERRORS})
    def post(self, request: Request, slug: str) -> Response:
        tournament = selectors.tournament_get_visible(user=request.user, slug=slug)
        data = _valid(self.EntrantRegisterInput, request.data)
        entrant = services.entrant_register(actor=request.user, tournament=tournament, **data)
        return Response(EntrantOut(entrant).data, status=201)


CSV_MAX_BYTES = 1_000_000


class EntrantImportApi(APIView):
    permission_classes = [IsAuthenticated]

    class EntrantImportInput(serializers.Serializer):
        csv = serializers.CharField(max_length=1_000_000, trim_whitespace=False)

    @extend_schema(request=EntrantImportInput, responses={201: EntrantOut(many=True), **ERRORS})
    def post(self, request: Request, slug: str) -> Response:
        tournament = selectors.tournament_get_visible(user=request.user, slug=slug)
        upload = request.FILES.get("file") if hasattr(request, "FILES") else None
        if upload is not None:
            raw = upload.read(CSV_MAX_BYTES + 1)
            if len(raw) > CSV_MAX_BYTES:
                raise TournamentError(ErrorCode.INVALID_CSV, _("The file is larger than 1 MB."), rows=[])
            try:
                text = raw.decode("utf-8-sig")
            except UnicodeDecodeError as exc:
                raise TournamentError(ErrorCode.INVALID_CSV, _("The file must be UTF-8 text."), rows=[]) from exc
        else:
            text = _valid(self.EntrantImportInput, request.data)["csv"]
        entrants = services.entrants_import_csv(actor=request.user, tournament=tournament, csv_text=text)
        return Response(EntrantOut(selectors.entrants_with_players(entrants), many=True).data, status=201)


def _entrant_action(action: Any) -> type[APIView]:
    class EntrantActionApi(APIView):
        permission_classes = [IsAuthenticated]

        @extend_schema(request=None, responses={200: EntrantOut, **ERRORS})
        def post(self, request: Request, entrant_id: int) -> Response:
            entrant = selectors.entrant_get(entrant_id=entrant_id)
            selectors.tournament_get_visible(user=request.user, slug=entrant.tournament.slug)
            return Response(EntrantOut(action(actor=request.user, entrant=entrant)).data)

    EntrantActionApi.__name__ = f"Entrant{action.__name__.title().replace('_', '')}Api"
    EntrantActionApi.__qualname__ = EntrantActionApi.__name__
    return EntrantActionApi


class EntrantDetailApi(APIView):
    """One entrant of the tournament: read it; organisers edit it (`PATCH`: only the fields given) or
    delete it (`DELETE`: refused with `entrant_has_games` once it was paired in a published round; drop it
    instead). Moving it to another group is refused with `groups_fixed` once round 1 is published."""

    class EntrantUpdateInput(serializers.Serializer):
        name = serializers.CharField(max_length=ENTRANT_NAME_MAX_LENGTH, required=False)
        player_names = serializers.ListField(child=serializers.CharField(max_length=100), required=False,
                                             max_length=10, help_text="The players' names, in order (all of them).")
        club = serializers.CharField(max_length=100, required=False, allow_blank=True, allow_null=True,
                                     help_text="Empty or null: no club.")
        seed = serializers.IntegerField(min_value=1, max_value=100000, required=False, allow_null=True)
        group = serializers.IntegerField(min_value=1, max_value=64, required=False)
        email = serializers.EmailField(required=False, allow_blank=True,
                                       help_text="Private notification address of the entrant (never returned).")

    def get_permissions(self) -> list[Any]:
        return [AllowAny()] if self.request.method == "GET" else [IsAuthenticated()]

    def _entrant(self, request: Request, slug: str, entrant_id: int) -> Entrant:
        tournament = selectors.tournament_get_visible(user=request.user, slug=slug)
        entrant = selectors.entrants_of(tournament).filter(pk=entrant_id).first()
        if entrant is None:
            raise TournamentError(ErrorCode.NOT_FOUND, _("No such entrant."))
        return entrant

    @extend_schema(responses={200: EntrantOut, 404: ERROR_SCHEMA})
    def get(self, request: Request, slug: str, entrant_id: int) -> Response:
        return Response(EntrantOut(self._entrant(request, slug, entrant_id)).data)

    @extend_schema(request=EntrantUpdateInput, responses={200: EntrantOut, **ERRORS})
    def patch(self, request: Request, slug: str, entrant_id: int) -> Response:
        entrant = self._entrant(request, slug, entrant_id)
        data = _valid(self.EntrantUpdateInput, request.data)
        services.entrant_update(actor=request.user, entrant=entrant, **data)
        return Response(EntrantOut(self._entrant(request, slug, entrant_id)).data)

    @extend_schema(request=None, responses={200: inline_serializer(name="EntrantDeleted", fields={
        "id": serializers.IntegerField(), "name": serializers.CharField(),
        "discarded_drafts": serializers.ListField(child=serializers.IntegerField()),
        "promoted": serializers.ListField(child=serializers.IntegerField(),
                                          help_text="Sign-ups moved up from the waiting list into the place."),
    }), **ERRORS})
    def delete(self, request: Request, slug: str, entrant_id: int) -> Response:
        entrant = self._entrant(request, slug, entrant_id)
        return Response(services.entrant_delete(actor=request.user, entrant=entrant))


GROUP_DRAW_SCHEMA = inline_serializer(name="GroupDraw", fields={
    "method": serializers.CharField(allow_null=True), "by": serializers.CharField(allow_null=True),
    "seed": serializers.IntegerField(allow_null=True, help_text="The random seed the draw used (shown publicly)."),
    "left_out": serializers.ListField(child=serializers.IntegerField(),
                                      help_text="Entrants not drawn (dropped, or not checked in when required)."),
    "groups_fixed": serializers.BooleanField(help_text="Round 1 is published: no more draws or moves."),
    "groups": serializers.ListField(child=inline_serializer(name="GroupMembers", fields={
        "group": serializers.IntegerField(), "entrants": serializers.ListField(child=serializers.IntegerField())})),
})


def _group_draw_data(tournament: Tournament) -> dict[str, Any]:
    from tournaments.services.groups import draw_summary, groups_fixed

    draw = tournament.group_draw or {}
    return {"method": draw.get("method"), "by": draw.get("by"), "seed": draw.get("seed"),
            "left_out": draw.get("left_out", []), "groups_fixed": groups_fixed(tournament),
            "groups": [{"group": g["group"], "entrants": [e.pk for e in g["entrants"]]}
                       for g in draw_summary(tournament)]}


class GroupsApi(APIView):
    """The groups (entrants who would be paired, by group) and the last draw: method, order, seed."""

    permission_classes = [AllowAny]

    @extend_schema(responses={200: GROUP_DRAW_SCHEMA, 404: ERROR_SCHEMA})
    def get(self, request: Request, slug: str) -> Response:
        tournament = selectors.tournament_get_visible(user=request.user, slug=slug)
        return Response(_group_draw_data(tournament))


class GroupDrawApi(APIView):
    """Organisers: draw (or redraw) the groups until round 1 is published (docs/formats.md, Group draw)."""

    permission_classes = [IsAuthenticated]

    class GroupDrawInput(serializers.Serializer):
        method = serializers.ChoiceField(choices=["pots", "snake", "random"], default="pots",
                                         help_text="Seeded pots, snake, or one random pot.")
        by = serializers.ChoiceField(choices=["seed", "rating"], default="seed")
        seed = serializers.IntegerField(min_value=0, max_value=999_999, required=False, allow_null=True,
                                        help_text="Random seed; omitted: drawn at random and returned.")

    @extend_schema(request=GroupDrawInput, responses={200: GROUP_DRAW_SCHEMA, **ERRORS})
    def post(self, request: Request, slug: str) -> Response:
        from tournaments.services.groups import groups_draw

        tournament = selectors.tournament_get_visible(user=request.user, slug=slug)
        data = _valid(self.GroupDrawInput, request.data)
        return Response(_group_draw_data(groups_draw(actor=request.user, tournament=tournament, **data)))


EntrantCheckInApi = _entrant_action(services.entrant_check_in)
EntrantDropApi = _entrant_action(services.entrant_drop)
EntrantReadmitApi = _entrant_action(services.entrant_readmit)
EntrantDropUndoApi = _entrant_action(services.entrant_drop_undo)


class EntrantsDropAbsentApi(APIView):
    """Drop every entrant who has not checked in (one action)."""

    permission_classes = [IsAuthenticated]

    @extend_schema(request=None, responses={200: EntrantOut(many=True), **ERRORS})
    def post(self, request: Request, slug: str) -> Response:
        tournament = selectors.tournament_get_visible(user=request.user, slug=slug)
        dropped = services.entrants_drop_absent(actor=request.user, tournament=tournament)
        return Response(EntrantOut(selectors.entrants_with_players(dropped), many=True).data)


class ScheduleMeetingsApi(APIView):
    """Round robin at tables of 3 or N: per group the rounds, the fewest and most meetings of any pair,
    and whether an even schedule exists (before and after publishing)."""

    permission_classes = [AllowAny]

    @extend_schema(responses={200: inline_serializer(name="GroupMeetings", many=True, fields={
        "group": serializers.IntegerField(), "rounds": serializers.IntegerField(),
        "min_meetings": serializers.IntegerField(), "max_meetings": serializers.IntegerField(),
        "even_possible": serializers.BooleanField(allow_null=True), "message": serializers.CharField()}),
        404: ERROR_SCHEMA})
    def get(self, request: Request, slug: str) -> Response:
        tournament = selectors.tournament_get_visible(user=request.user, slug=slug)
        rows = selectors.schedule_meetings(tournament)
        keys = ("group", "rounds", "min_meetings", "max_meetings", "even_possible", "message")
        return Response([{key: row[key] for key in keys} for row in rows])


# --- rounds -------------------------------------------------------------------------------------

ROUND_SCHEMA = RoundOut
ROUND_LIST_SCHEMA = RoundOut(many=True)


class RoundListApi(APIView):
    permission_classes = [AllowAny]
    public_read = True  # the hall's throttle (tournaments/api_throttles.py)

    @extend_schema(responses={200: ROUND_LIST_SCHEMA, 404: ERROR_SCHEMA})
    def get(self, request: Request, slug: str) -> Any:
        tournament = selectors.tournament_get_visible(user=request.user, slug=slug)
        not_modified, validators = api_not_modified(request, tournament_key(tournament, "api-rounds"),
                                                    shared=tournament.is_public)
        return not_modified or validators(Response(
            [round_data(r) for r in selectors.rounds_visible_to(user=request.user, tournament=tournament)]))


class RoundGenerateApi(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(request=None, responses={201: ROUND_SCHEMA, **ERRORS})
    def post(self, request: Request, slug: str) -> Response:
        tournament = selectors.tournament_get_visible(user=request.user, slug=slug)
        return Response(round_data(services.round_generate(actor=request.user, tournament=tournament)), status=201)


class RoundDetailApi(APIView):
    permission_classes = [AllowAny]
    public_read = True  # the hall's throttle (tournaments/api_throttles.py)

    @extend_schema(responses={200: ROUND_SCHEMA, 404: ERROR_SCHEMA})
    def get(self, request: Request, round_id: int) -> Any:
        round_ = selectors.round_get_visible(user=request.user, round_id=round_id)
        not_modified, validators = api_not_modified(request, tournament_key(round_.tournament, "api-round", round_.pk),
                                                    shared=round_.tournament.is_public)
        return not_modified or validators(Response(round_data(round_)))


class RoundEditApi(APIView):
    permission_classes = [IsAuthenticated]

    class RoundEditInput(serializers.Serializer):
        tables = serializers.ListField(
            child=serializers.ListField(child=serializers.IntegerField(min_value=1), max_length=20),
            max_length=2000,
        )
        byes = serializers.ListField(child=serializers.IntegerField(min_value=1), required=False, default=list,
                                     max_length=2000)

    @extend_schema(request=RoundEditInput, responses={200: ROUND_SCHEMA, **ERRORS})
    def post(self, request: Request, round_id: int) -> Response:
        round_ = selectors.round_get_visible(user=request.user, round_id=round_id)
        data = _valid(self.RoundEditInput, request.data)
        round_, _warnings = services.round_edit(actor=request.user, round=round_, **data)
        return Response(round_data(round_))


class RoundDiscardApi(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(request=None, responses={204: None, **ERRORS})
    def post(self, request: Request, round_id: int) -> Response:
        round_ = selectors.round_get_visible(user=request.user, round_id=round_id)
        services.round_discard(actor=request.user, round=round_)
        return Response(status=204)


class RoundPublishApi(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(request=None, responses={200: ROUND_SCHEMA, **ERRORS})
    def post(self, request: Request, round_id: int) -> Response:
        round_ = selectors.round_get_visible(user=request.user, round_id=round_id)
        return Response(round_data(services.round_publish(actor=request.user, round=round_)))


# --- results ------------------------------------------------------------------------------------

RESULT_SCHEMA = inline_serializer(
    name="Result",
    fields={"id": serializers.IntegerField(), "kind": serializers.CharField(), "state": serializers.CharField(),
            "reported_for": serializers.IntegerField(allow_null=True),
            "lines": serializers.ListField(child=serializers.DictField())},
)


class ResultInput(serializers.Serializer):
    kind = serializers.ChoiceField(choices=["normal", "time_limit", "forfeit"], default="normal")
    scores = serializers.DictField(child=serializers.IntegerField(), required=False, allow_null=True)
    placings = serializers.DictField(child=serializers.IntegerField(), required=False, allow_null=True)
    winner = serializers.IntegerField(required=False, allow_null=True)
    forfeited = serializers.ListField(child=serializers.IntegerField(), required=False, default=list, max_length=10)
    note = serializers.CharField(max_length=500, required=False, allow_blank=True, default="")


class TableDetailApi(APIView):
    permission_classes = [AllowAny]

    @extend_schema(responses={200: TableOut, 404: ERROR_SCHEMA})
    def get(self, request: Request, table_id: int) -> Response:
        table = selectors.table_get_visible(user=request.user, table_id=table_id)
        table = selectors.round_tables(table.round).get(pk=table.pk)
        return Response(table_data(table))


def _request_token(request: Request) -> str | None:
    token = request.headers.get("X-Report-Token")
    if token:
        return str(token)[:200]
    if isinstance(request.data, dict):
        value = request.data.get("token")
        if isinstance(value, str):
            return value[:200]
    return None


class TableReportApi(APIView):
    """Report a table's result: as a logged-in player of the table, or with the entrant's private
    token (`X-Report-Token` header or `"token"` in the body)."""

    permission_classes = [AllowAny]

    class TableReportInput(ResultInput):
        token = serializers.CharField(max_length=200, required=False)

    @extend_schema(request=TableReportInput, responses={201: RESULT_SCHEMA, 200: RESULT_SCHEMA, **ERRORS})
    def post(self, request: Request, table_id: int) -> Response:
        table = selectors.table_get_visible(user=request.user, table_id=table_id)
        data = _valid(self.TableReportInput, request.data)
        data.pop("token", None)
        result = services.result_report(table=table, actor=request.user, token=_request_token(request), **data)
        return Response(_result_data(result), status=201 if result.state == Result.State.REPORTED else 200)


class TableOverrideApi(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(request=ResultInput, responses={201: RESULT_SCHEMA, **ERRORS})
    def post(self, request: Request, table_id: int) -> Response:
        table = selectors.table_get_visible(user=request.user, table_id=table_id)
        data = _valid(ResultInput, request.data)
        result = services.result_override(actor=request.user, table=table, **data)
        return Response(_result_data(result), status=201)


class ResultDecisionInput(serializers.Serializer):
    token = serializers.CharField(max_length=200, required=False)
    note = serializers.CharField(max_length=500, required=False, allow_blank=True, default="",
                                 help_text="Reject: why the result is wrong (kept as `rejection_reason`).")


class ResultConfirmApi(APIView):
    permission_classes = [AllowAny]

    @extend_schema(request=ResultDecisionInput, responses={200: RESULT_SCHEMA, **ERRORS})
    def post(self, request: Request, result_id: int) -> Response:
        result = selectors.result_get(result_id=result_id)
        selectors.table_get_visible(user=request.user, table_id=result.table_id)
        _valid(ResultDecisionInput, request.data if request.data else {})
        result = services.result_confirm(result=result, actor=request.user, token=_request_token(request))
        return Response(_result_data(result))


class ResultRejectApi(APIView):
    permission_classes = [AllowAny]

    @extend_schema(request=ResultDecisionInput, responses={200: RESULT_SCHEMA, **ERRORS})
    def post(self, request: Request, result_id: int) -> Response:
        result = selectors.result_get(result_id=result_id)
        selectors.table_get_visible(user=request.user, table_id=result.table_id)
        data = _valid(ResultDecisionInput, request.data if request.data else {})
        result = services.result_reject(result=result, actor=request.user, token=_request_token(request),
                                        reason=data.get("note", ""))
        return Response(_result_data(result))


class TableScheduleApi(APIView):
    permission_classes = [IsAuthenticated]

    class TableScheduleInput(serializers.Serializer):
        physical_table = serializers.CharField(max_length=40, required=False, allow_blank=True)
        starts_at = serializers.DateTimeField(required=False, allow_null=True)

    @extend_schema(request=TableScheduleInput, responses={200: TableOut, **ERRORS})
    def post(self, request: Request, table_id: int) -> Response:
        table = selectors.table_get_visible(user=request.user, table_id=table_id)
        data = _valid(self.TableScheduleInput, request.data)
        services.table_schedule(actor=request.user, table=table, **data)
        return Response(table_data(selectors.round_tables(table.round).get(pk=table.pk)))


BOARD_OUT = inline_serializer(name="Board", fields={
    "id": serializers.IntegerField(), "name": serializers.CharField(), "accessible": serializers.BooleanField(),
    "position": serializers.IntegerField(min_value=0, help_text="Boards are used in this order.")})


def _board_data(board: Board) -> dict[str, Any]:
    return {"id": board.pk, "name": board.name, "accessible": board.accessible, "position": board.position}


def _organised(request: Request, slug: str) -> Tournament:
    tournament = selectors.tournament_get_visible(user=request.user, slug=slug)
    if not is_organiser(request.user, tournament):
        raise TournamentError(ErrorCode.PERMISSION_DENIED, _("Only an organiser of this tournament may do this."))
    return tournament


class BoardAddApi(APIView):
    """The venue's physical tables (boards): list them (organisers), add one."""

    permission_classes = [IsAuthenticated]

    class BoardInput(serializers.Serializer):
        name = serializers.CharField(max_length=40)
        accessible = serializers.BooleanField(default=False)

    @extend_schema(responses={200: inline_serializer(
        name="BoardList", fields={"boards": serializers.ListField(child=BOARD_OUT)}), **ERRORS})
    def get(self, request: Request, slug: str) -> Response:
        tournament = _organised(request, slug)
        return Response({"boards": [_board_data(b) for b in tournament.boards.order_by("position", "id")]})

    @extend_schema(request=BoardInput, responses={201: BOARD_OUT, **ERRORS})
    def post(self, request: Request, slug: str) -> Response:
        tournament = selectors.tournament_get_visible(user=request.user, slug=slug)
        board = services.board_add(actor=request.user, tournament=tournament, **_valid(self.BoardInput, request.data))
        return Response(_board_data(board), status=201)


class BoardDetailApi(APIView):
    """Remove a board (409 `round_in_progress` while a table of an open round sits at it)."""

    permission_classes = [IsAuthenticated]

    @extend_schema(responses={204: None, **ERRORS})
    def delete(self, request: Request, slug: str, board_id: int) -> Response:
        tournament = _organised(request, slug)
        board = tournament.boards.filter(pk=board_id).first()
        if board is None:
            raise TournamentError(ErrorCode.NOT_FOUND, _("No such board."))
        services.board_remove(actor=request.user, board=board)
        return Response(status=204)


ORGANISER_OUT = inline_serializer(name="Organiser", fields={
    "id": serializers.IntegerField(), "username": serializers.CharField()})


class OrganiserListAddApi(APIView):
    """The tournament's organisers (organisers only); POST adds a co-organiser by user name."""

    permission_classes = [IsAuthenticated]

    class OrganiserInput(serializers.Serializer):
        username = serializers.CharField(max_length=150)

    @extend_schema(responses={200: inline_serializer(name="OrganiserList", fields={
        "organisers": serializers.ListField(child=ORGANISER_OUT)}), **ERRORS})
    def get(self, request: Request, slug: str) -> Response:
        tournament = _organised(request, slug)
        return Response({"organisers": [{"id": u.pk, "username": u.get_username()}
                                        for u in tournament.organisers.order_by("pk")]})

    @extend_schema(request=OrganiserInput, responses={201: ORGANISER_OUT, **ERRORS})
    def post(self, request: Request, slug: str) -> Response:
        from django.contrib.auth import get_user_model

        tournament = _organised(request, slug)
        data = _valid(self.OrganiserInput, request.data)
        user = get_user_model().objects.filter(username=data["username"], is_active=True).first()
        if user is None:
            raise TournamentError(ErrorCode.NOT_FOUND, _("No such user."))
        services.tournament_organiser_add(actor=request.user, tournament=tournament, user=user)
        return Response({"id": user.pk, "username": user.get_username()}, status=201)


class OrganiserDetailApi(APIView):
    """Remove a co-organiser (409 `last_organiser` for the last one)."""

    permission_classes = [IsAuthenticated]

    @extend_schema(responses={204: None, **ERRORS})
    def delete(self, request: Request, slug: str, user_id: int) -> Response:
        tournament = _organised(request, slug)
        user = tournament.organisers.filter(pk=user_id).first()
        if user is None:
            raise TournamentError(ErrorCode.NOT_FOUND, _("This user does not organise the tournament."))
        services.tournament_organiser_remove(actor=request.user, tournament=tournament, user=user)
        return Response(status=204)


class RoundAssignBoardsApi(APIView):
    """Put the round's tables at the venue's boards (and set their start time)."""

    permission_classes = [IsAuthenticated]

    class AssignBoardsInput(serializers.Serializer):
        start = serializers.DateTimeField(required=False, allow_null=True)
        avoid_repeat_boards = serializers.BooleanField(default=False)

    @extend_schema(request=AssignBoardsInput, responses={200: ROUND_SCHEMA, **ERRORS})
    def post(self, request: Request, round_id: int) -> Response:
        round_ = selectors.round_get_visible(user=request.user, round_id=round_id)
        services.round_assign_boards(actor=request.user, round=round_, **_valid(self.AssignBoardsInput, request.data))
        return Response(round_data(round_))


class EntrantAccessibilityApi(APIView):
    permission_classes = [IsAuthenticated]

    class AccessibilityInput(serializers.Serializer):
        needs_accessible_table = serializers.BooleanField()

    @extend_schema(request=AccessibilityInput, responses={200: EntrantOut, **ERRORS})
    def post(self, request: Request, entrant_id: int) -> Response:
        entrant = selectors.entrant_get(entrant_id=entrant_id)
        selectors.tournament_get_visible(user=request.user, slug=entrant.tournament.slug)
        data = _valid(self.AccessibilityInput, request.data)
        return Response(EntrantOut(services.entrant_accessibility_set(actor=request.user, entrant=entrant,
                                                                      **data)).data)


FORBIDDEN_PAIR_OUT = inline_serializer(name="ForbiddenPair", fields={
    "id": serializers.IntegerField(), "entrants": serializers.ListField(child=serializers.IntegerField(),
                                                                       min_length=2, max_length=2)})


class ForbiddenPairApi(APIView):
    """Pairs of entrants kept apart when pairing (if possible): list them (organisers), add one."""

    permission_classes = [IsAuthenticated]

    class ForbiddenPairInput(serializers.Serializer):
        first = serializers.IntegerField(min_value=1)
        second = serializers.IntegerField(min_value=1)

    @extend_schema(responses={200: inline_serializer(name="ForbiddenPairList", fields={
        "pairs": serializers.ListField(child=FORBIDDEN_PAIR_OUT)}), **ERRORS})
    def get(self, request: Request, slug: str) -> Response:
        tournament = _organised(request, slug)
        pairs = ForbiddenPair.objects.filter(tournament=tournament).order_by("pk")
        return Response({"pairs": [{"id": p.pk, "entrants": [p.first_id, p.second_id]} for p in pairs]})

    @extend_schema(request=ForbiddenPairInput, responses={201: FORBIDDEN_PAIR_OUT, **ERRORS})
    def post(self, request: Request, slug: str) -> Response:
        tournament = selectors.tournament_get_visible(user=request.user, slug=slug)
        data = _valid(self.ForbiddenPairInput, request.data)
        first = selectors.entrant_get(entrant_id=data["first"])
        second = selectors.entrant_get(entrant_id=data["second"])
        pair = services.forbidden_pair_add(actor=request.user, tournament=tournament, first=first, second=second)
        return Response({"id": pair.pk, "entrants": [pair.first_id, pair.second_id]}, status=201)


class ForbiddenPairDetailApi(APIView):
    """No longer keep the two entrants apart."""

    permission_classes = [IsAuthenticated]

    @extend_schema(responses={204: None, **ERRORS})
    def delete(self, request: Request, slug: str, pair_id: int) -> Response:
        tournament = _organised(request, slug)
        pair = ForbiddenPair.objects.filter(tournament=tournament, pk=pair_id).first()
        if pair is None:
            raise TournamentError(ErrorCode.NOT_FOUND, _("No such pair."))
        services.forbidden_pair_remove(actor=request.user, pair=pair)
        return Response(status=204)


# --- standings and audit ------------------------------------------------------------------------


class StandingRowOut(serializers.Serializer):
    rank = serializers.IntegerField(help_text="Final place (shared places repeat the best of the range).")
    shared_rank = serializers.BooleanField()
    decided_by = serializers.ChoiceField(
        choices=["knockout", "placement", "standings"],
        help_text="How the place was decided: the knockout bracket, a placement table, or the standings.",
    )
    group = serializers.IntegerField(allow_null=True, help_text="The entrant's group (null without groups).")
    group_rank = serializers.IntegerField(allow_null=True, help_text="Place in the group (null without groups).")
    entrant = serializers.IntegerField()
    name = serializers.CharField()
    games_played = serializers.IntegerField()
    values = serializers.DictField(child=serializers.FloatField())


class StandingsOut(serializers.Serializer):
    tiebreak_order = serializers.ListField(child=serializers.CharField())
    results_version = serializers.IntegerField()
    standings_version = serializers.IntegerField()
    count = serializers.IntegerField(help_text="Rows in all pages (of the group with `group`).")
    page = serializers.IntegerField(help_text="This page's number, from 1.")
    page_size = serializers.IntegerField(help_text="Rows per page.")
    pages = serializers.IntegerField(help_text="Number of pages (1 when there are no rows).")
    rows = StandingRowOut(many=True, help_text="This page's rows.")


STANDINGS_PAGE_SIZE = 100  # rows of the JSON standings per page unless `page_size` says otherwise
STANDINGS_PAGE_SIZE_MAX = 500


def _page_param(request: Request, name: str, default: int, maximum: int) -> int:
    raw = request.query_params.get(name)
    if raw is None or raw == "":
        return default
    if not raw.isdigit() or not 1 <= int(raw) <= maximum:
        raise TournamentError(ErrorCode.INVALID_INPUT,
                              _("%(name)s must be a whole number from 1 to %(maximum)s.")
                              % {"name": name, "maximum": maximum}, field=name)
    return int(raw)


class StandingsApi(APIView):
    """Final ranking order (docs/formats.md); ``?group=N`` keeps the rows of group N in group order.
    Paged (``?page=N&page_size=M``, 100 rows by default, at most 500) and cached like the standings page:
    one JSON answer per (standings version, group, page), rendered once (tournaments/page_cache.py)."""

    permission_classes = [AllowAny]
    public_read = True  # the hall's throttle (tournaments/api_throttles.py)

    @extend_schema(
        parameters=[
            OpenApiParameter("group", {"type": "integer", "minimum": 1, "maximum": MAX_GROUPS},
                             required=False, description="Only this group's rows (422 for a group the "
                                                         "tournament does not have)."),
            OpenApiParameter("page", {"type": "integer", "minimum": 1}, required=False,
                             description="Page number, from 1 to `pages` (default 1); out of range: 400."),
            OpenApiParameter("page_size", {"type": "integer", "minimum": 1, "maximum": STANDINGS_PAGE_SIZE_MAX},
                             required=False,
                             description=f"Rows per page, 1 to {STANDINGS_PAGE_SIZE_MAX} "
                                         f"(default {STANDINGS_PAGE_SIZE})."),
        ],
        responses={200: StandingsOut, 400: ERROR_SCHEMA, 404: ERROR_SCHEMA, 422: ERROR_SCHEMA},
    )
    def get(self, request: Request, slug: str) -> Any:
        tournament = selectors.tournament_get_visible(user=request.user, slug=slug)
        public_fast_path.offer(request._request, tournament)
        group = _group_param(request, tournament)
        page_size = _page_param(request, "page_size", STANDINGS_PAGE_SIZE, STANDINGS_PAGE_SIZE_MAX)
        page = _page_param(request, "page", 1, 1_000_000)
        key = tournament_key(tournament, "api-standings", group, page, page_size)
        not_modified, validators = api_not_modified(request, key, shared=tournament.is_public)
        if not_modified is not None:
            return not_modified
        as_json = getattr(request.accepted_renderer, "format", None) == "json"
        body = cached_answer(key, request) if as_json else None
        if body is None:
            data = _standings_answer(tournament, group=group, page=page, page_size=page_size)
            if not as_json:
                return validators(Response(data))
            body = JSONRenderer().render(data)
            store_answer(key, body)
        return validators(HttpResponse(body, content_type="application/json"))


def _standings_answer(tournament: Tournament, *, group: int | None, page: int, page_size: int) -> dict[str, Any]:
    count, rows = selectors.standings_page(tournament, group=group, offset=(page - 1) * page_size, limit=page_size)
    pages = max(1, -(-count // page_size))
    if page > pages:
        raise TournamentError(ErrorCode.INVALID_INPUT,
                              _("page must be a whole number from 1 to %(maximum)s.") % {"maximum": pages},
                              field="page", pages=pages)
    return {
        "tiebreak_order": tournament.tiebreak_order,
        "results_version": tournament.results_version,
        "standings_version": tournament.standings_version,
        "count": count,
        "page": page,
        "page_size": page_size,
        "pages": pages,
        "rows": rows,
    }


def _group_param(request: Request, tournament: Tournament) -> int | None:
    raw = request.query_params.get("group")
    if raw is None or raw == "":
        return None
    message = (_("group must be a group number from 1 to %(count)s.") % {"count": tournament.group_count}
               if tournament.group_count > 1 else _("This tournament has no groups."))
    if not raw.isdigit() or not 1 <= int(raw) <= MAX_GROUPS:
        raise TournamentError(ErrorCode.INVALID_INPUT, message)  # outside the schema's bounds: 400
    if int(raw) > tournament.group_count or tournament.group_count < 2:
        raise refused(message)  # a group this tournament does not have: 422
    return int(raw)


class ReportLinksApi(APIView):
    """Organisers only: each entrant's private report token (hand it out as a link or QR code)."""

    permission_classes = [IsAuthenticated]

    @extend_schema(responses={200: inline_serializer(
        name="ReportLink", fields={"entrant": serializers.IntegerField(), "name": serializers.CharField(),
                                   "token": serializers.CharField()}, many=True), **ERRORS})
    def get(self, request: Request, slug: str) -> Response:
        tournament = selectors.tournament_get_visible(user=request.user, slug=slug)
        if not is_organiser(request.user, tournament):
            raise TournamentError(ErrorCode.PERMISSION_DENIED, _("Only organisers see the private report links."))
        return Response([{"entrant": e.pk, "name": e.name, "token": e.report_token}
                         for e in tournament.entrants.order_by("name")])


class AuditLogApi(APIView):
    permission_classes = [IsAuthenticated]

    @extend_schema(responses={200: AuditRowOut(many=True), **ERRORS})
    def get(self, request: Request, slug: str) -> Response:
        tournament = selectors.tournament_get_visible(user=request.user, slug=slug)
        if not is_organiser(request.user, tournament):
            raise TournamentError(ErrorCode.PERMISSION_DENIED, _("Only organisers see the audit log."))
        rows = tournament.audit_log.order_by("-created_at", "-id")[:1000]
        return Response([
            {"at": r.created_at, "action": r.action, "object_type": r.object_type, "object_id": r.object_id,
             "actor": r.actor_id, "entrant": r.actor_entrant_id, "data": r.data}
            for r in rows
        ])

