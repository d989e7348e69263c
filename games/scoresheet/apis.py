"""REST API of the live scoresheet (issue 16): one class per operation (parse, call one service, render).

A player of the table authenticates with their account or the entrant's private report token
(`X-Report-Token` header or `?token=`, as for submitting records); organisers with their account.
Every write names the `version` it was made on: a stale one answers 409 `scoresheet_stale` with the
fresh sheet in `error.details.sheet`; an entry the engine refuses answers 400 with its verdict code.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.core.cache import cache
from django.utils.http import parse_etags
from django.utils.translation import gettext as _
from django.views.decorators.gzip import gzip_page
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.throttling import SimpleRateThrottle
from rest_framework.views import APIView

from games.apis import TOKEN_PARAMS, request_token
from games.scoresheet import services
from games.scoresheet.selectors import (
    AnswerShape,
    open_scoresheet,
    scoresheet_data,
    scoresheet_get,
    table_for_scoresheet,
)
from tournaments.api_parsers import DepthLimitedJSONParser as JSONParser  # the depth check (issue 29)
from tournaments.api_throttles import request_ident
from tournaments.apis import ERRORS
from tournaments.errors import ErrorCode, TournamentError


class ScoresheetThrottle(SimpleRateThrottle):
    """Per keeper (account, else the entrant of a valid report token, else address; keyed as the API's
    throttles, `tournaments.api_throttles.request_ident`), not per address: the phones of a whole venue
    share one address, and each table taps a few entries a minute. `SCORESHEET_THROTTLE_RATE`."""

    scope = "scoresheet"

    def get_rate(self) -> str:
        return str(getattr(settings, "SCORESHEET_THROTTLE_RATE", "300/min"))

    TOKEN_SECONDS = 600

    def get_cache_key(self, request: Request, view: Any) -> str:
        """The bucket; a valid report token's entrant is remembered in the cache for `TOKEN_SECONDS` (keyed
        by a digest of the token), so that a table's taps cost no query to throttle (issue 26). A token
        that names no entrant is looked up each time and throttled by address, as before."""
        token = None if getattr(request.user, "is_authenticated", False) else request_token(request)
        memo = f"scoresheet:token:{hashlib.sha256(token.encode()).hexdigest()[:32]}" if token else None
        entrant_id = cache.get(memo) if memo else None
        if entrant_id is not None:
            return f"throttle_{self.scope}_report_token:{entrant_id}"
        kind, ident = request_ident(request, find_token=request_token)
        if memo and kind == "report_token":
            cache.set(memo, ident, self.TOKEN_SECONDS)
        return f"throttle_{self.scope}_{kind}:{ident}"


THROTTLES = [ScoresheetThrottle]


class CompressedApi(APIView):
    """An API view whose answers are gzip-compressed for clients that accept it (issue 26: a hall's phones
    on a slow shared connection). The answers carry no CSRF token and echo no secret of the caller (the
    report token travels in a header or the query and is never in the body), so BREACH has nothing to
    guess; Django's gzip also pads each answer by a random length (Heal The BREACH)."""

    @classmethod
    def as_view(cls, **initkwargs: Any) -> Any:
        return gzip_page(super().as_view(**initkwargs))


class SheetOut(serializers.Serializer):
    """The shape of `scoresheet_data` (for the OpenAPI schema)."""

    id = serializers.IntegerField()
    tournament = serializers.CharField()
    table = serializers.IntegerField()
    round_number = serializers.IntegerField()
    table_number = serializers.IntegerField()
    game = serializers.CharField()
    variant = serializers.DictField()
    status = serializers.ChoiceField(choices=["open", "finished", "abandoned"])
    version = serializers.IntegerField(help_text="Send it back with every change; a stale one gets 409.")
    players = serializers.ListField(child=serializers.DictField(),
                                    help_text="The record's players: name, id (Player id), seats.")
    phase = serializers.ChoiceField(choices=["exchange", "announce", "turn", "over"])
    deal = serializers.IntegerField(allow_null=True, help_text="0-based index of the running deal.")
    seat = serializers.IntegerField(allow_null=True, help_text="Whose turn it is (0-based seat).")
    cards = serializers.ListField(child=serializers.CharField(),
                                  help_text="The cards that may be played next (the first tap), in the engine's order.")
    option_count = serializers.IntegerField(help_text="How many entries may come next.")
    options_for = serializers.CharField(allow_null=True, help_text='"all" when `options` holds every option, '
                                        "the card when only that card's (`?card=`), null when they were left out "
                                        "(more than 100: ask `?card=<card>` or `?options=all`).")
    options = serializers.ListField(child=serializers.DictField(),
                                    help_text="The entries that may come next, in record notation (see options_for).")
    last = serializers.DictField(allow_null=True, help_text="The last entry.")
    over = serializers.BooleanField()
    winners = serializers.ListField(child=serializers.IntegerField(), allow_null=True)
    entry_count = serializers.IntegerField(help_text="How many entries the sheet holds.")
    entries_from = serializers.IntegerField(help_text="The index of the first entry in `entries`.")
    entries = serializers.ListField(child=serializers.DictField(),
                                    help_text="The entries from `entries_from` on (`?since=<n>`; a read: all, "
                                              "a write: the ones it changed).")
    correctable = serializers.DictField(help_text='The running deal\'s "announce" / "exchange" that may still be '
                                                  'corrected (POST .../correct/), with "cards": the deck\'s cards.')
    snapshot = serializers.DictField(allow_null=True,
                                     help_text="The position, shaped as the replay trace's snapshots.")
    state = serializers.DictField(required=False, help_text="The engine's stored state (opaque; `?state=1`).")
    record = serializers.IntegerField(allow_null=True, help_text="The game record the sheet became.")
    time_up = serializers.BooleanField()
    created_at = serializers.DateTimeField()
    updated_at = serializers.DateTimeField()
    finished_at = serializers.DateTimeField(allow_null=True)


START_IN = inline_serializer(name="ScoresheetStart", fields={
    "dealer": serializers.IntegerField(help_text="The seat dealing the first deal (seats in the table's order)."),
    "seat_order": serializers.ListField(child=serializers.IntegerField(), required=False,
                                        help_text="Optional: a Player id per seat, if the players sit otherwise."),
})
VERSION_IN = inline_serializer(name="ScoresheetVersion", fields={"version": serializers.IntegerField()})
ENTRY_IN = inline_serializer(name="ScoresheetEntry", fields={
    "version": serializers.IntegerField(),
    "entry": serializers.DictField(help_text='One entry in record notation: a turn ({"seat": 0, "card": "5", '
                                              '"moves": [[3, 8]]}), {"exchange": [...]} or {"announce": [...]}.'),
})
FINISH_IN = inline_serializer(name="ScoresheetFinish", fields={
    "version": serializers.IntegerField(),
    "time_up": serializers.BooleanField(required=False, help_text="Organisers: call time at the time limit."),
})
FINISH_OUT = inline_serializer(name="ScoresheetFinished", fields={
    "record": serializers.IntegerField(help_text="The id of the game record (GET /api/records/<id>/)."),
    "scoresheet": SheetOut(),
})


def _body(request: Request) -> dict[str, Any]:
    if not isinstance(request.data, dict):
        raise TournamentError(ErrorCode.INVALID_INPUT, _("The body must be a JSON object."))
    return dict(request.data)


CARD_MAX_CHARS = 20
SHAPE_PARAMS = [
    *TOKEN_PARAMS,
    OpenApiParameter("since", {"type": "integer", "minimum": 0, "maximum": 999_999_999}, OpenApiParameter.QUERY,
                     required=False,
                     description="The entries from this index on (the number of entries you hold)."),
    OpenApiParameter("options", OpenApiTypes.STR, OpenApiParameter.QUERY, required=False, enum=["auto", "all"],
                     description="`all`: every option, however many."),
    OpenApiParameter("card", {"type": "string", "minLength": 1, "maxLength": CARD_MAX_CHARS}, OpenApiParameter.QUERY,
                     required=False,
                     description="Only the options of this card (the card the phone tapped)."),
    OpenApiParameter("state", OpenApiTypes.BOOL, OpenApiParameter.QUERY, required=False,
                     description="Also the engine's opaque state."),
]


def answer_shape(request: Request) -> AnswerShape:
    """The answer's extent from the query (docs/scoresheet.md): `?since=<n>` the entries from index n on,
    `?options=all` every option, `?card=<card>` the options of one card, `?state=1` the engine's state."""
    params = request.query_params
    since: int | None = None
    if params.get("since") not in (None, ""):
        raw = str(params["since"])
        if not raw.isdigit() or len(raw) > 9:
            raise TournamentError(ErrorCode.INVALID_INPUT, _("`since` is the number of entries you hold."))
        since = int(raw)
    options = str(params.get("options") or "auto")
    card = params.get("card")
    if options not in ("auto", "all") or (card is not None and not 0 < len(str(card)) <= CARD_MAX_CHARS):
        raise TournamentError(ErrorCode.INVALID_INPUT, _("Ask for `options=all` or the options of one `card`."))
    if card is not None:
        options = "card"
    return AnswerShape(since=since, options=options, card=None if card is None else str(card),
                       state=str(params.get("state") or "") in ("1", "true"))


def _with_fresh_sheet(err: TournamentError, request: Request, sheet_id: int) -> TournamentError:
    """A stale or closed sheet: the error carries the fresh sheet, so the client can show it at once."""
    if err.code in (ErrorCode.SCORESHEET_STALE, ErrorCode.SCORESHEET_CLOSED):
        sheet = scoresheet_get(user=request.user, token=request_token(request), sheet_id=sheet_id)
        err.details = {**err.details, "sheet": scoresheet_data(sheet, shape=answer_shape(request))}
    return err


class TableScoresheetApi(CompressedApi):
    """POST: open the live scoresheet of a table (201 with the sheet; its `id` addresses it from then on).
    GET: the table's open sheet (404 if none)."""

    permission_classes = [AllowAny]
    throttle_classes = THROTTLES
    parser_classes = [JSONParser]

    @extend_schema(parameters=SHAPE_PARAMS, request=START_IN, responses={201: SheetOut, **ERRORS})
    def post(self, request: Request, table_id: int) -> Response:
        token = request_token(request)
        table = table_for_scoresheet(user=request.user, token=token, table_id=table_id)
        body = _body(request)
        shape = answer_shape(request)
        sheet = services.scoresheet_start(table=table, actor=request.user, token=token, dealer=body.get("dealer"),
                                          seat_order=body.get("seat_order"))
        return Response(scoresheet_data(sheet, shape=shape), status=201)

    @extend_schema(parameters=SHAPE_PARAMS, responses={200: SheetOut, **ERRORS})
    def get(self, request: Request, table_id: int) -> Response:
        token = request_token(request)
        table = table_for_scoresheet(user=request.user, token=token, table_id=table_id)
        sheet = open_scoresheet(table)
        if sheet is None:
            raise TournamentError(ErrorCode.NOT_FOUND, _("This table has no open scoresheet."))
        return Response(scoresheet_data(sheet, shape=answer_shape(request)))


def sheet_etag(sheet: Any, shape: AnswerShape) -> str:
    """The validator of a sheet's answer: the sheet, its `version` and status, and the answer's extent
    (a sheet changes only by a write, and every write increments its version)."""
    extent = f"{shape.since}:{shape.options}:{shape.card}:{int(shape.state)}"
    digest = hashlib.sha256(f"{sheet.pk}:{sheet.version}:{sheet.status}:{extent}".encode()).hexdigest()[:24]
    return f'W/"sheet-{digest}"'


class ScoresheetApi(CompressedApi):
    """The sheet: `version`, whose turn (`seat`), the `cards` and `options` that may come next. Conditional:
    a phone that sends the `ETag` it holds (`If-None-Match`) gets 304 while the sheet has not changed
    (checked after the caller's right; the answer is private to the table's keepers)."""

    permission_classes = [AllowAny]
    throttle_classes = THROTTLES

    @extend_schema(parameters=SHAPE_PARAMS, responses={200: SheetOut, 304: None, **ERRORS})
    def get(self, request: Request, sheet_id: int) -> Response:
        shape = answer_shape(request)
        sheet = scoresheet_get(user=request.user, token=request_token(request), sheet_id=sheet_id)
        etag = sheet_etag(sheet, shape)
        held = {tag.removeprefix("W/") for tag in parse_etags(request.headers.get("If-None-Match", ""))}
        if etag.removeprefix("W/") in held or "*" in held:
            response = Response(status=304)
        else:
            response = Response(scoresheet_data(sheet, shape=shape))
        response["ETag"] = etag
        response["Cache-Control"] = "private, no-cache"
        return response


class _SheetWriteApi(CompressedApi):
    """One write to a sheet: the caller's right is checked first, then the service runs; a stale or
    closed sheet answers with the fresh sheet in the error's details."""

    permission_classes = [AllowAny]
    throttle_classes = THROTTLES
    parser_classes = [JSONParser]

    def write(self, request: Request, sheet_id: int, service: Callable[..., Any], **kwargs: Any) -> Any:
        token = request_token(request)  # the service checks the caller's right before anything else
        answer_shape(request)  # a bad query is refused before anything is written
        try:
            return service(sheet_id=sheet_id, actor=request.user, token=token, **kwargs)
        except TournamentError as err:
            raise _with_fresh_sheet(err, request, sheet_id) from err


class ScoresheetEntriesApi(_SheetWriteApi):
    """Add one entry (`{"version", "entry"}`; the entry's keys may also stand beside `version`)."""

    @extend_schema(parameters=SHAPE_PARAMS, request=ENTRY_IN, responses={200: SheetOut, **ERRORS})
    def post(self, request: Request, sheet_id: int) -> Response:
        body = _body(request)
        version = body.pop("version", None)
        sheet = self.write(request, sheet_id, services.scoresheet_add, version=version, entry=body.get("entry", body))
        return Response(scoresheet_data(sheet, shape=answer_shape(request), since=sheet.entries - 1))


class ScoresheetUndoApi(_SheetWriteApi):
    """Take back the last entry (`{"version"}`)."""

    @extend_schema(parameters=SHAPE_PARAMS, request=VERSION_IN, responses={200: SheetOut, **ERRORS})
    def post(self, request: Request, sheet_id: int) -> Response:
        sheet = self.write(request, sheet_id, services.scoresheet_undo, version=_body(request).get("version"))
        return Response(scoresheet_data(sheet, shape=answer_shape(request), since=sheet.entries))


class ScoresheetFinishApi(_SheetWriteApi):
    """Turn the finished game into a game record of the table (verified and settled like an upload);
    organisers may call time (`time_up`) before the game is over. Answers the record id."""

    @extend_schema(parameters=SHAPE_PARAMS, request=FINISH_IN, responses={201: FINISH_OUT, **ERRORS})
    def post(self, request: Request, sheet_id: int) -> Response:
        body = _body(request)

        sheet = self.write(request, sheet_id, services.scoresheet_finish, version=body.get("version"),
                           time_up=body.get("time_up", False))
        return Response({"record": sheet.record_id, "scoresheet": scoresheet_data(sheet, shape=answer_shape(request))},
                        status=201)


CORRECT_IN = inline_serializer(name="ScoresheetCorrection", fields={
    "version": serializers.IntegerField(),
    "entry": serializers.DictField(help_text='The running deal\'s corrected {"announce": [...]} or '
                                              '{"exchange": [...]}.'),
})


class ScoresheetCorrectApi(_SheetWriteApi):
    """Correct the running deal's announcements or exchange in place (`{"version", "entry"}`), until the
    deal closes; the turns after it are checked again. 400 `nothing_to_correct` if the deal has none."""

    @extend_schema(parameters=TOKEN_PARAMS, request=CORRECT_IN, responses={200: SheetOut, **ERRORS})
    def post(self, request: Request, sheet_id: int) -> Response:
        body = _body(request)
        version = body.pop("version", None)
        sheet = self.write(request, sheet_id, services.scoresheet_correct, version=version,
                           entry=body.get("entry", body))
        return Response(scoresheet_data(sheet))


class ScoresheetAbandonApi(_SheetWriteApi):
    """Close the sheet without a record (`{"version"}`), e.g. after a wrong start; a new one may start."""

    @extend_schema(parameters=SHAPE_PARAMS, request=VERSION_IN, responses={200: SheetOut, **ERRORS})
    def post(self, request: Request, sheet_id: int) -> Response:
        sheet = self.write(request, sheet_id, services.scoresheet_abandon, version=_body(request).get("version"))
        return Response(scoresheet_data(sheet, shape=answer_shape(request)))
