"""Dropping an entrant during a round: its open tables end by the forfeit rule, and the organiser may
take it back while the round is open. Called by `entrant_drop`, `entrants_drop_absent` and
`entrant_drop_undo` with the tournament row already locked (lock order: tournament, round, table)."""

from __future__ import annotations

from typing import Any

from django.utils import timezone
from django.utils.translation import gettext as _

from tournaments.errors import ErrorCode, TournamentError
from tournaments.models import AuditLog, Entrant, Result, Round, Table, Tournament
from tournaments.services.audit import audit_record
from tournaments.services.locking import lock_round, lock_table
from tournaments.services.results import _require_knockout_decided, result_lines
from tournaments.services.results_final import result_finalised
from tournaments.services.tournaments import tournament_profile

FORFEIT_ACTION = "result_forfeit_by_drop"


def _open_tables(tournament: Tournament, entrant: Entrant) -> list[Table]:
    return list(
        Table.objects.filter(round__tournament=tournament, round__status=Round.Status.PUBLISHED, is_bye=False,
                             seats__entrant=entrant)
        .exclude(results__state__in=Result.FINAL_STATES)
        .select_related("round").order_by("round__number", "number")
    )


def drop_forfeits(*, tournament: Tournament, entrant: Entrant, actor: Any) -> list[dict[str, Any]]:
    """End every open table of `entrant` by a forfeit (it forfeits, the others win); returns what was done."""
    profile = tournament_profile(tournament)
    done: list[dict[str, Any]] = []
    rounds: dict[int, Round] = {}
    for table in _open_tables(tournament, entrant):
        round_ = rounds.get(table.round_id) or lock_round(table.round_id)
        rounds[round_.pk] = round_
        table = lock_table(table.pk)
        seated = list(table.seats.order_by("position").values_list("entrant_id", flat=True))
        lines = result_lines(tournament=tournament, profile=profile, seated=seated, kind="forfeit",
                             forfeited=[entrant.pk])
        _require_knockout_decided(tournament, round_, lines)
        now = timezone.now()
        pending = table.results.select_for_update(no_key=True).filter(state=Result.State.REPORTED).first()
        if pending is not None:
            pending.state = Result.State.REJECTED
            pending.decided_by = actor
            pending.decided_at = now
            pending.save(update_fields=["state", "decided_by", "decided_at"])
        result = Result.objects.create(
            table=table, kind=Result.Kind.FORFEIT, state=Result.State.OVERRIDDEN, reported_by=actor,
            decided_by=actor, decided_at=now, closed_by_drop=entrant,
            note=_("%(name)s dropped during the round.") % {"name": entrant.name},
        )
        result.scores.bulk_create([result.scores.model(result=result, **line) for line in lines])
        step = {"table": table.pk, "round": round_.number, "number": table.number, "result": result.pk,
                "rejected": pending.pk if pending else None}
        audit_record(action="result_forfeit_by_drop", tournament=tournament, obj=result, actor=actor,
                     data={**step, "entrant": entrant.pk, "lines": lines})
        done.append(step)
    for round_ in rounds.values():
        result_finalised(tournament=tournament, round_=round_)
    return done


def drop_forfeits_undo(*, tournament: Tournament, entrant: Entrant) -> list[dict[str, Any]]:
    """Supersede the forfeits the entrant's drop made and restore the reports they rejected, provided no
    later round has been published since (the round is still open)."""
    forfeits = list(
        Result.objects.select_for_update(no_key=True).filter(
            closed_by_drop=entrant, state=Result.State.OVERRIDDEN, table__round__tournament=tournament,
        ).select_related("table__round").order_by("table__round__number", "table__number")
    )
    numbers = [r.table.round.number for r in forfeits]
    since = entrant.dropped_at
    later = tournament.rounds.exclude(status=Round.Status.DRAFT)
    later = later.filter(number__gt=max(numbers)) if numbers else later.filter(published_at__gt=since)
    blocking = later.order_by("number").first()
    if blocking is not None:
        raise TournamentError(
            ErrorCode.DROP_NOT_UNDOABLE,
            _("Round %(number)s has been published since the drop; re-admit the entrant instead (it plays "
              "from the next round).") % {"number": blocking.number},
        )
    rejected_of = {
        row.object_id: row.data.get("rejected")
        for row in AuditLog.objects.filter(tournament=tournament, action=FORFEIT_ACTION,
                                           object_id__in=[r.pk for r in forfeits])
    }
    undone: list[dict[str, Any]] = []
    rounds: dict[int, Round] = {}
    for result in forfeits:
        round_ = rounds.get(result.table.round_id) or lock_round(result.table.round_id)
        rounds[round_.pk] = round_
        lock_table(result.table_id)
        result.state = Result.State.SUPERSEDED
        result.save(update_fields=["state"])
        restored = None
        rejected_id = rejected_of.get(result.pk)
        if rejected_id:
            restored = Result.objects.filter(pk=rejected_id, table_id=result.table_id,
                                             state=Result.State.REJECTED).update(
                state=Result.State.REPORTED, decided_by=None, decided_at=None)
        undone.append({"table": result.table_id, "result": result.pk,
                       "restored": rejected_id if restored else None})
    for round_ in rounds.values():
        if round_.status == Round.Status.FINISHED:
            round_.status = Round.Status.PUBLISHED
            round_.save(update_fields=["status"])
        result_finalised(tournament=tournament, round_=round_)
    return undone
