"""Record reading, verdicts, error codes, the engine protocol, the registry and the replay driver."""

from rules.core.errors import ErrorCode, RecordError
from rules.core.verdict import Verdict

__all__ = ["ErrorCode", "RecordError", "Verdict"]
