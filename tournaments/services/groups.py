"""The group draw (issue 28): the platform draws the groups once the entrants have checked in; the
organiser may move a team (`entrant_update(group=...)`) or draw again until round 1 is published.

The draw itself is `tournaments.pairing.group_draw` (pure). Who is drawn: the entrants who would be
paired now (`playing_entrants`: not dropped, and checked in when check-in is required); no-shows are
left out of the draw and keep no place in it (`Tournament.group_draw["entrant_ids"]` lists who was
drawn). A draft round generated before the draw is discarded by it: its tables were paired from the
old groups.
"""

from __future__ import annotations

import secrets
from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from tournaments.errors import ErrorCode, TournamentError
from tournaments.models import Entrant, Round, Tournament
from tournaments.pairing import group_draw
from tournaments.services.audit import audit_record
from tournaments.services.locking import lock_tournament
from tournaments.services.rounds import playing_entrants
from tournaments.services.tournaments import require_organiser

SEED_MAX = 999_999


def has_groups(tournament: Tournament) -> bool:
    """Round robin in groups, or stages whose first phase is groups."""
    return tournament.group_count > 1 and tournament.format in (
        Tournament.Format.ROUND_ROBIN, Tournament.Format.STAGES)


def groups_fixed(tournament: Tournament) -> bool:
    """Once a round is published, the groups are what that round was paired from."""
    return tournament.rounds.exclude(status=Round.Status.DRAFT).exists()


def require_groups_open(tournament: Tournament) -> None:
    if groups_fixed(tournament):
        raise TournamentError(
            ErrorCode.GROUPS_FIXED, _("Round 1 is published: the groups can no longer be changed."))


@transaction.atomic
def groups_draw(
    *, actor: Any, tournament: Tournament, method: str = "pots", by: str = "seed", seed: int | None = None
) -> Tournament:
    """Draw the groups of the entrants who would be paired now. `seed` (0..999999) makes the draw
    reproducible; without it one is drawn at random, stored and shown with the groups."""
    tournament = lock_tournament(tournament.pk)
    require_organiser(actor, tournament)
    if tournament.status == Tournament.Status.FINISHED:
        raise TournamentError(ErrorCode.TOURNAMENT_FINISHED, _("The tournament is finished."))
    if not has_groups(tournament):
        raise TournamentError(ErrorCode.INVALID_INPUT, _("This tournament is not played in groups."))
    require_groups_open(tournament)
    if method not in group_draw.METHODS:
        raise TournamentError(ErrorCode.INVALID_INPUT, _("Unknown draw method."))
    if by not in group_draw.ORDERS:
        raise TournamentError(ErrorCode.INVALID_INPUT, _("The draw orders the entrants by seed or by rating."))
    if seed is None:
        seed = secrets.randbelow(SEED_MAX + 1)
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= SEED_MAX:
        raise TournamentError(ErrorCode.INVALID_INPUT, _("The draw seed must be a whole number from 0 to 999999."))
    entrants = list(playing_entrants(tournament).select_for_update().order_by("pk"))
    try:
        groups = group_draw.draw_groups(
            [group_draw.DrawEntrant(id=e.pk, seed=e.seed, rating=e.rating) for e in entrants],
            group_count=tournament.group_count, method=method, by=by, seed=seed,
        )
    except group_draw.GroupDrawError as exc:
        raise TournamentError(
            ErrorCode.NOT_ENOUGH_ENTRANTS,
            _("%(count)s entrants cannot fill %(groups)s groups of at least two.")
            % {"count": len(entrants), "groups": tournament.group_count},
        ) from exc
    for entrant in entrants:
        entrant.group = groups[entrant.pk]
    Entrant.objects.bulk_update(entrants, ["group"])
    discarded = list(tournament.rounds.filter(status=Round.Status.DRAFT).values_list("number", flat=True))
    tournament.rounds.filter(status=Round.Status.DRAFT).delete()
    left_out = list(tournament.entrants.exclude(pk__in=[e.pk for e in entrants]).order_by("pk")
                    .values_list("pk", flat=True))
    tournament.group_draw = {
        "method": method, "by": by, "seed": seed, "entrant_ids": sorted(groups),
        "left_out": left_out, "drawn_at": timezone.now().isoformat(),
    }
    tournament.save(update_fields=["group_draw"])
    audit_record(
        action="groups_drawn", tournament=tournament, obj=tournament, actor=actor,
        data={"method": method, "by": by, "seed": seed, "groups": {str(k): v for k, v in sorted(groups.items())},
              "left_out": left_out, "discarded_drafts": discarded},
    )
    return tournament


def draw_summary(tournament: Tournament) -> list[dict[str, Any]]:
    """The groups as drawn or moved since: per group its entrants (by name), for pages and the API."""
    rows: dict[int, list[Entrant]] = {g: [] for g in range(1, tournament.group_count + 1)}
    for entrant in playing_entrants(tournament).order_by("name"):
        rows.setdefault(entrant.group, []).append(entrant)
    return [{"group": g, "entrants": rows[g]} for g in sorted(rows)]
