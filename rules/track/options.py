"""The options of one turn in Tock and Tac-Tik, from the engine's move generator (spec sections 5, 6).

Both games have the same shape of turn: a card from the hand, played for the colour the seat moves, or
discarded when no card of the hand can be played (Tock: or when banned). With a hand that is only partly
known (a scoresheet: see :mod:`rules.cards.hidden`) a discard is offered when neither that card nor a
*known* card has a legal use; a hidden card that could have been used is found when the deal closes.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TypeVar

A = TypeVar("A")


def turn_options(
    cards: Sequence[str],
    known: Sequence[str],
    plays: Callable[[str], list[A]],
    discard: Callable[[str], A],
    *,
    forced_discard: bool = False,
) -> list[A]:
    """Every entry of a turn: the plays of each possible card, and the discards the rules allow.

    ``cards``: the cards the hand may hold; ``known``: those it surely holds; ``plays(card)``: the
    engine's legal actions of a card; ``forced_discard``: the seat must discard (a Tock ban).

    >>> turn_options(["5", "9"], [], lambda c: [c + "!"] if c == "5" else [], lambda c: c + "x")
    ['5!', '9x']
    >>> turn_options(["5", "9"], ["5"], lambda c: [c + "!"] if c == "5" else [], lambda c: c + "x")
    ['5!']
    >>> turn_options(["5", "9"], ["5"], lambda c: [c + "!"], lambda c: c + "x", forced_discard=True)
    ['5x', '9x']
    """
    if forced_discard:
        return [discard(card) for card in cards]
    found = {card: plays(card) for card in cards}
    known_use = any(found.get(card) or plays(card) for card in set(known))
    out: list[A] = []
    for card in cards:
        if found[card]:
            out.extend(found[card])
        elif not known_use:
            out.append(discard(card))
    return out
