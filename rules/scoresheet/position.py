"""The replayed position of a sheet as bytes, so that any process can take up a sheet where another left it.

A sheet's state stores only its entries; the position after them (the engine's state, the deals with
their hidden hands, the deck cycle) is derived by replaying them (``rules.scoresheet.sheet.load``), which
a process caches by the state's ``digest`` (a hash chain over the entries). A room served by several
worker processes would replay whole games whenever an entry reaches a process that did not serve the
previous one. ``position_dump`` turns the cached position into bytes that a cache shared by every
process can keep (the app keeps one per sheet), ``position_restore`` puts such bytes back into this process's cache,
after checking them against the state (format, code, digest, number and last entry); then
``sheet_add``/``sheet_view`` continue from it without replaying.

The bytes are a pickle: restore only bytes this code dumped into a store you trust (the app's own
cache). They leave out what the state already holds (the entries, which the deals' turns are rebuilt
from) and keep the last digests only; of a closed deal they keep only what the record takes from it (each
hand as dealt), not its discard checks and hidden-card bookkeeping, which served while it ran. Bytes of
other code (``CODE``: a digest of the rules package's sources) are refused, never half used.

>>> from rules.scoresheet import sheet_add, sheet_start
>>> from rules.scoresheet import sheet as _sheet
>>> state = sheet_start(game="tac", variant={}, dealer=3,
...     players=[{"name": n, "seats": [s]} for s, n in enumerate("ABCD")])
>>> state = sheet_add(state, {"announce": [True, True, False, True]})
>>> blob = position_dump(state)
>>> _sheet._CACHE.clear()
>>> position_cached(state), position_restore(state, blob), position_cached(state)
(False, True, True)
>>> position_restore(state, b"junk"), position_restore({**state, "entries": []}, blob)
(False, False)
"""

from __future__ import annotations

import copy
import hashlib
import io
import pickle
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from rules.cards.hidden import Cycle, HiddenHand
from rules.scoresheet.sheet import SHEET_FORMAT, Sheet, _hit, header_of, load, remember

POSITION_FORMAT = "scoresheet-position/2"
DIGESTS_KEPT = 4  # enough for an undo or two; an older state is replayed (and cached) again


def _code_digest() -> str:
    root = Path(__file__).resolve().parent.parent
    digest = hashlib.sha1()
    for path in sorted(root.rglob("*.py")):
        digest.update(str(path.relative_to(root)).encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


_CODE: list[str] = []


def code() -> str:
    """A digest of the rules package's sources: a position is only ever restored by the code that dumped it."""
    if not _CODE:
        _CODE.append(_code_digest())
    return _CODE[0]


def _key(state: Mapping[str, Any]) -> str | None:
    digest = state.get("digest")
    return digest if isinstance(digest, str) else None


def position_cached(state: Mapping[str, Any]) -> bool:
    """Whether this process holds the position of `state` (nothing to restore)."""
    entries = state.get("entries")
    return _hit(_key(state), list(entries) if isinstance(entries, list) else []) is not None


_PLAIN = (int, float, str, bool, bytes, type(None), list, dict, set, frozenset, tuple)


def _fields(obj: Any) -> dict[str, Any]:
    fields = dict(getattr(obj, "__dict__", {}))
    for cls in type(obj).__mro__:
        for name in getattr(cls, "__slots__", ()):
            if hasattr(obj, name):
                fields[name] = getattr(obj, name)
    return fields


def _shared(rules: Any) -> dict[str, Any]:
    """What every sheet of these rules shares and a process builds once: the rules adapter, and the objects a
    fresh engine state holds that a fresh state of the same rules holds again (a board's geometry, kept in
    a module cache). They are named in the bytes and taken from this process on restore."""
    probe, again = rules.new_state(), rules.new_state()
    shared: dict[str, Any] = {"rules": rules}
    for name, value in _fields(probe).items():
        if not isinstance(value, _PLAIN) and _fields(again).get(name) is value:
            shared[f"state.{name}"] = value
    return shared


def _shared_object(name: str) -> Any:
    """Stands in the bytes for a shared object; only `_Unpickler` resolves it (to this process's object)."""
    raise pickle.UnpicklingError(f"shared object {name!r} outside a position")


class _Pickler(pickle.Pickler):
    """Names the shared objects instead of pickling them. `reducer_override` (not `persistent_id`, which
    pickle calls for every object, thousands per position late in a game) is only asked about objects
    that are not plain ints, strings, lists, dicts ..., which the shared objects never are."""

    def __init__(self, file: Any, shared: dict[str, Any]) -> None:
        super().__init__(file, protocol=pickle.HIGHEST_PROTOCOL)
        self._names = {id(value): name for name, value in shared.items()}

    def reducer_override(self, obj: Any) -> Any:
        name = self._names.get(id(obj))
        if name is None:
            return NotImplemented
        return _shared_object, (name,)


class _Unpickler(pickle.Unpickler):
    def __init__(self, file: Any, shared: dict[str, Any]) -> None:
        super().__init__(file)
        self._shared = shared

    def _lookup(self, name: Any) -> Any:
        if not isinstance(name, str) or name not in self._shared:
            raise pickle.UnpicklingError("unknown shared object")
        return self._shared[name]

    def find_class(self, module: str, name: str) -> Any:
        if module == __name__ and name == "_shared_object":
            return self._lookup
        return super().find_class(module, name)


def _dealt_hand(hand: tuple[int, list[str]], cycle: Cycle) -> HiddenHand:
    """A closed deal's hand as the record takes it (`DealLog.dealt`): the cards that left it, none hidden."""
    origin, cards = hand
    out = HiddenHand(origin, 0, cycle)
    out.played = list(cards)
    return out


def position_dump(state: Mapping[str, Any]) -> bytes:
    """The position after the state's entries as bytes (replayed first if this process does not hold it)."""
    from rules.scoresheet import _rules  # the rules adapters, as the package loads them

    if state.get("format") != SHEET_FORMAT:
        raise ValueError("Not a scoresheet state.")
    sheet = load(state, _rules)  # a private copy: its closed deals are shared with the cache, so copied below
    count = len(sheet.entries)
    sheet.entries = []
    sheet.digests = sheet.digests[-DIGESTS_KEPT:]
    deals = []
    dealt: dict[int, list[tuple[int, list[str]] | None]] = {}
    for index, deal in enumerate(sheet.deals):  # the turns are entries of the state: rebuilt from their indexes
        light = copy.copy(deal)
        light.turns = []
        if deal.closed and index < len(sheet.deals) - 1:
            dealt[index] = [None if h is None else (h.origin, h.played + h.known()) for h in deal.hands]
            light.hands, light.discards, light.fill = [], [], None
        deals.append(light)
    sheet.deals = deals
    out = io.BytesIO()
    _Pickler(out, _shared(sheet.rules)).dump((POSITION_FORMAT, code(), count, sheet, dealt))
    return out.getvalue()


def position_restore(state: Mapping[str, Any], blob: bytes | None) -> bool:
    """Put the position in `blob` into this process's cache if it is the position of `state`; False (and
    nothing cached) for bytes of another state, another code, or no position at all."""
    from rules.scoresheet import _rules

    entries = state.get("entries")
    digest = _key(state)
    if not blob or digest is None or not isinstance(entries, list) or state.get("format") != SHEET_FORMAT:
        return False
    try:
        shared = _shared(_rules(header_of(state)))
        form, made_by, count, sheet, dealt = _Unpickler(io.BytesIO(blob), shared).load()  # bytes this code dumped
    except Exception:  # noqa: BLE001 - anything unreadable (or a header the rules refuse) is no position
        return False
    if form != POSITION_FORMAT or made_by != code() or not isinstance(sheet, Sheet) or count != len(entries):
        return False
    if not isinstance(dealt, dict) or any(not isinstance(i, int) or not 0 <= i < len(sheet.deals) for i in dealt):
        return False
    if not sheet.digests or sheet.digests[-1] != digest:
        return False
    turns = [i for deal in sheet.deals for i in deal.turn_entries]
    if any(not isinstance(i, int) or not 0 <= i < count for i in turns):
        return False
    for deal in sheet.deals:
        deal.turns = [entries[i] for i in deal.turn_entries]
    for index, hands in dealt.items():
        sheet.deals[index].hands = [None if h is None else _dealt_hand(h, sheet.cycle) for h in hands]
    sheet.entries = list(entries)
    remember(sheet)
    return True
