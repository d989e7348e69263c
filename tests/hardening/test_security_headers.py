"""CSP and the security headers on every HTML response, the API docs included (issue 15); a view
opts into being framed anywhere with tournaments.framing.embeddable."""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.http import HttpRequest, HttpResponse
from django.test import Client
from django.urls import path

from tests.tournaments.conftest import make_tournament
from tournaments.framing import embeddable


def _csp(response: Any) -> dict[str, list[str]]:
    header = response["Content-Security-Policy"]
    return {part.split()[0]: part.split()[1:] for part in header.split(";") if part.strip()}


def assert_strict_headers(response: Any) -> None:
    csp = _csp(response)
    assert csp["frame-ancestors"] == ["'none'"]
    assert csp["default-src"] == ["'self'"] and csp["object-src"] == ["'none'"]
    assert "'unsafe-inline'" not in csp["script-src"] and "'unsafe-eval'" not in csp["script-src"]
    assert response["X-Frame-Options"] == "DENY"
    assert response["X-Content-Type-Options"] == "nosniff"
    assert response["Referrer-Policy"] == "same-origin"
    assert response["Cross-Origin-Opener-Policy"] == "same-origin"


def assert_no_inline_script_without_nonce(response: Any) -> None:
    found = re.search(r"'nonce-([^']+)'", response["Content-Security-Policy"])
    nonce = found.group(1) if found else None
    for tag in re.findall(r"<script\b[^>]*>", response.content.decode()):
        assert "src=" in tag or (nonce and f'nonce="{nonce}"' in tag), tag


@pytest.mark.parametrize("url", [
    "/", "/accounts/login/", "/api/docs/", "/t/cup/", "/t/cup/standings/", "/t/cup/rounds/1/", "/rankings/",
    "/no-such-page/", "/admin/login/",
])
def test_every_html_page_has_the_same_security_headers(org: Any, url: str) -> None:
    make_tournament(org, name="cup")
    response = Client().get(url)
    assert response["Content-Type"].startswith("text/html"), url
    assert_strict_headers(response)
    assert_no_inline_script_without_nonce(response)


def test_the_api_docs_load_their_script_from_a_file(db: Any) -> None:
    page = Client().get("/api/docs/")
    scripts = re.findall(r'<script src="([^"]+)"', page.content.decode())
    assert any("sidecar" in s for s in scripts) and any("script=" in s for s in scripts)
    init = Client().get(next(s for s in scripts if "script=" in s).replace("&amp;", "&"))
    assert init.status_code == 200 and init["Content-Type"].startswith("application/javascript")


def test_api_json_answers_carry_the_policy_too(db: Any) -> None:
    response = Client().get("/api/tournaments/")
    assert _csp(response)["frame-ancestors"] == ["'none'"] and response["X-Frame-Options"] == "DENY"


@embeddable
def _embedded(request: HttpRequest) -> HttpResponse:
    return HttpResponse("<p>standings</p>")


urlpatterns = [path("embed/", _embedded)]


@pytest.mark.urls(__name__)
def test_an_embeddable_view_may_be_framed_by_any_site(db: Any) -> None:
    response = Client().get("/embed/")
    csp = _csp(response)
    assert csp["frame-ancestors"] == ["*"]
    assert csp["script-src"][0] == "'self'"  # the rest of the policy stays
    assert "X-Frame-Options" not in response
