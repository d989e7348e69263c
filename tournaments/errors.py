"""The one application error of the tournaments app, with stable snake_case codes.

Services raise `TournamentError(code, message, **details)`; the API maps it once to an HTTP status
(`tournaments.api_errors`), the web views show the message. Codes never change meaning.

The message is translatable at the source: a whole sentence marked with gettext, values as named
placeholders (`_("Seed %(seed)s is already given to another entrant.") % {"seed": seed}`), evaluated
when raised, i.e. in the language of the request (LocaleMiddleware; English by default). Clients that
need a stable value use the code, never the sentence. Background work that stores a message runs under
`translation.override("en")`.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any


class ErrorCode(StrEnum):
    # 400: the input is wrong
    INVALID_INPUT = "invalid_input"
    INVALID_VARIANT = "invalid_variant"
    INVALID_RESULT = "invalid_result"
    INVALID_CSV = "invalid_csv"
    INVALID_ARCHIVE = "invalid_archive"
    PAIRING_INVALID = "pairing_invalid"
    JSON_TOO_DEEP = "json_too_deep"
    # game records (the games app)
    RECORD_TOO_LARGE = "record_too_large"
    RECORD_UNREADABLE = "record_unreadable"
    RECORD_GAME_MISMATCH = "record_game_mismatch"
    RECORD_PLAYERS_MISMATCH = "record_players_mismatch"
    RECORD_TABLE_NOT_FOUND = "record_table_not_found"
    IMPORT_TOO_LARGE = "import_too_large"
    IMPORT_UNREADABLE = "import_unreadable"
    # webhooks (tournaments.webhooks)
    WEBHOOK_TARGET_REFUSED = "webhook_target_refused"
    # live scoresheets (games app; an illegal entry answers 400 with the engine's verdict code instead)
    SCORESHEET_UNSUPPORTED = "scoresheet_unsupported"
    # 401 / 403 / 404
    LOGIN_FAILED = "login_failed"
    PERMISSION_DENIED = "permission_denied"
    NOT_FOUND = "not_found"
    # 409: the state does not allow it (or someone else was faster)
    ENTRANT_NAME_TAKEN = "entrant_name_taken"
    PLAYER_ALREADY_ENTERED = "player_already_entered"
    ENTRANT_DROPPED = "entrant_dropped"
    ENTRANT_NOT_DROPPED = "entrant_not_dropped"
    ENTRANT_ALREADY_CHECKED_IN = "entrant_already_checked_in"
    TOURNAMENT_FINISHED = "tournament_finished"
    REGISTRATION_CLOSED = "registration_closed"
    ROUND_NOT_DRAFT = "round_not_draft"
    ROUND_NOT_PUBLISHED = "round_not_published"
    ROUND_IN_PROGRESS = "round_in_progress"
    ROUNDS_COMPLETE = "rounds_complete"
    NOT_ENOUGH_ENTRANTS = "not_enough_entrants"
    RESULT_ALREADY_REPORTED = "result_already_reported"
    RESULT_ALREADY_FINAL = "result_already_final"
    RESULT_NOT_PENDING = "result_not_pending"
    RESULT_CONFLICT = "result_conflict"
    CONFIRM_OWN_REPORT = "confirm_own_report"
    RECORD_DUPLICATE = "record_duplicate"
    # issue 13 (rounds)
    TABLE_NOT_RELEASED = "table_not_released"
    DROP_NOT_UNDOABLE = "drop_not_undoable"
    TIME_LIMIT_NOT_REACHED = "time_limit_not_reached"
    WEBHOOK_LIMIT_REACHED = "webhook_limit_reached"
    LAST_ORGANISER = "last_organiser"
    SCORESHEET_EXISTS = "scoresheet_exists"
    SCORESHEET_STALE = "scoresheet_stale"
    SCORESHEET_CLOSED = "scoresheet_closed"
    SCORESHEET_NOT_OVER = "scoresheet_not_over"
    # issue 28 (group draw, entrant editing, sign-up)
    GROUPS_FIXED = "groups_fixed"  # 409: round 1 is published; groups no longer change
    ENTRANT_HAS_GAMES = "entrant_has_games"  # 409: an entrant seated in a round is dropped, not deleted
    CHECKIN_CLOSED = "checkin_closed"  # 409: self check-in is not open
    REGISTRATION_NOT_PENDING = "registration_not_pending"  # 409: only a pending sign-up is approved/rejected
    REGISTRATION_NOT_ACTIVE = "registration_not_active"  # 409: the sign-up was withdrawn or not accepted
    SIGN_UP_THROTTLED = "sign_up_throttled"  # 429: too many sign-ups from one address
    # raised outside services (tournaments.outages, tournaments.login_protection); a database outage
    # is 503 "service_unavailable" (tournaments.outages), the one code that is not a TournamentError
    WRITE_CONFLICT = "write_conflict"  # 409: a deadlock or serialization failure; nothing was written
    TOURNAMENT_BUSY = "tournament_busy"  # 503 + Retry-After: a row lock not granted within DB_LOCK_TIMEOUT
    LOGIN_LOCKED = "login_locked"  # 429


# 400: the request is malformed: a field missing or of the wrong type or out of the bounds the schema
#      states, a body that is not JSON or too deep or too large. A client fixes its code.
# 422: the request is well formed (the schema accepts it) but the tournament's rules refuse its content:
#      a score beyond the game's range, a variant the game does not have, a CSV or record that does not
#      read, a webhook host that resolves to a private address. Depends on the tournament, not the schema.
# 409: the current state does not allow it (default): round not a draft, result already final ...
HTTP_STATUS: dict[ErrorCode, int] = {
    ErrorCode.INVALID_INPUT: 400,
    ErrorCode.JSON_TOO_DEEP: 400,
    ErrorCode.RECORD_TOO_LARGE: 400,
    ErrorCode.IMPORT_TOO_LARGE: 400,
    ErrorCode.INVALID_VARIANT: 422,
    ErrorCode.INVALID_RESULT: 422,
    ErrorCode.INVALID_CSV: 422,
    ErrorCode.INVALID_ARCHIVE: 422,
    ErrorCode.PAIRING_INVALID: 422,
    ErrorCode.RECORD_UNREADABLE: 422,
    ErrorCode.RECORD_GAME_MISMATCH: 422,
    ErrorCode.RECORD_PLAYERS_MISMATCH: 422,
    ErrorCode.RECORD_TABLE_NOT_FOUND: 422,
    ErrorCode.IMPORT_UNREADABLE: 422,
    ErrorCode.SCORESHEET_UNSUPPORTED: 422,
    ErrorCode.WEBHOOK_TARGET_REFUSED: 422,
    ErrorCode.LOGIN_FAILED: 401,
    ErrorCode.LOGIN_LOCKED: 429,
    ErrorCode.PERMISSION_DENIED: 403,
    ErrorCode.CONFIRM_OWN_REPORT: 403,
    ErrorCode.NOT_FOUND: 404,
    ErrorCode.SIGN_UP_THROTTLED: 429,
}
DEFAULT_STATUS = 409


class TournamentError(Exception):
    """A domain error: a stable code, a human sentence in the active language, optional structured details."""

    def __init__(self, code: ErrorCode, message: str, *, http_status: int | None = None, **details: Any) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.details = details
        self._status = http_status

    @property
    def http_status(self) -> int:
        """The code's status; `http_status=422` marks an `invalid_input` that only the tournament's state or
        rules make invalid (the schema cannot say it), e.g. `?group=2` of a tournament without groups."""
        return self._status or HTTP_STATUS.get(self.code, DEFAULT_STATUS)

    def __str__(self) -> str:
        return self.message


def refused(message: str, **details: Any) -> TournamentError:
    """`invalid_input` answered 422: well formed, refused by this tournament's state or rules."""
    return TournamentError(ErrorCode.INVALID_INPUT, message, http_status=422, **details)
