from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from tournaments.webhooks.events import EVENTS
from tournaments.webhooks.targets import URL_MAX_LENGTH


class WebhookForm(forms.Form):
    url = forms.CharField(label=_("URL"), max_length=URL_MAX_LENGTH,
                          widget=forms.URLInput(attrs={"placeholder": "https://", "inputmode": "url"}),
                          help_text=_("A public http or https address; each event is POSTed there as JSON."))
    events = forms.MultipleChoiceField(label=_("Events"), choices=list(EVENTS.items()),
                                       widget=forms.CheckboxSelectMultiple, initial=list(EVENTS))
    description = forms.CharField(label=_("Description"), max_length=200, required=False)
