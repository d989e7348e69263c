"""Final places: the ranking a club writes on the wall, from the bracket and the standings before it.

Pure functions over plain dataclasses (no ORM); the standings service loads rows, calls them and saves
the outcome. The rules (docs/formats.md, "Final places") in short:

1. Entrants of a knockout are ranked by the places the bracket plays for: the final's winner 1, its
   loser 2, the third-place table 3 and 4, and so on (``tournaments.pairing.knockout_places``). Places
   not played for are shared (the four quarter-final losers share 5-8). Entrants still playing share
   the range of places their current table plays for (two semi-finals: 1-4).
2. With ``order_shared_by_standings`` a shared range is ordered by the standings of the stage before
   the knockout (a pure knockout: by seed); those rows say ``decided_by="standings"``.
3. Entrants who did not reach the knockout (stage events) rank below every knockout entrant, in the
   order of the stage before; in groups, entrants with the same place in their group share a range
   (all third places together), ordered across groups by `group_place_key` only when the organiser
   asks for it.
4. With ``dropped_rank_last`` (the default) a dropped entrant never ranks above, or level with, an
   entrant who played a later round than its own last one; it is moved just below the last of them.
   A round the entrant forfeited by leaving (its table closed by its drop) is not a round it played
   (the services leave it out of ``last_round``).
5. Entrants never paired (no table and no bye in any round: no-shows) rank last, below everybody who
   was paired, sharing the last places (``never_paired``), whatever the settings.

Each row carries how its place was decided: ``knockout`` (main bracket and third-place table),
``placement`` (tables played for lower places) or ``standings``.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass

from tournaments.pairing.knockout import MAIN, THIRD_PLACE, knockout_places
from tournaments.pairing.values import Bracket, BracketSource
from tournaments.standings.compute import PlayedGame, StandingEntry, compute_standings

KNOCKOUT = "knockout"
PLACEMENT_DECIDED = "placement"
STANDINGS = "standings"
DECIDED_BY: tuple[str, ...] = (KNOCKOUT, PLACEMENT_DECIDED, STANDINGS)


# --- the bracket as played so far ---------------------------------------------------------------


@dataclass(frozen=True)
class ResolvedTable:
    """A bracket table with the entrants known so far and, once played, its finishing order."""

    round_number: int
    position: int
    number: int | None  # None: a first-round bye (everyone at it advances unplayed)
    kind: str  # "main" | "third_place" | "placement"
    best_place: int
    size: int
    entrant_ids: tuple[int | None, ...]  # one per seat of the bracket; None = not known yet
    order: tuple[int, ...] | None  # finishing order (winner first) once final; a bye: its entrants
    sources: tuple[BracketSource, ...] = ()

    @property
    def is_bye(self) -> bool:
        return self.number is None


@dataclass(frozen=True)
class ResolvedRound:
    number: int
    name: str
    tables: tuple[ResolvedTable, ...]


def bracket_resolve(
    bracket: Bracket, results: Mapping[int, Mapping[int, Sequence[int]]]
) -> tuple[ResolvedRound, ...]:
    """Fill the bracket with what has been played.

    ``results``: bracket round number -> table number -> entrant ids in finishing order. A result whose
    entrants are not the ones the bracket puts at that table is ignored (the table counts as unplayed).
    """
    previous: dict[int, tuple[int, ...] | None] = {}
    resolved: list[ResolvedRound] = []
    for bracket_round in bracket.rounds:
        finished = results.get(bracket_round.number, {})
        orders: dict[int, tuple[int, ...] | None] = {}
        tables: list[ResolvedTable] = []
        for table in bracket_round.tables:
            if bracket_round.number == 1:
                ids: tuple[int | None, ...] = tuple(table.entrant_ids)
            else:
                ids = tuple(_source_entrant(previous, source) for source in table.sources)
            known = None not in ids
            order: tuple[int, ...] | None = None
            if table.number is None:
                order = tuple(i for i in ids if i is not None) if known else None
            elif table.number in finished and known:
                got = tuple(finished[table.number])
                if len(got) == len(ids) and set(got) == set(ids):
                    order = got
            orders[table.position] = order
            tables.append(
                ResolvedTable(
                    round_number=bracket_round.number, position=table.position, number=table.number,
                    kind=table.kind, best_place=table.best_place, size=table.size, entrant_ids=ids,
                    order=order, sources=table.sources,
                )
            )
        resolved.append(ResolvedRound(bracket_round.number, bracket_round.name, tuple(tables)))
        previous = orders
    return tuple(resolved)


def _source_entrant(previous: Mapping[int, tuple[int, ...] | None], source: BracketSource) -> int | None:
    order = previous.get(source.position)
    if order is None or len(order) < source.place:
        return None
    return order[source.place - 1]


@dataclass(frozen=True)
class Placed:
    """An entrant's range of places from the bracket (best == worst: a single place)."""

    entrant_id: int
    best: int
    worst: int
    decided_by: str


def bracket_places(
    bracket: Bracket, results: Mapping[int, Mapping[int, Sequence[int]]]
) -> dict[int, Placed]:
    """Every bracket entrant's range of places: final ones from the results, the range still played
    for by those still in. ``decided_by`` follows the entrant's last table (`table_decides`)."""
    resolved = bracket_resolve(bracket, results)
    final = knockout_places(bracket, results)
    last_table: dict[int, ResolvedTable] = {}
    for resolved_round in resolved:
        for table in resolved_round.tables:
            for entrant_id in table.entrant_ids:
                if entrant_id is not None:
                    last_table[entrant_id] = table
    placed: dict[int, Placed] = {}
    for entrant_id in bracket.seeding:
        table = last_table.get(entrant_id)
        decided_by = KNOCKOUT if table is None else table_decides(bracket, table)
        if entrant_id in final:
            best, worst = final[entrant_id]
        elif table is not None:
            best, worst = class_range(resolved[table.round_number - 1], table)
        else:  # not drawn (cannot happen with a bracket built from its seeding)
            best, worst = 1, len(bracket.seeding)
        placed[entrant_id] = Placed(entrant_id, best, worst, decided_by)
    return placed


def table_decides(bracket: Bracket, table: ResolvedTable) -> str:
    """``knockout`` for the main bracket and the third-place match of tables of 2 (the semi-final
    losers); ``placement`` for every table played for lower places (for N-player tables the
    "third-place" table is the consolation table of those who went out of the last round)."""
    if table.kind == MAIN or (table.kind == THIRD_PLACE and bracket.table_size == 2):
        return KNOCKOUT
    return PLACEMENT_DECIDED


def class_range(resolved_round: ResolvedRound, table: ResolvedTable) -> tuple[int, int]:
    """The places the tables of ``table``'s class (same kind and best place) play for in its round."""
    size = sum(
        other.size for other in resolved_round.tables
        if other.kind == table.kind and other.best_place == table.best_place
    )
    return table.best_place, table.best_place + size - 1


# --- the stage before the knockout -----------------------------------------------------------------


@dataclass(frozen=True)
class StagePlace:
    """An entrant's place in the standings before (or without) a knockout.

    ``place``: its rank (in groups: its place in the group; equal places are shared). ``order_key``:
    ascending sort key that orders shared places when the organiser asks for it (``(rank,)`` for one
    list; `group_place_key` across groups; the seed for a pure knockout).
    """

    entrant_id: int
    place: int
    order_key: tuple[float, ...]


def group_place_key(entry: StandingEntry, group_rank: int, order: Sequence[str]) -> tuple[float, ...]:
    """The documented cross-group rule: the place in the group, then match points per game played,
    then the tiebreaks of the tournament in order (head-to-head left out: the entrants never met).

    >>> e = StandingEntry(1, 2, False, 3, {"match_points": 4.0, "buchholz": 10.0, "head_to_head": 1.0})
    >>> group_place_key(e, 2, ["match_points", "head_to_head", "buchholz"])
    (2.0, -1.333333, -10.0)
    """
    per_game = entry.values.get("match_points", 0.0) / entry.games_played if entry.games_played else 0.0
    rest = [
        -float(entry.values.get(code, 0.0)) for code in order if code not in ("match_points", "head_to_head")
    ]
    return (float(group_rank), -round(per_game, 6), *rest)


def comparable_group_entries(
    groups: Mapping[int, Sequence[int]], games: Sequence[PlayedGame], order: Sequence[str]
) -> dict[int, StandingEntry]:
    """Each entrant's values for the cross-group rule, like compared with like (docs/formats.md).

    ``groups``: group -> its entrants in group order (``group_rank``); ``games``: the group stage's
    games. Rest rounds (byes) are left out: a bye is not a win. With groups of unequal size, every
    entrant's results against the teams placed below ``m``-th in its group are left out (``m``: the
    size of the smallest group, counting the entrants who played a game), as UEFA ranks runners-up
    and thirds across groups of 5 and 6: everybody is compared over results against the top ``m``.

    >>> from tournaments.standings.compute import GameLine
    >>> def game(key, winner, loser):
    ...     return PlayedGame(key, (GameLine(winner, 1, 2.0, 8.0), GameLine(loser, 2, 0.0, 4.0)), 2.0)
    >>> bye = PlayedGame(9, (GameLine(3, 1, 2.0, 8.0),), 2.0, is_bye=True, score_against_bye=4.0)
    >>> games = [game(1, 1, 2), game(2, 1, 3), game(3, 2, 3), bye, game(4, 5, 4)]
    >>> entries = comparable_group_entries({1: [1, 2, 3], 2: [4, 5][::-1]}, games, ["match_points"])
    >>> entries[3].values["match_points"], entries[3].games_played  # lost to 1 and 2, the bye left out
    (0.0, 2)
    >>> entries[2].values["match_points"], entries[2].games_played  # the win over 3 (placed 3rd > m = 2) left out
    (0.0, 1)
    """
    played: dict[int, int] = {}
    for game in games:
        if not game.is_bye:
            for line in game.lines:
                played[line.entrant_id] = played.get(line.entrant_id, 0) + 1
    sizes = [sum(1 for e in members if played.get(e)) for members in groups.values()]
    smallest = min((size for size in sizes if size), default=0)
    entries: dict[int, StandingEntry] = {}
    for members in groups.values():
        member_set = set(members)
        active = [e for e in members if played.get(e)]
        below = set(active[smallest:]) if smallest else set()
        for entrant in members:
            kept = [
                game for game in games
                if not game.is_bye
                and any(line.entrant_id == entrant for line in game.lines)
                and all(line.entrant_id in member_set for line in game.lines)
                and not any(line.entrant_id in below and line.entrant_id != entrant for line in game.lines)
            ]
            # the opponents' values (Buchholz ...) from the same kept results of the group
            pool = [
                game for game in games
                if not game.is_bye
                and all(line.entrant_id in member_set for line in game.lines)
                and not any(line.entrant_id in below for line in game.lines)
            ]
            pool_keys = {game.key for game in pool}
            rows = compute_standings(members, pool + [g for g in kept if g.key not in pool_keys], order)
            own = next(row for row in rows if row.entrant_id == entrant)
            entries[entrant] = StandingEntry(
                entrant, own.rank, own.shared_rank, sum(1 for _ in kept), own.values
            )
    return entries


def best_of_groups(groups: Sequence[Sequence[tuple[int, tuple[float, ...]]]], size: int) -> list[int]:
    """The knockout's qualifiers in seed order when ``size`` is not a multiple of the groups.

    ``groups``: each group's entrants in group order, each with its cross-group key
    (`group_place_key`). Every group sends its top ``q = size // len(groups)`` (seeded by place, then
    group: A1, B1, ..., A2, B2, ...); the remaining ``size - q * len(groups)`` places go to the best
    entrants placed ``q + 1`` in their groups by the cross-group key (ties: the earlier group), seeded
    after them in that order.

    >>> best_of_groups([[(1, (1.0, -2.0)), (2, (2.0, -1.0))], [(3, (1.0, -2.0)), (4, (2.0, -1.5))],
    ...                 [(5, (1.0, -2.0)), (6, (2.0, -0.5))]], 5)
    [1, 3, 5, 4, 2]
    """
    count = len(groups)
    if count == 0 or size < 1:
        raise ValueError("No groups or no qualifiers.")
    full, extra = divmod(size, count)
    needed = full + (1 if extra else 0)
    for index, group in enumerate(groups, start=1):
        if len(group) < needed:
            raise ValueError(f"Group {index} has {len(group)} entrants; {needed} are needed for the knockout.")
    seeded = [group[place][0] for place in range(full) for group in groups]
    if extra:
        candidates = sorted(
            ((group[full][1], index, group[full][0]) for index, group in enumerate(groups)),
        )
        seeded += [entrant_id for _key, _index, entrant_id in candidates[:extra]]
    return seeded


# --- the final ranking -------------------------------------------------------------------------------


@dataclass(frozen=True)
class FinalRow:
    entrant_id: int
    rank: int
    shared_rank: bool
    decided_by: str


@dataclass
class _Block:
    members: list[int]
    decided_by: str
    moved: bool = False  # a dropped entrant moved down by rule 4


def final_ranking(
    *,
    stage: Sequence[StagePlace],
    knockout: Mapping[int, Placed] | None = None,
    order_shared_by_standings: bool = False,
    last_round: Mapping[int, int] | None = None,
    dropped: Collection[int] = (),
    dropped_rank_last: bool = True,
    never_paired: Collection[int] = (),
) -> tuple[FinalRow, ...]:
    """The final ranking (rules 1-4 of the module docstring).

    ``stage``: every entrant's place before (or without) the knockout. ``knockout``: the bracket
    entrants' places (`bracket_places`); None or empty when no knockout has been drawn.
    ``last_round``: the last round number each entrant had a table or a bye in (for rule 4).
    """
    knockout = knockout or {}
    by_id = {place.entrant_id: place for place in stage}
    for entrant_id in knockout:
        if entrant_id not in by_id:
            by_id[entrant_id] = StagePlace(entrant_id, 1, (float("inf"),))

    def key_of(entrant_id: int) -> tuple[float, ...]:
        return by_id[entrant_id].order_key

    blocks: list[_Block] = []
    bands: dict[tuple[int, int], list[Placed]] = {}
    for placed in knockout.values():
        bands.setdefault((placed.best, placed.worst), []).append(placed)
    for band in sorted(bands):
        members = sorted(bands[band], key=lambda p: p.entrant_id)
        decided_by = members[0].decided_by
        if any(p.decided_by == PLACEMENT_DECIDED for p in members):
            decided_by = PLACEMENT_DECIDED
        ids = [p.entrant_id for p in members]
        if order_shared_by_standings and len(ids) > 1:
            split = _split(ids, key_of)
            blocks.extend(_Block(part, STANDINGS if len(split) > 1 else decided_by) for part in split)
        else:
            blocks.append(_Block(ids, decided_by))
    rest = sorted((p for p in by_id.values() if p.entrant_id not in knockout), key=lambda p: (p.place, p.entrant_id))
    coarse: dict[int, list[int]] = {}
    for place in rest:
        coarse.setdefault(place.place, []).append(place.entrant_id)
    for place_number in sorted(coarse):
        ids = coarse[place_number]
        parts = _split(ids, key_of) if order_shared_by_standings else [ids]
        blocks.extend(_Block(part, STANDINGS) for part in parts)

    if dropped_rank_last and dropped:
        blocks = _dropped_below(blocks, set(dropped), last_round or {})
    absent = (set(never_paired) & set(by_id)) - set(knockout)
    if absent:  # rule 5: no-shows last, together
        for block in blocks:
            block.members = [m for m in block.members if m not in absent]
        blocks = [block for block in blocks if block.members]
        blocks.append(_Block(sorted(absent), STANDINGS))

    rows: list[FinalRow] = []
    position = 1
    for block in blocks:
        for entrant_id in sorted(block.members):
            rows.append(FinalRow(entrant_id, position, len(block.members) > 1, block.decided_by))
        position += len(block.members)
    return tuple(rows)


def _split(ids: Sequence[int], key_of: Callable[[int], tuple[float, ...]]) -> list[list[int]]:
    """Split ``ids`` into runs of equal order key, best (smallest key) first."""
    parts: dict[tuple[float, ...], list[int]] = {}
    for entrant_id in ids:
        parts.setdefault(key_of(entrant_id), []).append(entrant_id)
    return [sorted(parts[key]) for key in sorted(parts)]


def _dropped_below(blocks: list[_Block], dropped: set[int], last_round: Mapping[int, int]) -> list[_Block]:
    """Move each dropped entrant just below the last entrant who played a later round (rule 4).

    Dropped entrants are taken by their last round, latest first (ties: best placed first), so those
    they must stay below are already in place. A moved entrant gets a place of its own below the
    entrant it was moved under and below the dropped entrants moved there before it.
    """
    def last(entrant_id: int) -> int:
        return last_round.get(entrant_id, 0)

    position = {entrant_id: i for i, block in enumerate(blocks) for entrant_id in block.members}
    ordered = sorted(
        (entrant_id for entrant_id in position if entrant_id in dropped),
        key=lambda entrant_id: (-last(entrant_id), position[entrant_id], entrant_id),
    )
    latest = [max(last(member) for member in block.members) for block in blocks]  # per block
    for entrant_id in ordered:
        index = next(i for i, block in enumerate(blocks) if entrant_id in block.members)
        own = last(entrant_id)
        target = next((i for i in range(len(blocks) - 1, index - 1, -1) if latest[i] > own), None)
        if target is None:
            continue
        insert_at = target + 1
        while insert_at < len(blocks) and blocks[insert_at].moved:
            insert_at += 1
        blocks.insert(insert_at, _Block([entrant_id], STANDINGS, moved=True))
        latest.insert(insert_at, own)
        blocks[index].members.remove(entrant_id)
        if blocks[index].members:
            latest[index] = max(last(member) for member in blocks[index].members)
        else:
            del blocks[index], latest[index]
    return blocks
