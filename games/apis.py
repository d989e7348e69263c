"""REST API of the game records: one class per operation (parse, call one service/selector, render).

Submitting takes the record as the raw JSON body (kept byte for byte), as a multipart `file`, or as a
form field `record` (a paste). A player of the table authenticates with their account or the
entrant's private report token (`X-Report-Token` header or `?token=`); organisers with their account.
Private tournaments stay invisible (404) to everyone else. Errors are mapped by tournaments.api_errors.
"""

from __future__ import annotations

from typing import Any

from celery import current_app
from django.http import HttpResponse
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework.pagination import LimitOffsetPagination
from rest_framework.parsers import BaseParser, FormParser, MultiPartParser
from rest_framework.permissions import AllowAny, IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games import selectors, services
from games.models import GameRecord
from games.views import json_download
from tournaments.apis import ERROR_SCHEMA, ERRORS
from tournaments.errors import ErrorCode, TournamentError
from tournaments.permissions import is_organiser
from tournaments.selectors import tournament_get_visible


class RawBodyParser(BaseParser):
    """Keeps the body as bytes (a record is stored exactly as sent); reads at most the limit + 1 byte."""

    media_type = "*/*"
    limit_setting = staticmethod(services.max_record_bytes)
    too_large = ErrorCode.RECORD_TOO_LARGE

    def parse(self, stream: Any, media_type: str | None = None, parser_context: Any = None) -> bytes:
        if stream is None:
            return b""
        limit = self.limit_setting()
        data = stream.read(limit + 1)
        if len(data) > limit:
            raise TournamentError(
                self.too_large, _("The body is larger than %(limit)s bytes.") % {"limit": limit}, limit=limit
            )
        return bytes(data)


class RawImportParser(RawBodyParser):
    limit_setting = staticmethod(services.max_import_bytes)
    too_large = ErrorCode.IMPORT_TOO_LARGE


TOKEN_PARAMS = [
    OpenApiParameter("X-Report-Token", OpenApiTypes.STR, OpenApiParameter.HEADER, required=False,
                     description="An entrant's private report token."),
    OpenApiParameter("token", OpenApiTypes.STR, OpenApiParameter.QUERY, required=False,
                     description="An entrant's private report token (alternative to the header)."),
]


def request_token(request: Request) -> str | None:
    token = request.headers.get("X-Report-Token") or request.query_params.get("token")
    return str(token)[:200] if token else None


def _upload(request: Request, limit: int, too_large: ErrorCode) -> tuple[bytes, str] | None:
    upload = request.FILES.get("file")
    if upload is None:
        return None
    data = upload.read(limit + 1)
    if len(data) > limit:
        raise TournamentError(too_large, _("The file is larger than %(limit)s bytes.") % {"limit": limit}, limit=limit)
    return data, str(upload.name or "")


def record_data(record: GameRecord) -> dict[str, Any]:
    return {
        "id": record.pk,
        "tournament": record.tournament.slug,
        "table": record.table_id,
        "round_number": record.table.round.number,
        "table_number": record.table.number,
        "source": record.source,
        "game": record.game,
        "variant": record.variant,
        "seat_entrants": record.seat_entrants,
        "submitted_for": record.submitted_for_id,
        "created_at": record.created_at,
        "status": record.status,
        "complete": record.complete,
        "error": (
            {"code": record.error_code, "path": record.error_path, "message": record.error_message}
            if record.error_code else None
        ),
        "derived_result": record.derived_result,
        "table_result": record.derived_table_result,
        "engine_version": record.engine_version,
        "verified_at": record.verified_at,
        "settlement": record.settlement,
        "settlement_note": record.settlement_note,
        "result": record.result_id,
    }


class RecordErrorOut(serializers.Serializer):
    code = serializers.CharField()
    path = serializers.CharField()
    message = serializers.CharField()


class RecordOut(serializers.Serializer):
    """The shape of `record_data` (for the OpenAPI schema)."""

    id = serializers.IntegerField()
    tournament = serializers.CharField()
    table = serializers.IntegerField()
    round_number = serializers.IntegerField()
    table_number = serializers.IntegerField()
    source = serializers.ChoiceField(choices=GameRecord.Source.choices)
    game = serializers.CharField()
    variant = serializers.DictField()
    seat_entrants = serializers.ListField(child=serializers.IntegerField())
    submitted_for = serializers.IntegerField(allow_null=True)
    created_at = serializers.DateTimeField()
    status = serializers.ChoiceField(choices=GameRecord.Status.choices)
    complete = serializers.BooleanField()
    error = RecordErrorOut(allow_null=True)
    derived_result = serializers.DictField(allow_null=True)
    table_result = serializers.DictField(allow_null=True)
    engine_version = serializers.CharField()
    verified_at = serializers.DateTimeField(allow_null=True)
    settlement = serializers.ChoiceField(choices=GameRecord.Settlement.choices)
    settlement_note = serializers.CharField()
    result = serializers.IntegerField(allow_null=True)


RECORD_SCHEMA = RecordOut
RECORD_LIST_SCHEMA = RecordOut(many=True)
RECORD_PAGE_SCHEMA = inline_serializer(
    name="RecordPage",
    fields={
        "count": serializers.IntegerField(), "next": serializers.URLField(allow_null=True),
        "previous": serializers.URLField(allow_null=True), "results": RecordOut(many=True),
    },
)


class RecordPagination(LimitOffsetPagination):
    """`?limit=` (1-1000, default 100) and `?offset=`; newest first."""

    default_limit = 100
    max_limit = 1000

    def _whole_number(self, request: Request, name: str, minimum: int = 0) -> None:
        raw = request.query_params.get(name)
        if raw is not None and not (str(raw).isdigit() and int(str(raw)) >= minimum):  # `?limit=` too
            raise TournamentError(ErrorCode.INVALID_INPUT, _("%(name)s must be a whole number from %(minimum)s.") % {"name": name, "minimum": minimum},
                                  field=name)

    def get_limit(self, request: Request) -> int | None:
        self._whole_number(request, self.limit_query_param, minimum=1)
        return super().get_limit(request)

    def get_offset(self, request: Request) -> int:
        self._whole_number(request, self.offset_query_param)
        return super().get_offset(request)
BATCH_SCHEMA = inline_serializer(
    name="RecordImport",
    fields={
        "id": serializers.IntegerField(), "filename": serializers.CharField(), "status": serializers.CharField(),
        "total": serializers.IntegerField(), "processed": serializers.IntegerField(),
        "done": serializers.BooleanField(), "error_message": serializers.CharField(),
        "items": serializers.ListField(child=serializers.DictField()),
    },
)


class TableRecordsApi(APIView):
    """GET: the records of a table. POST: submit a record for it (raw JSON body, multipart `file`, or
    form field `record`); 201 with the record (its verdict follows from the background task)."""

    permission_classes = [AllowAny]
    parser_classes = [MultiPartParser, FormParser, RawBodyParser]

    @extend_schema(parameters=TOKEN_PARAMS, responses={200: RECORD_LIST_SCHEMA, 404: ERROR_SCHEMA})
    def get(self, request: Request, table_id: int) -> Response:
        token = request_token(request)
        table = selectors.table_visible_or_404(user=request.user, table_id=table_id, token=token)
        records = selectors.records_for_table(user=request.user, table=table, token=token)
        return Response([record_data(r) for r in records])

    @extend_schema(
        parameters=TOKEN_PARAMS,
        request={"application/json": OpenApiTypes.OBJECT,
                 "multipart/form-data": inline_serializer(name="RecordUpload", fields={
                     "file": serializers.FileField(required=False), "record": serializers.CharField(required=False)})},
        responses={201: RECORD_SCHEMA, **ERRORS},
    )
    def post(self, request: Request, table_id: int) -> Response:
        token = request_token(request)
        table = selectors.table_visible_or_404(user=request.user, table_id=table_id, token=token)
        limit = services.max_record_bytes()
        source = GameRecord.Source.API
        if isinstance(request.data, bytes):
            data: bytes | str = request.data
        else:
            upload = _upload(request, limit, ErrorCode.RECORD_TOO_LARGE)
            if upload is not None:
                data, source = upload[0], GameRecord.Source.UPLOAD
            elif isinstance(request.data.get("record"), str):
                data, source = request.data["record"], GameRecord.Source.PASTE
            else:
                raise TournamentError(  # the multipart schema cannot say "one of file, record": 422
                    ErrorCode.INVALID_INPUT,
                    _("Send the record as a JSON body, a file field `file` or a form field `record`."),
                    http_status=422,
                )
        record = services.record_submit(table=table, actor=request.user, token=token, data=data, source=source,
                                        depth_checked=source == GameRecord.Source.API
                                        and getattr(request, "json_depth_checked", False))
        if current_app.conf.task_always_eager:
            record.refresh_from_db(fields=services.VERDICT_FIELDS)  # an eager verification ran on commit
        return Response(record_data(record), status=201)  # with a worker: as stored (pending), no re-read


class TournamentRecordsApi(APIView):
    permission_classes = [AllowAny]

    @extend_schema(
        parameters=[OpenApiParameter("status", OpenApiTypes.STR, OpenApiParameter.QUERY, required=False,
                                     enum=[c for c, _ in GameRecord.Status.choices]),
                    OpenApiParameter("limit", {"type": "integer", "minimum": 1}, OpenApiParameter.QUERY, required=False,
                                     description="Records per page, 1-1000 (default 100)."),
                    OpenApiParameter("offset", {"type": "integer", "minimum": 0}, OpenApiParameter.QUERY, required=False)],
        responses={200: RECORD_PAGE_SCHEMA, 400: ERROR_SCHEMA, 404: ERROR_SCHEMA},
    )
    def get(self, request: Request, slug: str) -> Response:
        tournament = tournament_get_visible(user=request.user, slug=slug)
        records = selectors.records_for_tournament(user=request.user, tournament=tournament)
        status = request.query_params.get("status")
        if status is not None:  # `?status=` (empty) is refused like any unknown status
            if status not in GameRecord.Status.values:
                raise TournamentError(
                    ErrorCode.INVALID_INPUT,
                    _("Unknown status %(status)s.") % {"status": repr(status)},
                )
            records = records.filter(status=status)
        paginator = RecordPagination()
        page = paginator.paginate_queryset(records, request, view=self)
        return paginator.get_paginated_response([record_data(r) for r in page or []])


class RecordConflictsApi(APIView):
    """Tables whose current result contradicts a valid complete record (organisers)."""

    permission_classes = [IsAuthenticated]

    @extend_schema(responses={200: inline_serializer(name="RecordConflict", many=True, fields={
        "table": serializers.IntegerField(), "round_number": serializers.IntegerField(),
        "table_number": serializers.IntegerField(), "record": serializers.IntegerField(),
        "result": serializers.IntegerField(), "expected": serializers.DictField(allow_null=True),
        "reason": serializers.ChoiceField(choices=["contradicts", "record_no_longer_valid"])}), **ERRORS})
    def get(self, request: Request, slug: str) -> Response:
        tournament = tournament_get_visible(user=request.user, slug=slug)
        if not is_organiser(request.user, tournament):
            raise TournamentError(ErrorCode.PERMISSION_DENIED, _("Only an organiser sees the conflicts."))
        return Response([
            {"table": c["table"].pk, "round_number": c["table"].round.number, "table_number": c["table"].number,
             "record": c["record"].pk, "result": c["result"].pk, "expected": c["expected"], "reason": c["reason"]}
            for c in selectors.record_conflicts(tournament=tournament)
        ])


class RecordDetailApi(APIView):
    """A record's status and verdict."""

    permission_classes = [AllowAny]

    @extend_schema(parameters=TOKEN_PARAMS, responses={200: RECORD_SCHEMA, 404: ERROR_SCHEMA})
    def get(self, request: Request, record_id: int) -> Response:
        record = selectors.record_visible_or_404(user=request.user, record_id=record_id, token=request_token(request))
        return Response(record_data(record))


class RecordDownloadApi(APIView):
    """The record exactly as submitted (application/json, as an attachment)."""

    permission_classes = [AllowAny]

    @extend_schema(parameters=TOKEN_PARAMS, responses={(200, "application/json"): OpenApiTypes.OBJECT,
                                                       404: ERROR_SCHEMA})
    def get(self, request: Request, record_id: int) -> HttpResponse:
        record = selectors.record_visible_or_404(user=request.user, record_id=record_id, token=request_token(request))
        return json_download(record)


class RecordImportApi(APIView):
    """Bulk import (organisers): a ZIP of .json records or a JSON Lines file, as multipart `file` or as
    the raw body (`?filename=`); 202 with the batch; poll GET /api/record-imports/<id>/."""

    permission_classes = [IsAuthenticated]
    parser_classes = [MultiPartParser, RawImportParser]

    @extend_schema(
        parameters=[OpenApiParameter("filename", OpenApiTypes.STR, OpenApiParameter.QUERY, required=False)],
        request={"multipart/form-data": inline_serializer(name="RecordImportUpload",
                                                          fields={"file": serializers.FileField()}),
                 "application/zip": OpenApiTypes.BINARY, "application/x-ndjson": OpenApiTypes.BINARY},
        responses={202: BATCH_SCHEMA, **ERRORS},
    )
    def post(self, request: Request, slug: str) -> Response:
        tournament = tournament_get_visible(user=request.user, slug=slug)
        if isinstance(request.data, bytes):
            data, filename = request.data, str(request.query_params.get("filename", ""))
        else:
            upload = _upload(request, services.max_import_bytes(), ErrorCode.IMPORT_TOO_LARGE)
            if upload is None:
                raise TournamentError(ErrorCode.INVALID_INPUT, _("Send the file as a multipart field `file`."),
                                      http_status=422)  # the schema cannot say "a file or a body": 422
            data, filename = upload
        batch = services.records_import(tournament=tournament, actor=request.user, filename=filename, data=data)
        batch.refresh_from_db(fields=["status", "processed", "error_message"])  # never the upload again
        return Response(selectors.batch_progress(batch=batch), status=202)


class RecordImportDetailApi(APIView):
    """Progress and per-record report of a bulk import (organisers)."""

    permission_classes = [IsAuthenticated]

    @extend_schema(responses={200: BATCH_SCHEMA, **ERRORS})
    def get(self, request: Request, batch_id: int) -> Response:
        batch = selectors.batch_visible_or_404(user=request.user, batch_id=batch_id)
        return Response(selectors.batch_progress(batch=batch))
