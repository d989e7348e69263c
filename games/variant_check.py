"""Is a record's game exactly the table's game? Every variant key the record carries, read by the rules
engine with its defaults, must give the same game as the tournament's variant.

The profile check (`games.services._check_game`) compares the keys the tournament's profile names; a
record may carry more (TAKI's `tournament` phase game on a plain TAKI table, ZACK!'s `stop_cards` on a
basic table, a TAC `deal_sizes`), and those change the game too. Each engine reads a variant into a
frozen dataclass (`rules.<game>.game.parse_variant`), so two variants are the same game exactly when
they read the same; `comment` and `x_` keys are ignored by the engines and here.

>>> variant_differences("taki", {"seats": 4, "tournament": True}, {"seats": 4})
['tournament']
>>> variant_differences("zack", {"seats": 4, "colors": ["red", "blue", "green", "yellow"], "stop_cards": True},
...                     {"seats": 4})
['stop_cards']
>>> variant_differences("tac", {"master": False, "comment": "club night"}, {})
[]
"""

from __future__ import annotations

import importlib
from collections.abc import Mapping
from typing import Any

from rules.core.errors import RecordError

_MISSING = object()
# Facts of the table rather than of the game, taken from the record: ZACK!'s seat colours, Tac-Tik's
# partner seats (who sits where is the players' business, checked with the players).
TABLE_FACTS: dict[str, frozenset[str]] = {"zack": frozenset({"colors"}), "tactik": frozenset({"teams"})}


def _reader(game: str, players: Any) -> Any:
    module = importlib.import_module(f"rules.{game}.game")
    parse = module.parse_variant
    if game == "taki":
        return lambda variant: parse(variant, players)
    return parse


def _ignored(key: str) -> bool:
    return key == "comment" or key.startswith("x_")


def variant_differences(
    game: str, record: Mapping[str, Any], table: Mapping[str, Any], players: Any = None
) -> list[str]:
    """The variant keys in which the record's game differs from the table's (sorted; [] if the same).

    A variant the engine cannot read is left to the verification (it answers ``bad_variant``): [].
    """
    facts = TABLE_FACTS.get(game, frozenset())
    table = {**{k: v for k, v in record.items() if k in facts}, **table}
    try:
        read = _reader(game, players)
        mine, theirs = read(dict(record)), read(dict(table))
    except (RecordError, ImportError, AttributeError, TypeError, ValueError):
        return []
    if mine == theirs:
        return []
    keys = sorted(k for k in set(record) | set(table) if not _ignored(k) and record.get(k, _MISSING) !=
                  table.get(k, _MISSING))
    differ = []
    for key in keys:
        trial = {k: v for k, v in table.items() if k != key}
        if key in record:
            trial[key] = record[key]
        try:
            if read(trial) != theirs:
                differ.append(key)
        except (RecordError, TypeError, ValueError):
            differ.append(key)
    return differ or keys
