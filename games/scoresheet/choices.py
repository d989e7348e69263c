"""The scoresheet page's taps: the engine's `options` (whole entries in record notation) split into steps
a player taps one after the other: the card, a TAC's borrowed function, then each part of the action
(a marble and its target, every segment of a 7 split, a Trickser pair, a Krieger's field, "discarded"),
and a Narr's or Teufel's follow-up card and action. Pure: no database, no request.

>>> opts = [{"seat": 0, "card": "7", "moves": [[3, 5], [20, 25]]}, {"seat": 0, "card": "7", "moves": [[3, 10]]},
...         {"seat": 0, "card": "5", "discard": True}]
>>> [c.label for c in next_choices(opts, [])]
['5', '7']
>>> [c.label for c in next_choices(opts, ["card:7"])]
['3 → 5', '20 → 25', '3 → 10']
>>> [c.complete is not None for c in next_choices(opts, ["card:7"])]
[False, False, True]
>>> [c.label for c in next_choices(opts, ["card:7", "seg:20>25"])]  # a split's segments in any order
['3 → 5']
>>> next_choices(opts, ["card:7", "seg:20>25"])[0].complete
{'seat': 0, 'card': '7', 'moves': [[3, 5], [20, 25]]}
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from django.utils.translation import gettext
from django.utils.translation import gettext as _

from games.scoresheet.words import card_name, card_sort_key


@dataclass(frozen=True)
class Seats:
    """Who sits where, for the labels: `names[seat]` as the table says it ("Anna (blue)"), and
    `follower(seat, fn)`, the seat that plays the follow-up of a Narr or Teufel played by `seat`."""

    names: Sequence[str] = ()
    follower: Any = None

    def name(self, seat: Any) -> str:
        if isinstance(seat, int) and 0 <= seat < len(self.names):
            return self.names[seat]
        return _("Seat %(n)s") % {"n": seat}


@dataclass(frozen=True)
class Step:
    key: str  # stable, URL-safe enough to travel in ?p=
    label: str
    kind: str  # "seat" | "card" | "as" | "action" | "then"


@dataclass(frozen=True)
class Choice:
    key: str
    label: str
    kind: str
    complete: dict[str, Any] | None  # the entry this tap completes, if it does
    continues: bool  # more taps can follow this one


def _token(value: Any) -> str:
    return str(value) if isinstance(value, str | int) and not isinstance(value, bool) else json.dumps(value)


def _plain(text: str) -> str:
    return text


def _action_steps(action: dict[str, Any], prefix: str = "", _: Any = _, actor: Any = None,
                  seats: Seats | None = None) -> list[Step]:
    steps: list[Step] = []
    enter = action.get("enter")
    if enter is True:
        steps.append(Step(prefix + "enter", _("bring a marble in"), "action"))
    elif enter is not None:
        steps.append(Step(f"{prefix}enter:{_token(enter)}", _("bring in colour %(colour)s") % {"colour": _token(enter)},
                          "action"))
    moves = action.get("moves")
    if isinstance(moves, list):
        for segment in moves:
            if isinstance(segment, list) and len(segment) == 2:
                a, b = _token(segment[0]), _token(segment[1])
                steps.append(Step(f"{prefix}seg:{a}>{b}", f"{a} → {b}", "action"))
    swap = action.get("swap")
    if isinstance(swap, list) and len(swap) == 2:
        a, b = _token(swap[0]), _token(swap[1])
        steps.append(Step(f"{prefix}swap:{a}:{b}", f"{a} ↔ {b}", "action"))
    if action.get("skip") is True:
        steps.append(Step(prefix + "skip", _("skip the next seat"), "action"))
    if "strike" in action:
        field = _token(action["strike"])
        steps.append(Step(f"{prefix}strike:{field}", _("strike from %(field)s") % {"field": field}, "action"))
    if action.get("discard") is True:
        steps.append(Step(prefix + "discard", _("discarded"), "action"))
    then = action.get("then")
    if isinstance(then, dict):
        card = _token(then.get("card"))
        fn = _token(action.get("as") or action.get("card"))
        follow = seats.follower(actor, fn) if seats is not None and seats.follower and actor is not None else None
        named = _ is not _plain
        if follow is not None and seats is not None and named:
            label = _("then %(player)s plays %(card)s") % {"player": seats.name(follow), "card": card_name(card)}
        else:
            label = _("then %(card)s") % {"card": card_name(card) if named else card}
        steps.append(Step(f"{prefix}then:{card}", label, "then"))
        if then.get("as") is not None:
            borrowed = _token(then["as"])
            steps.append(Step(f"{prefix}then-as:{borrowed}",
                              _("as %(card)s") % {"card": card_name(borrowed) if named else borrowed}, "as"))
        steps.extend(_action_steps(then, prefix + "t.", _, follow, seats))
    return steps


def entry_steps(entry: dict[str, Any], *, with_seat: bool = False, labels: bool = True,
                seats: Seats | None = None) -> list[Step]:
    """The taps that make `entry`; an entry of an unknown shape is one tap showing its JSON.
    `labels=False` skips translating the labels (matching needs only the keys)."""
    _ = gettext if labels else _plain
    steps: list[Step] = []
    if with_seat and isinstance(entry.get("seat"), int):
        label = seats.name(entry["seat"]) if seats is not None and labels else _("Seat %(n)s") % {"n": entry["seat"]}
        steps.append(Step(f"seat:{entry['seat']}", label, "seat"))
    if "card" not in entry:
        text = json.dumps(entry, ensure_ascii=False, sort_keys=True)
        return [*steps, Step("raw:" + text, text, "action")]
    card = _token(entry["card"])
    steps.append(Step(f"card:{card}", card_name(card) if labels else card, "card"))
    if entry.get("as") is not None:
        borrowed = _token(entry["as"])
        steps.append(Step(f"as:{borrowed}", _("as %(card)s") % {"card": card_name(borrowed) if labels else borrowed},
                          "as"))
    action_steps = _action_steps(entry, "", _, entry.get("seat"), seats)
    if not action_steps:
        action_steps = [Step("play", _("play"), "action")]
    return steps + action_steps


def _with_seat(options: Sequence[dict[str, Any]]) -> bool:
    return len({o.get("seat") for o in options}) > 1


def _segment_run(key: str) -> str | None:
    """The run a segment tap belongs to ("" for the entry's own moves, "t." for a follow-up's), else None."""
    index = key.find("seg:")
    return key[:index] if index >= 0 else None


def _aligned(steps: list[Step], path: Sequence[str]) -> list[Step] | None:
    """`steps` matching `path`, the segments of a split (a 7) taken in the order they were tapped: the
    engine lists each resulting position once, so the segments of one run may be tapped in any order."""
    steps = list(steps)
    for depth, key in enumerate(path):
        if depth >= len(steps):
            return None
        if steps[depth].key == key:
            continue
        run = _segment_run(key)
        if run is None or _segment_run(steps[depth].key) != run:
            return None
        for later in range(depth + 1, len(steps)):
            if _segment_run(steps[later].key) != run:
                break
            if steps[later].key == key:
                steps[depth], steps[later] = steps[later], steps[depth]
                break
        else:
            return None
    return steps


def next_choices(options: Iterable[dict[str, Any]], path: Sequence[str], seats: Seats | None = None) -> list[Choice]:
    """The taps that may follow `path` (keys of earlier taps), in the engine's order, each saying which
    entry it completes (if any) and whether more taps can follow it."""
    options = [o for o in options if isinstance(o, dict)]
    with_seat = _with_seat(options)
    depth = len(path)
    if not with_seat:  # the first tap is the card: only the options of the tapped card matter
        if depth == 0 and all("card" in o for o in options):
            cards = sorted(dict.fromkeys(_token(o["card"]) for o in options), key=card_sort_key)
            return [Choice(f"card:{card}", card_name(card), "card", None, True) for card in cards]
        if path and path[0].startswith("card:"):
            card = path[0][len("card:"):]
            options = [o for o in options if "card" in o and _token(o["card"]) == card]
    found: dict[str, Choice] = {}
    sample: dict[str, dict[str, Any]] = {}  # an option each choice comes from (for its label)
    for option in options:
        steps = _aligned(entry_steps(option, with_seat=with_seat, labels=False), path)
        if steps is None or len(steps) <= depth:
            continue
        done = option if len(steps) == depth + 1 else None
        candidates = [steps[depth]]
        run = _segment_run(steps[depth].key)
        if run is not None:  # any segment of the split may come next
            for later in steps[depth + 1:]:
                if _segment_run(later.key) != run:
                    break
                candidates.append(later)
        for step in candidates:
            sample.setdefault(step.key, option)
            earlier = found.get(step.key)
            if earlier is None:
                found[step.key] = Choice(step.key, step.label, step.kind, done, done is None)
            else:
                found[step.key] = Choice(step.key, step.label, step.kind, earlier.complete or done,
                                         earlier.continues or done is None)
    labelled = []
    for choice in found.values():  # the label in the visitor's language
        labels = {step.key: step.label for step in entry_steps(sample[choice.key], with_seat=with_seat, seats=seats)}
        labelled.append(Choice(choice.key, labels.get(choice.key, choice.key), choice.kind, choice.complete,
                               choice.continues))
    return labelled


def path_labels(options: Iterable[dict[str, Any]], path: Sequence[str], seats: Seats | None = None) -> list[str]:
    """The labels of the taps made so far (for "7: 3 → 5, …" above the next choices)."""
    options = [o for o in options if isinstance(o, dict)]
    with_seat = _with_seat(options)
    for option in options:
        steps = _aligned(entry_steps(option, with_seat=with_seat, seats=seats), path)
        if steps is not None:
            return [s.label for s in steps[: len(path)]]
    return []


def entry_label(entry: dict[str, Any] | None, seats: Seats | None = None) -> str:
    """One line for an entry of the sheet's history."""
    if not isinstance(entry, dict):
        return ""
    if "exchange" in entry:
        return _("Exchange: %(cards)s") % {"cards": ", ".join("—" if c is None else card_name(c) for c in entry["exchange"])}
    if "announce" in entry:
        return _("Announcements: %(values)s") % {
            "values": ", ".join(_("yes") if a else _("no") for a in entry["announce"])
        }
    steps = entry_steps(entry, seats=seats)
    who = seats.name(entry["seat"]) + ": " if seats is not None and isinstance(entry.get("seat"), int) else ""
    return who + " · ".join(step.label for step in steps)
