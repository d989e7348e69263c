"""Double elimination for tables of two entrants: a winners' and a losers' bracket and a grand final.

The winners' bracket (W) is the standard single-elimination draw of the knockout (1 v 8, 4 v 5,
2 v 7, 3 v 6 for 8; the bracket size S is the next power of two and the top seeds get the byes).
Its losers drop into the losers' bracket (L), which has 2 (k - 1) rounds for S = 2^k:

* L round 1 pairs the losers of W round 1 (the losers of tables 1 and 2, 3 and 4, ...);
* every even L round (a *drop-in* round) sets the winners of the L round before against the losers of
  W round ``r / 2 + 1``, in reverse order (the loser of the last W table meets the winner of the first
  L table), so that two entrants who met in W do not meet again at once;
* every odd L round after the first pairs the winners of the L round before.

The winners' champion meets the losers' champion in the grand final (GF). With ``reset`` (the
default, as on Challonge and start.gg) a win of the losers' champion, who then has lost once like the
other, forces a second final (GF2); without it GF decides.

**Byes.** A seed above the field is *nobody*. A table with one entrant and nobody is a bye (the
entrant goes on as its winner, nobody as its loser); a table of nobody and nobody sends nobody on
both ways. So a top seed's bye in W round 1 leaves nobody to drop, and the W round-1 loser who would
have met that nobody in L round 1 has a bye there. Which tables are byes never depends on results.

**Places.** The GF (or GF2) winner is 1st, its loser 2nd; every other entrant went out by a second
defeat in the losers' bracket: those out in the last L round are 3rd, in the round before 4th, and
so on, entrants out in the same L round sharing a range (with 16: 3, 4, 5-6, 7-8, 9-12, 13-16).
Entrants still in share the range not decided yet (``double_elimination_places`` gives only decided
places, like ``knockout_places``).

Everything here is pure: the tables are keyed "W1-1" (W round 1, table 1), "L2-1", "GF", "GF2"; the
results are the winner of each played table.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from tournaments.pairing.knockout import _deal
from tournaments.pairing.values import PairingError

WINNERS = "winners"
LOSERS = "losers"
FINAL = "final"


@dataclass(frozen=True)
class DeSource:
    """Where one side of a table comes from: ``seed`` (a seed number, 1-based), or the ``winner`` /
    ``loser`` of the table ``key``."""

    kind: str
    seed: int = 0
    key: str = ""


@dataclass(frozen=True)
class DeMatch:
    key: str
    bracket: str  # winners, losers, final
    round: int  # round within its bracket (GF: 1, GF2: 2)
    index: int  # 1-based position in its round
    sources: tuple[DeSource, DeSource]


@dataclass(frozen=True)
class DoubleBracket:
    count: int  # entrants
    size: int  # S, a power of two
    reset: bool
    matches: tuple[DeMatch, ...]  # W rounds, then L rounds, then GF (and GF2)

    def by_key(self) -> dict[str, DeMatch]:
        return {match.key: match for match in self.matches}

    @property
    def winners_rounds(self) -> int:
        return max(m.round for m in self.matches if m.bracket == WINNERS)

    @property
    def losers_rounds(self) -> int:
        return max((m.round for m in self.matches if m.bracket == LOSERS), default=0)


def double_elimination(count: int, *, reset: bool = True) -> DoubleBracket:
    """The whole double-elimination bracket for ``count`` entrants (seeds 1 .. count).

    >>> bracket = double_elimination(4)
    >>> [m.key for m in bracket.matches]
    ['W1-1', 'W1-2', 'W2-1', 'L1-1', 'L2-1', 'GF', 'GF2']
    """
    if count < 2:
        raise PairingError("A double elimination needs at least 2 entrants.")
    rounds = 1
    while 2**rounds < count:
        rounds += 1
    size = 2**rounds
    matches: list[DeMatch] = []
    leaves = _deal(list(range(1, size + 1)), 2, rounds)
    for index, (a, b) in enumerate(leaves, start=1):
        matches.append(DeMatch(f"W1-{index}", WINNERS, 1, index, (DeSource("seed", seed=a), DeSource("seed", seed=b))))
    for r in range(2, rounds + 1):
        for index in range(1, size // 2**r + 1):
            matches.append(
                DeMatch(
                    f"W{r}-{index}", WINNERS, r, index,
                    (DeSource("winner", key=f"W{r - 1}-{2 * index - 1}"), DeSource("winner", key=f"W{r - 1}-{2 * index}")),
                )
            )
    last_losers = ""
    if rounds >= 2:
        # L round 1: the losers of W round 1 in pairs
        for index in range(1, size // 4 + 1):
            matches.append(
                DeMatch(
                    f"L1-{index}", LOSERS, 1, index,
                    (DeSource("loser", key=f"W1-{2 * index - 1}"), DeSource("loser", key=f"W1-{2 * index}")),
                )
            )
        for lr in range(2, 2 * (rounds - 1) + 1):
            tables = size // 2 ** ((lr + 1) // 2 + 1)  # L rounds 2j - 1 and 2j: S / 2^(j + 1) tables
            for index in range(1, tables + 1):
                if lr % 2 == 0:  # drop-in: the L winners against W round lr/2 + 1's losers, reversed
                    w_round = lr // 2 + 1
                    sources = (
                        DeSource("winner", key=f"L{lr - 1}-{index}"),
                        DeSource("loser", key=f"W{w_round}-{tables + 1 - index}"),
                    )
                else:
                    sources = (
                        DeSource("winner", key=f"L{lr - 1}-{2 * index - 1}"),
                        DeSource("winner", key=f"L{lr - 1}-{2 * index}"),
                    )
                matches.append(DeMatch(f"L{lr}-{index}", LOSERS, lr, index, sources))
        last_losers = f"L{2 * (rounds - 1)}-1"
    else:
        last_losers = ""
    final_sources = (
        DeSource("winner", key=f"W{rounds}-1"),
        DeSource("winner", key=last_losers) if last_losers else DeSource("loser", key=f"W{rounds}-1"),
    )
    matches.append(DeMatch("GF", FINAL, 1, 1, final_sources))
    if reset:
        matches.append(
            DeMatch("GF2", FINAL, 2, 1, (DeSource("winner", key="GF"), DeSource("loser", key="GF")))
        )
    return DoubleBracket(count=count, size=size, reset=reset, matches=tuple(matches))


NOBODY = 0  # an empty side (a seed above the field, or the loser of a bye)


@dataclass(frozen=True)
class DeState:
    """One table resolved: ``entrants`` (ids; NOBODY for an empty side, None while unknown),
    ``state``: ``waiting`` (a side unknown), ``bye`` (one entrant and nobody: not played), ``empty``
    (nobody and nobody), ``ready`` (two entrants, no result yet), ``done``, ``skipped`` (GF2 when
    the winners' champion won GF); ``winner`` / ``loser`` once known."""

    key: str
    entrants: tuple[int | None, int | None]
    state: str
    winner: int | None = None
    loser: int | None = None


def double_elimination_resolve(
    bracket: DoubleBracket, seeding: Sequence[int], results: Mapping[str, int]
) -> dict[str, DeState]:
    """Every table's entrants and state from the seeding (entrant ids, best first) and the winners of
    the played tables (``results``: table key -> winner id). Entrant ids must not be 0 (NOBODY)."""
    if len(seeding) != bracket.count:
        raise PairingError(f"The bracket is for {bracket.count} entrants, not {len(seeding)}.")
    if NOBODY in seeding or len(set(seeding)) != len(seeding):
        raise PairingError("Entrant ids must be distinct and not 0.")
    states: dict[str, DeState] = {}
    keys = bracket.by_key()
    unknown = sorted(set(results) - set(keys))
    if unknown:
        raise PairingError(f"No table {unknown[0]} in this bracket.")

    def side(source: DeSource) -> int | None:
        if source.kind == "seed":
            return seeding[source.seed - 1] if source.seed <= len(seeding) else NOBODY
        state = states[source.key]
        return state.winner if source.kind == "winner" else state.loser

    for match in bracket.matches:
        a, b = (side(source) for source in match.sources)
        if match.key == "GF2":
            gf = states["GF"]
            if gf.state == "done" and gf.winner == gf.entrants[0]:  # the winners' champion won: no reset
                states[match.key] = DeState(match.key, (None, None), "skipped")
                continue
        if a is None or b is None:
            states[match.key] = DeState(match.key, (a, b), "waiting")
            if match.key in results:
                raise PairingError(f"Table {match.key} has a result but its entrants are not known yet.")
            continue
        if a == NOBODY and b == NOBODY:
            states[match.key] = DeState(match.key, (a, b), "empty", NOBODY, NOBODY)
        elif a == NOBODY or b == NOBODY:
            states[match.key] = DeState(match.key, (a, b), "bye", a or b, NOBODY)
        elif match.key in results:
            winner = results[match.key]
            if winner not in (a, b):
                raise PairingError(f"Table {match.key}: the winner must be one of its two entrants.")
            states[match.key] = DeState(match.key, (a, b), "done", winner, b if winner == a else a)
        else:
            states[match.key] = DeState(match.key, (a, b), "ready")
        if match.key in results and states[match.key].state != "done":
            raise PairingError(f"Table {match.key} is not played (a bye or empty); it takes no result.")
    return states


def played_tables_per_losers_round(bracket: DoubleBracket) -> dict[int, int]:
    """How many tables each L round plays. Fixed by the field: which sides are nobody never depends
    on who wins (the loser of a bye is always nobody, its winner always somebody)."""
    seeding = list(range(1, bracket.count + 1))
    results: dict[str, int] = {}
    for match in bracket.matches:
        if match.key == "GF2":
            continue
        state = double_elimination_resolve(bracket, seeding, results)[match.key]
        if state.state == "ready":
            results[match.key] = min(e for e in state.entrants if e)
    states = double_elimination_resolve(bracket, seeding, results)
    counts: dict[int, int] = {}
    for match in bracket.matches:
        if match.bracket == LOSERS:
            counts[match.round] = counts.get(match.round, 0) + (1 if states[match.key].state == "done" else 0)
    return counts


def double_elimination_places(
    bracket: DoubleBracket, seeding: Sequence[int], results: Mapping[str, int]
) -> dict[int, tuple[int, int]]:
    """Decided final places: entrant id -> (best, worst) place (module docstring). An entrant's place
    is known as soon as its second defeat is: the range of its L round is fixed by the field.

    >>> b = double_elimination(4)
    >>> places = double_elimination_places(b, [11, 12, 13, 14], {"W1-1": 11, "W1-2": 12, "W2-1": 11,
    ...     "L1-1": 13, "L2-1": 12, "GF": 11})
    >>> sorted(places.items())
    [(11, (1, 1)), (12, (2, 2)), (13, (3, 3)), (14, (4, 4))]
    """
    states = double_elimination_resolve(bracket, seeding, results)
    places: dict[int, tuple[int, int]] = {}
    gf, gf2 = states["GF"], states.get("GF2")
    decided = gf2 if gf2 is not None and gf2.state == "done" else gf
    if gf.state == "done" and (gf2 is None or gf2.state in ("done", "skipped")):
        assert decided.winner is not None and decided.loser is not None  # pragma: no mutate - done
        places[decided.winner] = (1, 1)
        places[decided.loser] = (2, 2)
    counts = played_tables_per_losers_round(bracket)
    best = 3
    for lr in range(bracket.losers_rounds, 0, -1):
        for match in bracket.matches:
            if match.bracket == LOSERS and match.round == lr and states[match.key].state == "done":
                loser = states[match.key].loser
                assert loser is not None  # pragma: no mutate - done
                places[loser] = (best, best + counts[lr] - 1)
        best += counts[lr]
    return places


def double_elimination_ready(bracket: DoubleBracket, seeding: Sequence[int], results: Mapping[str, int]) -> list[str]:
    """The tables that may be played now (both entrants known, no result yet), in bracket order:
    a table starts as soon as both its feeders are done (the rolling order)."""
    states = double_elimination_resolve(bracket, seeding, results)
    return [match.key for match in bracket.matches if states[match.key].state == "ready"]


def double_elimination_rounds(bracket: DoubleBracket) -> int:
    """How many rounds the bracket takes when every round holds every ready table (with the reset:
    counting the second final, the most it can take).

    >>> double_elimination_rounds(double_elimination(4)), double_elimination_rounds(double_elimination(8, reset=False))
    (5, 6)
    """
    seeding = list(range(1, bracket.count + 1))
    results: dict[str, int] = {}
    rounds = 0
    while ready := double_elimination_ready(bracket, seeding, results):
        rounds += 1
        states = double_elimination_resolve(bracket, seeding, results)
        for key in ready:
            a, b = states[key].entrants
            # the losers' champion wins the first final, so that the reset is played
            results[key] = max(a or 0, b or 0) if key == "GF" else min(e for e in (a, b) if e)
    return rounds
