"""Organiser pages of the tournament archive: download it, import one as a new tournament."""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from tournaments.archive import archive_import
from tournaments.archive_api import archive_from_upload, archive_response
from tournaments.errors import TournamentError
from tournaments.views.organiser import organised_tournament


class ArchiveImportForm(forms.Form):
    file = forms.FileField(label=gettext_lazy("Archive (JSON)"))
    slug = forms.SlugField(label=gettext_lazy("Address (slug) of the new tournament"), max_length=120, required=False,
                           help_text=gettext_lazy("Leave empty to derive it from the tournament's name."))


@login_required
def archive_download(request: HttpRequest, slug: str) -> HttpResponse:
    return archive_response(organised_tournament(request, slug))


@login_required
def archive_import_view(request: HttpRequest) -> HttpResponse:
    form = ArchiveImportForm(request.POST or None, request.FILES or None)
    status = 200
    if request.method == "POST":
        if form.is_valid():
            try:
                data = archive_from_upload(form.cleaned_data["file"].read())
                tournament = archive_import(actor=request.user, data=data, slug=form.cleaned_data["slug"] or None)
            except TournamentError as error:
                form.add_error(None, error.message)
            else:
                messages.success(request, _("Tournament imported: %(name)s.") % {"name": tournament.name})
                return redirect("web:manage", slug=tournament.slug)
        status = 400
    return render(request, "tournaments/manage/archive_import.html", {"form": form}, status=status)
