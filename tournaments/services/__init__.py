"""Every write of the tournaments app, as keyword-only, typed, atomic functions (`<entity>_<action>`).

Lock order (see locking.py): Tournament -> Round -> Table -> Result. Each change writes an
AuditLog row; tasks are enqueued with transaction.on_commit. Errors are `TournamentError`.
"""

from tournaments.services.entrants import (
    entrant_check_in,
    entrant_delete,
    entrant_drop,
    entrant_drop_undo,
    entrant_readmit,
    entrant_register,
    entrant_update,
    entrants_drop_absent,
    entrants_import_csv,
)
from tournaments.services.results import (
    result_confirm,
    result_lines,
    result_override,
    result_reject,
    result_report,
    result_report_from_record,
)
from tournaments.services.rounds import (
    pairing_request_build,
    round_discard,
    round_edit,
    round_generate,
    round_publish,
)
from tournaments.services.standings import standings_compute, standings_recompute
from tournaments.services.tables import (
    board_add,
    board_remove,
    entrant_accessibility_set,
    forbidden_pair_add,
    forbidden_pair_remove,
    round_assign_boards,
    table_schedule,
)
from tournaments.services.tournaments import (
    tournament_create,
    tournament_finish,
    tournament_organiser_add,
    tournament_organiser_remove,
    tournament_profile,
    tournament_update,
)

__all__ = [
    "board_add",
    "board_remove",
    "entrant_accessibility_set",
    "round_assign_boards",
    "entrant_check_in",
    "entrant_delete",
    "entrant_update",
    "entrant_drop",
    "entrant_drop_undo",
    "entrants_drop_absent",
    "entrant_readmit",
    "entrant_register",
    "entrants_import_csv",
    "forbidden_pair_add",
    "forbidden_pair_remove",
    "pairing_request_build",
    "result_confirm",
    "result_lines",
    "result_override",
    "result_reject",
    "result_report",
    "result_report_from_record",
    "round_discard",
    "round_edit",
    "round_generate",
    "round_publish",
    "standings_compute",
    "standings_recompute",
    "table_schedule",
    "tournament_create",
    "tournament_finish",
    "tournament_organiser_add",
    "tournament_organiser_remove",
    "tournament_profile",
    "tournament_update",
]
