"""Forms of the sign-up pages (the services check everything again)."""

from __future__ import annotations

from typing import Any

from django import forms
from django.conf import settings
from django.utils.translation import gettext_lazy as _

from tournaments.models import ENTRANT_NAME_MAX_LENGTH
from tournaments.profiles import GameProfile
from tournaments.registration.services import ENTRY_LIMIT_MAX


class SignUpForm(forms.Form):
    name = forms.CharField(label=_("Team name"), max_length=ENTRANT_NAME_MAX_LENGTH)
    email = forms.EmailField(label=_("Your e-mail"),
                             help_text=_("Your confirmation and your private link go there; never shown publicly."))
    club = forms.CharField(label=_("Club"), max_length=100, required=False)
    language = forms.ChoiceField(label=_("Language of the e-mails"), required=False, choices=())

    def __init__(self, *args: Any, profile: GameProfile, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.players_per_entrant = profile.players_per_entrant
        self.fields["language"].choices = [("", _("Site default")), *settings.LANGUAGES]  # type: ignore[attr-defined]
        if profile.players_per_entrant == 1:
            self.fields["name"].label = _("Your name")
            return
        for index in range(profile.players_per_entrant):
            self.fields[f"player_{index + 1}"] = forms.CharField(
                label=_("Player %(number)d") % {"number": index + 1}, max_length=100)
            self.fields[f"player_{index + 1}_email"] = forms.EmailField(
                label=_("E-mail of player %(number)d") % {"number": index + 1}, required=False)

    def service_arguments(self) -> dict[str, Any]:
        data = self.cleaned_data
        players = [{"name": data[f"player_{i + 1}"], "email": data.get(f"player_{i + 1}_email") or ""}
                   for i in range(self.players_per_entrant)] if self.players_per_entrant > 1 else []
        return {"name": data["name"], "email": data["email"], "club": data.get("club") or "",
                "language": data.get("language") or "", "players": players}


class DeskCheckInForm(forms.Form):
    name = forms.CharField(label=_("Team name"), max_length=ENTRANT_NAME_MAX_LENGTH)
    email = forms.EmailField(label=_("The e-mail address you signed up with"))


class RegistrationSettingsForm(forms.Form):
    registration_open = forms.BooleanField(label=_("Sign-up open"), required=False)
    registration_approval = forms.BooleanField(label=_("Sign-ups need my approval"), required=False)
    entry_limit = forms.IntegerField(
        label=_("Entry limit"), min_value=2, max_value=ENTRY_LIMIT_MAX, required=False,
        help_text=_("Sign-ups beyond this number of entrants go on the waiting list; empty: no limit."))
    self_checkin_open = forms.BooleanField(label=_("Self check-in open"), required=False)


class GroupDrawForm(forms.Form):
    method = forms.ChoiceField(label=_("Draw"), choices=[
        ("pots", _("Seeded pots")), ("snake", _("Snake")), ("random", _("Random"))])
    by = forms.ChoiceField(label=_("Order by"), choices=[("seed", _("Seed")), ("rating", _("Rating"))])
    seed = forms.IntegerField(label=_("Random seed"), min_value=0, max_value=999_999, required=False,
                              help_text=_("Empty: drawn at random and shown with the groups."))


class EntrantEditForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=ENTRANT_NAME_MAX_LENGTH)
    club = forms.CharField(label=_("Club"), max_length=100, required=False)
    seed = forms.IntegerField(label=_("Seed"), min_value=1, max_value=100000, required=False)
    email = forms.EmailField(label=_("E-mail for notifications"), required=False)

    def __init__(self, *args: Any, profile: GameProfile, group_count: int, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.players_per_entrant = profile.players_per_entrant
        if profile.players_per_entrant > 1:
            self.fields["name"].label = _("Team name")
            for index in range(profile.players_per_entrant):
                self.fields[f"player_{index + 1}"] = forms.CharField(
                    label=_("Player %(number)d") % {"number": index + 1}, max_length=100)
        if group_count > 1:
            self.fields["group"] = forms.IntegerField(label=_("Group"), min_value=1, max_value=group_count)

    def service_arguments(self) -> dict[str, Any]:
        data = self.cleaned_data
        out: dict[str, Any] = {"name": data["name"], "club": data.get("club") or "", "seed": data.get("seed"),
                               "email": data.get("email") or ""}
        if self.players_per_entrant > 1:
            out["player_names"] = [data[f"player_{i + 1}"] for i in range(self.players_per_entrant)]
        if "group" in self.fields:
            out["group"] = data["group"]
        return out
