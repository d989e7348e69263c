"""Web forms. They parse and check the shape of input; the services decide what is allowed.

A service's `TournamentError` is put back on the form (`add_service_error`) so that the page shows
the sentence next to the form instead of failing.
"""

from __future__ import annotations

import json
from typing import Any

from django import forms
from django.conf import settings
from django.utils.translation import gettext_lazy as _

from tournaments.errors import TournamentError
from tournaments.models import ENTRANT_NAME_MAX_LENGTH, Entrant, Result, Tournament
from tournaments.profile_names import profile_name
from tournaments.profiles import PLACING, GameProfile, all_profiles
from tournaments.standings import TIEBREAKS

CSV_UPLOAD_MAX_BYTES = 1024 * 1024


def profile_key(profile: GameProfile) -> str:
    """A stable form value for a game profile: game and variant as compact JSON."""
    return f"{profile.game}:{json.dumps(dict(profile.variant), sort_keys=True, separators=(',', ':'))}"


def profile_label(profile: GameProfile) -> str:
    """The profile's name and its table, e.g. "TAC — 2 teams of 2 per table"."""
    if profile.players_per_entrant > 1:
        table = _("%(teams)d teams of %(players)d per table") % {
            "teams": profile.entrants_per_table,
            "players": profile.players_per_entrant,
        }
    else:
        table = _("%(players)d players per table") % {"players": profile.entrants_per_table}
    return f"{profile_name(profile)} — {table}"


def profile_choices() -> list[tuple[str, str]]:
    return [(profile_key(p), profile_label(p)) for p in all_profiles()]


def add_service_error(form: forms.Form, error: TournamentError, field: str | None = None) -> None:
    """Show a service error on the form (on `field`, or above the form)."""
    form.add_error(field if field in form.fields else None, error.message)


class TournamentCreateForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=120)
    profile = forms.ChoiceField(label=_("Game"), choices=())
    format = forms.ChoiceField(label=_("Format"), choices=Tournament.Format.choices, initial="swiss")
    rounds_planned = forms.IntegerField(
        label=_("Rounds planned"), min_value=1, max_value=100, initial=5, required=False,
        help_text=_("Swiss rounds (also before a knockout). Round robin, groups and knockout rounds follow from the format."),
    )
    group_count = forms.IntegerField(
        label=_("Groups"),
        min_value=1,
        max_value=64,
        initial=1,
        help_text=_("Round robin and stages: how many groups."),
    )
    double_round_robin = forms.BooleanField(label=_("Double round robin"), required=False)
    knockout_size = forms.IntegerField(
        label=_("Knockout: entrants advancing"),
        min_value=2,
        max_value=1024,
        required=False,
        help_text=_("Stages only: how many entrants reach the knockout (top N)."),
    )
    third_place_match = forms.BooleanField(label=_("Third-place match"), required=False, initial=True)
    placement_matches = forms.BooleanField(
        label=_("Placement matches"), required=False,
        help_text=_("Knockout: entrants out of the bracket play on for their places (5-8, 9-12, ...)."),
    )
    shared_places_by_standings = forms.BooleanField(
        label=_("Order shared places by the standings"), required=False,
        help_text=_("Places not played for (e.g. 5-8) are ordered by the standings of the stage before."),
    )
    dropped_rank_last = forms.BooleanField(
        label=_("Dropped entrants rank below those who played on"), required=False, initial=True,
    )
    first_round = forms.ChoiceField(
        label=_("First round"), choices=Tournament.FirstRound.choices, initial="seed"
    )
    avoid_same_club = forms.BooleanField(label=_("Avoid same-club pairings"), required=False)
    starts_on = forms.DateField(
        label=_("Date"),
        required=False,
        widget=forms.DateInput(attrs={"type": "date"}),
    )
    venue = forms.CharField(label=_("Venue"), max_length=200, required=False)
    is_public = forms.BooleanField(
        label=_("Public"), required=False, initial=True, help_text=_("Everyone can see the tournament page.")
    )
    tiebreak_order = forms.CharField(
        label=_("Tiebreak order"),
        required=False,
        max_length=300,
    )
    forfeit_winner_score = forms.IntegerField(
        label=_("Forfeit: winner's score"),
        min_value=0,
        max_value=1000,
        required=False,
        help_text=_("Leave empty for the game's default (TAC: 8:4)."),
    )
    forfeit_loser_score = forms.IntegerField(
        label=_("Forfeit: loser's score"),
        min_value=0,
        max_value=1000,
        required=False,
    )
    bye_points = forms.FloatField(
        label=_("Bye: match points"),
        min_value=0,
        max_value=1000,
        required=False,
        help_text=_("Leave empty to give a bye the points of a win."),
    )
    # issue 13 (rounds)
    checkin_required = forms.BooleanField(
        label=_("Check-in required"), required=False,
        help_text=_("Pair only entrants who have checked in (and not dropped)."),
    )
    schedule_rounds = forms.IntegerField(
        label=_("Round robin: rounds"), min_value=1, max_value=60, required=False,
        help_text=_("Tables of 3 or more: rounds of the round robin; empty: the fewest in which every pair can meet."),
    )
    rolling_rounds = forms.BooleanField(
        label=_("Release the next round table by table"), required=False,
        help_text=_("Round robin and group rounds: a table of the next round may start as soon as all its "
                    "entrants have a final result."),
    )
    game_minutes = forms.IntegerField(
        label=_("Game length (minutes)"), min_value=1, max_value=1440, required=False,
        help_text=_("Used for start times, calendars and the time-limit result; empty: 90."),
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["profile"].choices = profile_choices()  # type: ignore[attr-defined]
        self.fields["tiebreak_order"].help_text = _(
            "Optional, comma-separated, starting with match_points. Leave empty for the game's default. "
            "Known: %(codes)s."
        ) % {"codes": ", ".join(TIEBREAKS)}

    def clean_tiebreak_order(self) -> list[str] | None:
        text = self.cleaned_data.get("tiebreak_order") or ""
        codes = [code.strip() for code in text.replace(";", ",").split(",") if code.strip()]
        if not codes:
            return None
        unknown = [code for code in codes if code not in TIEBREAKS]
        if unknown:
            raise forms.ValidationError(_("Unknown tiebreak: %(codes)s.") % {"codes": ", ".join(unknown)})
        if codes[0] != "match_points":
            raise forms.ValidationError(_("The tiebreak order must start with match_points."))
        if len(set(codes)) != len(codes):
            raise forms.ValidationError(_("Each tiebreak may appear only once."))
        return codes

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        if data.get("format") == Tournament.Format.STAGES and not data.get("knockout_size"):
            self.add_error(
                "knockout_size", _("A stages tournament needs the number of entrants in the knockout.")
            )
        return data

    def service_arguments(self) -> dict[str, Any]:
        data = self.cleaned_data
        game, variant_json = data["profile"].split(":", 1)
        return {
            "name": data["name"],
            "game": game,
            "variant": json.loads(variant_json),
            "format": data["format"],
            "rounds_planned": data["rounds_planned"] or 5,
            "group_count": data["group_count"],
            "double_round_robin": data["double_round_robin"],
            "knockout_size": data["knockout_size"],
            "third_place_match": data["third_place_match"],
            "placement_matches": data["placement_matches"],
            "shared_places_by_standings": data["shared_places_by_standings"],
            "dropped_rank_last": data["dropped_rank_last"],
            "first_round": data["first_round"],
            "avoid_same_club": data["avoid_same_club"],
            "starts_on": data["starts_on"],
            "venue": data["venue"],
            "is_public": data["is_public"],
            "tiebreak_order": data.get("tiebreak_order"),
            "forfeit_winner_score": data.get("forfeit_winner_score"),
            "forfeit_loser_score": data.get("forfeit_loser_score"),
            "bye_points": data.get("bye_points"),
            "checkin_required": data.get("checkin_required", False),
            "schedule_rounds": data.get("schedule_rounds"),
            "rolling_rounds": data.get("rolling_rounds", False),
            "game_minutes": data.get("game_minutes"),
        }


class EntrantForm(forms.Form):
    """One entrant: a team of `players_per_entrant` named players, or a single player."""

    name = forms.CharField(label=_("Name"), max_length=ENTRANT_NAME_MAX_LENGTH)
    club = forms.CharField(label=_("Club"), max_length=100, required=False)
    seed = forms.IntegerField(label=_("Seed"), min_value=1, max_value=100000, required=False)
    rating = forms.FloatField(label=_("Rating"), min_value=-100000, max_value=100000, required=False)
    group = forms.IntegerField(label=_("Group"), min_value=1, max_value=64, initial=1)
    check_in = forms.BooleanField(label=_("Check in now"), required=False)
    email = forms.EmailField(
        label=_("E-mail for notifications"), required=False,
        help_text=_("Optional, never shown publicly: pairings, results to confirm, corrections."),
    )
    language = forms.ChoiceField(label=_("Language of the e-mails"), required=False, choices=())

    def __init__(self, *args: Any, profile: GameProfile, group_count: int, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.players_per_entrant = profile.players_per_entrant
        self.fields["language"].choices = [("", _("Site default")), *settings.LANGUAGES]  # type: ignore[attr-defined]
        if profile.players_per_entrant > 1:
            self.fields["name"].label = _("Team name")
            for index in range(profile.players_per_entrant):
                self.fields[f"player_{index + 1}"] = forms.CharField(
                    label=_("Player %(number)d") % {"number": index + 1}, max_length=100
                )
                self.fields[f"player_{index + 1}_email"] = forms.EmailField(
                    label=_("E-mail of player %(number)d") % {"number": index + 1}, required=False
                )
        else:
            self.fields["name"].label = _("Player name")
        if group_count <= 1:
            del self.fields["group"]
        else:
            self.fields["group"] = forms.IntegerField(
                label=_("Group"), min_value=1, max_value=group_count, initial=1
            )

    def service_arguments(self) -> dict[str, Any]:
        data = self.cleaned_data
        players = (
            [data[f"player_{i + 1}"] for i in range(self.players_per_entrant)]
            if self.players_per_entrant > 1
            else []
        )
        return {
            "name": data["name"],
            "player_names": players,
            "club": data.get("club") or None,
            "seed": data.get("seed"),
            "rating": data.get("rating"),
            "group": data.get("group") or 1,
            "check_in": data.get("check_in", False),
            "email": data.get("email") or "",
            "language": data.get("language") or "",
            "player_emails": [data.get(f"player_{i + 1}_email") or "" for i in range(self.players_per_entrant)]
            if self.players_per_entrant > 1
            else [],
        }


class EntrantImportForm(forms.Form):
    csv_file = forms.FileField(label=_("CSV file"), required=False)
    csv_text = forms.CharField(
        label=_("…or paste the CSV here"),
        required=False,
        widget=forms.Textarea(attrs={"rows": 6}),
    )

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        upload = data.get("csv_file")
        if upload:
            if upload.size > CSV_UPLOAD_MAX_BYTES:
                raise forms.ValidationError(_("The file is too large (at most 1 MB)."))
            raw = upload.read()
            try:
                data["text"] = raw.decode("utf-8-sig")
            except UnicodeDecodeError:
                try:
                    data["text"] = raw.decode("cp1252")
                except UnicodeDecodeError as exc:
                    raise forms.ValidationError(_("The file is not a text (UTF-8) CSV file.")) from exc
        elif (data.get("csv_text") or "").strip():
            data["text"] = data["csv_text"]
        else:
            raise forms.ValidationError(_("Choose a CSV file or paste its contents."))
        return data


class OrganiserAddForm(forms.Form):
    username = forms.CharField(label=_("Username of the co-organiser"), max_length=150)

    def clean_username(self) -> Any:
        from django.contrib.auth import get_user_model

        username = self.cleaned_data["username"].strip()
        user = get_user_model().objects.filter(username=username, is_active=True).first()
        if user is None:
            raise forms.ValidationError(_("No active account has this username."))
        return user


class ActionForm(forms.Form):
    """An empty form for buttons that POST an action (the CSRF token is all it carries)."""


def seat_choices(entrants: list[Entrant]) -> list[tuple[str, str]]:
    return [("", "—")] + [(str(e.id), e.name) for e in entrants]


class RoundEditForm(forms.Form):
    """A grid of selects: one per seat of every table. Empty seats are left out of the table."""

    def __init__(
        self,
        *args: Any,
        table_count: int,
        seats_per_table: int,
        entrants: list[Entrant],
        initial_tables: list[list[int]] | None = None,
        initial_byes: list[int] | None = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(*args, **kwargs)
        self.table_count = table_count
        self.seats_per_table = seats_per_table
        choices = seat_choices(entrants)
        self.fields["byes"] = forms.MultipleChoiceField(
            label=_("Byes"),
            choices=choices[1:],
            required=False,
            widget=forms.CheckboxSelectMultiple,
            initial=[str(i) for i in initial_byes or []],
        )
        for t in range(table_count):
            for s in range(seats_per_table):
                initial = ""
                if initial_tables and t < len(initial_tables) and s < len(initial_tables[t]):
                    initial = str(initial_tables[t][s])
                self.fields[f"t{t + 1}_s{s + 1}"] = forms.ChoiceField(
                    label=_("Table %(table)d, seat %(seat)d") % {"table": t + 1, "seat": s + 1},
                    choices=choices,
                    required=False,
                    initial=initial,
                )

    def grid(self) -> list[tuple[int, list[forms.BoundField]]]:
        return [
            (t + 1, [self[f"t{t + 1}_s{s + 1}"] for s in range(self.seats_per_table)])
            for t in range(self.table_count)
        ]

    def byes(self) -> list[int]:
        return [int(value) for value in self.cleaned_data.get("byes") or []]

    def tables(self) -> list[list[int]]:
        """The edited tables as entrant ids in seat order; tables left empty are dropped."""
        tables = []
        for t in range(self.table_count):
            ids = []
            for s in range(self.seats_per_table):
                value = self.cleaned_data.get(f"t{t + 1}_s{s + 1}")
                if value:
                    ids.append(int(value))
            if ids:
                tables.append(ids)
        return tables


class ResultForm(forms.Form):
    """A table's result: a score per entrant (marbles home) or a placing per entrant, and its kind."""

    kind = forms.ChoiceField(label=_("Kind of result"), choices=(), initial=Result.Kind.NORMAL)
    note = forms.CharField(label=_("Note"), max_length=500, required=False)

    def __init__(
        self,
        *args: Any,
        profile: GameProfile,
        entrants: list[Entrant],
        allow_forfeit: bool = True,
        **kwargs: Any,
    ) -> None:
        super().__init__(*args, **kwargs)
        self.profile = profile
        self.entrants = entrants
        kinds = [(Result.Kind.NORMAL.value, Result.Kind.NORMAL.label)]
        if profile.has_time_limit_result:
            kinds.append((Result.Kind.TIME_LIMIT.value, Result.Kind.TIME_LIMIT.label))
        if allow_forfeit:
            kinds.append((Result.Kind.FORFEIT.value, Result.Kind.FORFEIT.label))
        self.fields["kind"].choices = kinds  # type: ignore[attr-defined]
        for entrant in entrants:
            if profile.result_mode == PLACING:
                self.fields[f"placing_{entrant.id}"] = forms.IntegerField(
                    label=entrant.name,
                    min_value=1,
                    max_value=len(entrants),
                    required=False,
                    widget=forms.NumberInput(attrs={"class": "narrow", "inputmode": "numeric"}),
                )
            else:
                self.fields[f"score_{entrant.id}"] = forms.IntegerField(
                    label=entrant.name,
                    min_value=profile.score_min,
                    max_value=profile.score_max,
                    required=False,
                    widget=forms.NumberInput(attrs={"class": "narrow", "inputmode": "numeric"}),
                )
            self.fields[f"forfeited_{entrant.id}"] = forms.BooleanField(
                label=_("%(name)s forfeits") % {"name": entrant.name},
                required=False,
            )

    def entrant_rows(self) -> list[tuple[Entrant, forms.BoundField, forms.BoundField]]:
        key = "placing" if self.profile.result_mode == PLACING else "score"
        return [(e, self[f"{key}_{e.id}"], self[f"forfeited_{e.id}"]) for e in self.entrants]

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        kind = data.get("kind")
        forfeiters = [e for e in self.entrants if data.get(f"forfeited_{e.id}")]
        if kind == Result.Kind.FORFEIT:
            if not forfeiters:
                raise forms.ValidationError(_("Tick who forfeits."))
            if len(forfeiters) == len(self.entrants):
                raise forms.ValidationError(_("Not everyone at the table can forfeit."))
            return data
        if forfeiters:
            raise forms.ValidationError(_("Choose the kind “Forfeit” to record a forfeit."))
        key = "placing" if self.profile.result_mode == PLACING else "score"
        for entrant in self.entrants:
            if data.get(f"{key}_{entrant.id}") is None and f"{key}_{entrant.id}" not in self.errors:
                self.add_error(
                    f"{key}_{entrant.id}",
                    _("Enter a placing.") if key == "placing" else _("Enter the marbles home."),
                )
        return data

    def service_arguments(self) -> dict[str, Any]:
        """The keyword arguments of result_report / result_override."""
        data = self.cleaned_data
        kind = data["kind"]
        arguments: dict[str, Any] = {"kind": kind, "note": data.get("note") or ""}
        if kind == Result.Kind.FORFEIT:
            arguments["forfeited"] = [e.id for e in self.entrants if data.get(f"forfeited_{e.id}")]
        elif self.profile.result_mode == PLACING:
            arguments["placings"] = {e.id: data[f"placing_{e.id}"] for e in self.entrants}
        else:
            arguments["scores"] = {e.id: data[f"score_{e.id}"] for e in self.entrants}
        return arguments


class BoardForm(forms.Form):
    name = forms.CharField(label=_("Board name or number"), max_length=40)
    accessible = forms.BooleanField(label=_("Accessible (wheelchair, step-free)"), required=False)


class ForbiddenPairForm(forms.Form):
    """Two entrants of the tournament to keep apart."""

    first = forms.TypedChoiceField(label=_("Entrant"), coerce=int, choices=())
    second = forms.TypedChoiceField(label=_("…and entrant"), coerce=int, choices=())

    def __init__(self, *args: Any, entrants: list[Entrant], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        choices = [(e.pk, e.name) for e in entrants]
        self.fields["first"].choices = choices  # type: ignore[attr-defined]
        self.fields["second"].choices = choices  # type: ignore[attr-defined]


class RoundBoardsForm(forms.Form):
    """Put a round's tables at the venue's boards, optionally with a start time."""

    round_number = forms.TypedChoiceField(label=_("Round"), coerce=int, choices=())
    start = forms.DateTimeField(
        label=_("Start time (optional)"), required=False,
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M"),
        input_formats=["%Y-%m-%dT%H:%M", "%Y-%m-%d %H:%M"],
    )
    avoid_repeat_boards = forms.BooleanField(
        label=_("Avoid boards an entrant already played at"), required=False
    )

    def __init__(self, *args: Any, round_numbers: list[int], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["round_number"].choices = [(n, str(n)) for n in round_numbers]  # type: ignore[attr-defined]


class FinalPlacesForm(forms.Form):
    """The final-places settings on the manage page (placement matches only before the knockout)."""

    placement_matches = TournamentCreateForm.base_fields["placement_matches"]
    shared_places_by_standings = TournamentCreateForm.base_fields["shared_places_by_standings"]
    dropped_rank_last = TournamentCreateForm.base_fields["dropped_rank_last"]
