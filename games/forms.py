"""Web forms for game records: submit one record (file or paste), import many (ZIP or JSON Lines).

They check the shape and the size of the input only; `games.services` decides what is accepted and
raises `TournamentError` with a stable code, shown next to the form.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.template.defaultfilters import filesizeformat
from django.utils.translation import gettext_lazy as _

from games import services


class RecordSubmitForm(forms.Form):
    record_file = forms.FileField(
        label=_("Record file (JSON)"),
        required=False,
        widget=forms.ClearableFileInput(attrs={"accept": ".json,application/json"}),
    )
    record_text = forms.CharField(
        label=_("…or paste the record here"),
        required=False,
        strip=False,
        widget=forms.Textarea(attrs={"rows": 8, "spellcheck": "false", "autocomplete": "off"}),
    )

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        limit = services.max_record_bytes()
        upload = data.get("record_file")
        too_large = _("The record is too large (at most %(size)s).") % {"size": filesizeformat(limit)}
        if upload:
            if upload.size > limit:
                raise forms.ValidationError(too_large, code="record_too_large")
            data["data"] = upload.read()
            data["source"] = "upload"
        elif (data.get("record_text") or "").strip():
            text = data["record_text"]
            if len(text.encode("utf-8")) > limit:
                raise forms.ValidationError(too_large, code="record_too_large")
            data["data"] = text
            data["source"] = "paste"
        else:
            raise forms.ValidationError(_("Choose a record file or paste the record."), code="empty")
        return data


class RecordsImportForm(forms.Form):
    import_file = forms.FileField(
        label=_("ZIP of records or JSON Lines file"),
        widget=forms.ClearableFileInput(attrs={"accept": ".zip,.jsonl,.ndjson,application/zip"}),
        help_text=_("One record per .json file in the ZIP, or one record per line."),
    )

    def clean_import_file(self) -> Any:
        upload = self.cleaned_data["import_file"]
        limit = services.max_import_bytes()
        if upload.size > limit:
            raise forms.ValidationError(
                _("The file is too large (at most %(size)s).") % {"size": filesizeformat(limit)},
                code="import_too_large",
            )
        return upload
