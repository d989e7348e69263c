"""Typed OpenAPI components of the API's answers (issue 30: a client can be generated from /api/schema/).

The answers themselves are built by `apis.table_data` / `round_data` (plain dicts, one query plan); these
serializers only describe them, field by field, for drf-spectacular (`extend_schema(responses=...)`).
schemathesis checks every answer against them (tests/hardening/test_api_schema_conformance.py).
"""

from __future__ import annotations

from rest_framework import serializers

from tournaments.models import Result, Round
from tournaments.standings import TIEBREAKS


class ResultLineOut(serializers.Serializer):
    entrant = serializers.IntegerField()
    score = serializers.IntegerField(allow_null=True, help_text="Marbles home (score games); null for placing games.")
    placing = serializers.IntegerField(allow_null=True, min_value=1)
    is_winner = serializers.BooleanField()
    forfeited = serializers.BooleanField()


class ResultOut(serializers.Serializer):
    id = serializers.IntegerField()
    kind = serializers.ChoiceField(choices=Result.Kind.choices)
    state = serializers.ChoiceField(choices=Result.State.choices)
    reported_for = serializers.IntegerField(allow_null=True, help_text="The entrant that reported it (null: an "
                                                                       "organiser or a bye).")
    rejection_reason = serializers.CharField(allow_blank=True, help_text="Why it was rejected (rejected only).")
    lines = ResultLineOut(many=True, help_text="One line per seat, in seat order.")


class SeatOut(serializers.Serializer):
    position = serializers.IntegerField(min_value=0, help_text="0 for the first seat.")
    entrant = serializers.IntegerField()
    name = serializers.CharField()
    is_starting = serializers.BooleanField()


class TableOut(serializers.Serializer):
    id = serializers.IntegerField()
    number = serializers.IntegerField(min_value=1)
    is_bye = serializers.BooleanField()
    starts_at = serializers.DateTimeField(allow_null=True)
    physical_table = serializers.CharField(allow_blank=True, help_text="The board's name, blank when none.")
    seats = SeatOut(many=True)
    result = ResultOut(allow_null=True, help_text="The final result (confirmed, set by the organiser, or a bye).")
    pending = ResultOut(allow_null=True, help_text="A reported result waiting for confirmation.")
    release = serializers.ChoiceField(
        choices=["done", "playing", "waiting"], required=False,
        help_text="Rolling rounds, published round only: whether the table may start, waits for earlier "
                  "tables, or is done.")

    class Meta:
        ref_name = "Table"


class PairingWarningOut(serializers.Serializer):
    code = serializers.CharField(help_text="rematch, entrant_missing, over_capacity, forbidden_pair, left_out …")
    message = serializers.CharField()
    entrant_ids = serializers.ListField(child=serializers.IntegerField(), required=False)
    table = serializers.IntegerField(allow_null=True, required=False)


class RoundOut(serializers.Serializer):
    id = serializers.IntegerField()
    number = serializers.IntegerField(min_value=1)
    stage = serializers.CharField()
    status = serializers.ChoiceField(choices=Round.Status.choices)
    warnings = PairingWarningOut(many=True)
    tables = TableOut(many=True)

    class Meta:
        ref_name = "Round"


class AuditRowOut(serializers.Serializer):
    at = serializers.DateTimeField()
    action = serializers.CharField(help_text="e.g. result_reported, round_published, webhook_created.")
    object_type = serializers.CharField(allow_blank=True)
    object_id = serializers.IntegerField(allow_null=True)
    actor = serializers.IntegerField(allow_null=True, help_text="The user's id; null for a report link or a task.")
    entrant = serializers.IntegerField(allow_null=True, help_text="The entrant acting through its report link.")
    data = serializers.DictField(help_text="What changed (per action).")

    class Meta:
        ref_name = "AuditRow"


# Fields of TournamentOut that are JSON columns, typed here.
VARIANT_FIELD = serializers.DictField(help_text="The game's variant options (record contract keys, "
                                                "docs/games.md); {} for the standard game.")
PLACING_POINTS_FIELD = serializers.ListField(child=serializers.FloatField(),
                                             help_text="Match points by placing (1st, 2nd …).")
TIEBREAK_ORDER_FIELD = serializers.ListField(child=serializers.ChoiceField(choices=TIEBREAKS),
                                             help_text="Tiebreaks in order; the first is always match_points.")
