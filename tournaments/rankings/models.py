"""Rating rows. Thin: fields, constraints, `__str__`. Written only by tournaments.rankings.services.

- `RatingPool`: one row per pool; its row lock serialises the recomputations of that pool.
- `RatedGame`: a final result that entered a pool's rating stream, at its order `key`, with a digest
  of the inputs it was rated from (so a changed result is detected by comparison).
- `RatingEvent`: one player's rating before and after one rated game.
- `PlayerRating`: a player's current rating in a pool (the state after their last event).
- `RatingPolicy`: per tournament, how games stopped at the time limit are rated.
"""

from __future__ import annotations

from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from tournaments.models import Entrant, Player, Result, Table, Tournament
from tournaments.rankings.compute import POOL_NAMES

POOL_CHOICES = sorted(POOL_NAMES)


class RatingPool(models.Model):
    pool = models.CharField(max_length=20, primary_key=True)
    recomputed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [models.CheckConstraint(condition=Q(pool__in=POOL_CHOICES), name="rating_pool_valid")]

    def __str__(self) -> str:
        return self.pool


class RatedGame(models.Model):
    pool = models.CharField(max_length=20)
    # Total order of the pool's stream (see docs/rankings.md): date/tournament/round/start/table.
    key = models.CharField(max_length=64)
    digest = models.CharField(max_length=64)
    # SET_NULL: a deleted tournament leaves the row, which the next comparison finds stale.
    result = models.ForeignKey(Result, null=True, on_delete=models.SET_NULL, related_name="+")
    table = models.ForeignKey(Table, null=True, on_delete=models.SET_NULL, related_name="+")
    tournament = models.ForeignKey(Tournament, null=True, on_delete=models.SET_NULL, related_name="+")
    played_on = models.DateField()

    class Meta:
        ordering = ["pool", "key"]
        constraints = [
            models.UniqueConstraint(fields=["pool", "key"], name="rated_game_key_unique"),
            models.CheckConstraint(condition=Q(pool__in=POOL_CHOICES), name="rated_game_pool_valid"),
        ]

    def __str__(self) -> str:
        return f"{self.pool} {self.key}"


class RatingEvent(models.Model):
    game = models.ForeignKey(RatedGame, on_delete=models.CASCADE, related_name="events")
    pool = models.CharField(max_length=20)
    key = models.CharField(max_length=64)
    played_on = models.DateField()
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="rating_events")
    entrant = models.ForeignKey(Entrant, null=True, on_delete=models.SET_NULL, related_name="+")
    team_key = models.CharField(max_length=160)
    team_index = models.PositiveSmallIntegerField()
    rank = models.PositiveSmallIntegerField()
    mu_before = models.FloatField()
    sigma_before = models.FloatField()
    mu_after = models.FloatField()
    sigma_after = models.FloatField()
    conservative_before = models.FloatField()
    conservative_after = models.FloatField()

    class Meta:
        ordering = ["pool", "key", "team_index", "player_id"]
        constraints = [
            models.UniqueConstraint(fields=["game", "player"], name="rating_event_player_once_per_game"),
            models.CheckConstraint(condition=Q(sigma_before__gt=0) & Q(sigma_after__gt=0),
                                   name="rating_event_sigma_positive"),
            models.CheckConstraint(condition=Q(rank__gte=1), name="rating_event_rank_positive"),
        ]
        indexes = [
            models.Index(fields=["pool", "player", "key"], name="rating_event_player_idx"),
            models.Index(fields=["pool", "team_key", "key"], name="rating_event_team_idx"),
        ]

    def __str__(self) -> str:
        return f"{self.player_id} @ {self.key}: {self.mu_before:.2f} -> {self.mu_after:.2f}"


class PlayerRating(models.Model):
    pool = models.CharField(max_length=20)
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="ratings")
    mu = models.FloatField()
    sigma = models.FloatField()
    conservative = models.FloatField()
    games = models.PositiveIntegerField()
    last_played = models.DateField()
    last_key = models.CharField(max_length=64)

    class Meta:
        ordering = ["pool", "-conservative", "player_id"]
        constraints = [
            models.UniqueConstraint(fields=["pool", "player"], name="player_rating_once_per_pool"),
            models.CheckConstraint(condition=Q(sigma__gt=0), name="player_rating_sigma_positive"),
            models.CheckConstraint(condition=Q(games__gte=1), name="player_rating_games_positive"),
        ]
        indexes = [models.Index(fields=["pool", "-conservative"], name="player_rating_board_idx")]

    def __str__(self) -> str:
        return f"{self.player_id} {self.pool}: {self.conservative:.2f}"


class RatingPolicy(models.Model):
    class TimeLimitGames(models.TextChoices):
        RANK_BY_MARBLES = "rank_by_marbles", _("Rate them, ranked by marbles home")
        IGNORE = "ignore", _("Do not rate them")

    tournament = models.OneToOneField(Tournament, on_delete=models.CASCADE, related_name="rating_policy")
    time_limit_games = models.CharField(
        _("games stopped at the time limit"), max_length=20, choices=TimeLimitGames.choices,
        default=TimeLimitGames.RANK_BY_MARBLES,
    )
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [
            models.CheckConstraint(condition=Q(time_limit_games__in=["rank_by_marbles", "ignore"]),
                                   name="rating_policy_time_limit_valid"),
        ]

    def __str__(self) -> str:
        return f"{self.tournament}: {self.time_limit_games}"
