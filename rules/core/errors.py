"""The fixed error codes of the record contract (spec section 2) and the error that carries one."""

from __future__ import annotations

from enum import StrEnum


class ErrorCode(StrEnum):
    """Stable codes: their values are part of the public command-line and JSON contract."""

    UNREADABLE = "unreadable"
    UNSUPPORTED_FORMAT = "unsupported_format"
    MALFORMED = "malformed"
    BAD_VARIANT = "bad_variant"
    BAD_SETUP = "bad_setup"
    UNKNOWN_CARD = "unknown_card"
    DECK_MISMATCH = "deck_mismatch"
    BAD_EXCHANGE = "bad_exchange"
    FALSE_ANNOUNCEMENT = "false_announcement"
    WRONG_SEAT = "wrong_seat"
    CARD_NOT_IN_HAND = "card_not_in_hand"
    ILLEGAL_MOVE = "illegal_move"
    MUST_PLAY = "must_play"
    MISSING_ACTION = "missing_action"
    GAME_ALREADY_OVER = "game_already_over"
    RESULT_MISMATCH = "result_mismatch"


class RecordError(ValueError):
    """The first error found in a record: a code, a JSON Pointer path and a human sentence."""

    def __init__(self, code: ErrorCode, path: str, message: str) -> None:
        super().__init__(f"{path} {code.value}: {message}")
        self.code = code
        self.path = path
        self.message = message

    def to_json(self) -> dict[str, str]:
        return {"path": self.path, "code": self.code.value, "message": self.message}
