"""RFC 6901 JSON Pointers for error locations."""

from __future__ import annotations


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
