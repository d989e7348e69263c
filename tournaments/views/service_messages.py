"""The services' sentences in the visitor's language.

Services raise `TournamentError` with an English sentence (the API returns it as is). The web pages
show it translated: fixed sentences by exact match, sentences with values by pattern. A sentence not
listed here is shown in English, never dropped.
"""

from __future__ import annotations

import re
from typing import Any

from django.utils.translation import gettext_lazy as _

FIXED: dict[str, Any] = {
    "A player is listed twice.": _("A player is listed twice."),
    "A round needs at least one table.": _("A round needs at least one table."),
    "All rounds of this tournament have been played.": _("All rounds of this tournament have been played."),
    "An opponent must confirm or reject this result.": _("An opponent must confirm or reject this result."),
    "Another result was reported at the same time.": _("Another result was reported at the same time."),
    "At least two active entrants are needed to pair a round.": _(
        "At least two active entrants are needed to pair a round."
    ),
    "Could not create the tournament; try again.": _("Could not create the tournament; try again."),
    "Every table needs at least two entrants; use a bye instead.": _(
        "Every table needs at least two entrants; use a bye instead."
    ),
    "Finish or delete the open round first.": _("Finish or delete the open round first."),
    "Only a draft round can be edited.": _("Only a draft round can be edited."),
    "Only a draft round can be published.": _("Only a draft round can be published."),
    "Only a dropped entrant can be re-admitted.": _("Only a dropped entrant can be re-admitted."),
    "Only a pending result can be confirmed.": _("Only a pending result can be confirmed."),
    "Only a pending result can be rejected.": _("Only a pending result can be rejected."),
    "Only an organiser of this tournament may do this.": _(
        "Only an organiser of this tournament may do this."
    ),
    "The CSV file has no entrants.": _("The CSV file has no entrants."),
    "The CSV file is empty.": _("The CSV file is empty."),
    "The entrant has already dropped.": _("The entrant has already dropped."),
    "The entrant has dropped; re-admit it first.": _("The entrant has dropped; re-admit it first."),
    "The entrant is already checked in.": _("The entrant is already checked in."),
    "The first row must be a header with a 'name' column.": _(
        "The first row must be a header with a 'name' column."
    ),
    "The knockout size must be a multiple of the groups.": _(
        "The knockout size must be a multiple of the groups."
    ),
    "The round is not published yet.": _("The round is not published yet."),
    "The seed must be a whole number from 1.": _("The seed must be a whole number from 1."),
    "The tournament is finished.": _("The tournament is finished."),
    "This table already has a final result.": _("This table already has a final result."),
    "A finished game has exactly one first place.": _("A finished game has exactly one first place."),
    "A forfeit has no separate winner: the entrants who did not forfeit win.": _(
        "A forfeit has no separate winner: the entrants who did not forfeit win."
    ),
    "A forfeit names the entrants who forfeit: some, not all, of the table.": _(
        "A forfeit names the entrants who forfeit: some, not all, of the table."
    ),
    "A game stopped at the time limit has no winner.": _("A game stopped at the time limit has no winner."),
    "Placings must be consistent: tied entrants share a place and the next place is skipped.": _(
        "Placings must be consistent: tied entrants share a place and the next place is skipped."
    ),
    "This game has no time-limit result.": _("This game has no time-limit result."),
    "An entrant appears twice in the round.": _("An entrant appears twice in the round."),
}

PATTERNS: list[tuple[re.Pattern[str], Any]] = [
    (
        re.compile(r"^An entrant named '(?P<name>.+)' is already registered\.$"),
        _("An entrant named “%(name)s” is already registered."),
    ),
    (
        re.compile(r"^(?P<name>.+) already plays for another entrant\.$"),
        _("%(name)s already plays for another entrant."),
    ),
    (
        re.compile(r"^Seed (?P<seed>\d+) is already given to another entrant\.$"),
        _("Seed %(seed)s is already given to another entrant."),
    ),
    (
        re.compile(r"^(?P<count>\d+) row\(s\) have errors; nothing was imported\.$"),
        _("%(count)s row(s) have errors; nothing was imported."),
    ),
    (
        re.compile(r"^An entrant of this game has (?P<needed>\d+) player\(s\); (?P<given>\d+) given\.$"),
        _("An entrant of this game has %(needed)s player(s); %(given)s given."),
    ),
    (
        re.compile(r"^Expected (?P<expected>\d+) columns, found (?P<found>\d+)\.$"),
        _("Expected %(expected)s columns, found %(found)s."),
    ),
    (
        re.compile(r"^The (?P<what>entrant name|player name|club name) must not be empty\.$"),
        _("A name must not be empty."),
    ),
    (
        re.compile(
            r"^The (?P<what>entrant name|player name|club name) may have at most (?P<max>\d+) characters\.$"
        ),
        _("A name may have at most %(max)s characters."),
    ),
    (
        re.compile(r"^A finished game has exactly one winner with (?P<max>\d+) marbles home\.$"),
        _("A finished game has exactly one winner with %(max)s marbles home."),
    ),
    (
        re.compile(
            r"^A game stopped at the time limit has no winner; (?P<max>\d+) marbles home means it was won\.$"
        ),
        _("A game stopped at the time limit has no winner; %(max)s marbles home means it was won."),
    ),
    (
        re.compile(r"^Scores run from (?P<min>-?\d+) to (?P<max>\d+)\.$"),
        _("Scores run from %(min)s to %(max)s."),
    ),
    (re.compile(r"^Placings run from 1 to (?P<max>\d+)\.$"), _("Placings run from 1 to %(max)s.")),
    (
        re.compile(r"^The group must be a whole number from 1 to (?P<max>\d+)\.$"),
        _("The group must be a whole number from 1 to %(max)s."),
    ),
    (
        re.compile(r"^'(?P<column>\w+)' must be a whole number, not '(?P<value>.*)'\.$"),
        _("“%(column)s” must be a whole number, not “%(value)s”."),
    ),
    (
        re.compile(r"^'(?P<column>\w+)' must be a number, not '(?P<value>.*)'\.$"),
        _("“%(column)s” must be a number, not “%(value)s”."),
    ),
    (re.compile(r"^Unknown column\(s\): (?P<columns>.+)\.$"), _("Unknown column(s): %(columns)s.")),
]


def translated_sentence(message: str) -> str:
    """`message` (a service's English sentence) in the active language when it is known."""
    if message in FIXED:
        return str(FIXED[message])
    for pattern, translation in PATTERNS:
        match = pattern.match(message)
        if match:
            return str(translation) % match.groupdict()
    return message
