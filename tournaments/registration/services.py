"""Sign-up, approval, entry limit and waiting list, withdrawal and self check-in (docs/registration.md).

Every function locks the tournament first (one writer at a time per tournament, so the entry limit
and the waiting-list positions cannot be overtaken by a concurrent sign-up), writes an audit row and
enqueues its e-mails on commit. States of a `Registration`:

    submit ──> pending (approval required) ──approve──> accepted | waitlisted
       │                                   └─reject──> rejected
       ├──> accepted (room under the entry limit: its entrant is created at once)
       └──> waitlisted (full: the next position)           waitlisted ──(a place frees)──> accepted
    accepted | waitlisted | pending ──withdraw──> withdrawn   (an accepted entrant is deleted, or dropped
                                                              if it has played; the queue moves up)

The waiting list moves up whenever a place frees before the first round (a withdrawal, an entrant
deleted, the limit raised): the lowest position first, each with an e-mail.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import Max
from django.utils import timezone
from django.utils.translation import gettext as _

from tournaments.errors import ErrorCode, TournamentError
from tournaments.models import ENTRANT_NAME_MAX_LENGTH, Entrant, Registration, Round, Tournament
from tournaments.registration.emails import notify_registration
from tournaments.services.audit import audit_record
from tournaments.services.drops import drop_forfeits
from tournaments.services.entrants import (
    PLAYER_NAME_MAX_LENGTH,
    _clean_email,
    _clean_language,
    _clean_name,
    _register,
)
from tournaments.services.locking import lock_tournament
from tournaments.services.tournaments import require_organiser, tournament_profile

ENTRY_LIMIT_MAX = 10_000


def entrants_counted(tournament: Tournament) -> int:
    """Entrants that take a place under the entry limit: every entrant not dropped."""
    return tournament.entrants.exclude(status=Entrant.Status.DROPPED).count()


def has_room(tournament: Tournament) -> bool:
    return tournament.entry_limit is None or entrants_counted(tournament) < tournament.entry_limit


def waitlist(tournament: Tournament) -> list[Registration]:
    return list(tournament.registrations.filter(state=Registration.State.WAITLISTED).order_by("waitlist_position"))


def _next_position(tournament: Tournament) -> int:
    top = tournament.registrations.aggregate(top=Max("waitlist_position"))["top"]
    return (top or 0) + 1


def _accept(tournament: Tournament, registration: Registration) -> None:
    """Create the entrant of the sign-up (the tournament is locked by the caller)."""
    entrant = _register(
        actor=None, tournament=tournament, name=registration.name,
        player_names=[p["name"] for p in registration.players], player_ids=(),
        club=registration.club or None, seed=None, rating=None, group=1, email=registration.email,
        language=registration.language, player_emails=[p.get("email", "") for p in registration.players],
    )
    registration.entrant = entrant
    registration.state = Registration.State.ACCEPTED
    registration.waitlist_position = None
    registration.decided_at = timezone.now()


def _waitlist(tournament: Tournament, registration: Registration) -> None:
    registration.state = Registration.State.WAITLISTED
    registration.waitlist_position = _next_position(tournament)


def promote_waitlist(*, tournament: Tournament, actor: Any = None) -> list[int]:
    """Fill free places from the waiting list, lowest position first (tournament locked by the caller).
    Only before the first round: once play has started, a place freed stays free. Returns the ids moved up."""
    if tournament.rounds.exists() or tournament.status == Tournament.Status.FINISHED:
        return []
    promoted: list[int] = []
    for registration in waitlist(tournament):
        if not has_room(tournament):
            break
        _accept(tournament, registration)
        registration.save(update_fields=["entrant", "state", "waitlist_position", "decided_at"])
        audit_record(action="registration_promoted", tournament=tournament, obj=registration, actor=actor,
                     data={"name": registration.name, "entrant_id": registration.entrant_id})
        notify_registration("registration_promoted", registration.pk)
        promoted.append(registration.pk)
    return promoted


def _clean_players(tournament: Tournament, name: str, players: Any) -> list[dict[str, str]]:
    profile = tournament_profile(tournament)
    if not isinstance(players, Sequence) or isinstance(players, str):
        raise TournamentError(ErrorCode.INVALID_INPUT, _("The players must be a list of names."))
    cleaned: list[dict[str, str]] = []
    for player in players:
        if isinstance(player, str):
            player = {"name": player}
        if not isinstance(player, dict):
            raise TournamentError(ErrorCode.INVALID_INPUT, _("The players must be a list of names."))
        if not str(player.get("name") or "").strip() and not str(player.get("email") or "").strip():
            continue  # an empty line of the form
        cleaned.append({"name": _clean_name(player.get("name"), "player name", PLAYER_NAME_MAX_LENGTH),
                        "email": _clean_email(player.get("email"))})
    if not cleaned and profile.players_per_entrant == 1:
        cleaned = [{"name": name, "email": ""}]
    if len(cleaned) != profile.players_per_entrant:
        raise TournamentError(
            ErrorCode.INVALID_INPUT,
            _("An entrant of this game has %(needed)s player(s); %(given)s given.")
            % {"needed": profile.players_per_entrant, "given": len(cleaned)},
        )
    if len({p["name"].casefold() for p in cleaned}) != len(cleaned):
        raise TournamentError(ErrorCode.INVALID_INPUT, _("A player is listed twice."))
    return cleaned


@transaction.atomic
def registration_submit(
    *,
    tournament: Tournament,
    name: str,
    email: str,
    players: Sequence[Any] = (),
    club: str = "",
    language: str = "",
) -> Registration:
    """A public sign-up (no account needed). Accepted at once when there is room and no approval is
    required; else pending (approval) or on the waiting list (full)."""
    tournament = lock_tournament(tournament.pk)
    if not tournament.registration_open or tournament.status == Tournament.Status.FINISHED:
        raise TournamentError(ErrorCode.REGISTRATION_CLOSED, _("Sign-up for this tournament is closed."))
    if tournament.rounds.exists():
        raise TournamentError(ErrorCode.REGISTRATION_CLOSED,
                              _("The tournament has started; sign-up is closed. Ask the organisers."))
    name = _clean_name(name, "entrant name", ENTRANT_NAME_MAX_LENGTH)
    contact = _clean_email(email)
    if not contact:
        raise TournamentError(ErrorCode.INVALID_INPUT, _("Give an e-mail address: your confirmation goes there."))
    language = _clean_language(language)
    club = _clean_name(club, "club name", 100) if str(club or "").strip() else ""
    cleaned = _clean_players(tournament, name, players)
    taken = _("The name “%(name)s” is already taken in this tournament.") % {"name": name}
    if (tournament.entrants.filter(name__iexact=name).exists()
            or tournament.registrations.filter(name__iexact=name, state__in=Registration.ACTIVE_STATES).exists()):
        raise TournamentError(ErrorCode.ENTRANT_NAME_TAKEN, taken)
    registration = Registration(tournament=tournament, name=name, club=club, players=cleaned, email=contact,
                                language=language)
    if tournament.registration_approval:
        registration.state = Registration.State.PENDING
    elif has_room(tournament):
        _accept(tournament, registration)
    else:
        _waitlist(tournament, registration)
    try:
        with transaction.atomic():
            registration.save()
    except IntegrityError as exc:
        raise TournamentError(ErrorCode.ENTRANT_NAME_TAKEN, taken) from exc
    audit_record(action="registration_submitted", tournament=tournament, obj=registration,
                 data={"name": name, "state": registration.state, "position": registration.waitlist_position})
    notify_registration(f"registration_{registration.state}", registration.pk)
    return registration


def _locked(registration: Registration) -> tuple[Tournament, Registration]:
    tournament = lock_tournament(registration.tournament_id)
    return tournament, Registration.objects.select_for_update().get(pk=registration.pk)


@transaction.atomic
def registration_approve(*, actor: Any, registration: Registration) -> Registration:
    """Approve a pending sign-up: accepted if there is room, else the next place on the waiting list."""
    tournament, registration = _locked(registration)
    require_organiser(actor, tournament)
    if registration.state != Registration.State.PENDING:
        raise TournamentError(ErrorCode.REGISTRATION_NOT_PENDING, _("Only a sign-up awaiting approval can be approved."))
    if has_room(tournament) and not tournament.rounds.exists():
        _accept(tournament, registration)
    else:
        _waitlist(tournament, registration)
        registration.decided_at = timezone.now()
    registration.save()
    audit_record(action="registration_approved", tournament=tournament, obj=registration, actor=actor,
                 data={"name": registration.name, "state": registration.state,
                       "position": registration.waitlist_position})
    notify_registration(f"registration_{registration.state}", registration.pk)
    return registration


@transaction.atomic
def registration_reject(*, actor: Any, registration: Registration) -> Registration:
    tournament, registration = _locked(registration)
    require_organiser(actor, tournament)
    if registration.state != Registration.State.PENDING:
        raise TournamentError(ErrorCode.REGISTRATION_NOT_PENDING, _("Only a sign-up awaiting approval can be rejected."))
    registration.state = Registration.State.REJECTED
    registration.decided_at = timezone.now()
    registration.save(update_fields=["state", "decided_at"])
    audit_record(action="registration_rejected", tournament=tournament, obj=registration, actor=actor,
                 data={"name": registration.name})
    notify_registration("registration_rejected", registration.pk)
    return registration


@transaction.atomic
def registration_withdraw(*, registration: Registration) -> Registration:
    """Withdraw a sign-up through its private link. An accepted team's entrant is deleted (dropped if it
    was already paired, its games still counting); the waiting list moves up."""
    tournament, registration = _locked(registration)
    if registration.state not in Registration.ACTIVE_STATES:
        raise TournamentError(ErrorCode.REGISTRATION_NOT_ACTIVE, _("This sign-up is no longer active."))
    if tournament.status == Tournament.Status.FINISHED:
        raise TournamentError(ErrorCode.TOURNAMENT_FINISHED, _("The tournament is finished."))
    previous = registration.state
    entrant = Entrant.objects.select_for_update().filter(pk=registration.entrant_id).first()
    dropped = False
    if entrant is not None:
        if entrant.seats.exclude(round__status=Round.Status.DRAFT).exists():
            drop_forfeits(tournament=tournament, entrant=entrant, actor=None)
            entrant.status = Entrant.Status.DROPPED
            entrant.dropped_at = timezone.now()
            entrant.save(update_fields=["status", "dropped_at"])
            dropped = True
        else:
            tournament.rounds.filter(status=Round.Status.DRAFT, tables__seats__entrant=entrant).delete()
            registration.entrant = None
            entrant.delete()
    registration.state = Registration.State.WITHDRAWN
    registration.waitlist_position = None
    registration.decided_at = timezone.now()
    registration.save(update_fields=["state", "waitlist_position", "decided_at", "entrant"])
    audit_record(action="registration_withdrawn", tournament=tournament, obj=registration,
                 actor_entrant=entrant if dropped else None,
                 data={"name": registration.name, "previous_state": previous, "entrant_dropped": dropped})
    notify_registration("registration_withdrawn", registration.pk)
    promote_waitlist(tournament=tournament)
    return registration


def registration_withdrawn_by_delete(*, actor: Any, tournament: Tournament, entrant: Entrant) -> list[int]:
    """`entrant_delete` of an entrant that signed up (tournament locked): its sign-up is withdrawn (the
    caller then deletes the entrant and moves the waiting list up with `promote_waitlist`)."""
    registration = Registration.objects.select_for_update().filter(entrant=entrant).first()
    if registration is None:
        return []
    registration.state = Registration.State.WITHDRAWN
    registration.entrant = None
    registration.decided_at = timezone.now()
    registration.save(update_fields=["state", "entrant", "decided_at"])
    audit_record(action="registration_withdrawn", tournament=tournament, obj=registration, actor=actor,
                 data={"name": registration.name, "previous_state": "accepted", "entrant_deleted": True})
    return [registration.pk]


@transaction.atomic
def registration_check_in(*, registration: Registration) -> Entrant:
    """Self check-in through the sign-up's private link (or its QR code at the desk), while the
    organisers have self check-in open."""
    tournament, registration = _locked(registration)
    if not tournament.self_checkin_open or tournament.status == Tournament.Status.FINISHED:
        raise TournamentError(ErrorCode.CHECKIN_CLOSED, _("Self check-in is not open."))
    if registration.state != Registration.State.ACCEPTED or registration.entrant_id is None:
        raise TournamentError(ErrorCode.REGISTRATION_NOT_ACTIVE, _("Only an accepted team can check in."))
    entrant = Entrant.objects.select_for_update().get(pk=registration.entrant_id)
    if entrant.status == Entrant.Status.DROPPED:
        raise TournamentError(ErrorCode.ENTRANT_DROPPED, _("The team has dropped; ask the organisers."))
    if entrant.status == Entrant.Status.CHECKED_IN:
        raise TournamentError(ErrorCode.ENTRANT_ALREADY_CHECKED_IN, _("The team is already checked in."))
    entrant.status = Entrant.Status.CHECKED_IN
    entrant.checked_in_at = timezone.now()
    entrant.save(update_fields=["status", "checked_in_at"])
    audit_record(action="entrant_checked_in", tournament=tournament, obj=entrant, actor_entrant=entrant,
                 data={"self": True})
    return entrant


_UNSET: Any = object()


@transaction.atomic
def registration_configure(
    *,
    actor: Any,
    tournament: Tournament,
    registration_open: Any = _UNSET,
    registration_approval: Any = _UNSET,
    entry_limit: Any = _UNSET,
    self_checkin_open: Any = _UNSET,
) -> Tournament:
    """Open or close sign-up and self check-in, require approval, set the entry limit (None: none).
    Raising the limit (or removing it) moves the waiting list up; lowering it below the entrants
    already accepted removes nobody (only new sign-ups wait)."""
    tournament = lock_tournament(tournament.pk)
    require_organiser(actor, tournament)
    if tournament.status == Tournament.Status.FINISHED:
        raise TournamentError(ErrorCode.TOURNAMENT_FINISHED, _("The tournament is finished."))
    changes: dict[str, Any] = {}
    for field, value in (("registration_open", registration_open), ("registration_approval", registration_approval),
                         ("self_checkin_open", self_checkin_open)):
        if value is _UNSET:
            continue
        if not isinstance(value, bool):
            raise TournamentError(ErrorCode.INVALID_INPUT, _("“%(field)s” must be true or false.") % {"field": field})
        if getattr(tournament, field) != value:
            changes[field] = value
    if entry_limit is not _UNSET:
        if entry_limit is not None and (isinstance(entry_limit, bool) or not isinstance(entry_limit, int)
                                        or not 2 <= entry_limit <= ENTRY_LIMIT_MAX):
            raise TournamentError(ErrorCode.INVALID_INPUT,
                                  _("The entry limit must be a whole number from 2 to %(max)s, or empty.")
                                  % {"max": ENTRY_LIMIT_MAX})
        if entry_limit != tournament.entry_limit:
            changes["entry_limit"] = entry_limit
    if not changes:
        return tournament
    for field, value in changes.items():
        setattr(tournament, field, value)
    tournament.save(update_fields=list(changes))
    audit_record(action="registration_configured", tournament=tournament, obj=tournament, actor=actor,
                 data={"changes": changes})
    if "entry_limit" in changes:
        promote_waitlist(tournament=tournament, actor=actor)
    return tournament


def registration_find(*, tournament: Tournament, name: str, email: str) -> Registration:
    """The accepted sign-up of this team name and contact address (the desk QR's check-in page asks
    for both). Not found and wrong address answer alike, so the page tells nothing about others."""
    found = (tournament.registrations.filter(state=Registration.State.ACCEPTED, name__iexact=" ".join(str(name).split()),
                                             email__iexact=str(email).strip()).first())
    if found is None:
        raise TournamentError(ErrorCode.NOT_FOUND,
                              _("No accepted sign-up has this team name and e-mail address."))
    return found
