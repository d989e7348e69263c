"""Hands that are only partly seen: the cards a seat played are known, the rest are hidden slots.

At a real table the marble games' cards are played face up, so a scoresheet learns a hand card by card.
A :class:`HiddenHand` stands in for a hand inside the unchanged engines: it holds the cards known to be in
it (an exchanged card the partner received, say) plus a count of hidden cards, and

- its length counts the hidden cards too, so turn order ("the next seat that still holds cards"), the
  Narr's passing and the last card of a deal come out exactly as at the table;
- iterating it gives the known cards only, so a must-play check sees only what is certain: a discard is
  refused at once only when a *known* card has a legal use (illegal whatever the hidden cards);
- ``card in hand`` is true for a known card, and for any card the deck cycle still has while hidden
  slots remain;
- ``remove(card)`` takes a known copy, or else reveals a hidden slot as that card.

Every card that leaves the hand is logged in ``played``; with the exchange this gives the hand as dealt
(``dealt = played + unplayed + given - received``), and the engine object can move between seats (the
Narr) without losing where its cards came from (``origin``, the seat it was dealt to).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Collection, Hashable, Iterable, Mapping, Sequence


class Cycle:
    """The cards of one deck cycle seen so far (closed deals, exchanged and revealed cards)."""

    def __init__(self, deck: Mapping[str, int]) -> None:
        self.deck: dict[str, int] = dict(deck)
        self.seen: Counter[str] = Counter()

    def available(self, card: str) -> bool:
        return self.seen[card] < self.deck.get(card, 0)

    def pool(self) -> Counter[str]:
        """The cards of the cycle not yet seen."""
        return Counter({c: n - self.seen[c] for c, n in self.deck.items() if n > self.seen[c]})

    def fork(self) -> Cycle:
        other = Cycle(self.deck)
        other.seen = Counter(self.seen)
        return other

    def excess(self) -> str | None:
        return next((c for c, n in self.seen.items() if n > self.deck.get(c, 0)), None)


class HiddenHand(list[str]):
    """A hand: the known cards as list items, plus ``hidden`` unseen cards (see the module doc)."""

    def __init__(self, origin: int, hidden: int, cycle: Cycle, known: Iterable[str] = ()) -> None:
        super().__init__(known)
        self.origin = origin
        self.hidden = hidden
        self.cycle = cycle
        self.played: list[str] = []
        self.revealed: list[str] = []  # the cards hidden slots turned out to be, in order
        self.forbidden: set[str] = set()  # cards the hidden slots cannot be (a discard was legal)

    def __len__(self) -> int:
        return list.__len__(self) + self.hidden

    def __bool__(self) -> bool:
        return self.hidden > 0 or list.__len__(self) > 0

    def __contains__(self, card: object) -> bool:
        if list.__contains__(self, card):
            return True
        return self.hidden > 0 and isinstance(card, str) and self.cycle.available(card)

    def remove(self, card: str) -> None:
        if list.__contains__(self, card):
            list.remove(self, card)
        elif self.hidden > 0:
            self.hidden -= 1
            self.cycle.seen[card] += 1
            self.revealed.append(card)
        else:
            raise ValueError(f"{card} is not in the hand")
        self.played.append(card)

    def reveal(self, card: str) -> None:
        """A hidden card turns out to be `card` (still in the hand): a discard's card is seen first,
        so that the must-play check counts it among the known cards."""
        if self.hidden > 0 and not list.__contains__(self, card):
            self.hidden -= 1
            self.cycle.seen[card] += 1
            self.revealed.append(card)
            list.append(self, card)

    def known(self) -> list[str]:
        return list(iter(self))

    def possible(self) -> list[str]:
        """Every card this hand may hold: the known ones, and while cards are hidden, the cycle's rest."""
        out = dict.fromkeys(self.known())
        if self.hidden > 0:
            for card in self.cycle.pool():
                out.setdefault(card, None)
        return list(out)

    def fork(self, cycle: Cycle) -> HiddenHand:
        """A copy of this hand that reveals into `cycle` (a copy of its cycle, shared by the copies)."""
        other = HiddenHand(self.origin, self.hidden, cycle, self.known())
        other.played = self.played[:]
        other.revealed = self.revealed[:]
        other.forbidden = set(self.forbidden)
        return other


def fork_hands(hands: Sequence[Sequence[str]]) -> list[list[str]]:
    """Copies of a position's hands; hidden hands get one new copy of their cycle between them."""
    cycles: dict[int, Cycle] = {}
    out: list[list[str]] = []
    for hand in hands:
        if isinstance(hand, HiddenHand):
            cycle = cycles.get(id(hand.cycle))
            if cycle is None:
                cycle = cycles[id(hand.cycle)] = hand.cycle.fork()
            out.append(hand.fork(cycle))
        else:
            out.append(list(hand))
    return out


def possible_cards(hand: Sequence[str]) -> list[str]:
    """The distinct cards a hand may hold, sorted: all of a known hand's; with hidden cards, the cycle's."""
    if isinstance(hand, HiddenHand):
        return sorted(hand.possible())
    return sorted(set(hand))


def assign_hidden(
    slots: Mapping[int, int],
    pool: Mapping[str, int],
    *,
    forbidden: Mapping[int, Collection[str]] | None = None,
    need: Mapping[int, Collection[str]] | None = None,
) -> dict[int, list[str]] | None:
    """Cards for every hidden slot, or None when no choice fits: an exact answer, not a search.

    ``slots[h]`` hidden cards of hand ``h`` are drawn from ``pool`` (the deck cycle's unseen cards, each
    copy at most once), never one of ``forbidden[h]``, and where ``need[h]`` is given at least one of
    them is among ``need[h]`` (TAC's "ich kann" for a hand whose known cards hold no 1 or 13; "ich kann
    nicht" is a ``forbidden`` set). This is a transportation problem: a flow from the pool's cards to the
    hands' slots (a maximum flow, networkx), where a hand with a need gets one slot of its own that only
    the needed cards reach. Every slot is filled exactly when the maximum flow equals their number, so
    the answer is None only when no assignment exists.
    """
    forbidden = forbidden or {}
    need = need or {}
    total = sum(n for n in slots.values() if n > 0)
    if any(slots.get(h, 0) <= 0 and cards for h, cards in need.items()):
        return None
    if total == 0:
        return {h: [] for h in slots}
    if total > sum(n for n in pool.values() if n > 0):
        return None
    quick = _greedy(slots, pool, forbidden, need)
    if quick is not None:
        return quick  # a greedy choice usually fits; the flow decides when it does not
    import networkx as nx
    from networkx.algorithms.flow import edmonds_karp

    graph: nx.DiGraph[Hashable] = nx.DiGraph()
    for card, n in pool.items():
        if n > 0:
            graph.add_edge("src", ("card", card), capacity=n)
    for h, n in slots.items():
        if n <= 0:
            continue
        banned = forbidden.get(h, ())
        wanted = need.get(h)
        rest = n - 1 if wanted else n
        if rest > 0:
            graph.add_edge(("hand", h), "sink", capacity=rest)
        if wanted:
            graph.add_edge(("need", h), "sink", capacity=1)
        for card, left in pool.items():
            if left <= 0 or card in banned:
                continue
            if rest > 0:
                graph.add_edge(("card", card), ("hand", h), capacity=n)
            if wanted and card in wanted:
                graph.add_edge(("card", card), ("need", h), capacity=1)
    if "sink" not in graph:
        return None
    value, flow = nx.maximum_flow(graph, "src", "sink", flow_func=edmonds_karp)
    if value < total:
        return None
    out: dict[int, list[str]] = {h: [] for h in slots}
    for node, edges in flow.items():
        if isinstance(node, tuple) and node[0] == "card":
            for (_, h), units in edges.items():
                out[h].extend([node[1]] * units)
    for cards in out.values():
        cards.sort()
    return out


def _greedy(
    slots: Mapping[int, int],
    pool: Mapping[str, int],
    forbidden: Mapping[int, Collection[str]],
    need: Mapping[int, Collection[str]],
) -> dict[int, list[str]] | None:
    """A quick choice: the needs first, then the most constrained hands, each from the most plentiful
    cards it may hold. None means only that this greedy choice failed (not that none exists)."""
    left = Counter({c: n for c, n in pool.items() if n > 0})
    out: dict[int, list[str]] = {h: [] for h in slots}
    for h, cards in need.items():
        if not cards or slots.get(h, 0) <= 0:
            continue
        options = [c for c in cards if left[c] > 0 and c not in forbidden.get(h, ())]
        if not options:
            return None
        best = max(options, key=lambda c: (left[c], c))
        left[best] -= 1
        out[h].append(best)
    for h in sorted(slots, key=lambda h: -len(forbidden.get(h, ()))):
        banned = forbidden.get(h, ())
        while len(out[h]) < slots[h]:
            options = [c for c in left if left[c] > 0 and c not in banned]
            if not options:
                return None
            best = max(options, key=lambda c: (left[c], c))
            take = min(left[best], slots[h] - len(out[h]))
            left[best] -= take
            out[h].extend([best] * take)
    for cards in out.values():
        cards.sort()
    return out
