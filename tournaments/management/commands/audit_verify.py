"""`manage.py audit_verify [--tournament SLUG]`: recompute the audit log's hash chains (issue 29).

Prints each break (tournament, row, sequence number, what is wrong) and exits with status 1 when there is
one, 0 when every chain holds. PostgreSQL only (the chain is kept by a trigger; tournaments/audit_chain.py).
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand, CommandError

from tournaments.audit_chain import chain_breaks
from tournaments.models import AuditLog, Tournament


class Command(BaseCommand):
    help = "Verify the audit log's hash chains (every tournament, or one); exit status 1 on a break."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--tournament", help="the slug of one tournament")

    def handle(self, *args: Any, **options: Any) -> None:
        if options["tournament"]:
            tournament = Tournament.objects.filter(slug=options["tournament"]).first()
            if tournament is None:
                raise CommandError(f"No tournament {options['tournament']!r}.")
            breaks = list(chain_breaks(tournament.pk, all_tournaments=False))
            rows = AuditLog.objects.filter(tournament=tournament).count()
        else:
            breaks = list(chain_breaks())
            rows = AuditLog.objects.count()
        for found in breaks:
            self.stderr.write(f"tournament {found.tournament_id} row {found.row_id} "
                              f"seq {found.chain_seq}: {found.problem}")
        if breaks:
            raise SystemExit(1)
        self.stdout.write(f"audit log intact: {rows} rows")
