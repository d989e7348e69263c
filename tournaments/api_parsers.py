"""A JSON parser for the API that refuses deeply nested bodies with 400 (code `json_too_deep`)."""

from __future__ import annotations

import json
import re
from itertools import accumulate
from typing import Any

from django.conf import settings
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from rest_framework.exceptions import ParseError
from rest_framework.parsers import JSONParser


class UnstorableText(ParseError):
    """Valid JSON (so schema-valid strings) holding U+0000 or half a surrogate pair, which PostgreSQL cannot
    store: well formed but not processable, 422 (issue 30); the code stays `parse_error`."""

    status_code = 422


class JSONTooDeep(ParseError):
    default_code = "json_too_deep"
    default_detail = gettext_lazy("The JSON body is nested too deeply.")


def json_depth_exceeds(value: Any, limit: int) -> bool:
    """True when `value` nests lists/objects deeper than `limit` levels (iterative, no recursion)."""
    stack: list[tuple[Any, int]] = [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict):
            if depth > limit:
                return True
            stack.extend((child, depth + 1) for child in item.values())
        elif isinstance(item, list):
            if depth > limit:
                return True
            stack.extend((child, depth + 1) for child in item)
    return False


# A JSON string with its escapes, or an unterminated one running to the end of the text.
_STRING = re.compile(r'"[^"\\]*(?:\\.[^"\\]*)*(?:"|\\?\Z)', re.S)
_BRACKETS = bytes.maketrans(b"[{]}", b"\x01\x01\x02\x02")  # an opening bracket: 1, a closing one: 2
_NOT_BRACKETS = bytes(sorted(set(range(256)) - set(b"[]{}")))
_STEP = (0, 1, -1)


_QUOTES_AND_BRACKETS = bytes.maketrans(b'[{]}"', b"\x01\x01\x02\x02\x03")  # and a quote: 3
_NOT_QUOTES_OR_BRACKETS = bytes(sorted(set(range(256)) - set(b'[]{}"')))


def _certainly_shallow(data: bytes, limit: int) -> bool:
    """True when the UTF-8 text `data` nests no deeper than `limit` outside its strings, found at C speed
    for what an API receives (no escapes, no bracket inside a string: a 30 KB TAC record in 0.05 ms);
    False when that cannot be told so (the caller measures exactly).

    Every byte but the quotes and brackets dropped (a UTF-8 multi-byte character holds no ASCII byte),
    then every pair of adjacent quotes: without a backslash the quotes alternate opening and closing, so
    no quote is left only when every string's two quotes were adjacent, i.e. held no bracket (one pass
    pairs the quotes from the left, and the only pairing of consecutive quotes is string by string). The
    brackets left are the structure's; they are shallow when they vanish in `limit` passes, each dropping
    every innermost pair."""
    if b"\\" in data:
        return False
    left = data.translate(_QUOTES_AND_BRACKETS, _NOT_QUOTES_OR_BRACKETS).replace(b"\x03\x03", b"")
    return b"\x03" not in left and _pairs_vanish(left, limit)


def _pairs_vanish(brackets: bytes, limit: int) -> bool:
    """Whether the brackets (1 opening, 2 closing) are balanced and as deep as `limit` at most: such
    brackets vanish in `limit` passes, each dropping every innermost pair (one level, at C speed)."""
    for _level in range(limit):
        if not brackets:
            return True
        brackets = brackets.replace(b"\x01\x02", b"")
    return not brackets


def raw_depth_exceeds(text: str | bytes, limit: int) -> bool:
    """Bracket depth of the raw text (or its UTF-8 bytes) outside strings: refuses before json.loads can
    recurse.

    Most texts are told shallow at once (`_certainly_shallow`). The others by C string methods rather
    than a loop over the characters: the strings are cut out (split at the quotes when nothing is
    escaped), every byte but the brackets dropped, and the running depth taken over the brackets alone."""
    data = text if isinstance(text, bytes) else text.encode("utf-8", "surrogatepass")
    if _certainly_shallow(data, limit):
        return False
    if isinstance(text, bytes):
        text = text.decode("utf-8", "replace")
    outside = _STRING.sub("", text) if "\\" in text else "".join(text.split('"')[::2])
    brackets = outside.encode("utf-8", "surrogatepass").translate(_BRACKETS, _NOT_BRACKETS)
    if len(brackets) <= limit or _pairs_vanish(brackets, limit):
        return False
    # Anything else (deeper, or unbalanced) is measured exactly by the running depth.
    return max(accumulate(map(_STEP.__getitem__, brackets))) > limit


# U+0000 and the halves of surrogate pairs: PostgreSQL stores neither in text nor in jsonb, and UTF-8
# cannot encode a half. Decoded JSON holds them only where an escape spells them (`\\u0000`, `\\ud800`-
# `\\udfff`): unescaped, JSON refuses U+0000, and valid UTF-8 carries no surrogate.
UNSTORABLE = re.compile("[\x00\ud800-\udfff]")
_UNSTORABLE_ESCAPE = re.compile(r"\\u(?:0000|[dD][89a-fA-F])")


def holds_unstorable(text: str, value: Any) -> bool:
    """Does `value` (the JSON `text` decoded) hold a string or key with a character PostgreSQL cannot
    store? The text is searched first; the value is walked only when such an escape is there."""
    if not _UNSTORABLE_ESCAPE.search(text):
        return False
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            if UNSTORABLE.search(item):
                return True
        elif isinstance(item, dict):
            stack.extend(item)
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)
    return False


class DepthLimitedJSONParser(JSONParser):
    def parse(self, stream: Any, media_type: str | None = None, parser_context: Any = None) -> Any:
        parser_context = parser_context or {}
        encoding = parser_context.get("encoding", settings.DEFAULT_CHARSET)
        limit = settings.API_JSON_MAX_DEPTH
        try:
            text = stream.read().decode(encoding)
        except (UnicodeDecodeError, LookupError) as exc:
            raise ParseError(_("The body is not valid text in the declared encoding.")) from exc
        if raw_depth_exceeds(text, limit):
            raise JSONTooDeep(_("The JSON body is nested more than %(limit)s levels deep.") % {"limit": limit})
        try:
            data = json.loads(text, parse_constant=_refuse_constant)
        except (ValueError, RecursionError) as exc:
            raise ParseError(f"The body is not valid JSON: {exc}") from exc
        if holds_unstorable(text, data):
            raise UnstorableText(_("The JSON body contains a character that cannot be stored: U+0000 or half "
                                   "of a surrogate pair."))
        return data


def _refuse_constant(name: str) -> Any:
    raise ValueError(f"{name} is not valid JSON")


class JsonDepthMiddleware:
    """The depth check at the door of every /api/ route (issue 29): a write whose JSON body nests deeper
    than API_JSON_MAX_DEPTH is answered 400 `json_too_deep` before any view runs, whatever the view's
    parsers (DRF's plain JSONParser recursed into 20,000 `[` and answered 500) and whether or not it
    reads its body at all. Bodies larger than DATA_UPLOAD_MAX_MEMORY_SIZE are left to the view's own
    limits (the record and import uploads read their bodies as bytes and check them themselves)."""

    METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})

    def __init__(self, get_response: Any) -> None:
        self.get_response = get_response

    def __call__(self, request: Any) -> Any:
        if (request.method in self.METHODS and request.path.startswith("/api/")
                and "json" in request.META.get("CONTENT_TYPE", "").lower()):
            refused = self._refuse(request)
            if refused is not None:
                return refused
        return self.get_response(request)

    def _refuse(self, request: Any) -> Any:
        from django.http import JsonResponse

        try:
            length = int(request.META.get("CONTENT_LENGTH") or 0)
        except ValueError:
            return None
        limit_bytes = settings.DATA_UPLOAD_MAX_MEMORY_SIZE
        if not length or (limit_bytes is not None and length > limit_bytes):
            return None
        limit = settings.API_JSON_MAX_DEPTH
        if not raw_depth_exceeds(request.body, limit):
            request.json_depth_checked = True  # a view reading the body as text need not count again
            return None
        message = _("The JSON body is nested more than %(limit)s levels deep.") % {"limit": limit}
        return JsonResponse({"error": {"code": "json_too_deep", "message": message, "details": {"limit": limit}}},
                            status=400)
