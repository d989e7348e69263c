"""The group draw: who plays in which group (issue 28). Pure Python, no Django.

Three methods, every one reproducible from the random seed it is given (the seed is shown to the
entrants, so anyone can check the draw):

* ``snake``: entrants ordered by seed (or rating), dealt 1, 2, ..., G, G, ..., 2, 1, 1, 2 ... ; the
  order has no randomness except among entrants with neither seed nor rating, who are shuffled.
* ``pots``: the same order cut into pots of G entrants (pot 1 = the G best); every pot is shuffled and
  dealt to groups 1..G, so each group gets one entrant of each pot. The last, incomplete pot goes to
  groups drawn at random among those that still have the fewest entrants.
* ``random``: one pot of everybody, shuffled and dealt round the groups.

Group sizes never differ by more than one. Entrants are compared by seed (lowest first) or by rating
(highest first); entrants without one come after those with one, in a shuffled order.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass

METHODS = ("pots", "snake", "random")
ORDERS = ("seed", "rating")


class GroupDrawError(ValueError):
    """The draw's input is wrong (a message for a person)."""


@dataclass(frozen=True)
class DrawEntrant:
    id: int
    seed: int | None = None
    rating: float | None = None


def draw_order(entrants: Sequence[DrawEntrant], by: str, rng: random.Random) -> list[int]:
    """Entrant ids best first: by seed (ascending) or rating (descending); those without one follow,
    shuffled by ``rng``. Ties (equal ratings) are shuffled too."""
    if by not in ORDERS:
        raise GroupDrawError(f"Unknown order {by!r}; expected one of {', '.join(ORDERS)}.")
    ranked = sorted(entrants, key=lambda e: e.id)
    tie_break = {e.id: rng.random() for e in ranked}
    keyed: list[tuple[float, float, int]] = []  # (order key, tie break, id) of those with a seed/rating
    unknown: list[tuple[float, int]] = []
    for e in ranked:
        value = e.seed if by == "seed" else e.rating
        if value is None:
            unknown.append((tie_break[e.id], e.id))
        else:
            keyed.append((value if by == "seed" else -value, tie_break[e.id], e.id))
    return [i for *_key, i in sorted(keyed)] + [i for _tie, i in sorted(unknown)]


def draw_groups(
    entrants: Sequence[DrawEntrant], *, group_count: int, method: str = "pots", by: str = "seed", seed: int = 0
) -> dict[int, int]:
    """Entrant id -> group (1..group_count). Same input and seed, same draw."""
    if method not in METHODS:
        raise GroupDrawError(f"Unknown draw method {method!r}; expected one of {', '.join(METHODS)}.")
    if not isinstance(group_count, int) or group_count < 2:
        raise GroupDrawError("A group draw needs at least two groups.")
    ids = [e.id for e in entrants]
    if len(set(ids)) != len(ids):
        raise GroupDrawError("An entrant is listed twice.")
    if len(entrants) < 2 * group_count:
        raise GroupDrawError(f"{len(entrants)} entrants cannot fill {group_count} groups of at least two.")
    rng = random.Random(seed)
    order = draw_order(entrants, by, rng)
    if method == "random":
        rng.shuffle(order)
        return {entrant_id: index % group_count + 1 for index, entrant_id in enumerate(order)}
    if method == "snake":
        groups: dict[int, int] = {}
        for index, entrant_id in enumerate(order):
            lap, step = divmod(index, group_count)
            groups[entrant_id] = (step if lap % 2 == 0 else group_count - 1 - step) + 1
        return groups
    groups = {}
    for start in range(0, len(order), group_count):
        pot = order[start : start + group_count]
        rng.shuffle(pot)
        # a full pot fills every group once; the last, incomplete one goes to distinct groups at random
        # (every group has the same size before it, so sizes still differ by at most one)
        targets = rng.sample(range(group_count), len(pot)) if len(pot) < group_count else range(group_count)
        for entrant_id, group in zip(pot, targets, strict=True):
            groups[entrant_id] = group + 1
    return groups
