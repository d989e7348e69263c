"""Re-verify stored game records after an engine upgrade and list the verdicts that changed.

    python manage.py reverify [--tournament SLUG] [--sync]

Enqueues `games.tasks.record_verify` for every record never verified or verified by another engine
version than the current one (rules.core.registry); with --sync runs them here. Then prints a table
of the records whose verdict changed between engine versions (all known so far: without --sync the
background tasks add theirs as they finish; run the command again to see them).
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from games import selectors, services
from games.tasks import record_verify
from tournaments.models import Tournament


class Command(BaseCommand):
    help = "Re-verify game records whose engine version is not the current one; list changed verdicts."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--tournament", help="only this tournament (slug)")
        parser.add_argument("--sync", action="store_true", help="verify here instead of enqueueing tasks")

    def handle(self, *args: Any, **options: Any) -> None:
        tournament = None
        if options.get("tournament"):
            tournament = Tournament.objects.filter(slug=options["tournament"]).first()
            if tournament is None:
                raise CommandError(f"No tournament with slug {options['tournament']!r}.")
        ids = services.records_needing_verification(tournament=tournament)
        for record_id in ids:
            if options["sync"]:
                services.record_verify(record_id=record_id)
            else:
                record_verify.delay(record_id)
        verb = "Verified" if options["sync"] else "Enqueued"
        self.stdout.write(f"{verb} {len(ids)} record(s).")
        changes = selectors.verdict_changes(tournament=tournament)
        if not changes:
            self.stdout.write("No verdict changed.")
            return
        header = ("record", "tournament", "old engine", "old verdict", "new engine", "new verdict")
        rows = [(str(c["record"]), c["tournament"], c["old_version"], c["old"], c["new_version"], c["new"])
                for c in changes]
        widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header))]
        for row in [header, tuple("-" * w for w in widths), *rows]:
            self.stdout.write("  ".join(cell.ljust(w) for cell, w in zip(row, widths, strict=True)).rstrip())
        self.stdout.write(f"{len(changes)} verdict(s) changed.")
