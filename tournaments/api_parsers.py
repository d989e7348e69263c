"""A JSON parser for the API that refuses deeply nested bodies with 400 (code `json_too_deep`)."""

from __future__ import annotations

import json
from typing import Any

from django.conf import settings
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from rest_framework.exceptions import ParseError
from rest_framework.parsers import JSONParser


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


def _raw_depth_exceeds(text: str, limit: int) -> bool:
    """Bracket depth of the raw text outside strings: refuses before json.loads can recurse."""
    depth = 0
    in_string = False
    escaped = False
    for char in text:
        if in_string:
            if escaped:
                escaped = False
            elif char == "\\":
                escaped = True
            elif char == '"':
                in_string = False
        elif char == '"':
            in_string = True
        elif char in "[{":
            depth += 1
            if depth > limit:
                return True
        elif char in "]}":
            depth -= 1
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
        if _raw_depth_exceeds(text, limit):
            raise JSONTooDeep(_("The JSON body is nested more than %(limit)s levels deep.") % {"limit": limit})
        try:
            data = json.loads(text, parse_constant=_refuse_constant)
        except (ValueError, RecursionError) as exc:
            raise ParseError(f"The body is not valid JSON: {exc}") from exc
        return data


def _refuse_constant(name: str) -> Any:
    raise ValueError(f"{name} is not valid JSON")
