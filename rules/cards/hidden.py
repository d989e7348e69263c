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
from collections.abc import Iterable, Mapping, Sequence


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


def fill_hidden(
    hands: list[HiddenHand],
    pool: Counter[str],
    *,
    needs: Mapping[int, tuple[frozenset[str], bool, bool]] | None = None,
    order: list[str] | None = None,
    budget: int = 20000,
) -> dict[int, list[str]] | None:
    """Choose cards for every hidden slot: from ``pool``, never a hand's ``forbidden`` card.

    ``needs[origin] = (cards, want, has)``: the hand as dealt must (``want``) or must not hold one of
    ``cards`` (TAC's announcement); ``has`` says whether its known cards already do. Returns
    ``{origin: cards}`` or None if no choice fits (or the search gives up after ``budget`` steps).
    """
    needs = needs or {}
    slots = [h for h in hands if h.hidden > 0]
    tokens = order if order is not None else sorted(pool)
    rank = {card: i for i, card in enumerate(tokens)}
    left = Counter(pool)
    chosen: dict[int, list[str]] = {h.origin: [] for h in hands}
    steps = [0]

    def satisfied(h: HiddenHand) -> bool:
        need = needs.get(h.origin)
        if need is None:
            return True
        cards, want, has = need
        return (has or any(c in cards for c in chosen[h.origin])) == want

    def place(i: int, k: int) -> bool:
        steps[0] += 1
        if steps[0] > budget:
            return False
        if i == len(slots):
            return True
        h = slots[i]
        if k == h.hidden:
            return satisfied(h) and place(i + 1, 0)
        floor = rank[chosen[h.origin][-1]] if k else 0
        need = needs.get(h.origin)
        for card in tokens[floor:]:
            if left[card] <= 0 or card in h.forbidden:
                continue
            if need is not None and not need[1] and card in need[0]:
                continue
            left[card] -= 1
            chosen[h.origin].append(card)
            if place(i, k + 1):
                return True
            chosen[h.origin].pop()
            left[card] += 1
        return False

    if not all(satisfied(h) for h in hands if h.hidden == 0):
        return None
    return chosen if place(0, 0) else None
