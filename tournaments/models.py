"""Tournament models: thin rows whose invariants are database constraints.

Writes go through `tournaments.services`; reads through `tournaments.selectors`.
"""

from __future__ import annotations

import secrets

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.db.models.functions import Lower, Now
from django.utils.translation import gettext_lazy as _

from tournaments.profiles import GAMES

ENTRANT_NAME_MAX_LENGTH = 48


def new_report_token() -> str:
    return secrets.token_urlsafe(24)


class Club(models.Model):
    name = models.CharField(_("name"), max_length=100, unique=True)
    city = models.CharField(_("city"), max_length=100, blank=True)

    class Meta:
        ordering = ["name"]

    def __str__(self) -> str:
        return self.name


class Player(models.Model):
    """A person who plays; optionally linked to a login (to report results through an account)."""

    name = models.CharField(_("name"), max_length=100)
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="player"
    )
    club = models.ForeignKey(Club, null=True, blank=True, on_delete=models.SET_NULL, related_name="players")
    # Optional, private: for notifications (tournaments.notifications), never shown publicly.
    email = models.EmailField(_("e-mail"), blank=True)
    language = models.CharField(_("language"), max_length=8, blank=True)

    class Meta:
        ordering = ["name", "id"]

    def __str__(self) -> str:
        return self.name


class Tournament(models.Model):
    class Format(models.TextChoices):
        SWISS = "swiss", _("Swiss")
        ROUND_ROBIN = "round_robin", _("Round robin")
        KNOCKOUT = "knockout", _("Knockout")
        STAGES = "stages", _("Stages (groups or Swiss, then knockout)")

    class Status(models.TextChoices):
        REGISTRATION = "registration", _("Registration")
        RUNNING = "running", _("Running")
        FINISHED = "finished", _("Finished")

    class FirstRound(models.TextChoices):
        SEED = "seed", _("By seed")
        RATING = "rating", _("By rating")
        RANDOM = "random", _("Random")

    name = models.CharField(_("name"), max_length=120)
    slug = models.SlugField(_("slug"), max_length=140, unique=True)
    game = models.CharField(_("game"), max_length=20, choices=list(GAMES.items()))
    variant = models.JSONField(_("variant"), default=dict, blank=True)
    format = models.CharField(_("format"), max_length=20, choices=Format.choices, default=Format.SWISS)
    status = models.CharField(_("status"), max_length=20, choices=Status.choices, default=Status.REGISTRATION)
    is_public = models.BooleanField(_("public"), default=True)
    organisers = models.ManyToManyField(settings.AUTH_USER_MODEL, related_name="organised_tournaments")
    starts_on = models.DateField(_("starts on"), null=True, blank=True)
    venue = models.CharField(_("venue"), max_length=200, blank=True)

    rounds_planned = models.PositiveSmallIntegerField(_("rounds planned"), default=5)
    group_count = models.PositiveSmallIntegerField(_("groups"), default=1)
    double_round_robin = models.BooleanField(_("double round robin"), default=False)
    knockout_size = models.PositiveSmallIntegerField(
        _("knockout: entrants advancing"), null=True, blank=True,
        help_text=_("Stages format: how many entrants enter the knockout."),
    )
    knockout_advance = models.PositiveSmallIntegerField(_("knockout: advancing per table"), default=1)
    third_place_match = models.BooleanField(_("third-place match"), default=True)

    class KnockoutStyle(models.TextChoices):
        SINGLE = "single", _("Single elimination")
        DOUBLE = "double", _("Double elimination")

    # Knockout and stages: single or double elimination (tables of 2; docs/formats.md).
    knockout_style = models.CharField(
        _("knockout style"), max_length=10, choices=KnockoutStyle.choices, default=KnockoutStyle.SINGLE,
    )
    grand_final_reset = models.BooleanField(
        _("double elimination: grand final reset"), default=True,
        help_text=_("A win of the losers' bracket champion in the grand final forces a second final."),
    )
    first_round = models.CharField(_("first round"), max_length=10, choices=FirstRound.choices, default="seed")
    avoid_same_club = models.BooleanField(_("avoid same-club pairings"), default=False)
    random_seed = models.IntegerField(_("random seed"), default=0)
    # Issue 13 (rounds): check-in, round robin rounds, rolling release, game length.
    checkin_required = models.BooleanField(
        _("check-in required"), default=False,
        help_text=_("Pair only entrants who have checked in (and not dropped)."),
    )
    schedule_rounds = models.PositiveSmallIntegerField(
        _("round robin: rounds"), null=True, blank=True,
        help_text=_("Tables of 3 or more: rounds of the round robin; empty: the fewest in which every pair can meet."),
    )
    rolling_rounds = models.BooleanField(
        _("release the next round table by table"), default=False,
        help_text=_("Round robin and group rounds: a table of the next round may start as soon as all its "
                    "entrants have a final result."),
    )
    game_minutes = models.PositiveSmallIntegerField(_("game length (minutes)"), default=90)
    # Knockout / stages: the entrant ids of each standings list (one list per group, or one for
    # Swiss / a pure knockout) at the moment the bracket was drawn. The bracket is recomputed from it.
    knockout_seeding = models.JSONField(default=list, blank=True)
    # Final places (docs/formats.md): placement tables for the places a knockout does not play for,
    # shared places ordered by the standings of the stage before, dropped entrants below those who
    # played on.
    placement_matches = models.BooleanField(
        _("placement matches"), default=False,
        help_text=_("Entrants out of the knockout play on for their places (5-8, 9-12, ...)."),
    )
    shared_places_by_standings = models.BooleanField(
        _("order shared places by the standings"), default=False,
        help_text=_("Places not played for are ordered by the standings of the stage before instead of shared."),
    )
    dropped_rank_last = models.BooleanField(
        _("dropped entrants rank below those who played on"), default=True,
    )

    # Issue 28: the group draw ({"method", "by", "seed", "entrant_ids", "drawn_at"}; {} before any draw).
    group_draw = models.JSONField(default=dict, blank=True)
    # Issue 28: public sign-up (tournaments/registration/), entry limit and waiting list, self check-in.
    registration_open = models.BooleanField(_("sign-up open"), default=False)
    registration_approval = models.BooleanField(
        _("sign-ups need the organiser's approval"), default=False,
    )
    entry_limit = models.PositiveIntegerField(
        _("entry limit"), null=True, blank=True,
        help_text=_("Sign-ups beyond this number of entrants go on the waiting list; empty: no limit."),
    )
    self_checkin_open = models.BooleanField(_("self check-in open"), default=False)

    class ByeTiebreak(models.TextChoices):
        OWN_SCORE = "own_score", _("a game against itself (its own points)")
        VIRTUAL_OPPONENT = "virtual_opponent", _("FIDE's virtual opponent")

    # How a bye enters Buchholz and median Buchholz (tournaments/standings/compute.py).
    bye_tiebreak = models.CharField(
        _("bye in Buchholz"), max_length=20, choices=ByeTiebreak.choices, default=ByeTiebreak.OWN_SCORE,
    )

    # Points scheme: match points by placing at a table (index 0 = first); ties share the mean.
    placing_points = models.JSONField(_("points by placing"), default=list)
    tiebreak_order = models.JSONField(_("tiebreak order"), default=list)
    forfeit_winner_score = models.PositiveSmallIntegerField(_("forfeit: winner's score"), default=0)
    forfeit_loser_score = models.PositiveSmallIntegerField(_("forfeit: loser's score"), default=0)
    bye_points = models.FloatField(_("bye: match points"), default=0)
    bye_score_for = models.PositiveSmallIntegerField(_("bye: score for"), default=0)
    bye_score_against = models.PositiveSmallIntegerField(_("bye: score against"), default=0)

    # Incremented in the same transaction as any change to a final result; standings rows carry
    # the version they were computed from, so staleness is `standings_version < results_version`.
    results_version = models.PositiveIntegerField(default=0)
    standings_version = models.PositiveIntegerField(default=0)
    # Incremented by every write that locks the tournament (services.locking.lock_tournament): with
    # the two versions above it keys the cached public pages (tournaments/page_cache.py).
    public_version = models.PositiveIntegerField(default=0)
    # Whether the tournament has an active webhook (tournaments/webhooks): read with the locked row, so an
    # event of a tournament without webhooks costs no query; kept by the webhook services.
    webhooks_active = models.BooleanField(default=False)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        constraints = [
            models.CheckConstraint(
                condition=Q(format__in=["swiss", "round_robin", "knockout", "stages"]), name="tournament_format_valid"
            ),
            models.CheckConstraint(
                condition=Q(status__in=["registration", "running", "finished"]), name="tournament_status_valid"
            ),
            models.CheckConstraint(condition=Q(game__in=list(GAMES)), name="tournament_game_valid"),
            models.CheckConstraint(condition=Q(group_count__gte=1), name="tournament_group_count_positive"),
            models.CheckConstraint(condition=Q(game_minutes__gte=1), name="tournament_game_minutes_positive"),
            models.CheckConstraint(
                condition=Q(schedule_rounds__isnull=True) | Q(schedule_rounds__gte=1),
                name="tournament_schedule_rounds_positive",
            ),
            models.CheckConstraint(
                condition=Q(standings_version__lte=models.F("results_version")),
                name="tournament_standings_not_ahead",
            ),
        ]

    def __str__(self) -> str:
        return self.name


class Entrant(models.Model):
    """A team of fixed players (TAC: the same two players) or a single player."""

    class Status(models.TextChoices):
        REGISTERED = "registered", _("Registered")
        CHECKED_IN = "checked_in", _("Checked in")
        DROPPED = "dropped", _("Dropped")

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="entrants")
    name = models.CharField(_("name"), max_length=ENTRANT_NAME_MAX_LENGTH)
    players = models.ManyToManyField(Player, through="EntrantMember", related_name="entrants")
    club = models.ForeignKey(Club, null=True, blank=True, on_delete=models.SET_NULL, related_name="entrants")
    status = models.CharField(_("status"), max_length=20, choices=Status.choices, default=Status.REGISTERED)
    seed = models.PositiveIntegerField(_("seed"), null=True, blank=True)
    rating = models.FloatField(_("rating"), null=True, blank=True)
    group = models.PositiveSmallIntegerField(_("group"), default=1)
    needs_accessible_table = models.BooleanField(_("needs an accessible table"), default=False)
    # Optional, private contact address of the entrant for notifications, and its language.
    email = models.EmailField(_("e-mail"), blank=True)
    language = models.CharField(_("language"), max_length=8, blank=True)
    # Secret link for reporting results without an account; never shown publicly.
    report_token = models.CharField(max_length=64, unique=True, default=new_report_token, editable=False)
    registered_at = models.DateTimeField(auto_now_add=True)
    checked_in_at = models.DateTimeField(null=True, blank=True)
    dropped_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["tournament_id", "name"]
        constraints = [
            models.UniqueConstraint(Lower("name"), "tournament", name="entrant_name_unique_per_tournament"),
            models.UniqueConstraint(
                fields=["tournament", "seed"], condition=Q(seed__isnull=False), name="entrant_seed_unique"
            ),
            models.CheckConstraint(
                condition=Q(status__in=["registered", "checked_in", "dropped"]), name="entrant_status_valid"
            ),
            models.CheckConstraint(condition=~Q(name=""), name="entrant_name_not_empty"),
        ]

    def __str__(self) -> str:
        return self.name


class Registration(models.Model):
    """A public sign-up (tournaments/registration/). `accepted` ones have their entrant; `waitlisted`
    ones a place in the queue; `pending` ones wait for the organiser's approval."""

    class State(models.TextChoices):
        PENDING = "pending", _("Awaiting approval")
        WAITLISTED = "waitlisted", _("On the waiting list")
        ACCEPTED = "accepted", _("Accepted")
        WITHDRAWN = "withdrawn", _("Withdrawn")
        REJECTED = "rejected", _("Not accepted")

    ACTIVE_STATES = ("pending", "waitlisted", "accepted")

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="registrations")
    name = models.CharField(_("team name"), max_length=ENTRANT_NAME_MAX_LENGTH)
    club = models.CharField(_("club"), max_length=100, blank=True)
    # [{"name": ..., "email": ...}] in the order given.
    players = models.JSONField(default=list)
    email = models.EmailField(_("e-mail"))
    language = models.CharField(max_length=8, blank=True)
    state = models.CharField(max_length=20, choices=State.choices)
    waitlist_position = models.PositiveIntegerField(null=True, blank=True)
    entrant = models.OneToOneField(
        Entrant, null=True, blank=True, on_delete=models.SET_NULL, related_name="registration"
    )
    created_at = models.DateTimeField(auto_now_add=True)
    decided_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["tournament_id", "created_at", "id"]
        constraints = [
            models.UniqueConstraint(
                Lower("name"), "tournament", condition=Q(state__in=["pending", "waitlisted", "accepted"]),
                name="registration_name_unique_active",
            ),
            models.UniqueConstraint(
                fields=["tournament", "waitlist_position"], condition=Q(waitlist_position__isnull=False),
                name="registration_waitlist_position_unique",
            ),
            models.CheckConstraint(
                condition=Q(state="waitlisted", waitlist_position__isnull=False)
                | (~Q(state="waitlisted") & Q(waitlist_position__isnull=True)),
                name="registration_waitlist_position_iff_waitlisted",
            ),
            models.CheckConstraint(
                condition=Q(state__in=["pending", "waitlisted", "accepted", "withdrawn", "rejected"]),
                name="registration_state_valid",
            ),
            models.CheckConstraint(condition=~Q(name=""), name="registration_name_not_empty"),
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.state})"


class EntrantMember(models.Model):
    """A player of an entrant. A player belongs to at most one entrant per tournament."""

    entrant = models.ForeignKey(Entrant, on_delete=models.CASCADE, related_name="members")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="memberships")
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="+")
    position = models.PositiveSmallIntegerField(default=0)

    class Meta:
        ordering = ["entrant_id", "position"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "player"], name="member_one_entrant_per_tournament"),
            models.UniqueConstraint(fields=["entrant", "position"], name="member_position_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.player} in {self.entrant}"


class Board(models.Model):
    """A physical table at the tournament's venue."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="boards")
    name = models.CharField(_("name"), max_length=40)
    accessible = models.BooleanField(_("accessible"), default=False)
    position = models.PositiveSmallIntegerField(default=0)

    class Meta:
        ordering = ["tournament_id", "position", "id"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "name"], name="board_name_unique"),
            models.CheckConstraint(condition=~Q(name=""), name="board_name_not_empty"),
        ]

    def __str__(self) -> str:
        return self.name


class ForbiddenPair(models.Model):
    """Two entrants the organiser wants kept apart when possible (e.g. family members)."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="forbidden_pairs")
    first = models.ForeignKey(Entrant, on_delete=models.CASCADE, related_name="+")
    second = models.ForeignKey(Entrant, on_delete=models.CASCADE, related_name="+")

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["tournament", "first", "second"], name="forbidden_pair_unique"),
            models.CheckConstraint(condition=Q(first__lt=models.F("second")), name="forbidden_pair_ordered"),
        ]

    def __str__(self) -> str:
        return f"{self.first} / {self.second}"


class Round(models.Model):
    class Status(models.TextChoices):
        DRAFT = "draft", _("Draft")
        PUBLISHED = "published", _("Published")
        FINISHED = "finished", _("Finished")

    class Stage(models.TextChoices):
        MAIN = "main", _("Main")
        GROUPS = "groups", _("Groups")
        KNOCKOUT = "knockout", _("Knockout")

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="rounds")
    number = models.PositiveSmallIntegerField(_("number"))
    stage = models.CharField(_("stage"), max_length=20, choices=Stage.choices, default=Stage.MAIN)
    status = models.CharField(_("status"), max_length=20, choices=Status.choices, default=Status.DRAFT)
    starts_at = models.DateTimeField(_("starts at"), null=True, blank=True)
    # Pairing warnings of the current draft (list of {code, message, entrant_ids, table}).
    warnings = models.JSONField(default=list, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    published_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["tournament_id", "number"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "number"], name="round_number_unique"),
            models.CheckConstraint(condition=Q(number__gte=1), name="round_number_positive"),
            models.CheckConstraint(
                condition=Q(status__in=["draft", "published", "finished"]), name="round_status_valid"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.tournament} – round {self.number}"


class Table(models.Model):
    """One game of a round. A bye is a table with a single seat and `is_bye`."""

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="tables")
    number = models.PositiveSmallIntegerField(_("table"))
    starts_at = models.DateTimeField(_("starts at"), null=True, blank=True)
    physical_table = models.CharField(_("physical table"), max_length=40, blank=True)
    board = models.ForeignKey(Board, null=True, blank=True, on_delete=models.SET_NULL, related_name="tables")
    is_bye = models.BooleanField(default=False)
    # Double elimination: the bracket table this table plays ("W2-1", "L3-1", "GF"); empty otherwise.
    bracket_key = models.CharField(max_length=12, blank=True, default="")

    class Meta:
        ordering = ["round_id", "number"]
        constraints = [
            models.UniqueConstraint(fields=["round", "number"], name="table_number_unique"),
            models.CheckConstraint(condition=Q(number__gte=1), name="table_number_positive"),
        ]

    def __str__(self) -> str:
        return f"{self.round} – table {self.number}"


class Seat(models.Model):
    """An entrant at a table, in seat order (position 0 = first colour)."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="seats")
    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="+")
    entrant = models.ForeignKey(Entrant, on_delete=models.PROTECT, related_name="seats")
    position = models.PositiveSmallIntegerField()
    is_starting = models.BooleanField(default=False)

    class Meta:
        ordering = ["table_id", "position"]
        constraints = [
            models.UniqueConstraint(fields=["table", "position"], name="seat_position_unique"),
            models.UniqueConstraint(fields=["round", "entrant"], name="seat_entrant_once_per_round"),
            models.UniqueConstraint(
                fields=["table"], condition=Q(is_starting=True), name="seat_one_starting_per_table"
            ),
        ]

    def __str__(self) -> str:
        return f"{self.entrant} at {self.table} seat {self.position}"


class Result(models.Model):
    """A result proposed for a table. Its state says whether it is the table's final result.

    reported -> confirmed (an opponent agrees) | rejected (an opponent or the organiser disagrees);
    the organiser may create an `overridden` result, which supersedes any final one. The database
    allows at most one pending and at most one final (confirmed/overridden) result per table.
    """

    class Kind(models.TextChoices):
        NORMAL = "normal", _("Normal")
        TIME_LIMIT = "time_limit", _("Stopped at the time limit")
        FORFEIT = "forfeit", _("Forfeit")
        BYE = "bye", _("Bye")

    class State(models.TextChoices):
        REPORTED = "reported", _("Reported")
        CONFIRMED = "confirmed", _("Confirmed")
        OVERRIDDEN = "overridden", _("Set by the organiser")
        REJECTED = "rejected", _("Rejected")
        SUPERSEDED = "superseded", _("Superseded")

    FINAL_STATES = ("confirmed", "overridden")

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="results")
    kind = models.CharField(max_length=20, choices=Kind.choices, default=Kind.NORMAL)
    state = models.CharField(max_length=20, choices=State.choices, default=State.REPORTED)
    reported_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    reported_for = models.ForeignKey(
        Entrant, null=True, blank=True, on_delete=models.SET_NULL, related_name="+",
        help_text=_("The entrant whose player (or private link) reported it."),
    )
    decided_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    decided_for = models.ForeignKey(Entrant, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    note = models.CharField(max_length=500, blank=True)
    # Why the opponents (or an organiser) rejected the report: shown to the reporter and the organisers
    # (result page, API `rejection_reason`, the `result_rejected` e-mail).
    rejection_reason = models.CharField(max_length=500, blank=True)
    # Set when the table was ended by dropping this entrant during the round (undone by entrant_drop_undo).
    closed_by_drop = models.ForeignKey(Entrant, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)
    decided_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["table_id", "created_at", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["table"], condition=Q(state__in=["confirmed", "overridden"]), name="result_one_final_per_table"
            ),
            models.UniqueConstraint(
                fields=["table"], condition=Q(state="reported"), name="result_one_pending_per_table"
            ),
            # and never a pending result beside a final one (ADR 0001; issue 29): one open result per table
            models.UniqueConstraint(
                fields=["table"], condition=Q(state__in=["reported", "confirmed", "overridden"]),
                name="result_one_open_per_table",
            ),
            models.CheckConstraint(
                condition=Q(kind__in=["normal", "time_limit", "forfeit", "bye"]), name="result_kind_valid"
            ),
            models.CheckConstraint(
                condition=Q(state__in=["reported", "confirmed", "overridden", "rejected", "superseded"]),
                name="result_state_valid",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.table}: {self.kind} ({self.state})"

    @property
    def is_final(self) -> bool:
        return self.state in self.FINAL_STATES


class ResultScore(models.Model):
    """One entrant's line of a result: score (marbles home) and/or placing, winner flag, forfeit flag."""

    result = models.ForeignKey(Result, on_delete=models.CASCADE, related_name="scores")
    entrant = models.ForeignKey(Entrant, on_delete=models.PROTECT, related_name="result_scores")
    score = models.SmallIntegerField(null=True, blank=True)
    placing = models.PositiveSmallIntegerField(null=True, blank=True)
    is_winner = models.BooleanField(default=False)
    forfeited = models.BooleanField(default=False)

    class Meta:
        ordering = ["result_id", "placing", "id"]
        constraints = [
            models.UniqueConstraint(fields=["result", "entrant"], name="result_score_entrant_unique"),
            models.CheckConstraint(condition=Q(placing__isnull=True) | Q(placing__gte=1), name="placing_positive"),
        ]

    def __str__(self) -> str:
        return f"{self.entrant}: {self.score} / {self.placing}"


class AuditLog(models.Model):
    """Append-only record of every change made through the services."""

    # Rows are never updated or deleted (a PostgreSQL trigger enforces it), so the references
    # below protect the tournament and keep a deleted user's id without a database constraint.
    tournament = models.ForeignKey(Tournament, null=True, on_delete=models.PROTECT, related_name="audit_log")
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.DO_NOTHING, db_constraint=False, related_name="+"
    )
    actor_entrant = models.ForeignKey(
        Entrant, null=True, on_delete=models.DO_NOTHING, db_constraint=False, related_name="+"
    )
    action = models.CharField(max_length=60)
    object_type = models.CharField(max_length=40)
    object_id = models.BigIntegerField(null=True)
    data = models.JSONField(default=dict)
    # On PostgreSQL the database sets the time (now(), whatever the writer sent) and chains each row to
    # the previous one of its tournament (migration 0007, trigger tournaments_auditlog_chain):
    # row_hash = sha256(canonical fields + prev_hash), chain_seq 1, 2, 3 ... per tournament.
    # `manage.py audit_verify` recomputes every chain (tournaments/audit_chain.py).
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)
    chain_seq = models.BigIntegerField(null=True, editable=False)
    prev_hash = models.CharField(max_length=64, blank=True, default="", editable=False)
    row_hash = models.CharField(max_length=64, blank=True, default="", editable=False)

    class Meta:
        ordering = ["created_at", "id"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "chain_seq"], name="auditlog_chain_seq_unique"),
        ]

    def __str__(self) -> str:
        return f"{self.created_at:%Y-%m-%d %H:%M} {self.action} {self.object_type}#{self.object_id}"

    def save(self, *args: object, **kwargs: object) -> None:
        if self.pk is not None:
            raise ValueError("Audit log rows are append-only.")
        super().save(*args, **kwargs)  # type: ignore[arg-type]

    def delete(self, *args: object, **kwargs: object) -> tuple[int, dict[str, int]]:
        raise ValueError("Audit log rows are append-only.")


class StandingRow(models.Model):
    """A computed standings row. Replaced wholesale by `standings_recompute` for a results version."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="standing_rows")
    entrant = models.ForeignKey(Entrant, on_delete=models.CASCADE, related_name="standing_rows")
    rank = models.PositiveIntegerField()
    shared_rank = models.BooleanField(default=False)
    # How the place was decided: "knockout", "placement" (tables played for lower places) or "standings".
    decided_by = models.CharField(max_length=12, default="standings")
    # The entrant's group and place in it (null without groups).
    group = models.PositiveSmallIntegerField(null=True, blank=True)
    group_rank = models.PositiveIntegerField(null=True, blank=True)
    games_played = models.PositiveIntegerField(default=0)
    # Every tiebreak value by code (match_points, marble_difference, buchholz, ...).
    values = models.JSONField(default=dict)
    results_version = models.PositiveIntegerField()
    computed_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["tournament_id", "rank", "entrant_id"]
        constraints = [
            models.UniqueConstraint(fields=["tournament", "entrant"], name="standing_row_entrant_unique"),
            models.CheckConstraint(
                condition=Q(decided_by__in=["knockout", "placement", "standings"]),
                name="standing_row_decided_by_valid",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.rank}. {self.entrant}"


class EmailNotification(models.Model):
    """One e-mail sent for one event to one address: the idempotency key of the notification tasks
    (`tournaments.notifications`). A row exists only once its message was handed to the backend."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="+")
    event = models.CharField(max_length=40)
    object_id = models.BigIntegerField()
    address = models.EmailField()
    sent_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["sent_at", "id"]
        constraints = [
            models.UniqueConstraint(fields=["event", "object_id", "address"], name="email_notification_once"),
        ]

    def __str__(self) -> str:
        return f"{self.event}#{self.object_id} -> {self.address}"


class EmailOptOut(models.Model):
    """An address that unsubscribed from every notification (the link in each e-mail)."""

    address = models.EmailField(unique=True)
    created_at = models.DateTimeField(auto_now_add=True)

    def __str__(self) -> str:
        return self.address


class TaskOutbox(models.Model):
    """A Celery task whose publication failed (the broker down or unreachable), kept in the database
    until it is sent (`tournaments.task_outbox`): the work a request asked for reaches the workers
    within seconds of the broker's return, not at the next reconciliation. One row per task and
    arguments (`key`), so an outage of any length stores each piece of work once."""

    task = models.CharField(max_length=200)
    args = models.JSONField(default=list)
    key = models.CharField(max_length=64, unique=True)
    created_at = models.DateTimeField(db_default=Now())

    class Meta:
        ordering = ["id"]

    def __str__(self) -> str:
        return f"{self.task}{tuple(self.args)}"


class IdempotentRequest(models.Model):
    """The answer given to a write sent with an `Idempotency-Key` (tournaments/idempotency.py): the same
    key from the same client answers the same again, and the write happens once (unique constraint)."""

    key = models.CharField(max_length=100)
    scope = models.CharField(max_length=64)  # hash of the client (user or private link) and the URL
    status_code = models.PositiveSmallIntegerField()
    location = models.CharField(max_length=500, blank=True)
    content_type = models.CharField(max_length=100, blank=True)
    body = models.TextField(blank=True)
    created_at = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["key", "scope"], name="idempotent_request_once")]

    def __str__(self) -> str:
        return f"{self.key} -> {self.status_code}"
