"""`manage.py tournament_export <slug> [--output FILE]`: the tournament archive as JSON (tournaments.archive)."""

from __future__ import annotations

import json
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from tournaments.archive import archive_export
from tournaments.models import Tournament


class Command(BaseCommand):
    help = "Write a tournament's archive (versioned JSON) to a file or to standard output."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("slug")
        parser.add_argument("--output", "-o", help="File to write (default: standard output).")

    def handle(self, *args: Any, **options: Any) -> None:
        tournament = Tournament.objects.filter(slug=options["slug"]).first()
        if tournament is None:
            raise CommandError(f"No tournament with the slug {options['slug']!r}.")
        text = json.dumps(archive_export(tournament), ensure_ascii=False, indent=1, sort_keys=True) + "\n"
        if options["output"]:
            with open(options["output"], "w", encoding="utf-8") as handle:
                handle.write(text)
            self.stderr.write(f"Archive of {tournament.slug} written to {options['output']}.")
        else:
            self.stdout.write(text, ending="")
