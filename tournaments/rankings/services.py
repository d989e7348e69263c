"""Every write of the rankings app (`<entity>_<action>`, keyword-only, typed, atomic).

Recomputation (`ratings_recompute`): under the pool's row lock (RatingPool; never taken while a
tournament row is locked, and no tournament row is locked after it), compare the expected stream
(`stream.stream_games`) with the stored `RatedGame`s from `from_key` on; at the first difference
delete every stored game from there (their events cascade), restart each affected player from
their last event before it, replay the rest with the pure `compute.rate_stream`, store the new
games and events, and refresh the affected `PlayerRating`s. Nothing differs: nothing is written,
so running it twice, or after a crash (one transaction), changes nothing more. A result appearing
at the end of the stream is thus applied alone; a correction replays from its game on.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.db.models import Count, Max
from django.utils import timezone
from django.utils.translation import gettext as _

from tournaments.errors import ErrorCode, TournamentError
from tournaments.models import Entrant, Round, Tournament
from tournaments.rankings.compute import (
    INITIAL,
    POOL_NAMES,
    Rating,
    pool_for,
    rate_stream,
    team_rating,
)
from tournaments.rankings.models import PlayerRating, RatedGame, RatingEvent, RatingPolicy, RatingPool
from tournaments.rankings.stream import StreamGame, round_prefix, stream_games
from tournaments.services.audit import audit_record
from tournaments.services.locking import lock_tournament
from tournaments.services.tournaments import require_organiser

logger = logging.getLogger(__name__)


def require_pool(pool: str) -> str:
    if pool not in POOL_NAMES:
        raise TournamentError(ErrorCode.NOT_FOUND, _("There is no ranking for this game."), pool=pool)
    return pool


@dataclass(frozen=True)
class RecomputeOutcome:
    pool: str
    from_key: str | None  # where the stored stream first differed (None: it did not)
    games_replayed: int
    games_deleted: int


def first_difference(pool: str, from_key: str = "") -> tuple[str | None, list[StreamGame]]:
    """The first key at or after `from_key` where the stored stream differs from the expected one
    (None when they agree), and the expected games from `from_key` on. Reads only."""
    expected = stream_games(pool, from_key)
    stored = list(
        RatedGame.objects.filter(pool=pool, key__gte=from_key).order_by("key").values_list("key", "digest")
    )
    for game, row in zip(expected, stored, strict=False):
        if (game.key, game.digest) != row:
            return min(game.key, row[0]), expected
    if len(expected) > len(stored):
        return expected[len(stored)].key, expected
    if len(stored) > len(expected):
        return stored[len(expected)][0], expected
    return None, expected


def _state_before(pool: str, player_ids: set[int], key: str) -> dict[int, Rating]:
    """Each player's rating after their last event before `key` (players without one: absent)."""
    if not player_ids:
        return {}
    last = dict(
        RatingEvent.objects.filter(pool=pool, player_id__in=player_ids, key__lt=key)
        .values("player_id").annotate(last=Max("key")).values_list("player_id", "last")
    )
    if not last:
        return {}
    state = {}
    for player_id, event_key, mu, sigma in RatingEvent.objects.filter(
        pool=pool, player_id__in=list(last), key__in=set(last.values())
    ).values_list("player_id", "key", "mu_after", "sigma_after"):
        if last.get(player_id) == event_key:
            state[player_id] = Rating(mu=mu, sigma=sigma)
    return state


def _refresh_player_ratings(pool: str, player_ids: set[int]) -> None:
    """Set each player's PlayerRating from their events (delete it when they have none left)."""
    if not player_ids:
        return
    summary = {
        row["player_id"]: row
        for row in RatingEvent.objects.filter(pool=pool, player_id__in=player_ids)
        .values("player_id").annotate(games=Count("pk"), last_key=Max("key"), last_played=Max("played_on"))
    }
    latest = {
        (player_id, key): (mu, sigma)
        for player_id, key, mu, sigma in RatingEvent.objects.filter(
            pool=pool, player_id__in=list(summary), key__in={row["last_key"] for row in summary.values()}
        ).values_list("player_id", "key", "mu_after", "sigma_after")
    }
    # Replaced wholesale (delete + insert: two statements, much cheaper than a bulk UPDATE).
    PlayerRating.objects.filter(pool=pool, player_id__in=player_ids).delete()
    rows = []
    for player_id, row in summary.items():
        mu, sigma = latest[(player_id, row["last_key"])]
        rows.append(PlayerRating(
            pool=pool, player_id=player_id, mu=mu, sigma=sigma, conservative=Rating(mu, sigma).conservative,
            games=row["games"], last_played=row["last_played"], last_key=row["last_key"],
        ))
    PlayerRating.objects.bulk_create(rows, batch_size=500)


def _lock_pool(pool: str) -> RatingPool:
    RatingPool.objects.get_or_create(pool=pool)
    return RatingPool.objects.select_for_update().get(pool=pool)


@transaction.atomic
def ratings_recompute(*, pool: str, from_key: str = "") -> RecomputeOutcome:
    """Bring the pool's stored stream in line with the final results from `from_key` on (see the
    module docstring). Idempotent."""
    require_pool(pool)
    pool_row = _lock_pool(pool)
    start_key, expected = first_difference(pool, from_key)
    if start_key is None:
        return RecomputeOutcome(pool=pool, from_key=None, games_replayed=0, games_deleted=0)
    replay = [game for game in expected if game.key >= start_key]
    stale = RatedGame.objects.filter(pool=pool, key__gte=start_key)
    affected = set(RatingEvent.objects.filter(game__in=stale).values_list("player_id", flat=True))
    affected |= {player for game in replay for team in game.teams for player in team}
    games_deleted = stale.delete()[1].get(RatedGame._meta.label, 0)
    start = _state_before(pool, affected, start_key)
    outcomes, _final = rate_stream((game.rating_input for game in replay), start)
    rows = RatedGame.objects.bulk_create(
        [
            RatedGame(pool=pool, key=game.key, digest=game.digest, result_id=game.result_id,
                      table_id=game.table_id, tournament_id=game.tournament_id, played_on=game.played_on)
            for game in replay
        ],
        batch_size=500,
    )
    events = []
    for row, game, outcome in zip(rows, replay, outcomes, strict=True):
        keys = game.team_keys
        for update in outcome.updates:
            events.append(RatingEvent(
                game_id=row.pk, pool=pool, key=game.key, played_on=game.played_on, player_id=update.player_id,
                entrant_id=game.entrant_ids[update.team_index], team_key=keys[update.team_index],
                team_index=update.team_index, rank=update.rank,
                mu_before=update.before.mu, sigma_before=update.before.sigma,
                mu_after=update.after.mu, sigma_after=update.after.sigma,
                conservative_before=update.before.conservative, conservative_after=update.after.conservative,
            ))
    RatingEvent.objects.bulk_create(events, batch_size=1000)
    _refresh_player_ratings(pool, affected)
    pool_row.recomputed_at = timezone.now()
    pool_row.save(update_fields=["recomputed_at"])
    return RecomputeOutcome(pool=pool, from_key=start_key, games_replayed=len(replay), games_deleted=games_deleted)


@transaction.atomic
def ratings_rebuild(*, pool: str) -> RecomputeOutcome:
    """Forget the pool's stored stream and recompute it from scratch (staff repair; tests)."""
    require_pool(pool)
    _lock_pool(pool)
    games_deleted = RatedGame.objects.filter(pool=pool).delete()[1].get(RatedGame._meta.label, 0)
    PlayerRating.objects.filter(pool=pool).delete()
    outcome = ratings_recompute(pool=pool, from_key="")
    return RecomputeOutcome(pool=pool, from_key="", games_replayed=outcome.games_replayed,
                            games_deleted=games_deleted)


def ratings_out_of_date() -> list[tuple[str, str]]:
    """(pool, first differing key) for every pool whose stored stream lags the results (reconciler)."""
    stale = []
    for pool in sorted(POOL_NAMES):
        key, _expected = first_difference(pool, "")
        if key is not None:
            stale.append((pool, key))
    return stale


def ratings_result_changed(*, tournament: Tournament, round_: Round) -> None:
    """Called by tournaments.services.results_final when a final result of `round_` appears or
    changes (under the tournament lock): enqueue `ratings_recompute(pool, <round prefix>)` on commit.
    Takes no lock and writes nothing. Private tournaments are never rated: nothing to do."""
    if not tournament.is_public:
        return
    try:
        pool = pool_for(tournament.game)
    except ValueError:
        return
    from_key = round_prefix(tournament, round_.number)
    transaction.on_commit(lambda: ratings_enqueue(pool=pool, from_key=from_key))


def ratings_enqueue(*, pool: str, from_key: str) -> None:
    from tournaments.rankings.tasks import ratings_recompute as ratings_recompute_task
    from tournaments.task_outbox import publish

    try:
        publish(ratings_recompute_task, pool, from_key)  # the broker down: kept in the outbox
    except Exception:  # the broker is down: ratings_reconcile will catch up
        logger.exception("Could not enqueue ratings_recompute(%s, %s)", pool, from_key)


@transaction.atomic
def rating_policy_update(*, actor: Any, tournament: Tournament, time_limit_games: str) -> RatingPolicy:
    """Set how the tournament's games stopped at the time limit are rated; recompute on commit."""
    tournament = lock_tournament(tournament.pk)
    require_organiser(actor, tournament)
    if time_limit_games not in RatingPolicy.TimeLimitGames.values:
        raise TournamentError(
            ErrorCode.INVALID_INPUT,
            _("time_limit_games must be one of %(choices)s.")
            % {"choices": ", ".join(RatingPolicy.TimeLimitGames.values)},
        )
    policy, _created = RatingPolicy.objects.get_or_create(tournament=tournament)
    if policy.time_limit_games != time_limit_games:
        policy.time_limit_games = time_limit_games
        policy.save(update_fields=["time_limit_games", "updated_at"])
        audit_record(action="rating_policy_update", tournament=tournament, obj=policy, actor=actor,
                     data={"time_limit_games": time_limit_games})
        pool = pool_for(tournament.game)
        from_key = round_prefix(tournament, 1)
        transaction.on_commit(lambda: ratings_enqueue(pool=pool, from_key=from_key))
    return policy


def rating_policy_of(tournament: Tournament) -> RatingPolicy:
    """The tournament's policy (the default, unsaved, when none was set)."""
    policy = RatingPolicy.objects.filter(tournament=tournament).first()
    return policy if policy is not None else RatingPolicy(tournament=tournament)


def seeding_from_ratings_error(tournament: Tournament) -> TournamentError | None:
    """Why the tournament can no longer be seeded from the rankings (None: it can). The one place of
    this rule: the service raises it, the manage panel hides its button."""
    if tournament.status == Tournament.Status.FINISHED:
        return TournamentError(ErrorCode.TOURNAMENT_FINISHED, _("The tournament is finished."))
    if tournament.rounds.exists():
        return TournamentError(
            ErrorCode.ROUND_IN_PROGRESS, _("Seeding from the rankings is possible only before the first round.")
        )
    return None


@transaction.atomic
def entrants_seed_from_ratings(*, actor: Any, tournament: Tournament, use_for_first_round: bool = True) -> int:
    """Set every entrant's `rating` to its team's conservative rating in the tournament's pool (players
    without a rating count as new players), and optionally `first_round = rating`, so round 1 and a
    knockout bracket are seeded from the rankings. Returns the number of entrants rated."""
    tournament = lock_tournament(tournament.pk)
    require_organiser(actor, tournament)
    error = seeding_from_ratings_error(tournament)
    if error is not None:
        raise error
    pool = pool_for(tournament.game)
    entrants = list(Entrant.objects.filter(tournament=tournament).prefetch_related("members").order_by("pk"))
    player_ids = {member.player_id for entrant in entrants for member in entrant.members.all()}
    ratings = {
        r.player_id: Rating(mu=r.mu, sigma=r.sigma)
        for r in PlayerRating.objects.filter(pool=pool, player_id__in=player_ids)
    }
    changed = []
    for entrant in entrants:
        members = [ratings.get(member.player_id, INITIAL) for member in entrant.members.all()]
        if not members:
            continue
        entrant.rating = round(team_rating(members).conservative, 3)
        changed.append(entrant)
    Entrant.objects.bulk_update(changed, ["rating"])
    if use_for_first_round and tournament.first_round != Tournament.FirstRound.RATING:
        tournament.first_round = Tournament.FirstRound.RATING
        tournament.save(update_fields=["first_round"])
    audit_record(action="entrants_seed_from_ratings", tournament=tournament, obj=tournament, actor=actor,
                 data={"pool": pool, "entrants": len(changed), "first_round": tournament.first_round})
    return len(changed)


__all__ = [
    "RecomputeOutcome",
    "entrants_seed_from_ratings",
    "first_difference",
    "rating_policy_of",
    "rating_policy_update",
    "ratings_enqueue",
    "ratings_out_of_date",
    "ratings_rebuild",
    "ratings_recompute",
    "ratings_result_changed",
    "require_pool",
    "seeding_from_ratings_error",
]
