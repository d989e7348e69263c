"""Standings as an Excel workbook (openpyxl): `/api/tournaments/<slug>/export/standings.xlsx`.

Same rows and columns as the standings CSV (`tournaments.exports.standings_rows`); numbers are
numeric cells, text is written as text (openpyxl never evaluates it, and a leading "=" is stored as a
string, not a formula).
"""

from __future__ import annotations

import io
from typing import Any

from django.http import HttpResponse
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiResponse, extend_schema
from openpyxl import Workbook
from openpyxl.cell.cell import TYPE_STRING
from openpyxl.styles import Font
from rest_framework.permissions import AllowAny
from rest_framework.renderers import BaseRenderer, JSONRenderer
from rest_framework.request import Request
from rest_framework.views import APIView

from tournaments import selectors
from tournaments.apis import ERROR_SCHEMA
from tournaments.errors import ErrorCode, TournamentError
from tournaments.exports import standings_rows
from tournaments.models import Tournament

XLSX_MEDIA_TYPE = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet"


class XlsxRenderer(BaseRenderer):
    """Lets clients ask for the workbook by its media type (the view returns the bytes itself)."""

    media_type = XLSX_MEDIA_TYPE
    format = "xlsx"
    charset = None
    render_style = "binary"

    def render(self, data: Any, accepted_media_type: str | None = None, renderer_context: Any = None) -> bytes:
        return data if isinstance(data, bytes) else b""


def standings_workbook(tournament: Tournament) -> bytes:
    """The standings as one sheet: a bold header row, then one row per entrant."""
    header, rows = standings_rows(tournament)
    book = Workbook()
    sheet = book.active
    sheet.title = "Standings"
    sheet.append(header)
    for cell in sheet[1]:
        cell.font = Font(bold=True)
    for row in rows:
        sheet.append([None if value == "" else value for value in row])
    for cells in sheet.iter_rows(min_row=2):
        for cell in cells:
            if isinstance(cell.value, str):
                cell.data_type = TYPE_STRING  # never a formula, whatever the text starts with
    sheet.freeze_panes = "A2"
    sheet.column_dimensions["B"].width = 28
    buffer = io.BytesIO()
    book.save(buffer)
    return buffer.getvalue()


class StandingsXlsxApi(APIView):
    """The standings as an .xlsx workbook (public like the standings page)."""

    permission_classes = [AllowAny]
    renderer_classes = [JSONRenderer, XlsxRenderer]

    def handle_exception(self, exc: Exception) -> Any:
        """Errors are JSON whatever was asked for (an .xlsx renderer would send an empty body)."""
        response = super().handle_exception(exc)
        self.request.accepted_renderer = JSONRenderer()
        self.request.accepted_media_type = "application/json"
        return response

    @extend_schema(
        operation_id="tournaments_export_standings_xlsx",
        responses={
            (200, XLSX_MEDIA_TYPE): OpenApiResponse(OpenApiTypes.BINARY, description="Standings workbook"),
            400: OpenApiResponse(ERROR_SCHEMA, description="`format` is neither json nor xlsx (e.g. empty)"),
            404: OpenApiResponse(ERROR_SCHEMA, description="No such tournament"),
        },
    )
    def get(self, request: Request, slug: str) -> HttpResponse:
        chosen = request.query_params.get("format")
        if chosen is not None and chosen not in ("json", "xlsx"):  # DRF ignores an empty `?format=`
            raise TournamentError(ErrorCode.INVALID_INPUT, _("The format must be json or xlsx."))
        tournament = selectors.tournament_get_visible(user=request.user, slug=slug)
        response = HttpResponse(standings_workbook(tournament), content_type=XLSX_MEDIA_TYPE)
        response["Content-Disposition"] = f'attachment; filename="{tournament.slug}-standings.xlsx"'
        return response
