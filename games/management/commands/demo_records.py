"""Give the demo tournament game records to look at: round 4 is paired and published, and most of its
tables submit the move-by-move record of their game (verified, settling the table's result; some are
confirmed by the opponents, some wait for them); one table submits a record with an illegal move.

Idempotent: when the demo tournament already has records, nothing is done. Run after `manage.py demo`.
"""

from __future__ import annotations

import json
from typing import Any

from django.core.management.base import BaseCommand, CommandError

from games.demo import record_for_table, record_with_illegal_move
from games.models import GameRecord
from games.services import record_submit
from tournaments import services
from tournaments.models import Result, Round, Tournament

DEMO_SLUG = "tac-club-cup"
RECORDED_TABLES = 6
CONFIRMED_TABLES = 3


class Command(BaseCommand):
    help = "Add verified game records (and one illegal one) to the demo tournament; idempotent."

    def handle(self, *args: Any, **options: Any) -> None:
        tournament = Tournament.objects.filter(slug=DEMO_SLUG).first()
        if tournament is None:
            raise CommandError(f"Run `manage.py demo` first: there is no tournament '{DEMO_SLUG}'.")
        if GameRecord.objects.filter(tournament=tournament).exists():
            self.stdout.write("The demo tournament has game records already; nothing to do.")
            return
        organiser = tournament.organisers.order_by("pk").first()
        round_ = tournament.rounds.filter(status=Round.Status.PUBLISHED).order_by("-number").first()
        if round_ is None:
            round_ = services.round_publish(
                actor=organiser, round=services.round_generate(actor=organiser, tournament=tournament)
            )
        tables = list(round_.tables.filter(is_bye=False).order_by("number"))[:RECORDED_TABLES]
        variant = dict(tournament.variant or {})
        submitted = []
        for index, table in enumerate(tables):
            record = record_for_table(table, game=tournament.game, variant=variant, seed=2026 + index)
            if index == len(tables) - 1:
                record = record_with_illegal_move(record) or record
            submitted.append(
                record_submit(table=table, actor=organiser, data=json.dumps(record), source="upload")
            )
        confirmed = 0
        for record in submitted[:CONFIRMED_TABLES]:
            pending = Result.objects.filter(table=record.table, state=Result.State.REPORTED).first()
            if pending is None:
                continue
            opponent = record.table.seats.order_by("position").first()
            assert opponent is not None
            services.result_confirm(result=pending, token=opponent.entrant.report_token)
            confirmed += 1
        states = list(GameRecord.objects.filter(pk__in=[r.pk for r in submitted]).values_list("status", flat=True))
        self.stdout.write(
            f"Round {round_.number}: {len(submitted)} game records submitted ({states.count('valid')} valid, "
            f"{states.count('invalid')} invalid, {states.count('pending')} waiting for a worker); "
            f"{confirmed} results confirmed. See /t/{DEMO_SLUG}/records/."
        )
