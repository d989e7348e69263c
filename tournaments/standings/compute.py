"""Standings as pure functions over plain dataclasses (no ORM).

Input: the final games of a tournament, each a list of lines (entrant, placing at the table, score,
match points). Output: one row per entrant with its rank and every tiebreak value, so that ties are
explainable. The services load rows, call `compute_standings`, and save the rows.

Tiebreaks (codes are stable, used in `Tournament.tiebreak_order`):

- ``match_points``: sum of match points (points by placing, ties share the mean; byes give the
  tournament's bye points).
- ``marble_difference``: sum over games of own score minus the mean score of the opponents at the table
  (for two entrants: score for minus score against).
- ``buchholz``: sum of the match points of every opponent met (an opponent counts once per game).
  A bye counts as one more opponent (the *bye rule*, ``bye_rule``): ``own_score`` (the default,
  FIDE's tie-break regulations of 2023: an unplayed round is a game against oneself, worth the bye
  holder's own final points) or ``virtual_opponent`` (FIDE's virtual opponent, Handbook C.02
  13.15.2 of 2009: an opponent with the bye holder's points before the round, who lost the round
  (the maximum minus the bye's points) and drew every later round (half the maximum each)).
- ``median_buchholz``: Buchholz without the best and the worst value (when at least 3 values,
  byes included); the low cut takes a bye's value first (FIDE 2023, 14.6: unplayed rounds are cut
  first), so a bye never lifts its holder above an entrant who played every round.
- ``sonneborn_berger``: sum over opponents met of their match points, in full when placed ahead of them,
  half when tied, nothing when placed behind (a bye adds nothing: it beat nobody).
- ``head_to_head``: among entrants still tied on all earlier criteria, 1 per mutual game placed ahead
  of the other, 0.5 per tie.
- ``opponents_match_win_pct``: mean over opponents of their match-win percentage, byes are no
  opponent. An opponent's match-win percentage is its match points over the maximum of every round
  it had, its byes included as won rounds (Wizards of the Coast's tournament rules: a bye is a match
  win for the player's own percentage), at least 1/3: a bye's points over a maximum that left the
  bye out gave percentages above 100 %.
- ``games_won``: games finished first alone (byes excluded). A shared first place is a draw, not a
  win, as in Sonneborn-Berger and head-to-head, which count it as half.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace

TIEBREAKS: tuple[str, ...] = (
    "match_points",
    "marble_difference",
    "buchholz",
    "median_buchholz",
    "sonneborn_berger",
    "head_to_head",
    "opponents_match_win_pct",
    "games_won",
)
DEFAULT_TIEBREAKS_SCORE = ("match_points", "marble_difference", "buchholz", "sonneborn_berger", "head_to_head")
DEFAULT_TIEBREAKS_PLACING = ("match_points", "buchholz", "median_buchholz", "sonneborn_berger", "games_won")
OMW_FLOOR = 1 / 3
BYE_RULES: tuple[str, ...] = ("own_score", "virtual_opponent")


class StandingsError(ValueError):
    """Inconsistent input (e.g. an unknown tiebreak code)."""


@dataclass(frozen=True)
class GameLine:
    entrant_id: int
    placing: int  # 1 = first at the table; tied entrants share a placing
    match_points: float
    score: float | None = None  # marbles home (None for placing-only games)


@dataclass(frozen=True)
class PlayedGame:
    key: int  # the table id
    lines: tuple[GameLine, ...]
    max_points: float  # match points of a clear first place (for the match-win percentage)
    is_bye: bool = False
    score_against_bye: float = 0.0  # the score a bye counts as conceded
    round: int = 0  # the round number (the virtual opponent of a bye needs it; 0: unknown)


@dataclass(frozen=True)
class StandingEntry:
    entrant_id: int
    rank: int
    shared_rank: bool
    games_played: int
    values: Mapping[str, float] = field(default_factory=dict)


def placing_match_points(placings: Sequence[int], points: Sequence[float]) -> tuple[float, ...]:
    """Match points per line from placings; entrants sharing a placing share the mean of the places.

    >>> placing_match_points([1, 2], [2, 0])
    (2.0, 0.0)
    >>> placing_match_points([1, 1], [2, 0])
    (1.0, 1.0)
    >>> placing_match_points([1, 2, 2, 4], [3, 2, 1, 0])
    (3.0, 1.5, 1.5, 0.0)
    """
    counts: dict[int, int] = defaultdict(int)
    for placing in placings:
        counts[placing] += 1
    result = []
    for placing in placings:
        first = placing - 1
        # places beyond the points table score nothing: the slice is short there, or empty
        shared = points[first : first + counts[placing]]
        result.append(float(sum(shared)) / counts[placing])
    return tuple(result)


def placings_from_scores(scores: Sequence[float], winner_index: int | None) -> tuple[int, ...]:
    """Competition placings (1, 2, 2, 4) from scores, the winner (if any) first.

    >>> placings_from_scores([8, 5], 0)
    (1, 2)
    >>> placings_from_scores([6, 6, 2], None)
    (1, 1, 3)
    """
    keys = [(i == winner_index, s) for i, s in enumerate(scores)]  # True > False: the winner first
    return tuple(1 + sum(1 for other in keys if other > key) for key in keys)


def check_tiebreak_order(order: Sequence[str]) -> None:
    unknown = [code for code in order if code not in TIEBREAKS]
    if unknown:
        raise StandingsError(f"Unknown tiebreak(s): {', '.join(unknown)}. Known: {', '.join(TIEBREAKS)}.")
    if len(set(order)) != len(order):
        raise StandingsError("A tiebreak appears twice in the order.")


def compute_standings(
    entrant_ids: Iterable[int], games: Iterable[PlayedGame], order: Sequence[str], *, bye_rule: str = "own_score"
) -> tuple[StandingEntry, ...]:
    """Rank `entrant_ids` by `order` over the final `games`.

    ``bye_rule``: how a bye enters Buchholz and median Buchholz (module docstring).

    Every tiebreak in TIEBREAKS is computed for every row (head-to-head within the final tie groups
    of the criteria before it). Entrants tied on all criteria share a rank and are listed by id.
    """
    check_tiebreak_order(order)
    if bye_rule not in BYE_RULES:
        raise StandingsError(f"Unknown bye rule {bye_rule!r}. Known: {', '.join(BYE_RULES)}.")
    ids = sorted(set(entrant_ids))
    # A canonical order (by table key, lines by entrant) makes every float sum, and so the result,
    # independent of the order in which the games were given.
    games = [
        replace(g, lines=tuple(sorted(g.lines, key=lambda line: line.entrant_id)))
        for g in sorted(games, key=lambda g: g.key)
    ]
    points: dict[int, float] = defaultdict(float)
    available: dict[int, float] = defaultdict(float)
    difference: dict[int, float] = defaultdict(float)
    played: dict[int, int] = defaultdict(int)
    won: dict[int, int] = defaultdict(int)
    # opponent occurrences: (entrant, opponent, outcome 1 / 0.5 / 0 for entrant)
    meetings: list[tuple[int, int, float]] = []
    byes: list[tuple[int, PlayedGame, float]] = []  # (entrant, bye, its points)
    for game in games:
        for line in game.lines:
            points[line.entrant_id] += line.match_points
            played[line.entrant_id] += 1
        if game.is_bye:
            for line in game.lines:
                difference[line.entrant_id] += (line.score or 0.0) - game.score_against_bye
                available[line.entrant_id] += game.max_points  # a won round of its own percentage
                byes.append((line.entrant_id, game, line.match_points))
            continue
        alone_first = sum(1 for line in game.lines if line.placing == 1) == 1  # shared: a draw, no win
        for line in game.lines:
            available[line.entrant_id] += game.max_points
            if line.placing == 1 and alone_first:
                won[line.entrant_id] += 1
            opponents = [other for other in game.lines if other.entrant_id != line.entrant_id]
            if opponents and line.score is not None:
                against = [o.score or 0.0 for o in opponents]
                difference[line.entrant_id] += line.score - sum(against) / len(against)
            for other in opponents:
                outcome = 1.0 if line.placing < other.placing else 0.5 if line.placing == other.placing else 0.0
                meetings.append((line.entrant_id, other.entrant_id, outcome))

    opponent_points: dict[int, list[float]] = defaultdict(list)
    sonneborn: dict[int, float] = defaultdict(float)
    opponent_ids: dict[int, list[int]] = defaultdict(list)
    outcomes: dict[int, list[tuple[int, float]]] = defaultdict(list)
    for entrant, opponent, outcome in meetings:
        opponent_points[entrant].append(points[opponent])
        sonneborn[entrant] += outcome * points[opponent]
        opponent_ids[entrant].append(opponent)
        outcomes[entrant].append((opponent, outcome))

    # a bye's value as an opponent (bye_rule): the holder's own points, or FIDE's virtual opponent
    bye_values: dict[int, list[float]] = defaultdict(list)
    last_round = max((game.round for game in games), default=0)
    for entrant, game, bye_points in byes:
        if bye_rule == "own_score" or not game.round:
            bye_values[entrant].append(points[entrant])
            continue
        before = sum(
            line.match_points for other in games if 0 < other.round < game.round
            for line in other.lines if line.entrant_id == entrant
        )
        bye_values[entrant].append(
            before + (game.max_points - bye_points) + game.max_points / 2 * (last_round - game.round)
        )

    def win_pct(entrant: int) -> float:
        if available[entrant] <= 0:
            return OMW_FLOOR
        return max(OMW_FLOOR, points[entrant] / available[entrant])

    values: dict[int, dict[str, float]] = {}
    for entrant in ids:
        by_bye = sorted(bye_values[entrant])
        opp = sorted(opponent_points[entrant] + by_bye)
        median = opp
        if len(opp) >= 3:
            rest = list(opp)
            rest.remove(by_bye[0] if by_bye else rest[0])  # the low cut takes a bye first
            median = sorted(rest)[:-1]
        omw = [win_pct(o) for o in opponent_ids[entrant]]
        values[entrant] = {
            "match_points": round(points[entrant], 6),
            "marble_difference": round(difference[entrant], 6),
            "buchholz": round(sum(opp), 6),
            "median_buchholz": round(sum(median), 6),
            "sonneborn_berger": round(sonneborn[entrant], 6),
            "head_to_head": 0.0,
            "opponents_match_win_pct": round(sum(omw) / len(omw), 6) if omw else 0.0,
            "games_won": float(won[entrant]),
        }

    groups: list[list[int]] = [ids]
    for code in order:
        next_groups: list[list[int]] = []
        for group in groups:
            if len(group) == 1:
                next_groups.append(group)
                continue
            if code == "head_to_head":
                members = set(group)
                for entrant in group:
                    values[entrant]["head_to_head"] = sum(
                        outcome for opponent, outcome in outcomes[entrant] if opponent in members
                    )
            buckets: dict[float, list[int]] = defaultdict(list)
            for entrant in group:
                buckets[values[entrant][code]].append(entrant)
            next_groups.extend(buckets[key] for key in sorted(buckets, reverse=True))
        groups = next_groups

    rows: list[StandingEntry] = []
    position = 1
    for group in groups:
        for entrant in sorted(group):
            rows.append(
                StandingEntry(
                    entrant_id=entrant,
                    rank=position,
                    shared_rank=len(group) > 1,
                    games_played=played[entrant],
                    values=values[entrant],
                )
            )
        position += len(group)
    return tuple(rows)
