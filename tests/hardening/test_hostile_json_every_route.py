"""One JSON parser everywhere (issue 29): every route under /api/ found in the URL configuration refuses a
too-deep body with 400 `json_too_deep` (or refuses the request before reading its body), never a 500.

The scoresheet views had set DRF's plain JSONParser, which recursed into 20,000 nested `[` and answered
500 (a RecursionError), anonymously. The routes are found by walking the resolver, so a route added
later is covered without touching this test.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import pytest
from django.urls import URLPattern, URLResolver, get_resolver
from rest_framework.authtoken.models import Token
from rest_framework.parsers import JSONParser
from rest_framework.test import APIClient
from rest_framework.views import APIView

from tests.tournaments.conftest import make_tournament, published_round
from tournaments.api_parsers import DepthLimitedJSONParser

pytestmark = pytest.mark.django_db

HOSTILE = "[" * 20_000
WRITE_METHODS = ("post", "put", "patch", "delete")
# Answers that refuse a request before its body is read (no route, no permission, no such method).
REFUSED_BEFORE_PARSING = {401, 403, 404, 405, 415, 429}


def _routes(patterns: list[Any] | None = None, prefix: str = "") -> Iterator[tuple[str, Any]]:
    for entry in patterns if patterns is not None else get_resolver().url_patterns:
        route = prefix + str(entry.pattern)
        if isinstance(entry, URLResolver):
            yield from _routes(entry.url_patterns, route)
        elif isinstance(entry, URLPattern):
            yield route, entry.callback


def _api_routes() -> list[tuple[str, Any]]:
    return [(route, callback) for route, callback in _routes()
            if route.lstrip("^").startswith("api/")]


def _fill(route: str, values: dict[str, str]) -> str:
    """A concrete path for a route: `<int:x>`, `<slug:x>`, `<str:x>` from `values` (by name, else a
    number or slug nothing has); regular-expression routes lose their anchors and format suffixes."""
    def converter(match: re.Match[str]) -> str:
        kind, name = match.group(1) or "str", match.group(2)
        return values.get(name, "999999" if kind == "int" else "no-such-thing")

    path = re.sub(r"<(?:(\w+):)?(\w+)>", converter, route)
    path = re.sub(r"\(\?P<(\w+)>[^)]*\)", lambda m: values.get(m.group(1), "999999"), path)
    path = path.replace("^", "").replace("$", "").replace("\\.", ".").replace("\\Z", "")
    return "/" + path


def test_every_api_view_parses_json_with_the_depth_check() -> None:
    """Static half: no API view keeps a JSON parser without the depth check."""
    plain: list[str] = []
    for route, callback in _api_routes():
        view = getattr(callback, "cls", None) or getattr(callback, "view_class", None)
        if view is None or not issubclass(view, APIView):
            continue
        for parser in view().get_parsers():
            if isinstance(parser, JSONParser) and not isinstance(parser, DepthLimitedJSONParser):
                plain.append(f"{route} {view.__name__}")
    assert not plain, plain
    assert len(_api_routes()) > 30  # the walk found the API


@pytest.mark.parametrize("who", ["anonymous", "organiser"])
def test_hostile_bodies_on_every_api_write_route(who: str, org: Any) -> None:
    tournament = make_tournament(org, entrants=4)
    round_ = published_round(org, tournament)
    table = round_.tables.filter(is_bye=False).first()
    entrant = tournament.entrants.first()
    values = {"slug": tournament.slug, "tournament_slug": tournament.slug, "round_id": str(round_.pk),
              "number": str(round_.number), "table_id": str(table.pk), "entrant_id": str(entrant.pk),
              "pk": str(table.pk), "id": str(table.pk)}
    client = APIClient()
    if who == "organiser":
        client.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=org).key}")
    failures: list[str] = []
    tried = 0
    for route, _callback in _api_routes():
        path = _fill(route, values)
        for method in WRITE_METHODS:
            response = getattr(client, method)(path, data=HOSTILE, content_type="application/json")
            tried += 1
            status = response.status_code
            body = response.content.decode("utf-8", "replace")
            # (JSON everywhere but the schema view, which renders the same error in its YAML)
            if status == 400 and ('"code":"json_too_deep"' in body.replace(" ", "")
                                  or "code: json_too_deep" in body):
                continue
            if status in REFUSED_BEFORE_PARSING:
                continue
            failures.append(f"{method.upper()} {path}: {status} {body[:120]}")
    assert tried > 100
    assert not failures, "\n".join(failures)
