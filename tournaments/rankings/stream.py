"""Reading a pool's expected rating stream from the tournament rows (reads only, no writes).

The order key of a game (a string whose lexicographic order is the stream order):

    <date>/<tournament id>/<round number>/<table start time>/<table number>

date = Tournament.starts_on (or the day the tournament was created, UTC, when it has none);
table start time = Table.starts_at in UTC, or "9999-12-31T23:59:59" when unset (so within a round,
scheduled tables come first in start order, then the others by number). Fixed widths make the
string order the tuple order. A round's prefix `<date>/<tournament>/<round>/` sorts before every
table of the round.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
from collections import defaultdict
from dataclasses import dataclass

from django.db.models import Q

from tournaments.models import EntrantMember, Result, ResultScore, Round, Table, Tournament
from tournaments.rankings.compute import RatedGameInput, games_of_pool, team_key
from tournaments.rankings.models import RatingPolicy

NO_START = "9999-12-31T23:59:59"


def tournament_day(tournament: Tournament) -> dt.date:
    if tournament.starts_on is not None:
        return tournament.starts_on
    return tournament.created_at.astimezone(dt.UTC).date()


def round_prefix(tournament: Tournament, round_number: int) -> str:
    return f"{tournament_day(tournament).isoformat()}/{tournament.pk:010d}/{round_number:05d}/"


def game_key(tournament: Tournament, round_number: int, table: Table) -> str:
    start = table.starts_at.astimezone(dt.UTC).strftime("%Y-%m-%dT%H:%M:%S") if table.starts_at else NO_START
    return f"{round_prefix(tournament, round_number)}{start}/{table.number:05d}"


@dataclass(frozen=True)
class StreamGame:
    """A final result as it enters the stream: teams (player ids) with ranks, and where it came from."""

    key: str
    digest: str
    result_id: int
    table_id: int
    tournament_id: int
    played_on: dt.date
    entrant_ids: tuple[int, ...]
    teams: tuple[tuple[int, ...], ...]
    ranks: tuple[int, ...]

    @property
    def rating_input(self) -> RatedGameInput:
        return RatedGameInput(key=self.key, teams=self.teams, ranks=self.ranks)

    @property
    def team_keys(self) -> tuple[str, ...]:
        return tuple(team_key(team) for team in self.teams)


def _digest(result_id: int, entrant_ids: tuple[int, ...], teams: tuple[tuple[int, ...], ...],
            ranks: tuple[int, ...], played_on: dt.date) -> str:
    payload = json.dumps([result_id, entrant_ids, teams, ranks, played_on.isoformat()], separators=(",", ":"))
    return hashlib.sha256(payload.encode()).hexdigest()


def stream_games(pool: str, from_key: str = "") -> list[StreamGame]:
    """The games of `pool` that are rated, at or after `from_key`, in stream order.

    Rated: a final (confirmed or overridden) result of a public tournament of the pool's games, of
    kind normal, or time_limit unless the tournament's RatingPolicy says `ignore`; not a bye; every
    entrant at the table has at least one player and a placing. Forfeits and byes are never rated.
    Four queries whatever the size.
    """
    from_day = from_key[:10] if from_key else ""
    tournaments = Tournament.objects.filter(game__in=games_of_pool(pool), is_public=True)
    if from_day:
        tournaments = tournaments.filter(Q(starts_on__gte=from_day) | Q(starts_on__isnull=True))
    results = list(
        Result.objects.filter(
            state__in=Result.FINAL_STATES, kind__in=[Result.Kind.NORMAL, Result.Kind.TIME_LIMIT],
            table__is_bye=False, table__round__tournament__in=tournaments,
        )
        .exclude(table__round__status=Round.Status.DRAFT)
        .select_related("table__round__tournament")
        .only("pk", "kind", "table__id", "table__number", "table__starts_at", "table__round__number",
              "table__round__tournament__id", "table__round__tournament__starts_on",
              "table__round__tournament__created_at")
    )
    ignore_time_limit = set(
        RatingPolicy.objects.filter(
            tournament_id__in={r.table.round.tournament.pk for r in results},
            time_limit_games=RatingPolicy.TimeLimitGames.IGNORE,
        ).values_list("tournament_id", flat=True)
    )
    keyed = []
    for result in results:
        tournament = result.table.round.tournament
        if result.kind == Result.Kind.TIME_LIMIT and tournament.pk in ignore_time_limit:
            continue
        key = game_key(tournament, result.table.round.number, result.table)
        if key >= from_key:
            keyed.append((key, result))
    lines: dict[int, list[ResultScore]] = defaultdict(list)
    for line in ResultScore.objects.filter(result_id__in=[r.pk for _k, r in keyed]).order_by("result_id", "id"):
        lines[line.result_id].append(line)
    entrant_ids = {line.entrant_id for group in lines.values() for line in group}
    players: dict[int, list[int]] = defaultdict(list)
    for entrant_id, player_id in (
        EntrantMember.objects.filter(entrant_id__in=entrant_ids).order_by("entrant_id", "position", "id")
        .values_list("entrant_id", "player_id")
    ):
        players[entrant_id].append(player_id)
    games = []
    for key, result in sorted(keyed, key=lambda item: item[0]):
        group = sorted(lines[result.pk], key=lambda line: line.entrant_id)
        if len(group) < 2 or any(line.forfeited or line.placing is None for line in group):
            continue
        teams = tuple(tuple(sorted(players[line.entrant_id])) for line in group)
        if any(not team for team in teams):
            continue
        ranks = tuple(int(line.placing) for line in group)  # type: ignore[arg-type]
        entrants = tuple(line.entrant_id for line in group)
        tournament = result.table.round.tournament
        played_on = tournament_day(tournament)
        games.append(StreamGame(
            key=key, digest=_digest(result.pk, entrants, teams, ranks, played_on), result_id=result.pk,
            table_id=result.table.pk, tournament_id=tournament.pk, played_on=played_on,
            entrant_ids=entrants, teams=teams, ranks=ranks,
        ))
    return games
