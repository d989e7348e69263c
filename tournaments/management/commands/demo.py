"""Load a believable club tournament: a TAC Swiss with 16 teams, three rounds played, standings and
ratings (the TAC ranking) computed.

Idempotent: when the demo tournament exists, nothing is created again. Log in as
organiser / demo-organiser (and as player / demo-player, a player of the first team).
"""

from __future__ import annotations

import datetime
from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand
from django.db import transaction

from tournaments import services
from tournaments.models import Player, Tournament
from tournaments.rankings.services import ratings_recompute
from tournaments.simulation import tournament_simulate

DEMO_SLUG = "tac-club-cup"
DEMO_NAME = "TAC Club Cup"
TEAMS = [
    ("Murmeltiere", "Anna Keller", "Beat Huber", "TAC Club Bern"),
    ("Die Förster", "Claudia Meier", "Daniel Frei", "TAC Club Bern"),
    ("Kugelblitz", "Eva Brunner", "Felix Graf", "Spielclub Thun"),
    ("Les Billes Folles", "Françoise Roux", "Gilles Favre", "Club de jeux Fribourg"),
    ("Tac Attack", "Hanna Weber", "Ivo Schmid", "Spielclub Thun"),
    ("Heimwärts", "Julia Baumann", "Kurt Steiner", "TAC Club Bern"),
    ("Sieben Teiler", "Lea Moser", "Marco Gerber", "Ludothek Biel"),
    ("Narrenfreiheit", "Nina Bühler", "Oskar Zürcher", "Ludothek Biel"),
    ("Les Trickeurs", "Pauline Girard", "Quentin Morel", "Club de jeux Fribourg"),
    ("Engelskreis", "Rita Koch", "Samuel Roth", "Spielclub Thun"),
    ("Startfeld", "Tanja Wyss", "Urs Kaufmann", "TAC Club Bern"),
    ("Rückwärtsgang", "Vera Lüthi", "Walter Marti", "Ludothek Biel"),
    ("Krieger & Co", "Xenia Hofer", "Yves Suter", "Club de jeux Fribourg"),
    ("Murmelmeister", "Zoe Ammann", "Adrian Bieri", "Spielclub Thun"),
    ("Die Vierer", "Bettina Zbinden", "Cédric Jordi", "Ludothek Biel"),
    ("Glückskugel", "Doris Egli", "Erich Fuchs", "TAC Club Bern"),
]


class Command(BaseCommand):
    help = "Create the demo TAC Swiss (16 teams, 3 rounds played); does nothing if it already exists."

    def handle(self, *args: Any, **options: Any) -> None:
        users = get_user_model()
        organiser = users.objects.filter(username="organiser").first()
        if organiser is None:
            organiser = users.objects.create_user("organiser", password="demo-organiser",
                                                  first_name="Demo", last_name="Organiser")
        if Tournament.objects.filter(slug=DEMO_SLUG).exists():
            self.stdout.write(f"The demo tournament '{DEMO_SLUG}' exists already; nothing to do.")
            return
        with transaction.atomic():
            tournament = services.tournament_create(
                actor=organiser, name=DEMO_NAME, game="tac", variant={"master": False}, format="swiss",
                rounds_planned=5, venue="Kirchgemeindehaus, Bern", starts_on=datetime.date.today(),
            )
            if tournament.slug != DEMO_SLUG:
                Tournament.objects.filter(pk=tournament.pk).update(slug=DEMO_SLUG)
                tournament.refresh_from_db()
            for seed, (name, first, second, club) in enumerate(TEAMS, start=1):
                services.entrant_register(actor=organiser, tournament=tournament, name=name,
                                          player_names=[first, second], club=club, seed=seed, check_in=True)
            player_user = users.objects.filter(username="player").first()
            if player_user is None:
                player_user = users.objects.create_user("player", password="demo-player")
            Player.objects.filter(name=TEAMS[0][1], memberships__tournament=tournament).update(user=player_user)
        report = tournament_simulate(tournament=tournament, actor=organiser, rounds=3, seed=2026)
        # The results' tasks usually did this already; idempotent, so a ranking is there to look at.
        rated = ratings_recompute(pool="tac")
        self.stdout.write(
            f"Demo tournament '{DEMO_NAME}' created: {report.entrants} teams, {report.rounds} rounds played, "
            f"standings and ratings computed ({rated.games_replayed} games rated now, see /rankings/tac/). "
            "Log in as organiser / demo-organiser."
        )
