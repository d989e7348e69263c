"""What the scoresheet says to the table, in the visitor's language: card names in card order, seats by
player and colour, and why an entry was refused (naming the player and the card).

The rules engine's refusals carry an English message (its contract) plus a ``reason`` and its
parameters (`rules.scoresheet.EntryRefused.params`, docs/scoresheet.md "Refusals"); this module turns
them into a sentence. Pure: no database, no request (the active language is Django's).

>>> card_sort_key("2") < card_sort_key("10") < card_sort_key("13") < card_sort_key("tac")
True
>>> sorted(["13", "2", "tac", "10", "1"], key=card_sort_key)
['1', '2', '10', '13', 'tac']
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from games.verdict_labels import VERDICT_LABELS

# The order of the special cards after the numbers, as the rule text lists them.
_SPECIAL_ORDER = ("A", "J", "Q", "K", "7x1", "-4", "permuter", "trickser", "tac", "narr", "engel", "krieger",
                  "teufel")
_RANKS = {"A": 1, "J": 11, "Q": 12, "K": 13}


def card_sort_key(card: Any) -> tuple[int, int, str]:
    """Cards in card order: numbers by value (Tock's A, J, Q, K as 1, 11, 12, 13), then the special
    cards in the rule text's order."""
    text = str(card)
    if text in _RANKS:
        return (0, _RANKS[text], text)
    if text == "-4":
        return (0, 4, text)
    if text == "7x1":
        return (0, 7, text)
    if text.isdigit():
        return (0, int(text), text)
    if text in _SPECIAL_ORDER:
        return (1, _SPECIAL_ORDER.index(text), text)
    return (2, 0, text)


def card_name(card: Any) -> str:
    """The card as a player calls it (never a record code such as ``trickser`` or ``engel``)."""
    text = str(card)
    names = {
        "tac": "TAC",
        "trickser": pgettext("TAC card", "Trickser"),
        "narr": pgettext("TAC card", "Fool"),
        "engel": pgettext("TAC card", "Angel"),
        "krieger": pgettext("TAC card", "Warrior"),
        "teufel": pgettext("TAC card", "Devil"),
        "A": pgettext("playing card", "Ace"),
        "J": pgettext("playing card", "Jack"),
        "Q": pgettext("playing card", "Queen"),
        "K": pgettext("playing card", "King"),
        "7x1": pgettext("Tac-Tik card", "7 (split)"),
        "-4": pgettext("Tac-Tik card", "4 back"),
        "permuter": pgettext("Tac-Tik card", "Swap"),
    }
    return names.get(text, text)


_COLOUR_WORDS = {  # games.replay.canvas.SEAT_COLOURS by value: a changed palette drops the word, never lies
    "#0072B2": lambda: pgettext("seat colour", "blue"),
    "#E69F00": lambda: pgettext("seat colour", "orange"),
    "#009E73": lambda: pgettext("seat colour", "green"),
    "#CC79A7": lambda: pgettext("seat colour", "pink"),
    "#D55E00": lambda: pgettext("seat colour", "red"),
    "#56B4E9": lambda: pgettext("seat colour", "light blue"),
    "#F0E442": lambda: pgettext("seat colour", "yellow"),
    "#7F7F7F": lambda: pgettext("seat colour", "grey"),
}


def colour_word(seat: int) -> str:
    from games.replay.canvas import seat_colour

    word = _COLOUR_WORDS.get(seat_colour(seat).upper()) or _COLOUR_WORDS.get(seat_colour(seat))
    return word() if word else ""


def seat_label(seat: Any, names: Sequence[str]) -> str:
    """A seat as the table says it: the player and the colour ("Anna (blue)")."""
    if not isinstance(seat, int) or isinstance(seat, bool):
        return str(seat)
    name = names[seat] if 0 <= seat < len(names) and names[seat] else pgettext("scoresheet", "Player %(n)s") % {
        "n": seat + 1}
    colour = colour_word(seat)
    return _("%(name)s (%(colour)s)") % {"name": name, "colour": colour} if colour else name


def seat_names(players: Sequence[Mapping[str, Any]]) -> list[str]:
    """The players' names by seat (a record's `players`)."""
    names: dict[int, str] = {}
    for player in players or []:
        for seat in player.get("seats") or []:
            if isinstance(seat, int):
                names[seat] = str(player.get("name", ""))
    return [names.get(seat, "") for seat in range(max(names, default=-1) + 1)]


def _cards(cards: Any) -> str:
    return _(" or ").join(card_name(c) for c in sorted(cards or [], key=card_sort_key))


def refusal_text(code: str, message: str, params: Mapping[str, Any] | None, names: Sequence[str]) -> str:
    """The sentence for a refused entry: the reason's own sentence naming the player and the card, or
    else what the verdict code means followed by the engine's (English) message."""
    params = dict(params or {})
    reason = params.get("reason")
    player = seat_label(params.get("seat"), names) if "seat" in params else ""
    card = card_name(params.get("card", ""))
    entry = params.get("entry")
    values = {"player": player, "card": card, "cards": _cards(params.get("cards")),
              "discarded": card_name(params.get("discarded", "")),
              "entry": entry + 1 if isinstance(entry, int) else "?"}
    sentences = {
        "held_usable": _("%(player)s discarded %(discarded)s (entry %(entry)s) while holding this %(card)s, "
                         "which could have been played: a card that can be played must be played."),
        "said_no_holds": _("%(player)s said “I can't” but was dealt %(card)s, a card that brings a marble in."),
        "said_yes_none": _("%(player)s said “I can” but was dealt neither a 1 nor a 13."),
        "must_hold_usable": _("%(player)s said “I can” and has not played a 1 or a 13 yet, so still holds one, "
                              "which could be played: %(card)s may not be discarded."),
        "must_hold_any": _("%(player)s may not discard %(card)s: the cards not yet seen leave that hand a card "
                           "that could be played."),
        "said_yes_none_left": _("%(player)s said “I can”, but every 1 and 13 of these cards is already "
                                "accounted for elsewhere."),
        "said_no_must_hold": _("%(player)s said “I can't”, but the cards seen leave that hand a 1 or a 13."),
        "discard_contradicted": _("%(player)s discarded %(card)s (entry %(entry)s), but the cards seen since "
                                  "leave that hand a card that could have been played."),
        "no_hands_fit": _("No hands fit the cards seen in this deal: check the entries since the deal began."),
        "nothing_to_correct": _("This deal has nothing of that kind to correct: enter it instead."),
    }
    if reason == "must_hold_usable" and not params.get("cards"):
        reason = "must_hold_any"
    text = sentences.get(str(reason))
    if text is None:
        meaning = VERDICT_LABELS.get(code)
        return f"{meaning} ({message})" if meaning else message
    text = text % values
    if isinstance(params.get("corrected"), int):
        text = _("After the correction: %(text)s") % {"text": text}
    return text
