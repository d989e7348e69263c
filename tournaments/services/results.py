"""Reporting, confirming, rejecting and overriding table results.

A player of the table (through their account or their entrant's private link) reports; a player of
another entrant at the table (or an organiser) confirms or rejects; an organiser overrides. If an
opponent reports exactly the same result as the pending one, that counts as a confirmation.
Every step writes an audit row. At most one pending and one final result per table: checked under the
tournament row lock and enforced by two partial unique constraints.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from tournaments.errors import ErrorCode, TournamentError
from tournaments.models import AuditLog, Entrant, Result, ResultScore, Round, Table, Tournament
from tournaments.notifications import notify_on_commit
from tournaments.permissions import is_organiser, reporting_entrant
from tournaments.profiles import PLACING, GameProfile
from tournaments.security_log import security_event
from tournaments.services.audit import audit_entry, audit_record
from tournaments.services.locking import TableLocks, lock_table_context
from tournaments.services.release import require_released, require_time_limit_reached
from tournaments.services.results_final import result_finalised
from tournaments.services.tournaments import require_organiser, tournament_profile
from tournaments.standings import placings_from_scores
from tournaments.webhooks.events import result_event

REPORTABLE_KINDS = ("normal", "time_limit", "forfeit")


def _invalid(message: str) -> TournamentError:
    return TournamentError(ErrorCode.INVALID_RESULT, message)


def _int_map(values: Mapping[Any, Any] | None, seated: Sequence[int], what: str) -> dict[int, int] | None:
    if values is None:
        return None
    if not isinstance(values, Mapping):
        raise _invalid(
            _("The scores must map entrant ids to whole numbers.") if what == "scores"
            else _("The placings must map entrant ids to whole numbers.")
        )
    parsed: dict[int, int] = {}
    for key, value in values.items():
        try:
            entrant_id = int(key)
        except (TypeError, ValueError) as exc:
            raise _invalid(_("“%(key)s” is not an entrant id.") % {"key": key}) from exc
        if isinstance(value, bool) or not isinstance(value, int):
            raise _invalid(
                (_("The score of entrant %(id)s must be a whole number.") if what == "scores"
                 else _("The placing of entrant %(id)s must be a whole number.")) % {"id": entrant_id}
            )
        parsed[entrant_id] = value
    if set(parsed) != set(seated):
        raise _invalid(
            (_("Give the scores of exactly the entrants at the table: %(ids)s.") if what == "scores"
             else _("Give the placings of exactly the entrants at the table: %(ids)s.")) % {"ids": sorted(seated)}
        )
    return parsed


def _competition_consistent(placings: Sequence[int]) -> bool:
    """True when placings are a competition ranking (1, 2, 2, 4): each equals 1 + number placed ahead."""
    return all(p == 1 + sum(1 for q in placings if q < p) for p in placings)


def result_lines(
    *,
    tournament: Tournament,
    profile: GameProfile,
    seated: Sequence[int],
    kind: str,
    scores: Mapping[Any, Any] | None = None,
    placings: Mapping[Any, Any] | None = None,
    winner: int | None = None,
    forfeited: Sequence[int] = (),
) -> list[dict[str, Any]]:
    """Validate a result for the entrants `seated` at a table and return its lines
    (entrant_id, score, placing, is_winner, forfeited) in seat order."""
    if kind not in REPORTABLE_KINDS:
        raise _invalid(_("The kind must be one of %(kinds)s.") % {"kinds": ", ".join(REPORTABLE_KINDS)})
    if kind == "time_limit" and not profile.has_time_limit_result:
        raise _invalid(_("This game has no time-limit result."))
    n = len(seated)
    try:
        forfeit_set = {int(e) for e in forfeited}
    except (TypeError, ValueError) as exc:
        raise _invalid(_("Forfeited entrants must be entrant ids.")) from exc
    if winner is not None and (isinstance(winner, bool) or not isinstance(winner, int)):
        raise _invalid(_("The winner must be an entrant id."))
    if winner is not None and winner not in seated:
        raise _invalid(_("The winner must sit at the table."))
    score_map = _int_map(scores, seated, "scores")
    placing_map = _int_map(placings, seated, "placings")

    if kind == "forfeit":
        if not forfeit_set or not forfeit_set <= set(seated) or forfeit_set == set(seated):
            raise _invalid(_("A forfeit names the entrants who forfeit: some, not all, of the table."))
        if winner is not None:
            raise _invalid(_("A forfeit has no separate winner: the entrants who did not forfeit win."))
        stayed = [e for e in seated if e not in forfeit_set]
        lines = []
        for entrant in seated:
            lost = entrant in forfeit_set
            score = None
            if profile.result_mode != PLACING:
                score = tournament.forfeit_loser_score if lost else tournament.forfeit_winner_score
            lines.append({
                "entrant_id": entrant, "score": score, "placing": len(stayed) + 1 if lost else 1,
                "is_winner": not lost, "forfeited": lost,
            })
        return lines
    if forfeit_set:
        raise _invalid(_("Only a forfeit names forfeited entrants."))

    if profile.result_mode == PLACING:
        if placing_map is None:
            raise _invalid(_("Give the placing of every entrant at the table."))
        if any(not 1 <= p <= n for p in placing_map.values()):
            raise _invalid(_("Placings run from 1 to %(max)s.") % {"max": n})
        ordered = [placing_map[e] for e in seated]
        if not _competition_consistent(ordered):
            raise _invalid(_("Placings must be consistent: tied entrants share a place and the next place is skipped."))
        firsts = [e for e in seated if placing_map[e] == 1]
        if kind == "normal" and len(firsts) != 1:
            raise _invalid(_("A finished game has exactly one first place."))
        if winner is not None and winner not in firsts:
            raise _invalid(_("The winner must have the first place."))
        if score_map is not None and any(not -100000 <= s <= 100000 for s in score_map.values()):
            raise _invalid(_("Scores must be between -100000 and 100000."))
        return [
            {
                "entrant_id": e, "score": score_map[e] if score_map else None, "placing": placing_map[e],
                "is_winner": kind == "normal" and placing_map[e] == 1, "forfeited": False,
            }
            for e in seated
        ]

    # Score games (marbles home): one score per entrant.
    if score_map is None:
        raise _invalid(_("Give the score (marbles home) of every entrant at the table."))
    if placing_map is not None:
        raise _invalid(_("This game is ranked by score; placings are derived."))
    if any(not profile.score_min <= s <= profile.score_max for s in score_map.values()):
        raise _invalid(_("Scores run from %(min)s to %(max)s.") % {"min": profile.score_min, "max": profile.score_max})
    at_max = [e for e in seated if score_map[e] == profile.score_max]
    if kind == "normal":
        if len(at_max) != 1:
            raise _invalid(
                _("A finished game has exactly one winner with %(max)s marbles home.") % {"max": profile.score_max},
            )
        if winner is not None and winner != at_max[0]:
            raise _invalid(_("The winner is the entrant with %(max)s marbles home.") % {"max": profile.score_max})
        winner_index: int | None = seated.index(at_max[0])
    else:
        if at_max:
            raise _invalid(
                _("A game stopped at the time limit has no winner; %(max)s marbles home means it was won.")
                % {"max": profile.score_max}
            )
        if winner is not None:
            raise _invalid(_("A game stopped at the time limit has no winner."))
        winner_index = None
    placing_list = placings_from_scores([score_map[e] for e in seated], winner_index)
    return [
        {
            "entrant_id": e, "score": score_map[e], "placing": placing_list[i],
            "is_winner": winner_index == i, "forfeited": False,
        }
        for i, e in enumerate(seated)
    ]


def _require_knockout_decided(tournament: Tournament, round_: Round, lines: Sequence[dict[str, Any]]) -> None:
    """A knockout table must say who advances: no tie across the advancing places."""
    if round_.stage != Round.Stage.KNOCKOUT:
        return
    advance = min(tournament.knockout_advance, len(lines) - 1)
    if sum(1 for line in lines if line["placing"] <= advance) != advance:
        raise _invalid(_("A knockout game must decide who advances: no tie across the advancing places."))


def _seated(table: Table) -> list[int]:
    return list(table.seats.order_by("position").values_list("entrant_id", flat=True))


def _lines_key(lines: Sequence[dict[str, Any]]) -> set[tuple[Any, ...]]:
    return {(line["entrant_id"], line["score"], line["placing"], line["is_winner"], line["forfeited"]) for line in lines}


def _result_key(result: Result) -> set[tuple[Any, ...]]:
    return {(s.entrant_id, s.score, s.placing, s.is_winner, s.forfeited) for s in result.scores.all()}


def _save_lines(result: Result, lines: Sequence[dict[str, Any]]) -> None:
    ResultScore.objects.bulk_create(ResultScore(result=result, **line) for line in lines)


def _lock_table_context(table: Table) -> tuple[Tournament, Round, Table]:
    """Lock tournament -> round -> table (the documented order)."""
    locks = lock_table_context(table_id=table.pk, tournament_id=table.round.tournament_id)
    return locks.tournament, locks.round, locks.table


def _lock_for_report(table: Table, locked: TableLocks | None) -> TableLocks:
    if locked is None:
        return lock_table_context(table_id=table.pk, tournament_id=table.round.tournament_id)
    if locked.table.pk != table.pk:
        raise ValueError("The locked table is not the table reported.")
    return locked


def _audit(entries: list[AuditLog] | None, **fields: Any) -> None:
    """Write the audit row now, or append it to `entries` for the caller to write with its own."""
    if entries is None:
        audit_record(**fields)
    else:
        entries.append(audit_entry(**fields))


def _require_playable(round_: Round, table: Table) -> None:
    if round_.status == Round.Status.DRAFT:
        raise TournamentError(ErrorCode.ROUND_NOT_PUBLISHED, _("The round is not published yet."))
    if table.is_bye:
        raise _invalid(_("A bye has no result to report."))


def _pending(table: Table) -> Result | None:
    return table.results.select_for_update(no_key=True).filter(state=Result.State.REPORTED).first()


def _final(table: Table) -> Result | None:
    return table.results.select_for_update(no_key=True).filter(state__in=Result.FINAL_STATES).first()


def _final_and_pending(table: Table) -> tuple[Result | None, Result | None]:
    """Both of the table's open results, locked, in one query (at most one of each: partial unique indexes)."""
    current = list(table.results.select_for_update(no_key=True).filter(state__in=[*Result.FINAL_STATES, Result.State.REPORTED]))
    final = next((r for r in current if r.state in Result.FINAL_STATES), None)
    return final, next((r for r in current if r.state == Result.State.REPORTED), None)


def _audit_data(result: Result, lines: Sequence[dict[str, Any]] | None = None) -> dict[str, Any]:
    data: dict[str, Any] = {"table": result.table_id, "kind": result.kind, "state": result.state}
    if lines is not None:
        data["lines"] = [dict(line) for line in lines]
    return data


@transaction.atomic
def result_report(
    *,
    table: Table,
    actor: Any = None,
    token: str | None = None,
    kind: str = "normal",
    scores: Mapping[Any, Any] | None = None,
    placings: Mapping[Any, Any] | None = None,
    winner: int | None = None,
    forfeited: Sequence[int] = (),
    note: str = "",
) -> Result:
    """Report a table's result as a player of the table (account or private link).

    Raises `result_already_final` when the table has a final result, `result_already_reported` when a
    different result is pending (confirm or reject it first); an identical report by an opponent
    confirms the pending one.
    """
    locks = _lock_for_report(table, None)
    entrant = reporting_entrant(actor, token, locks.table)
    if entrant is None:
        raise TournamentError(ErrorCode.PERMISSION_DENIED, _(
            "Only a player of this table may report its result; an organiser sets it with an override."
        ))
    return _report(
        locks.tournament, locks.round, locks.table, actor, entrant, note, action="result_reported",
        kind=kind, scores=scores, placings=placings, winner=winner, forfeited=forfeited,
        has_open_result=locks.has_open_result, has_addresses=locks.has_addresses,
    )[0]


def _report(
    tournament: Tournament, round_: Round, table: Table, actor: Any, entrant: Entrant | None, note: str, *,
    action: str, same_side_unchanged: bool = False, kind: str, scores: Mapping[Any, Any] | None,
    placings: Mapping[Any, Any] | None, winner: int | None, forfeited: Sequence[int] = (),
    seated: list[int] | None = None, audit: list[AuditLog] | None = None, has_open_result: bool | None = None,
    has_addresses: bool | None = None,
) -> tuple[Result, bool]:
    """Validate and create the pending result (the table is locked); an identical report from the other
    side confirms the pending one. `seated`: the table's entrant ids when the caller read them already.
    `audit`: collect the audit row there instead of writing it (see `result_report_from_record`).
    `has_open_result`: False when the lock query saw no pending or final result (`TableLocks`).
    `has_addresses`: whether an entrant at the table has an e-mail address, when the lock query read it.
    Returns the result and whether anything changed (False: `same_side_unchanged` returned it as it was)."""
    _require_playable(round_, table)
    if tournament.rolling_rounds:  # the entrants' earlier tables must be final
        require_released(table, round_=round_, entrant_ids=seated)
    if kind == "time_limit":
        require_time_limit_reached(tournament, round_, table)
    lines = result_lines(
        tournament=tournament, profile=tournament_profile(tournament),
        seated=seated if seated is not None else _seated(table), kind=kind,
        scores=scores, placings=placings, winner=winner, forfeited=forfeited,
    )
    _require_knockout_decided(tournament, round_, lines)
    final, pending = (None, None) if has_open_result is False else _final_and_pending(table)
    if final is not None:
        raise TournamentError(ErrorCode.RESULT_ALREADY_FINAL, _("This table already has a final result."))
    if pending is not None:
        entrant_id = entrant.pk if entrant is not None else None
        if pending.kind == kind and _result_key(pending) == _lines_key(lines):
            if pending.reported_for_id != entrant_id:
                return _confirm(tournament, round_, pending, actor, entrant, audit=audit), True
            if same_side_unchanged:
                return pending, False
        raise TournamentError(
            ErrorCode.RESULT_ALREADY_REPORTED,
            _("A different result is already reported for this table; confirm or reject it first."),
            result_id=pending.pk,
        )
    try:
        # No savepoint of its own: every caller runs in an atomic block of its own (a savepoint when
        # nested) that an IntegrityError, turned into a TournamentError here, rolls back.
        with transaction.atomic(savepoint=False):
            result = Result.objects.create(
                table=table, kind=kind, state=Result.State.REPORTED,
                reported_by=actor if getattr(actor, "is_authenticated", False) else None,
                reported_for=entrant, note=(note or "")[:500],
            )
            _save_lines(result, lines)
    except IntegrityError as exc:
        raise TournamentError(ErrorCode.RESULT_CONFLICT, _("Another result was reported at the same time.")) from exc
    _audit(audit, action=action, tournament=tournament, obj=result, actor=actor, actor_entrant=entrant,
           data=_audit_data(result, lines))
    notify_on_commit("result_reported", result.pk, anyone=has_addresses)
    result_event("result.reported", tournament=tournament, round_=round_, result=result, lines=lines)
    return result, True


@dataclass(frozen=True)
class VerifiedReport:
    """What `result_report_from_record` did: `result` is the table's result for the record; `changed`
    is False when it was the identical pending result of the same side, returned as it was."""

    result: Result
    changed: bool


@transaction.atomic
def result_report_from_record(
    *,
    table: Table,
    actor: Any = None,
    entrant: Entrant | None,
    kind: str = "normal",
    scores: Mapping[Any, Any] | None = None,
    placings: Mapping[Any, Any] | None = None,
    winner: int | None = None,
    note: str = "",
    locked: TableLocks | None = None,
    audit: list[AuditLog] | None = None,
) -> VerifiedReport:
    """Report a result derived from a verified game record (the games app; `tournaments` never imports it);
    `changed` tells whether anything changed (for the record's settlement note).

    The caller has already checked who submitted the record: `entrant` is the submitting entrant
    (a player of the table) or None when an organiser submitted it; the result is reported on their
    behalf (`reported_for=entrant`) and the opponents or an organiser confirm it as usual. Same locks,
    validation, knockout rule and errors as `result_report`; an identical pending result from the
    other side (or any pending one, for an organiser's record) is confirmed; an identical pending
    result from the same side is returned unchanged. Audit action: `result_reported_from_record`.

    `locked`: the caller already holds the tournament, round and table locks of `table` in its
    transaction (`services.locking.TableLocks`); nothing is locked again.

    `audit`: the audit rows are appended there (unsaved) instead of being written, for the caller to
    write with its own in one INSERT (`services.audit.audit_write`) before its transaction ends; when
    this raises, the caller drops what was appended during the call.
    """
    locks = _lock_for_report(table, locked)
    seated = _seated(locks.table)
    if entrant is not None and entrant.pk not in seated:
        raise TournamentError(ErrorCode.PERMISSION_DENIED, _("The entrant does not sit at this table."))
    result, changed = _report(
        locks.tournament, locks.round, locks.table, actor, entrant, note, action="result_reported_from_record",
        same_side_unchanged=True, kind=kind, scores=scores, placings=placings, winner=winner, seated=seated,
        audit=audit, has_open_result=locks.has_open_result, has_addresses=locks.has_addresses,
    )
    return VerifiedReport(result=result, changed=changed)


def _confirm(
    tournament: Tournament, round_: Round, result: Result, actor: Any, entrant: Entrant | None, *,
    audit: list[AuditLog] | None = None,
) -> Result:
    result.state = Result.State.CONFIRMED
    result.decided_by = actor if getattr(actor, "is_authenticated", False) else None
    result.decided_for = entrant
    result.decided_at = timezone.now()
    try:
        with transaction.atomic():
            result.save(update_fields=["state", "decided_by", "decided_for", "decided_at"])
    except IntegrityError as exc:
        raise TournamentError(ErrorCode.RESULT_CONFLICT, _("The table got a final result at the same time.")) from exc
    _audit(audit, action="result_confirmed", tournament=tournament, obj=result, actor=actor, actor_entrant=entrant,
           data=_audit_data(result))
    result_finalised(tournament=tournament, round_=round_)
    result_event("result.confirmed", tournament=tournament, round_=round_, result=result)
    return result


def _decider(actor: Any, token: str | None, result: Result, table: Table, tournament: Tournament) -> Entrant | None:
    """The opponent entrant deciding on `result` (None when an organiser decides); refuses others."""
    entrant = reporting_entrant(actor, token, table)
    if entrant is not None and entrant.pk != result.reported_for_id:
        return entrant
    if is_organiser(actor, tournament):
        return None
    if entrant is not None:
        raise TournamentError(ErrorCode.CONFIRM_OWN_REPORT, _("An opponent must confirm or reject this result."))
    raise TournamentError(ErrorCode.PERMISSION_DENIED, _("Only a player of this table or an organiser may do this."))


def _lock_result(result: Result) -> tuple[Tournament, Round, Table, Result]:
    table = Table.objects.select_related("round").get(pk=result.table_id)
    tournament, round_, table = _lock_table_context(table)
    locked = Result.objects.select_for_update(no_key=True).get(pk=result.pk)
    return tournament, round_, table, locked


@transaction.atomic
def result_confirm(*, result: Result, actor: Any = None, token: str | None = None) -> Result:
    """An opponent (or an organiser) confirms a pending result; it becomes the table's final result."""
    tournament, round_, table, result = _lock_result(result)
    entrant = _decider(actor, token, result, table, tournament)
    if result.state != Result.State.REPORTED:
        raise TournamentError(ErrorCode.RESULT_NOT_PENDING, _("Only a pending result can be confirmed."))
    return _confirm(tournament, round_, result, actor, entrant)


@transaction.atomic
def result_reject(*, result: Result, actor: Any = None, token: str | None = None, note: str = "",
                  reason: str = "") -> Result:
    """An opponent (or an organiser) rejects a pending result, saying why (`reason`; `note` is its older
    name); the table can be reported again."""
    tournament, round_, table, result = _lock_result(result)
    entrant = _decider(actor, token, result, table, tournament)
    if result.state != Result.State.REPORTED:
        raise TournamentError(ErrorCode.RESULT_NOT_PENDING, _("Only a pending result can be rejected."))
    result.state = Result.State.REJECTED
    result.decided_by = actor if getattr(actor, "is_authenticated", False) else None
    result.decided_for = entrant
    result.decided_at = timezone.now()
    result.rejection_reason = " ".join(str(reason or note or "").split())[:500]
    result.save(update_fields=["state", "decided_by", "decided_for", "decided_at", "rejection_reason"])
    audit_record(action="result_rejected", tournament=tournament, obj=result, actor=actor, actor_entrant=entrant,
                 data=_audit_data(result))
    notify_on_commit("result_rejected", result.pk)
    result_event("result.rejected", tournament=tournament, round_=round_, result=result)
    return result


@transaction.atomic
def result_override(
    *,
    actor: Any,
    table: Table,
    kind: str = "normal",
    scores: Mapping[Any, Any] | None = None,
    placings: Mapping[Any, Any] | None = None,
    winner: int | None = None,
    forfeited: Sequence[int] = (),
    note: str = "",
) -> Result:
    """An organiser sets the table's final result; a pending report is rejected, a final one superseded."""
    tournament, round_, table = _lock_table_context(table)
    if not is_organiser(actor, tournament):
        security_event("override_refused", tournament=tournament.slug, table=table.pk)
    require_organiser(actor, tournament)
    _require_playable(round_, table)
    lines = result_lines(
        tournament=tournament, profile=tournament_profile(tournament), seated=_seated(table), kind=kind,
        scores=scores, placings=placings, winner=winner, forfeited=forfeited,
    )
    _require_knockout_decided(tournament, round_, lines)
    now = timezone.now()
    reported_before = Result.objects.filter(table=table).exists()
    pending = _pending(table)
    if pending is not None:
        pending.state = Result.State.REJECTED
        pending.decided_by = actor
        pending.decided_at = now
        pending.save(update_fields=["state", "decided_by", "decided_at"])
    final = _final(table)
    if final is not None:
        final.state = Result.State.SUPERSEDED
        final.save(update_fields=["state"])
    result = Result.objects.create(
        table=table, kind=kind, state=Result.State.OVERRIDDEN, reported_by=actor, decided_by=actor,
        decided_at=now, note=(note or "")[:500],
    )
    _save_lines(result, lines)
    audit_record(
        action="result_overridden", tournament=tournament, obj=result, actor=actor,
        data={**_audit_data(result, lines), "rejected": pending.pk if pending else None,
              "superseded": final.pk if final else None},
    )
    result_finalised(tournament=tournament, round_=round_)
    if reported_before:
        # Players are told only when the organiser changes what they reported (pending, rejected) or saw
        # (a final result); a result typed in from a paper slip with no report before it sends no mail
        # (issue 30: two mails per team per round for nothing).
        notify_on_commit("result_overridden", result.pk)
    result_event("result.overridden", tournament=tournament, round_=round_, result=result, lines=lines)
    return result
