"""Swiss pairing for tables of 2 (blossom matching) and of 3 or N (grouping + local search).

Tables of 2, from round 2 on: the entrants in standings order are cut into blocks of about 48-80
(cutting between score groups where possible); each block is paired by a minimum-cost perfect
matching (networkx's blossom algorithm) over every pair in it that has not met. A block without a
rematch-free perfect matching is merged with the next one (the graph widens only where it has to);
only when the whole field has none are rematch edges added, at a cost that dwarfs everything else.
Pairing whole fields of 1024 entrants this way takes well under a second instead of the 3-40 s of a
blossom over the complete graph.

Round 1 (and tables of 3 or N in every round) use :mod:`tournaments.pairing.grouping`. At tables of
3 or N, when that grouping holds a rematch, the other fair bye holders (and smaller tables where the
profile allows them) are tried, each with an exact search for a rematch-free grouping, before a
rematch is accepted (:func:`_regroup_without_rematches`); where one is left, a branch and bound
(:func:`fewest_rematch_tables`, at most ``FEWEST_SEARCH_SEATS`` seats tried per round) looks for the
fewest rematched pairs, then the closest scores, then the fewest club clashes.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence

import networkx as nx  # type: ignore[import-untyped]

from tournaments.pairing.costs import PairCosts
from tournaments.pairing.grouping import consecutive_tables, improve_tables, spread_tables
from tournaments.pairing.ordering import (
    bye_candidates,
    first_round_order,
    is_first_round,
    standings_order,
    table_sizes,
    validate_request,
)
from tournaments.pairing.seats import assign_seats
from tournaments.pairing.values import (
    PairingEntrant,
    PairingRequest,
    PairingResult,
    PairingWarning,
    WarningCode,
)

BLOCK_TARGET = 48
BLOCK_MAX = 80
BYE_ALTERNATIVES = 6
BYE_POOL = 12  # tables of 3 or N: fair bye holders considered when the due byes force a rematch
BYE_OPTIONS = 40  # ... and at most this many sets of them
REMATCH_SEARCH_NODES = 20_000
FEWEST_SEARCH_SEATS = 60_000  # tables of 3 or N: seats tried by the fewest-rematch search, per round


def swiss_pair(request: PairingRequest) -> PairingResult:
    """Pair one Swiss round of ``request.entrants`` at tables of ``request.table_size``.

    Byes go to the lowest-ranked entrants among those with the fewest byes; with ``min_table_size``
    smaller tables replace byes where the numbers allow.
    """
    validate_request(request)
    first_round = is_first_round(request)
    ordered = first_round_order(request) if first_round else standings_order(request.entrants)
    sizes, bye_count = table_sizes(len(ordered), request.table_size, request.min_table_size)
    costs = PairCosts(request)
    candidates = bye_candidates(ordered)

    if first_round or request.table_size > 2 or any(size != 2 for size in sizes):
        byes = [entrant.id for entrant in candidates[:bye_count]]
        tables = _group(ordered, byes, sizes, costs, spread=first_round)
        if not first_round and _rematches(tables, costs):
            byes, tables = _regroup_without_rematches(ordered, candidates, byes, sizes, request, costs)
    else:
        byes, tables = _match_with_bye_choice(ordered, candidates, bye_count, costs)
    return finish_round(tables, byes, request, costs)


def _group(
    ordered: Sequence[PairingEntrant],
    byes: Sequence[int],
    sizes: Sequence[int],
    costs: PairCosts,
    *,
    spread: bool,
) -> list[list[int]]:
    bye_set = set(byes)
    playing = [entrant.id for entrant in ordered if entrant.id not in bye_set]
    tables = spread_tables(playing, sizes) if spread else consecutive_tables(playing, sizes)
    return improve_tables(tables, costs)


def _rematches(tables: Sequence[Sequence[int]], costs: PairCosts) -> int:
    return sum(
        costs.is_rematch(first, second)
        for table in tables
        for index, first in enumerate(table)
        for second in table[index + 1 :]
    )


def _regroup_without_rematches(
    ordered: Sequence[PairingEntrant],
    candidates: Sequence[PairingEntrant],
    byes: list[int],
    sizes: Sequence[int],
    request: PairingRequest,
    costs: PairCosts,
) -> tuple[list[int], list[list[int]]]:
    """Tables of 3 or N: before accepting a rematch, try the other fair bye holders and (where the
    profile allows smaller tables) more, smaller tables; in each option an exact search for a
    rematch-free grouping backs up the local search. The first rematch-free option wins (due byes and
    full tables first); otherwise the option with the fewest rematches (the first of equals).

    Then :func:`fewest_rematch_tables` searches: in the due option for the grouping with the fewest
    rematched pairs, then the closest scores, then the fewest club clashes; in the others only for
    fewer rematches than the best option so far (a tie goes to the earlier option anyway), or for
    closer scores where the option is rematch-free. Its searches of the round share
    ``FEWEST_SEARCH_SEATS`` seats tried.
    """
    best: tuple[int, list[int], list[list[int]]] | None = None
    seats_left = FEWEST_SEARCH_SEATS
    for option_byes, option_sizes in _bye_and_size_options(candidates, len(byes), sizes, request):
        bye_set = set(option_byes)
        playing = [entrant.id for entrant in ordered if entrant.id not in bye_set]
        grouped = _group(ordered, option_byes, option_sizes, costs, spread=False)
        count = _rematches(grouped, costs)
        if count:
            exact = rematch_free_tables(playing, option_sizes, costs)
            if exact is not None:
                grouped, count = improve_tables(exact, costs), 0
        most = count if best is None else min(count, best[0] - 1)
        if most or not count:  # not when only a rematch-free grouping would do: searched for above
            found, used, _ = fewest_rematch_tables(
                playing, option_sizes, costs, grouped, most_rematches=most, seat_limit=seats_left
            )
            seats_left -= used
            if found is not None:
                grouped, count = found, _rematches(found, costs)
        if best is None or count < best[0]:
            best = (count, list(option_byes), grouped)
        if count == 0:
            break
    assert best is not None, "there is always the due option"  # pragma: no mutate
    return best[1], best[2]


def _bye_and_size_options(
    candidates: Sequence[PairingEntrant], bye_count: int, sizes: Sequence[int], request: PairingRequest
) -> list[tuple[list[int], list[int]]]:
    """(byes, table sizes) to try, the due ones first. Fair bye holders: the same bye counts as the due
    ones (everyone with fewer byes than the most-byed due holder sits out; the rest are chosen among
    the entrants with that many byes), so nobody gets a bye while an entrant with fewer byes plays."""
    options: list[tuple[list[int], list[int]]] = []
    if bye_count:
        due_most = max(entrant.byes for entrant in candidates[:bye_count])
        must = [entrant.id for entrant in candidates if entrant.byes < due_most]  # all of them are due
        pool = [entrant.id for entrant in candidates if entrant.byes == due_most][:BYE_POOL]
        for combination in itertools.islice(itertools.combinations(pool, bye_count - len(must)), BYE_OPTIONS):
            options.append(([*must, *combination], list(sizes)))
    else:
        options.append(([], list(sizes)))
    smallest = request.min_table_size
    if smallest is not None:
        # One table more, as even as possible, unless one falls below the smallest size (always so at
        # smallest == table_size). The byes are the due ones, which here are none: table_sizes gives
        # byes only when one table more would be too small.
        playing = sum(sizes)
        more = len(sizes) + 1
        base, extra = divmod(playing, more)
        if base >= smallest:
            options.append((options[0][0], [base + 1] * extra + [base] * (more - extra)))
    return options


def rematch_free_tables(
    playing: Sequence[int], sizes: Sequence[int], costs: PairCosts, *, node_limit: int = REMATCH_SEARCH_NODES
) -> list[list[int]] | None:
    """Depth-first search for tables of ``sizes`` without a rematched pair, or None when there is none
    (or the search ran past ``node_limit`` tables tried)."""
    nodes = 0

    def place(left: list[int], sizes_left: list[int]) -> list[list[int]] | None:
        nonlocal nodes
        if not left:
            return []
        first, rest = left[0], left[1:]
        allowed = [e for e in rest if not costs.is_rematch(first, e)]
        for size in sorted(set(sizes_left), reverse=True):
            remaining = list(sizes_left)
            remaining.remove(size)
            for companions in itertools.combinations(allowed, size - 1):
                nodes += 1
                if nodes > node_limit:
                    return None
                if any(costs.is_rematch(a, b) for a, b in itertools.combinations(companions, 2)):
                    continue
                tail = place([e for e in rest if e not in companions], remaining)
                if tail is not None:
                    return [[first, *companions], *tail]
        return None

    return place(list(playing), list(sizes))


class _OutOfSeats(Exception):
    """The fewest-rematch search ran past its seat limit."""


def fewest_rematch_tables(
    playing: Sequence[int],
    sizes: Sequence[int],
    costs: PairCosts,
    start: Sequence[Sequence[int]],
    *,
    most_rematches: int,
    seat_limit: int = FEWEST_SEARCH_SEATS,
) -> tuple[list[list[int]] | None, int, bool]:
    """Branch and bound over every grouping of ``playing`` at tables of ``sizes``: the one with the
    fewest rematched pairs, then the smallest sum of squared score differences, then the fewest
    same-club or kept-apart pairs, among those with at most ``most_rematches`` rematches and better
    than ``start`` (when ``start`` has at most that many).

    Entrants are seated one at a time (the first one left opens a table, larger tables first, then
    its companions in standings order); a partial grouping that already costs as much as the best
    one found is dropped. Returns (the best grouping found or None, seats tried, whether the search
    finished): after ``seat_limit`` seats it stops with what it has, which is still better than
    ``start``, but not proven the best.
    """
    scores = [costs.scores[entrant] for entrant in playing] or [0.0]
    widest = max(scores) - min(scores)
    pair_count = sum(size * (size - 1) // 2 for size in sizes)
    score_weight = pair_count + 1  # more than every club clash of a grouping together
    rematch_weight = score_weight * (round(widest * widest * 100) * pair_count + 1)
    cache: dict[tuple[int, int], int] = {}

    def pair(first: int, second: int) -> int:
        key = (first, second)  # each order once: cheaper than sorting every pair
        cost = cache.get(key)
        if cost is None:
            difference = costs.scores[first] - costs.scores[second]
            cost = score_weight * round(difference * difference * 100)
            cost += rematch_weight * costs.is_rematch(first, second) + costs.is_conflict(first, second)
            cache[key] = cost
        return cost

    def grouping_cost(tables: Sequence[Sequence[int]]) -> int:
        return sum(pair(a, b) for table in tables for a, b in itertools.combinations(table, 2))

    bound = (most_rematches + 1) * rematch_weight  # a grouping must cost less than this ...
    bound = min(bound, grouping_cost(start))  # ... and less than the start
    best: list[list[int]] | None = None
    seats = 0
    tables: list[list[int]] = []

    def open_table(left: list[int], sizes_left: list[int], cost: int) -> None:
        nonlocal bound, best
        if not left:
            bound, best = cost, [list(table) for table in tables]
            return
        for size in sorted(set(sizes_left), reverse=True):
            after = list(sizes_left)
            after.remove(size)
            tables.append([left[0]])
            seat(left[1:], 0, size, after, cost)
            tables.pop()

    def seat(rest: list[int], start_at: int, size: int, sizes_left: list[int], cost: int) -> None:
        nonlocal seats
        table = tables[-1]
        if len(table) == size:
            open_table([entrant for entrant in rest if entrant not in table], sizes_left, cost)
            return
        for index in range(start_at, len(rest) - (size - len(table)) + 1):
            seats += 1
            if seats > seat_limit:
                raise _OutOfSeats
            candidate = rest[index]
            added = cost + sum(pair(candidate, member) for member in table)
            if added < bound:
                table.append(candidate)
                seat(rest, index + 1, size, sizes_left, added)
                table.pop()

    try:
        open_table(list(playing), list(sizes), 0)
    except _OutOfSeats:
        return best, seat_limit, False
    return best, seats, True


def _match_with_bye_choice(
    ordered: Sequence[PairingEntrant], candidates: Sequence[PairingEntrant], bye_count: int, costs: PairCosts
) -> tuple[list[int], list[list[int]]]:
    """Tables of 2: try the due bye first; if that forces a rematch, try the next few candidates."""
    if bye_count == 0:
        return [], match_pairs([entrant.id for entrant in ordered], costs)
    fewest = candidates[0].byes
    options = [entrant for entrant in candidates if entrant.byes == fewest][:BYE_ALTERNATIVES]
    best: tuple[int, list[int], list[list[int]]] | None = None
    for option in options:
        playing = [entrant.id for entrant in ordered if entrant.id != option.id]
        tables = match_pairs(playing, costs)
        rematches = sum(costs.is_rematch(table[0], table[1]) for table in tables)
        if best is None or rematches < best[0]:
            best = (rematches, [option.id], tables)
        if rematches == 0:
            break
    assert best is not None
    return best[1], best[2]


def match_pairs(ordered_ids: Sequence[int], costs: PairCosts) -> list[list[int]]:
    """Minimum-cost perfect matching of an even number of entrants, block by block (see module doc)."""
    blocks = _blocks(ordered_ids, costs)
    solved: list[tuple[list[int], list[list[int]]]] = []  # (block entrants, its tables)
    index = 0
    pending: list[int] = []
    while index < len(blocks) or pending:
        if not pending:
            pending = list(blocks[index])
            index += 1
        matched = _match_block(pending, costs, allow_rematch=False)
        if matched is not None:
            solved.append((pending, matched))
            pending = []
        elif index < len(blocks):  # widen downwards: merge with the next block
            pending.extend(blocks[index])
            index += 1
        elif solved:  # the last block fails: widen upwards, reopening the block paired before it
            reopened, _ = solved.pop()
            pending = reopened + pending
        else:  # no rematch-free pairing of the whole field exists
            matched = _match_block(pending, costs, allow_rematch=True)
            # the message of an assertion that cannot fail: nothing to test in its wording
            assert matched is not None, (
                "a complete graph on an even number of entrants has a perfect matching"  # pragma: no mutate
            )
            solved.append((pending, matched))
            pending = []
    tables = [table for _, block_tables in solved for table in block_tables]
    position = {entrant_id: index for index, entrant_id in enumerate(ordered_ids)}
    tables = [sorted(table, key=position.__getitem__) for table in tables]
    tables.sort(key=lambda table: position[table[0]])
    return tables


def _blocks(ordered_ids: Sequence[int], costs: PairCosts) -> list[list[int]]:
    """Even-sized consecutive blocks of about BLOCK_TARGET..BLOCK_MAX, cut between score groups if possible."""
    blocks: list[list[int]] = []
    current: list[int] = []
    for index, entrant_id in enumerate(ordered_ids):
        current.append(entrant_id)
        if len(current) < BLOCK_TARGET or len(current) % 2:
            continue
        following = ordered_ids[index + 1] if index + 1 < len(ordered_ids) else None
        at_boundary = following is None or costs.scores[following] != costs.scores[entrant_id]
        if at_boundary or len(current) >= BLOCK_MAX:
            blocks.append(current)
            current = []
    if current:
        if blocks and len(current) < BLOCK_TARGET // 2:
            blocks[-1].extend(current)
        else:
            blocks.append(current)
    return blocks


def _match_block(
    entrant_ids: Sequence[int], costs: PairCosts, *, allow_rematch: bool
) -> list[list[int]] | None:
    """Perfect matching of one block at minimum cost, or None when none exists without rematches."""
    graph = nx.Graph()
    graph.add_nodes_from(entrant_ids)
    for index, first in enumerate(entrant_ids):
        for second in entrant_ids[index + 1 :]:
            if allow_rematch or not costs.is_rematch(first, second):
                graph.add_edge(first, second, weight=costs.edge_weight(first, second))
    matching = nx.min_weight_matching(graph)
    if 2 * len(matching) != len(entrant_ids):
        return None
    return [[first, second] for first, second in matching]


def finish_round(
    tables: Sequence[Sequence[int]], byes: Sequence[int], request: PairingRequest, costs: PairCosts
) -> PairingResult:
    """Seat the tables, count rematches and list what the organiser should know."""
    seated = assign_seats(tables, request)
    warnings: list[PairingWarning] = []
    rematches = 0
    spread = 0.0
    for table in seated:
        ids = table.entrant_ids
        for index, first in enumerate(ids):
            for second in ids[index + 1 :]:
                if costs.is_rematch(first, second):
                    rematches += 1
                    warnings.append(
                        PairingWarning(
                            WarningCode.REMATCH.value,
                            f"Entrants {first} and {second} meet again at table {table.number}: no pairing without it.",
                            (first, second),
                            table.number,
                        )
                    )
                elif costs.is_conflict(first, second):
                    forbidden = frozenset((first, second)) in request.forbidden_pairs
                    warnings.append(
                        PairingWarning(
                            (WarningCode.FORBIDDEN_PAIR if forbidden else WarningCode.SAME_CLUB).value,
                            f"Entrants {first} and {second} ({'kept apart' if forbidden else 'same club'})"
                            f" meet at table {table.number}.",
                            (first, second),
                            table.number,
                        )
                    )
        scores = [costs.scores[entrant_id] for entrant_id in ids]
        spread += max(scores) - min(scores)
    # the byes go to those with the fewest byes, so a bye holder who has had one means everyone has
    # (3 entrants in round 4, or an odd field after the entrants without a bye dropped)
    by_id = {entrant.id: entrant for entrant in request.entrants}
    for entrant_id in byes:
        if by_id[entrant_id].byes:
            warnings.append(
                PairingWarning(
                    WarningCode.SECOND_BYE.value,
                    f"Entrant {entrant_id} gets another bye: every entrant has had one.",
                    (entrant_id,),
                )
            )
    return PairingResult(
        tables=seated,
        byes=tuple(byes),
        warnings=tuple(warnings),
        rematches=rematches,
        score_spread=spread,
    )
