"""API of the tournament archive (tournaments.archive): download as organiser, import as a new tournament.

- `GET /api/tournaments/<slug>/archive.json` (organisers): the archive as a JSON attachment.
- `POST /api/tournament-imports/` (logged in; the JSON archive as the body, or a multipart `file`;
  optional `?slug=`): 201 with the new tournament's slug and URLs; 400 `invalid_archive` otherwise.
"""

from __future__ import annotations

import json
from typing import Any

from django.http import HttpResponse
from django.urls import reverse
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema, inline_serializer
from rest_framework import serializers
from rest_framework.permissions import IsAuthenticated
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from tournaments import selectors
from tournaments.apis import ERRORS
from tournaments.archive import archive_export, archive_import, archive_max_bytes
from tournaments.errors import ErrorCode, TournamentError
from tournaments.permissions import is_organiser


def archive_response(tournament: Any) -> HttpResponse:
    body = json.dumps(archive_export(tournament), ensure_ascii=False, indent=1, sort_keys=True) + "\n"
    response = HttpResponse(body, content_type="application/json; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{tournament.slug}-archive.json"'
    return response


def archive_from_upload(raw: bytes) -> Any:
    if len(raw) > archive_max_bytes():
        raise TournamentError(ErrorCode.INVALID_ARCHIVE, _("The archive is larger than %(max)s bytes.")
                              % {"max": archive_max_bytes()})
    try:
        return json.loads(raw.decode("utf-8-sig"))
    except (UnicodeDecodeError, json.JSONDecodeError, RecursionError) as exc:
        raise TournamentError(ErrorCode.INVALID_ARCHIVE, _("The archive is not a JSON file.")) from exc


class TournamentArchiveApi(APIView):
    """Organisers only: the tournament as one versioned JSON archive (format tournament-archive/1)."""

    permission_classes = [IsAuthenticated]

    @extend_schema(operation_id="tournaments_archive_export",
                   responses={(200, "application/json"): OpenApiResponse(OpenApiTypes.OBJECT,
                                                                        description="tournament-archive/1"),
                              **ERRORS})
    def get(self, request: Request, slug: str) -> HttpResponse:
        tournament = selectors.tournament_get_visible(user=request.user, slug=slug)
        if not is_organiser(request.user, tournament):
            raise TournamentError(ErrorCode.PERMISSION_DENIED, _("Only organisers may download the archive."))
        return archive_response(tournament)


class TournamentImportApi(APIView):
    """Create a tournament from an archive; the caller becomes its organiser. All or nothing."""

    permission_classes = [IsAuthenticated]

    @extend_schema(
        operation_id="tournaments_archive_import",
        request={"application/json": OpenApiTypes.OBJECT, "multipart/form-data": OpenApiTypes.BINARY},
        parameters=[OpenApiParameter("slug", str, description="Slug of the new tournament (default: from its name)")],
        responses={201: inline_serializer(name="ArchiveImported", fields={
            "slug": serializers.CharField(), "url": serializers.CharField(), "api": serializers.CharField()}),
            **ERRORS},
    )
    def post(self, request: Request) -> Response:
        upload = request.FILES.get("file") if request.content_type.startswith("multipart/") else None
        data = archive_from_upload(upload.read(archive_max_bytes() + 1)) if upload is not None else request.data
        slug = request.query_params.get("slug") or None
        tournament = archive_import(actor=request.user, data=data, slug=slug)
        return Response({"slug": tournament.slug, "url": reverse("web:tournament-detail", args=[tournament.slug]),
                         "api": reverse("api-tournament", args=[tournament.slug])}, status=201)
