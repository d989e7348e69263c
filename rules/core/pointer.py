"""RFC 6901 JSON Pointers for error locations."""

from __future__ import annotations

from typing import Any


def _escape(part: str | int) -> str:
    return str(part).replace("~", "~0").replace("/", "~1")


def pointer(*parts: str | int) -> str:
    """Build a pointer from its reference tokens.

    >>> pointer("deals", 2, "turns", 7)
    '/deals/2/turns/7'
    >>> pointer()
    ''
    >>> pointer("a/b", "m~n")
    '/a~1b/m~0n'
    """
    return "".join("/" + _escape(p) for p in parts)


def child(path: str, *parts: str | int) -> str:
    """Extend an existing pointer.

    >>> child("/deals/2", "turns", 7)
    '/deals/2/turns/7'
    """
    return path + pointer(*parts)


def is_within(path: str, expected: str) -> bool:
    """True if `path` names `expected` or a location inside it (how verdicts are compared).

    >>> is_within("/deals/2/turns/7/moves/1", "/deals/2/turns/7")
    True
    >>> is_within("/deals/2/turns/70", "/deals/2/turns/7")
    False
    """
    return path == expected or path.startswith(expected + "/")


def _unescape(part: str) -> str:
    return part.replace("~1", "/").replace("~0", "~")


def resolve(doc: Any, path: str) -> Any:
    """The value a pointer names in a parsed JSON document; LookupError if there is none.

    >>> resolve({"deals": [{"turns": [{"seat": 1}]}]}, "/deals/0/turns/0")
    {'seat': 1}
    >>> resolve({"a/b": 1}, "/a~1b")
    1
    >>> resolve([1], "/3")
    Traceback (most recent call last):
    ...
    LookupError: /3
    """
    node = doc
    if path == "":
        return node
    if not path.startswith("/"):
        raise LookupError(path)
    for raw in path[1:].split("/"):
        part = _unescape(raw)
        if isinstance(node, dict) and part in node:
            node = node[part]
        elif isinstance(node, list) and part.isdigit() and (part == "0" or not part.startswith("0")):
            index = int(part)
            if index >= len(node):
                raise LookupError(path)
            node = node[index]
        else:
            raise LookupError(path)
    return node
