"""What each verdict code of the rules engine means, in the reader's language.

The engine's own messages are English by contract (`python -m rules validate`, the API's verdicts);
pages show this translated sentence for the code, with the engine's exact message beside it.
Codes from the record contract (shared/spec/game-records.md, "Error codes").
"""

from __future__ import annotations

from django.utils.translation import gettext_lazy as _

VERDICT_LABELS = {
    "unreadable": _("The file cannot be read or is not JSON."),
    "unsupported_format": _("The format is missing or unknown, or the game is unknown."),
    "malformed": _("The record does not follow the record format (a wrong type, a missing or unknown key, a bad token or seat)."),
    "bad_variant": _("A variant setting is unknown or inconsistent."),
    "bad_setup": _("The starting position is impossible."),
    "unknown_card": _("A card is not in this variant's deck."),
    "deck_mismatch": _("The cards do not fit the deck or the dealing schedule."),
    "bad_exchange": _("A card exchange is missing, not allowed, or gives a card that was not dealt."),
    "false_announcement": _("An announcement contradicts the dealt hand."),
    "wrong_seat": _("A seat acts out of turn."),
    "card_not_in_hand": _("A seat plays a card it does not hold."),
    "illegal_move": _("A card cannot do what is written (blocked path, wrong distance, move not allowed)."),
    "must_play": _("A seat discards although it has a legal play (or skips a compulsory answer)."),
    "missing_action": _("A required part of a turn is missing, or a deal is unfinished."),
    "game_already_over": _("An action follows the end of the game."),
    "result_mismatch": _("The claimed result differs from the one the moves give, or the game is not over."),
    "verification_timeout": _("The verification took too long and was stopped."),
}
