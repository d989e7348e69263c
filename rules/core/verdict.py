"""The verdict on one record, as the command line and the app report it (spec section 2)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rules.core.errors import ErrorCode, RecordError


@dataclass
class Verdict:
    file: str
    valid: bool
    complete: bool
    game: str | None
    error: RecordError | None
    result: dict[str, Any] | None

    @classmethod
    def invalid(cls, file: str, game: str | None, error: RecordError) -> Verdict:
        return cls(file=file, valid=False, complete=False, game=game, error=error, result=None)

    @property
    def unreadable(self) -> bool:
        return self.error is not None and self.error.code is ErrorCode.UNREADABLE

    def to_json(self) -> dict[str, Any]:
        return {
            "file": self.file,
            "valid": self.valid,
            "complete": self.complete,
            "game": self.game,
            "error": self.error.to_json() if self.error is not None else None,
            "result": self.result,
        }

    def text_line(self) -> str:
        """One line of the text output.

        >>> Verdict("a.json", True, True, "tac", None, {"winners": [1, 3]}).text_line()
        'a.json: valid complete tac winners=1,3'
        >>> Verdict("b.json", True, False, "tock", None, None).text_line()
        'b.json: valid partial tock'
        """
        if self.error is not None:
            if self.error.code is ErrorCode.UNREADABLE:
                return f"{self.file}: unreadable: {self.error.message}"
            return f"{self.file}: invalid {self.error.path} {self.error.code.value}: {self.error.message}"
        game = self.game or "?"
        if self.complete and self.result is not None:
            winners = ",".join(str(w) for w in self.result.get("winners", []))
            return f"{self.file}: valid complete {game} winners={winners}"
        return f"{self.file}: valid partial {game}"
