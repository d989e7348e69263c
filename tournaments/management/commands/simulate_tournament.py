"""Run a whole tournament with random results through the real services and print figures as JSON.

    python manage.py simulate_tournament --game tac --entrants 64 --rounds 7 --format swiss --json
    python manage.py simulate_tournament --game tactik --variant '{"seats": 6}' --entrants 30 --rounds 5
    python manage.py simulate_tournament --game taki --entrants 1000 --rounds 9 --public --bulk

The database is the configured one (DATABASE_URL, sqlite:///path included); the simulated tournament
is kept there as a tournament of the user "simulator", private unless `--public` (then it is made public
once every round is played, so anyone can load its pages, e.g. to reproduce the figures of
docs/operations.md; being public, the rankings reconciler will rate its games: use a throw-away
database). `--bulk` enters each round's results as the organiser in one transaction per round instead
of a report and a confirmation per table by the players. The last stdout line is
one JSON object with entrants, rounds, tables_per_round, rematches, byes, pairing_seconds and
standings_seconds (lists with one value per round) and more; for knockout and stages formats also
final_ranking (entrant ids in place order, each with its rank, shared_rank and decided_by); round robin
and group stages add `min_meetings` and `max_meetings` (group number -> fewest / most meetings of any
pair of the group).
"""

from __future__ import annotations

import json
import time
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser
from django.db import transaction

from tournaments import services
from tournaments.errors import TournamentError
from tournaments.models import Tournament
from tournaments.profiles import GAMES, ProfileError, profile_for
from tournaments.simulation import group_meetings, simulation_organiser, tournament_simulate


class Command(BaseCommand):
    help = "Simulate a tournament with random results through the services; print figures as JSON."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--game", choices=sorted(GAMES), default="tac")
        parser.add_argument("--variant", default="{}", help="the game variant as a JSON object")
        parser.add_argument("--entrants", type=int, default=64)
        parser.add_argument("--rounds", type=int, default=None,
                            help="rounds to play (Swiss: also the planned rounds; default: all of the format)")
        parser.add_argument("--format", choices=[c.value for c in Tournament.Format], default="swiss")
        parser.add_argument("--groups", type=int, default=1, help="round robin / stages: number of groups")
        parser.add_argument("--knockout-size", type=int, default=None, help="stages: entrants in the knockout")
        parser.add_argument("--schedule-rounds", type=int, default=None,
                            help="round robin at tables of 3 or N: rounds of the schedule (default: the fewest "
                                 "in which every pair can meet)")
        parser.add_argument("--first-round", choices=["seed", "rating", "random"], default="seed")
        parser.add_argument("--seed", type=int, default=1, help="random seed for the results")
        parser.add_argument("--json", action="store_true", help="print only the JSON line")
        parser.add_argument("--double-elimination", action="store_true",
                            help="knockout / stages: double elimination (tables of 2)")
        parser.add_argument("--placement-matches", action="store_true",
                            help="knockout / stages: play for every place (5-8, 9-12, ...)")
        parser.add_argument("--public", action="store_true",
                            help="make the tournament public once it is played (its pages can be loaded by anyone)")
        parser.add_argument("--bulk", action="store_true",
                            help="enter each round's results as the organiser in one transaction (fast), "
                                 "not reported and confirmed by the players table by table")

    def handle(self, *args: Any, **options: Any) -> None:
        try:
            variant = json.loads(options["variant"])
        except json.JSONDecodeError as exc:
            raise CommandError(f"--variant is not valid JSON: {exc}") from exc
        if not isinstance(variant, dict):
            raise CommandError("--variant must be a JSON object.")
        try:
            profile = profile_for(options["game"], variant)
        except ProfileError as exc:
            raise CommandError(str(exc)) from exc
        count = options["entrants"]
        if not 2 <= count <= 5000:
            raise CommandError("--entrants must be from 2 to 5000.")
        fmt = options["format"]
        rounds = options["rounds"]
        if rounds is not None and not 1 <= rounds <= 100:
            raise CommandError("--rounds must be from 1 to 100.")
        started = time.perf_counter()
        actor = simulation_organiser()
        try:
            tournament = services.tournament_create(
                actor=actor, name=f"Simulation {profile.label} {fmt} {count}", game=profile.game,
                variant=dict(profile.variant), format=fmt,
                rounds_planned=rounds or (5 if fmt == "swiss" else 3),
                group_count=options["groups"], knockout_size=options["knockout_size"]
                if fmt == "stages" else None, first_round=options["first_round"], random_seed=options["seed"],
                is_public=False, placement_matches=options["placement_matches"],
                schedule_rounds=options["schedule_rounds"],
                knockout_style="double" if options["double_elimination"] else "single",
            )
            self._register(tournament, actor, count, profile.players_per_entrant)
            report = tournament_simulate(
                tournament=tournament, actor=actor,
                rounds=rounds if fmt == "round_robin" else None,
                seed=options["seed"], bulk=options["bulk"],
            )
            if options["public"]:
                tournament = services.tournament_update(actor=actor, tournament=tournament, is_public=True)
        except TournamentError as exc:
            raise CommandError(f"{exc.code}: {exc.message}") from exc
        figures = report.as_dict(game=profile.game, variant=dict(profile.variant), format=fmt,
                                 tournament=tournament.slug, public=tournament.is_public,
                                 total_seconds=round(time.perf_counter() - started, 3))
        if fmt in ("knockout", "stages"):
            # the final places (docs/formats.md): entrant ids in place order with their rank
            figures["final_ranking"] = [
                {"entrant": entrant_id, "rank": rank, "shared_rank": shared, "decided_by": decided_by}
                for entrant_id, rank, shared, decided_by in tournament.standing_rows.order_by("rank", "entrant_id")
                .values_list("entrant_id", "rank", "shared_rank", "decided_by")
            ]
        if fmt == "round_robin" or (fmt == "stages" and tournament.group_count > 1):
            # per group, over the group rounds played: the fewest and most meetings of any pair
            meetings = group_meetings(tournament)
            figures["min_meetings"] = {str(g): low for g, (low, _high) in meetings.items()}
            figures["max_meetings"] = {str(g): high for g, (_low, high) in meetings.items()}
        if not options["json"]:
            for number, (tables, byes, rematches) in enumerate(
                zip(report.tables_per_round, report.byes, report.rematches, strict=True), start=1
            ):
                self.stdout.write(f"round {number}: {tables} tables, {byes} byes, {rematches} rematched pairs")
        self.stdout.write(json.dumps(figures))

    def _register(self, tournament: Tournament, actor: Any, count: int, players: int) -> None:
        from tournaments.services.entrants import _register

        with transaction.atomic():
            for i in range(1, count + 1):
                _register(actor=actor, tournament=tournament, name=f"Entrant {i:04d}",
                          player_names=[f"Player {i:04d}-{k + 1}" for k in range(players)], player_ids=(),
                          club=None, seed=i, rating=None, group=1 + (i - 1) % tournament.group_count)

