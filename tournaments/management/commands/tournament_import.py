"""`manage.py tournament_import FILE --organiser USERNAME [--slug SLUG]`: load a tournament archive
(tournaments.archive) as a new tournament. A malformed archive is refused whole; nothing is written."""

from __future__ import annotations

import json
from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.utils import translation

from tournaments.archive import archive_import, archive_max_bytes
from tournaments.errors import TournamentError


class Command(BaseCommand):
    help = "Import a tournament archive (JSON) as a new tournament."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("file")
        parser.add_argument("--organiser", required=True, help="Username of the new tournament's organiser.")
        parser.add_argument("--slug", help="Slug of the new tournament (default: from its name, made unique).")

    def handle(self, *args: Any, **options: Any) -> None:
        user = get_user_model().objects.filter(username=options["organiser"]).first()
        if user is None:
            raise CommandError(f"No user {options['organiser']!r}.")
        try:
            with open(options["file"], "rb") as handle:
                raw = handle.read(archive_max_bytes() + 1)
        except OSError as exc:
            raise CommandError(f"Cannot read {options['file']}: {exc.strerror}.") from exc
        if len(raw) > archive_max_bytes():
            raise CommandError(f"The archive is larger than {archive_max_bytes()} bytes.")
        try:
            data = json.loads(raw.decode("utf-8"))
        except (UnicodeDecodeError, json.JSONDecodeError, RecursionError) as exc:
            raise CommandError(f"The archive is not JSON: {exc}.") from exc
        with translation.override("en"):
            try:
                tournament = archive_import(actor=user, data=data, slug=options["slug"])
            except TournamentError as exc:
                raise CommandError(f"{exc.code}: {exc.message}") from exc
        self.stdout.write(f"Imported as {tournament.slug} (/t/{tournament.slug}/).")
