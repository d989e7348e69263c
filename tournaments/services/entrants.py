"""Registering, importing, checking in, dropping and re-admitting entrants."""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence
from typing import Any

from django.conf import settings
from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from tournaments.errors import ErrorCode, TournamentError, refused
from tournaments.models import (
    ENTRANT_NAME_MAX_LENGTH,
    Club,
    Entrant,
    EntrantMember,
    Player,
    Result,
    Round,
    Seat,
    Tournament,
)
from tournaments.services.audit import audit_entry, audit_record, audit_write
from tournaments.services.drops import drop_forfeits, drop_forfeits_undo
from tournaments.services.locking import lock_tournament
from tournaments.services.results_final import standings_invalidated
from tournaments.services.tournaments import require_organiser, tournament_profile

PLAYER_NAME_MAX_LENGTH = 100


# One whole sentence per kind of name (never "The %(what)s ...": translations need the whole sentence).
_NAME_EMPTY = {
    "entrant name": gettext_lazy("The entrant name must not be empty."),
    "player name": gettext_lazy("The player name must not be empty."),
    "club name": gettext_lazy("The club name must not be empty."),
}
_NAME_TOO_LONG = {
    "entrant name": gettext_lazy("The entrant name may have at most %(max)s characters."),
    "player name": gettext_lazy("The player name may have at most %(max)s characters."),
    "club name": gettext_lazy("The club name may have at most %(max)s characters."),
}


def _clean_name(value: Any, what: str, max_length: int) -> str:
    text = " ".join(str(value or "").split())
    if not text:
        raise refused(str(_NAME_EMPTY[what]))
    if len(text) > max_length:
        raise refused(str(_NAME_TOO_LONG[what]) % {"max": max_length})
    return text


def _clean_email(value: Any) -> str:
    """An optional e-mail address ('' when not given); a malformed one is refused."""
    text = str(value or "").strip()
    if not text:
        return ""
    try:
        validate_email(text)
    except ValidationError as exc:
        raise refused(
            _("“%(value)s” is not a valid e-mail address.") % {"value": text[:100]}
        ) from exc
    return text


def _clean_language(value: Any) -> str:
    text = str(value or "").strip().lower()
    if text and text not in {code for code, _name in settings.LANGUAGES}:
        raise refused(
            _("The language must be one of %(codes)s.") % {"codes": ", ".join(c for c, _n in settings.LANGUAGES)},
        )
    return text


def _schedule_fixed(tournament: Tournament) -> bool:
    """Round robin (and the group phase of stages) pairs from a schedule of all entrants: no late entry."""
    groups = tournament.format == Tournament.Format.ROUND_ROBIN or (
        tournament.format == Tournament.Format.STAGES and tournament.group_count > 1
    )
    return groups and tournament.rounds.exists()


def _register(
    *,
    actor: Any,
    tournament: Tournament,
    name: str,
    player_names: Sequence[str],
    player_ids: Sequence[int],
    club: str | None,
    seed: int | None,
    rating: float | None,
    group: int,
    email: str = "",
    language: str = "",
    player_emails: Sequence[str] = (),
) -> Entrant:
    """Register one entrant in the locked tournament (no permission check, no audit)."""
    if tournament.status == Tournament.Status.FINISHED:
        raise TournamentError(ErrorCode.TOURNAMENT_FINISHED, _("The tournament is finished."))
    if _schedule_fixed(tournament):
        raise TournamentError(
            ErrorCode.REGISTRATION_CLOSED,
            _("The round robin schedule is fixed once the first round exists; late entrants cannot join it."),
        )
    profile = tournament_profile(tournament)
    name = _clean_name(name, "entrant name", ENTRANT_NAME_MAX_LENGTH)
    names = [_clean_name(n, "player name", PLAYER_NAME_MAX_LENGTH) for n in player_names]
    if not names and not player_ids and profile.players_per_entrant == 1:
        names = [name]
    if len(names) + len(player_ids) != profile.players_per_entrant:
        raise refused(
            _("An entrant of this game has %(needed)s player(s); %(given)s given.")
            % {"needed": profile.players_per_entrant, "given": len(names) + len(player_ids)},
        )
    if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int) or not 1 <= seed <= 100000):
        raise refused(_("The seed must be a whole number from 1."))
    if rating is not None and (isinstance(rating, bool) or not isinstance(rating, int | float)
                               or not -100000 <= rating <= 100000):
        raise refused(_("The rating must be a number."))
    if isinstance(group, bool) or not isinstance(group, int) or not 1 <= group <= tournament.group_count:
        raise refused(
            _("The group must be a whole number from 1 to %(max)s.") % {"max": tournament.group_count},
        )
    if Entrant.objects.filter(tournament=tournament, name__iexact=name).exists():
        raise TournamentError(
            ErrorCode.ENTRANT_NAME_TAKEN,
            _("An entrant named “%(name)s” is already registered.") % {"name": name},
        )
    if seed is not None and Entrant.objects.filter(tournament=tournament, seed=seed).exists():
        raise refused(
            _("Seed %(seed)s is already given to another entrant.") % {"seed": seed},
        )
    email = _clean_email(email)
    language = _clean_language(language)
    if len(player_emails) > len(names):
        raise refused(_("Give at most one e-mail address per named player."))
    emails = [_clean_email(e) for e in player_emails]
    club_row = None
    if club:
        club_row, _created = Club.objects.get_or_create(name=_clean_name(club, "club name", 100))
    players: list[Player] = []
    for player_id in player_ids:
        player = Player.objects.filter(pk=player_id).first()
        if player is None:
            raise refused(_("Player %(id)s does not exist.") % {"id": player_id})
        players.append(player)
    players.extend(
        Player.objects.create(name=n, club=club_row, email=emails[i] if i < len(emails) else "", language=language)
        for i, n in enumerate(names)
    )
    if len({p.pk for p in players}) != len(players):
        raise refused(_("A player is listed twice."))
    taken = EntrantMember.objects.filter(tournament=tournament, player__in=players).select_related("player").first()
    if taken is not None:
        raise TournamentError(
            ErrorCode.PLAYER_ALREADY_ENTERED,
            _("%(name)s already plays for another entrant.") % {"name": taken.player.name},
        )
    try:
        with transaction.atomic():
            entrant = Entrant.objects.create(
                tournament=tournament, name=name, club=club_row, seed=seed,
                rating=float(rating) if rating is not None else None, group=group, email=email, language=language,
            )
            EntrantMember.objects.bulk_create(
                EntrantMember(entrant=entrant, player=player, tournament=tournament, position=i)
                for i, player in enumerate(players)
            )
    except IntegrityError as exc:
        raise TournamentError(
            ErrorCode.ENTRANT_NAME_TAKEN,
            _("An entrant named “%(name)s” is already registered.") % {"name": name},
        ) from exc
    return entrant


@transaction.atomic
def entrant_register(
    *,
    actor: Any,
    tournament: Tournament,
    name: str,
    player_names: Sequence[str] = (),
    player_ids: Sequence[int] = (),
    club: str | None = None,
    seed: int | None = None,
    rating: float | None = None,
    group: int = 1,
    check_in: bool = False,
    email: str = "",
    language: str = "",
    player_emails: Sequence[str] = (),
) -> Entrant:
    """Register an entrant (also late, while the tournament runs). Players are named or given by id.
    `email` (the entrant's contact) and `player_emails` (one per named player, in order) are optional
    notification addresses; `language` (de/fr/en) is the language of their e-mails."""
    tournament = lock_tournament(tournament.pk)
    require_organiser(actor, tournament)
    entrant = _register(
        actor=actor, tournament=tournament, name=name, player_names=player_names, player_ids=player_ids,
        club=club, seed=seed, rating=rating, group=group, email=email, language=language,
        player_emails=player_emails,
    )
    if check_in:
        entrant.status = Entrant.Status.CHECKED_IN
        entrant.checked_in_at = timezone.now()
        entrant.save(update_fields=["status", "checked_in_at"])
    audit_record(
        action="entrant_registered", tournament=tournament, obj=entrant, actor=actor,
        data={"name": entrant.name, "late": tournament.rounds.exists()},
    )
    _entrants_changed(tournament)
    return entrant


def _entrants_changed(tournament: Tournament) -> None:
    """New entrants change the standings (a row at 0 points, the ranks below): once results exist, mark
    the standings stale (a version bump) so that they are recomputed, and the reconciler repairs them
    if that message is lost (issue 29: late entrants were missing from standings with equal versions)."""
    if tournament.results_version > 0 or tournament.standings_version > 0:
        standings_invalidated(tournament=tournament)


CSV_COLUMNS = ("name", "players", "club", "seed", "rating", "group", "email", "language", "player_emails")


def _csv_int(value: str, column: str) -> int | None:
    value = value.strip()
    if not value:
        return None
    try:
        return int(value)
    except ValueError as exc:
        raise refused(
            _("“%(column)s” must be a whole number, not “%(value)s”.") % {"column": column, "value": value},
        ) from exc


def _csv_float(value: str, column: str) -> float | None:
    value = value.strip()
    if not value:
        return None
    try:
        number = float(value)
    except ValueError as exc:
        raise refused(
            _("“%(column)s” must be a number, not “%(value)s”.") % {"column": column, "value": value},
        ) from exc
    if number != number or number in (float("inf"), float("-inf")):
        raise refused(_("“%(column)s” must be a finite number.") % {"column": column})
    return number


@transaction.atomic
def entrants_import_csv(*, actor: Any, tournament: Tournament, csv_text: str) -> list[Entrant]:
    """Import entrants from CSV with a header row: name, players (separated by ';') or player1..playerN,
    and optional club, seed, rating, group, email, language and player_emails (';'-separated, in the
    order of the players). Every row is checked; if any row fails, nothing is imported
    and the error lists every failing row (`details["rows"]`: row number and message).
    """
    tournament = lock_tournament(tournament.pk)
    require_organiser(actor, tournament)
    if not isinstance(csv_text, str) or not csv_text.strip():
        raise TournamentError(ErrorCode.INVALID_CSV, _("The CSV file is empty."), rows=[])
    text = csv_text.lstrip("\ufeff")
    # Only the delimiter is guessed (from the header row); quoting is always the standard one (RFC 4180:
    # quoted fields may hold the delimiter, newlines and doubled quotes). The sniffer's own guess of
    # `doublequote` from a header without quotes turned `"He said ""hi"""` into `He said "hi"""`.
    try:
        delimiter = csv.Sniffer().sniff(text.splitlines()[0], delimiters=",;\t").delimiter
    except csv.Error:
        delimiter = ","
    reader = csv.reader(io.StringIO(text, newline=""), csv.excel, delimiter=delimiter)
    try:
        rows = list(reader)
    except csv.Error as exc:
        raise TournamentError(
            ErrorCode.INVALID_CSV,
            _("The CSV file cannot be read: %(error)s") % {"error": exc},
            rows=[],
        ) from exc
    header = [h.strip().lower() for h in rows[0]]
    if "name" not in header:
        raise TournamentError(ErrorCode.INVALID_CSV, _("The first row must be a header with a 'name' column."), rows=[])
    known = set(CSV_COLUMNS) | {h for h in header if h.startswith("player") and h[6:].isdigit()}
    unknown = [h for h in header if h and h not in known]
    if unknown:
        raise TournamentError(
            ErrorCode.INVALID_CSV, _("Unknown column(s): %(columns)s.") % {"columns": ", ".join(unknown)}, rows=[]
        )
    data_rows = [(number, row) for number, row in enumerate(rows[1:], start=2) if any(c.strip() for c in row)]
    if len(data_rows) > settings.ENTRANT_IMPORT_MAX_ROWS:
        raise TournamentError(
            ErrorCode.INVALID_CSV,
            _("At most %(max)s rows can be imported at once.") % {"max": settings.ENTRANT_IMPORT_MAX_ROWS},
            rows=[],
        )
    if not data_rows:
        raise TournamentError(ErrorCode.INVALID_CSV, _("The CSV file has no entrants."), rows=[])
    errors: list[dict[str, Any]] = []
    entrants: list[Entrant] = []
    for number, row in data_rows:
        if len(row) != len(header):
            message = _("Expected %(expected)s columns, found %(found)s.") % {"expected": len(header), "found": len(row)}
            errors.append({"row": number, "message": message})
            continue
        values = dict(zip(header, row, strict=True))
        players = [p for p in values.get("players", "").split(";") if p.strip()]
        players += [values[h] for h in header if h.startswith("player") and h[6:].isdigit() and values[h].strip()]
        try:
            with transaction.atomic():
                entrants.append(
                    _register(
                        actor=actor, tournament=tournament, name=values.get("name", ""), player_names=players,
                        player_ids=(), club=values.get("club", "").strip() or None,
                        seed=_csv_int(values.get("seed", ""), "seed"),
                        rating=_csv_float(values.get("rating", ""), "rating"),
                        group=_csv_int(values.get("group", ""), "group") or 1,
                        email=values.get("email", ""), language=values.get("language", ""),
                        player_emails=[e.strip() for e in values.get("player_emails", "").split(";")]
                        if values.get("player_emails", "").strip() else [],
                    )
                )
        except TournamentError as exc:
            errors.append({"row": number, "message": exc.message})
    if errors:
        raise TournamentError(
            ErrorCode.INVALID_CSV,
            _("%(count)s row(s) have errors; nothing was imported.") % {"count": len(errors)},
            rows=errors,
        )
    audit_record(
        action="entrants_imported", tournament=tournament, obj=tournament, actor=actor,
        data={"count": len(entrants), "names": [e.name for e in entrants]},
    )
    _entrants_changed(tournament)
    return entrants


def _locked_entrant(entrant: Entrant) -> tuple[Tournament, Entrant]:
    tournament = lock_tournament(entrant.tournament_id)
    return tournament, Entrant.objects.select_for_update(no_key=True).get(pk=entrant.pk)


@transaction.atomic
def entrant_check_in(*, actor: Any, entrant: Entrant) -> Entrant:
    tournament, entrant = _locked_entrant(entrant)
    require_organiser(actor, tournament)
    if entrant.status == Entrant.Status.DROPPED:
        raise TournamentError(ErrorCode.ENTRANT_DROPPED, _("The entrant has dropped; re-admit it first."))
    if entrant.status == Entrant.Status.CHECKED_IN:
        raise TournamentError(ErrorCode.ENTRANT_ALREADY_CHECKED_IN, _("The entrant is already checked in."))
    entrant.status = Entrant.Status.CHECKED_IN
    entrant.checked_in_at = timezone.now()
    entrant.save(update_fields=["status", "checked_in_at"])
    audit_record(action="entrant_checked_in", tournament=tournament, obj=entrant, actor=actor)
    return entrant


@transaction.atomic
def entrant_drop(*, actor: Any, entrant: Entrant) -> Entrant:
    """Drop an entrant: it is not paired in later rounds; its games so far still count.

    A table of a published round where it sits without a final result is ended by the forfeit rule:
    the entrant forfeits (the tournament's forfeit scores; TAC 8:4), the others win; a pending report
    there is rejected. `entrant_drop_undo` takes it back while the round is open."""
    tournament, entrant = _locked_entrant(entrant)
    require_organiser(actor, tournament)
    if entrant.status == Entrant.Status.DROPPED:
        raise TournamentError(ErrorCode.ENTRANT_DROPPED, _("The entrant has already dropped."))
    previous = entrant.status
    closed = drop_forfeits(tournament=tournament, entrant=entrant, actor=actor)
    entrant.status = Entrant.Status.DROPPED
    entrant.dropped_at = timezone.now()
    entrant.save(update_fields=["status", "dropped_at"])
    audit_record(action="entrant_dropped", tournament=tournament, obj=entrant, actor=actor,
                 data={"previous_status": previous, "closed_tables": closed})
    return entrant


@transaction.atomic
def entrant_drop_undo(*, actor: Any, entrant: Entrant) -> Entrant:
    """Take back a drop while the round it ended tables in is open (no later round published): the
    forfeits it made are superseded, the reports they rejected come back, the entrant plays on."""
    tournament, entrant = _locked_entrant(entrant)
    require_organiser(actor, tournament)
    if entrant.status != Entrant.Status.DROPPED:
        raise TournamentError(ErrorCode.ENTRANT_NOT_DROPPED, _("Only a dropped entrant can be taken back."))
    undone = drop_forfeits_undo(tournament=tournament, entrant=entrant)
    entrant.status = Entrant.Status.CHECKED_IN if entrant.checked_in_at else Entrant.Status.REGISTERED
    entrant.dropped_at = None
    entrant.save(update_fields=["status", "dropped_at"])
    audit_record(action="entrant_drop_undone", tournament=tournament, obj=entrant, actor=actor,
                 data={"reopened_tables": undone})
    return entrant


@transaction.atomic
def entrants_drop_absent(*, actor: Any, tournament: Tournament) -> list[Entrant]:
    """Drop, in one action, every entrant who has not checked in (the no-shows)."""
    tournament = lock_tournament(tournament.pk)
    require_organiser(actor, tournament)
    if tournament.status == Tournament.Status.FINISHED:
        raise TournamentError(ErrorCode.TOURNAMENT_FINISHED, _("The tournament is finished."))
    absent = list(tournament.entrants.select_for_update(no_key=True).filter(status=Entrant.Status.REGISTERED)
                  .order_by("pk"))
    now = timezone.now()
    # One query finds who of them sits at an open table; only those need forfeits (issue 29: a query per
    # entrant, and one audit INSERT each, ran past gunicorn's timeout at 400 entrants under load).
    seated = set(
        Seat.objects.filter(entrant__in=[e.pk for e in absent], table__round__tournament=tournament,
                            table__round__status=Round.Status.PUBLISHED, table__is_bye=False)
        .exclude(table__results__state__in=Result.FINAL_STATES).values_list("entrant_id", flat=True)
    ) if absent else set()
    closed: dict[int, list[dict[str, Any]]] = {}
    for entrant in absent:
        closed[entrant.pk] = (drop_forfeits(tournament=tournament, entrant=entrant, actor=actor)
                              if entrant.pk in seated else [])
        entrant.status = Entrant.Status.DROPPED
        entrant.dropped_at = now
    if absent:
        Entrant.objects.filter(pk__in=[e.pk for e in absent]).update(status=Entrant.Status.DROPPED, dropped_at=now)
    audit_write([
        audit_entry(action="entrant_dropped", tournament=tournament, obj=entrant, actor=actor,
                    data={"previous_status": Entrant.Status.REGISTERED, "closed_tables": closed[entrant.pk],
                          "not_checked_in": True})
        for entrant in absent
    ])
    return absent


@transaction.atomic
def entrant_readmit(*, actor: Any, entrant: Entrant) -> Entrant:
    """Re-admit a dropped entrant; it is paired again from the next generated round."""
    tournament, entrant = _locked_entrant(entrant)
    require_organiser(actor, tournament)
    if entrant.status != Entrant.Status.DROPPED:
        raise TournamentError(ErrorCode.ENTRANT_NOT_DROPPED, _("Only a dropped entrant can be re-admitted."))
    if tournament.status == Tournament.Status.FINISHED:
        raise TournamentError(ErrorCode.TOURNAMENT_FINISHED, _("The tournament is finished."))
    entrant.status = Entrant.Status.REGISTERED
    entrant.dropped_at = None
    entrant.save(update_fields=["status", "dropped_at"])
    audit_record(action="entrant_readmitted", tournament=tournament, obj=entrant, actor=actor)
    return entrant


class _Unchanged:
    def __repr__(self) -> str:
        return "UNCHANGED"


UNCHANGED: Any = _Unchanged()


def _rename_players(tournament: Tournament, entrant: Entrant, names: Sequence[str], club: Club | None) -> list[str]:
    """Give the entrant's players these names, in order. A player who plays only for this entrant is
    renamed (a typo fixed); one who also played elsewhere keeps the name and is replaced by a new player."""
    profile = tournament_profile(tournament)
    cleaned = [_clean_name(n, "player name", PLAYER_NAME_MAX_LENGTH) for n in names]
    if len(cleaned) != profile.players_per_entrant:
        raise TournamentError(
            ErrorCode.INVALID_INPUT,
            _("An entrant of this game has %(needed)s player(s); %(given)s given.")
            % {"needed": profile.players_per_entrant, "given": len(cleaned)},
        )
    members = list(entrant.members.select_related("player").order_by("position"))
    before = [m.player.name for m in members]
    for position, name in enumerate(cleaned):
        member = members[position] if position < len(members) else None
        if member is not None and member.player.name == name:
            continue
        if member is not None and member.player.user_id is None and member.player.memberships.count() == 1:
            member.player.name = name
            member.player.save(update_fields=["name"])
            continue
        player = Player.objects.create(name=name, club=club, language=entrant.language)
        if member is None:
            EntrantMember.objects.create(entrant=entrant, player=player, tournament=tournament, position=position)
        else:
            member.player = player
            member.save(update_fields=["player"])
    return before


@transaction.atomic
def entrant_update(
    *,
    actor: Any,
    entrant: Entrant,
    name: Any = UNCHANGED,
    player_names: Any = UNCHANGED,
    club: Any = UNCHANGED,
    seed: Any = UNCHANGED,
    group: Any = UNCHANGED,
    email: Any = UNCHANGED,
) -> Entrant:
    """Edit an entrant: name, players (names in order), club ('' or None: none), seed (None: none),
    group (moving a team between groups: only until round 1 is published, `groups_fixed`) and contact
    address. One audit row lists every changed field with its old and new value."""
    from tournaments.services.groups import has_groups, require_groups_open

    tournament, entrant = _locked_entrant(entrant)
    require_organiser(actor, tournament)
    if tournament.status == Tournament.Status.FINISHED:
        raise TournamentError(ErrorCode.TOURNAMENT_FINISHED, _("The tournament is finished."))
    changes: dict[str, list[Any]] = {}
    fields: list[str] = []
    if name is not UNCHANGED:
        new_name = _clean_name(name, "entrant name", ENTRANT_NAME_MAX_LENGTH)
        if new_name != entrant.name:
            if Entrant.objects.filter(tournament=tournament, name__iexact=new_name).exclude(pk=entrant.pk).exists():
                raise TournamentError(
                    ErrorCode.ENTRANT_NAME_TAKEN,
                    _("An entrant named “%(name)s” is already registered.") % {"name": new_name},
                )
            changes["name"] = [entrant.name, new_name]
            entrant.name = new_name
            fields.append("name")
    if seed is not UNCHANGED and seed != entrant.seed:
        if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int) or not 1 <= seed <= 100000):
            raise TournamentError(ErrorCode.INVALID_INPUT, _("The seed must be a whole number from 1."))
        if seed is not None and Entrant.objects.filter(tournament=tournament, seed=seed).exclude(pk=entrant.pk).exists():
            raise TournamentError(
                ErrorCode.INVALID_INPUT, _("Seed %(seed)s is already given to another entrant.") % {"seed": seed})
        changes["seed"] = [entrant.seed, seed]
        entrant.seed = seed
        fields.append("seed")
    if group is not UNCHANGED and group != entrant.group:
        if isinstance(group, bool) or not isinstance(group, int) or not 1 <= group <= tournament.group_count:
            raise TournamentError(
                ErrorCode.INVALID_INPUT,
                _("The group must be a whole number from 1 to %(max)s.") % {"max": tournament.group_count},
            )
        if has_groups(tournament):
            require_groups_open(tournament)
        changes["group"] = [entrant.group, group]
        entrant.group = group
        fields.append("group")
    if email is not UNCHANGED:
        new_email = _clean_email(email)
        if new_email != entrant.email:
            changes["email"] = ["…", "…"]  # addresses stay out of the audit trail
            entrant.email = new_email
            fields.append("email")
    if club is not UNCHANGED:
        club_row = Club.objects.get_or_create(name=_clean_name(club, "club name", 100))[0] if club else None
        if club_row != entrant.club:
            changes["club"] = [entrant.club.name if entrant.club else None, club_row.name if club_row else None]
            entrant.club = club_row
            fields.append("club")
    if player_names is not UNCHANGED:
        if isinstance(player_names, str) or not isinstance(player_names, Sequence):
            raise TournamentError(ErrorCode.INVALID_INPUT, _("The players must be a list of names."))
        before = _rename_players(tournament, entrant, list(player_names), entrant.club)
        after = list(entrant.members.order_by("position").values_list("player__name", flat=True))
        if before != after:
            taken = (EntrantMember.objects.filter(tournament=tournament, player__in=entrant.members.values("player"))
                     .exclude(entrant=entrant).select_related("player").first())
            if taken is not None:  # pragma: no cover - new players are never in another entrant
                raise TournamentError(ErrorCode.PLAYER_ALREADY_ENTERED,
                                      _("%(name)s already plays for another entrant.") % {"name": taken.player.name})
            changes["players"] = [before, after]
    if fields:
        try:
            with transaction.atomic():
                entrant.save(update_fields=fields)
        except IntegrityError as exc:
            raise TournamentError(
                ErrorCode.ENTRANT_NAME_TAKEN,
                _("An entrant named “%(name)s” is already registered.") % {"name": entrant.name},
            ) from exc
    if changes:
        audit_record(action="entrant_updated", tournament=tournament, obj=entrant, actor=actor,
                     data={"changes": changes})
    return entrant


@transaction.atomic
def entrant_delete(*, actor: Any, entrant: Entrant) -> dict[str, Any]:
    """Delete an entrant that has never been seated in a published round (registered by mistake, or
    withdrawn before the start). A draft round that seats it is discarded. One that has played is
    refused (`entrant_has_games`): drop it instead, its games still count. A sign-up of it is marked
    withdrawn and the waiting list moves up."""
    from tournaments.models import Round
    from tournaments.registration.services import promote_waitlist, registration_withdrawn_by_delete

    tournament, entrant = _locked_entrant(entrant)
    require_organiser(actor, tournament)
    played = (entrant.seats.exclude(round__status=Round.Status.DRAFT).order_by("round__number")
              .values_list("round__number", flat=True).first())
    if played is not None:
        raise TournamentError(
            ErrorCode.ENTRANT_HAS_GAMES,
            _("%(name)s was paired in round %(round)s; drop the entrant instead (its games still count).")
            % {"name": entrant.name, "round": played},
        )
    drafts = list(tournament.rounds.filter(status=Round.Status.DRAFT, tables__seats__entrant=entrant)
                  .distinct().values_list("number", flat=True))
    tournament.rounds.filter(number__in=drafts).delete()
    data = {"name": entrant.name, "entrant_id": entrant.pk, "discarded_drafts": drafts}
    withdrawn = registration_withdrawn_by_delete(actor=actor, tournament=tournament, entrant=entrant)
    entrant_id = entrant.pk
    entrant.delete()
    promoted = promote_waitlist(tournament=tournament, actor=actor)
    audit_record(action="entrant_deleted", tournament=tournament, obj=None, actor=actor,
                 data={**data, "withdrawn_registrations": withdrawn, "promoted": promoted})
    return {"id": entrant_id, "name": data["name"], "discarded_drafts": drafts, "promoted": promoted}
