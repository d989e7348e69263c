"""Creating and configuring tournaments."""

from __future__ import annotations

import datetime
from collections.abc import Sequence
from typing import Any

from django.db import IntegrityError, transaction
from django.utils.text import slugify
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from tournaments.errors import ErrorCode, TournamentError, refused
from tournaments.models import Tournament
from tournaments.permissions import can_create_tournament, is_organiser
from tournaments.profiles import PLACING, GameProfile, ProfileError, profile_for
from tournaments.services.audit import audit_record
from tournaments.services.locking import lock_tournament
from tournaments.standings import (
    DEFAULT_TIEBREAKS_PLACING,
    DEFAULT_TIEBREAKS_SCORE,
    StandingsError,
)
from tournaments.standings.compute import check_tiebreak_order

FORMATS = tuple(choice.value for choice in Tournament.Format)
FIRST_ROUND_MODES = tuple(choice.value for choice in Tournament.FirstRound)


def tournament_profile(tournament: Tournament) -> GameProfile:
    """The game profile of a stored tournament (its variant was validated on creation)."""
    return profile_for(tournament.game, tournament.variant)


def require_organiser(actor: Any, tournament: Tournament) -> None:
    if not is_organiser(actor, tournament):
        raise TournamentError(ErrorCode.PERMISSION_DENIED, _("Only an organiser of this tournament may do this."))


def _unique_slug(name: str) -> str:
    base = slugify(name)[:120] or "tournament"
    slug = base
    counter = 2
    while Tournament.objects.filter(slug=slug).exists():
        slug = f"{base}-{counter}"
        counter += 1
    return slug


def _points_list(value: Sequence[float] | None, profile: GameProfile) -> list[float]:
    if value is None:
        return list(profile.placing_points)
    try:
        points = [float(v) for v in value]
    except (TypeError, ValueError) as exc:
        raise refused(_("Points by placing must be numbers.")) from exc
    if len(points) != profile.entrants_per_table:
        raise refused(
            _("Points by placing need one value per place at the table (%(count)s).")
            % {"count": profile.entrants_per_table},
        )
    if any(p < 0 or p > 1000 for p in points) or points != sorted(points, reverse=True):
        raise refused(
            _("Points by placing must be between 0 and 1000 and never rise with the place.")
        )
    return points


def _tiebreaks(value: Sequence[str] | None, profile: GameProfile) -> list[str]:
    if value is None:
        return list(DEFAULT_TIEBREAKS_PLACING if profile.result_mode == PLACING else DEFAULT_TIEBREAKS_SCORE)
    order = [str(v) for v in value]
    try:
        check_tiebreak_order(order)
    except StandingsError as exc:
        raise refused(str(exc)) from exc
    if not order or order[0] != "match_points":
        raise refused(_("The tiebreak order must start with match_points."))
    return order


def _small_int(value: int | None, default: int, sentence: str, low: int = 0, high: int = 1000) -> int:
    """`sentence`: a translated message with %(low)s and %(high)s, shown when the value is out of range."""
    if value is None:
        return default
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise refused(sentence % {"low": low, "high": high})
    return value


@transaction.atomic
def tournament_create(
    *,
    actor: Any,
    name: str,
    game: str,
    variant: dict[str, Any] | None = None,
    format: str = "swiss",
    rounds_planned: int = 5,
    is_public: bool = True,
    group_count: int = 1,
    double_round_robin: bool = False,
    knockout_size: int | None = None,
    knockout_advance: int = 1,
    knockout_style: str = "single",
    grand_final_reset: bool = True,
    third_place_match: bool = True,
    first_round: str = "seed",
    avoid_same_club: bool = False,
    random_seed: int = 0,
    placing_points: Sequence[float] | None = None,
    tiebreak_order: Sequence[str] | None = None,
    forfeit_winner_score: int | None = None,
    forfeit_loser_score: int | None = None,
    bye_points: float | None = None,
    bye_score_for: int | None = None,
    bye_score_against: int | None = None,
    starts_on: datetime.date | None = None,
    venue: str = "",
    placement_matches: bool = False,
    shared_places_by_standings: bool = False,
    dropped_rank_last: bool = True,
    bye_tiebreak: str = "own_score",
    checkin_required: bool = False,
    schedule_rounds: int | None = None,
    rolling_rounds: bool = False,
    game_minutes: int | None = None,
) -> Tournament:
    """Create a tournament for a game profile; the actor becomes its organiser."""
    if not can_create_tournament(actor):
        raise TournamentError(ErrorCode.PERMISSION_DENIED, _("Log in to create a tournament."))
    name = (name or "").strip()
    if not name or len(name) > 120:
        raise refused(_("The name must have 1 to 120 characters."))
    try:
        profile = profile_for(game, variant or {})
    except ProfileError as exc:
        raise TournamentError(ErrorCode.INVALID_VARIANT, str(exc)) from exc
    if format not in FORMATS:
        raise refused(
            _("Unknown format “%(format)s”. Choose one of %(choices)s.")
            % {"format": format, "choices": ", ".join(FORMATS)},
        )
    if first_round not in FIRST_ROUND_MODES:
        raise refused(_("The first round is paired by seed, rating or random."))
    rounds_planned = _small_int(
        rounds_planned, 5, _("Rounds planned must be a whole number from %(low)s to %(high)s."), 1, 100
    )
    group_count = _small_int(
        group_count, 1, _("The number of groups must be a whole number from %(low)s to %(high)s."), 1, 64
    )
    knockout_advance = _small_int(
        knockout_advance, 1, _("Advancing per table must be a whole number from %(low)s to %(high)s."),
        1, profile.entrants_per_table - 1,
    )
    if knockout_style not in Tournament.KnockoutStyle.values:
        raise TournamentError(ErrorCode.INVALID_INPUT, _("The knockout style is single or double."))
    if knockout_style == Tournament.KnockoutStyle.DOUBLE and (
        format not in ("knockout", "stages") or profile.entrants_per_table != 2 or knockout_advance != 1
    ):
        raise refused(
            _("Double elimination is for a knockout (or the knockout of a stages tournament) at tables of 2."),
        )
    if format == "stages":
        if knockout_size is None:
            raise refused(_("A stages tournament needs the knockout size (top N)."))
        knockout_size = _small_int(
            knockout_size, 0, _("The knockout size must be a whole number from %(low)s to %(high)s."), 2, 1024
        )
        if knockout_size < group_count:
            raise refused(_("At least one entrant of every group must reach the knockout."))
    else:
        knockout_size = None
    schedule_rounds = _schedule_rounds(schedule_rounds, format, profile)
    if rolling_rounds and not _rolling_format(format, group_count, knockout_style):
        raise refused(
            _("Table-by-table release is for a round robin, groups or a knockout, not a Swiss."),
        )
    default_bye_points = profile.placing_points[0] if profile.placing_points else 0.0
    if bye_points is None:
        bye_points = default_bye_points
    if isinstance(bye_points, bool) or not isinstance(bye_points, int | float) or not 0 <= bye_points <= 1000:
        raise refused(_("Bye points must be a number from 0 to 1000."))
    tournament = Tournament(
        name=name,
        slug=_unique_slug(name),
        game=profile.game,
        variant=dict(profile.variant),
        format=format,
        rounds_planned=rounds_planned,
        is_public=bool(is_public),
        group_count=group_count,
        double_round_robin=bool(double_round_robin),
        knockout_size=knockout_size,
        knockout_advance=knockout_advance,
        knockout_style=knockout_style,
        grand_final_reset=bool(grand_final_reset),
        third_place_match=bool(third_place_match),
        first_round=first_round,
        avoid_same_club=bool(avoid_same_club),
        random_seed=_small_int(random_seed, 0, "The random seed", 0, 2**31 - 1),
        placing_points=_points_list(placing_points, profile),
        tiebreak_order=_tiebreaks(tiebreak_order, profile),
        forfeit_winner_score=_small_int(forfeit_winner_score, profile.forfeit_winner_score, "Forfeit winner score"),
        forfeit_loser_score=_small_int(forfeit_loser_score, profile.forfeit_loser_score, "Forfeit loser score"),
        bye_points=float(bye_points),
        bye_score_for=_small_int(bye_score_for, profile.forfeit_winner_score, "Bye score for"),
        bye_score_against=_small_int(bye_score_against, profile.forfeit_loser_score, "Bye score against"),
        starts_on=starts_on,
        venue=(venue or "")[:200],
        placement_matches=bool(placement_matches),
        shared_places_by_standings=bool(shared_places_by_standings),
        dropped_rank_last=bool(dropped_rank_last),
        bye_tiebreak=_bye_tiebreak(bye_tiebreak),
        checkin_required=bool(checkin_required),
        schedule_rounds=schedule_rounds,
        rolling_rounds=bool(rolling_rounds),
        game_minutes=_small_int(game_minutes, profile.game_minutes, GAME_MINUTES_RANGE, 1, 1440),
    )
    try:
        with transaction.atomic():
            tournament.save()
    except IntegrityError as exc:  # a concurrent create took the slug
        raise TournamentError(ErrorCode.INVALID_INPUT, _("Could not create the tournament; try again."),
                              http_status=409) from exc
    tournament.organisers.add(actor)
    audit_record(
        action="tournament_created",
        tournament=tournament,
        obj=tournament,
        actor=actor,
        data={"game": tournament.game, "variant": tournament.variant, "format": tournament.format},
    )
    return tournament


GAME_MINUTES_RANGE = gettext_lazy("The game length must be a whole number of minutes from %(low)s to %(high)s.")


def _rolling_format(format: str, group_count: int, knockout_style: str = "single") -> bool:
    """Formats whose rounds are fixed in advance (round robin, the group phase of stages), and knockouts
    (single or double: a table starts as soon as its feeders are done)."""
    if format in ("knockout", "stages"):  # the knockout rolls: a table starts when its feeders are done
        return True
    return format == "round_robin" or (format == "stages" and group_count > 1)


def _schedule_rounds(value: int | None, format: str, profile: GameProfile) -> int | None:
    """Round robin at tables of 3 or N: rounds per cycle (None: the fewest in which every pair can meet)."""
    if value is None:
        return None
    if profile.entrants_per_table == 2:
        raise refused(
            _("At tables of 2 a round robin always has every pair meet once; the rounds cannot be chosen."),
        )
    if format not in ("round_robin", "stages"):
        raise refused(_("Only a round robin has a number of rounds to choose."))
    return _small_int(value, 0, _("Round robin rounds must be a whole number from %(low)s to %(high)s."), 1, 60)


def _bye_tiebreak(value: Any) -> str:
    if value not in Tournament.ByeTiebreak.values:
        raise TournamentError(
            ErrorCode.INVALID_INPUT,
            _("A bye counts in Buchholz as %(choices)s.") % {"choices": ", ".join(Tournament.ByeTiebreak.values)},
        )
    return str(value)


UPDATABLE = {
    "name", "is_public", "rounds_planned", "venue", "starts_on", "avoid_same_club", "first_round", "random_seed",
    "placing_points", "tiebreak_order", "forfeit_winner_score", "forfeit_loser_score", "bye_points",
    "placement_matches", "shared_places_by_standings", "dropped_rank_last", "bye_tiebreak",
    "bye_score_for", "bye_score_against", "checkin_required", "schedule_rounds", "rolling_rounds", "game_minutes",
}
# Changing these changes the standings of results already played: recompute them.
AFFECTS_STANDINGS = {"placing_points", "tiebreak_order", "bye_points", "shared_places_by_standings",
                     "dropped_rank_last", "bye_tiebreak"}
# These shape the bracket: fixed once the knockout has started.
BEFORE_KNOCKOUT = {"placement_matches"}
# These only matter before the first round is generated.
BEFORE_FIRST_ROUND = {"first_round", "random_seed", "schedule_rounds"}


@transaction.atomic
def tournament_update(*, actor: Any, tournament: Tournament, **changes: Any) -> Tournament:
    """Change a tournament's settings (name, visibility, rounds, points, tiebreaks, forfeit/bye scores...).

    Game, variant and format are fixed at creation. Points or tiebreak changes recompute the standings.
    """
    tournament = lock_tournament(tournament.pk)
    require_organiser(actor, tournament)
    unknown = sorted(set(changes) - UPDATABLE)
    if unknown:
        raise refused(
            _("These settings cannot be changed: %(names)s.") % {"names": ", ".join(unknown)},
        )
    if tournament.status == Tournament.Status.FINISHED:
        raise TournamentError(ErrorCode.TOURNAMENT_FINISHED, _("The tournament is finished."))
    if BEFORE_FIRST_ROUND & set(changes) and tournament.rounds.exists():
        raise TournamentError(ErrorCode.ROUND_IN_PROGRESS, _("The first-round settings are fixed once round 1 exists."))
    if BEFORE_KNOCKOUT & set(changes) and tournament.rounds.filter(stage="knockout").exists():
        raise TournamentError(ErrorCode.ROUND_IN_PROGRESS, _("Placement matches are fixed once the knockout has started."))
    profile = tournament_profile(tournament)
    values: dict[str, Any] = {}
    for field, value in changes.items():
        if field == "name":
            value = (value or "").strip()
            if not value or len(value) > 120:
                raise refused(_("The name must have 1 to 120 characters."))
        elif field == "placing_points":
            value = _points_list(value, profile)
        elif field == "tiebreak_order":
            value = _tiebreaks(value, profile)
        elif field == "rounds_planned":
            value = _small_int(value, 5, "Rounds planned", max(1, tournament.rounds.count()), 100)
        elif field in {"forfeit_winner_score", "forfeit_loser_score", "bye_score_for", "bye_score_against"}:
            value = _small_int(value, 0, field.replace("_", " ").capitalize())
        elif field == "random_seed":
            value = _small_int(value, 0, "The random seed", 0, 2**31 - 1)
        elif field == "first_round" and value not in FIRST_ROUND_MODES:
            raise refused(_("The first round is paired by seed, rating or random."))
        elif field == "bye_points" and (isinstance(value, bool) or not isinstance(value, int | float)
                                        or not 0 <= value <= 1000):
            raise refused(_("Bye points must be a number from 0 to 1000."))
        elif field in {"is_public", "avoid_same_club", "placement_matches", "shared_places_by_standings",
                       "dropped_rank_last", "checkin_required"}:
            value = bool(value)
        elif field == "rolling_rounds":
            value = bool(value)
            if value and not _rolling_format(tournament.format, tournament.group_count, tournament.knockout_style):
                raise refused(
                    _("Table-by-table release is for a round robin, groups or a knockout, not a Swiss."),
                )
        elif field == "schedule_rounds":
            value = _schedule_rounds(value, tournament.format, profile)
        elif field == "bye_tiebreak":
            value = _bye_tiebreak(value)
        elif field == "game_minutes":
            value = _small_int(value, profile.game_minutes, str(GAME_MINUTES_RANGE), 1, 1440)
        elif field == "venue":
            value = (value or "")[:200]
        values[field] = value
    if not values:
        return tournament
    for field, value in values.items():
        setattr(tournament, field, value)
    tournament.save(update_fields=list(values))
    audit_record(action="tournament_updated", tournament=tournament, obj=tournament, actor=actor,
                 data={k: (v.isoformat() if isinstance(v, datetime.date) else v) for k, v in values.items()})
    if AFFECTS_STANDINGS & set(values):
        from tournaments.services.results_final import standings_invalidated

        standings_invalidated(tournament=tournament)
    return tournament


@transaction.atomic
def tournament_organiser_add(*, actor: Any, tournament: Tournament, user: Any) -> Tournament:
    tournament = lock_tournament(tournament.pk)
    require_organiser(actor, tournament)
    tournament.organisers.add(user)
    audit_record(
        action="organiser_added", tournament=tournament, obj=tournament, actor=actor, data={"user_id": user.pk}
    )
    return tournament


@transaction.atomic
def tournament_organiser_remove(*, actor: Any, tournament: Tournament, user: Any) -> Tournament:
    """Remove a co-organiser (an organiser may remove themselves); the last organiser stays."""
    tournament = lock_tournament(tournament.pk)
    require_organiser(actor, tournament)
    if not tournament.organisers.filter(pk=user.pk).exists():
        raise TournamentError(ErrorCode.NOT_FOUND, _("This user does not organise the tournament."))
    if tournament.organisers.count() <= 1:
        raise TournamentError(ErrorCode.LAST_ORGANISER, _("A tournament keeps at least one organiser."))
    tournament.organisers.remove(user)
    audit_record(
        action="organiser_removed", tournament=tournament, obj=tournament, actor=actor, data={"user_id": user.pk}
    )
    return tournament


@transaction.atomic
def tournament_finish(*, actor: Any, tournament: Tournament) -> Tournament:
    tournament = lock_tournament(tournament.pk)
    require_organiser(actor, tournament)
    if tournament.rounds.exclude(status="finished").exists():
        raise TournamentError(ErrorCode.ROUND_IN_PROGRESS, _("Finish or delete the open round first."))
    tournament.status = Tournament.Status.FINISHED
    tournament.save(update_fields=["status"])
    audit_record(action="tournament_finished", tournament=tournament, obj=tournament, actor=actor)
    return tournament
