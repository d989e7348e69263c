"""API errors: stable codes, 4xx for any bad input (never 500), body limits, deeply nested JSON, schema."""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.test import override_settings
from hypothesis import given, settings
from hypothesis import strategies as st
from rest_framework.test import APIClient

from tests.tournaments.conftest import make_tournament, seated_entrants
from tournaments import services
from tournaments.api_parsers import holds_unstorable, json_depth_exceeds, raw_depth_exceeds
from tournaments.errors import HTTP_STATUS, ErrorCode

pytestmark = pytest.mark.django_db


@pytest.fixture
def client(organiser: Any) -> APIClient:
    api = APIClient()
    api.force_authenticate(organiser)
    return api


def test_deeply_nested_json_is_refused_with_400(client: APIClient) -> None:
    body = "[" * 200 + "]" * 200
    response = client.post("/api/tournaments/", body, content_type="application/json")
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "json_too_deep"
    very_deep = '{"a":' * 100000 + "1" + "}" * 100000
    response = client.post("/api/tournaments/", very_deep, content_type="application/json")
    assert response.status_code == 400 and response.json()["error"]["code"] == "json_too_deep"


def test_brackets_inside_strings_do_not_count_as_nesting(client: APIClient) -> None:
    response = client.post("/api/tournaments/", json.dumps({"name": "[[[[" * 20, "game": "tac"}),
                           content_type="application/json")
    assert response.status_code == 201


def test_depth_helper() -> None:
    assert not json_depth_exceeds({"a": [1, {"b": 2}]}, 3)
    assert json_depth_exceeds({"a": [1, {"b": [2]}]}, 3)


def _depth_one_char_at_a_time(text: str, limit: int) -> bool:
    """The reference: a loop over the characters (what `raw_depth_exceeds` did before it went to C)."""
    depth, in_string, escaped = 0, False, False
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


@settings(max_examples=3000, deadline=None)
@given(st.text(alphabet=st.sampled_from('[]{}"\\ a\né\ud800'), max_size=40), st.integers(0, 4))
def test_raw_depth_agrees_with_reading_one_char_at_a_time(text: str, limit: int) -> None:
    # strings with escaped quotes and backslashes, unterminated strings, unbalanced brackets, non-ASCII
    assert raw_depth_exceeds(text, limit) == _depth_one_char_at_a_time(text, limit)
    # as the UTF-8 bytes of a request's body (the middleware's case)
    assert raw_depth_exceeds(text.encode("utf-8", "surrogatepass"), limit) == _depth_one_char_at_a_time(text, limit)


@settings(max_examples=3000, deadline=None)
@given(st.text(alphabet=st.sampled_from('[]{}"a:,é'), max_size=60), st.integers(0, 5))
def test_raw_depth_without_escapes_agrees_with_reading_one_char_at_a_time(text: str, limit: int) -> None:
    # no backslash: the texts `_certainly_shallow` tells at once (brackets inside strings or not)
    for given_as in (text, text.encode("utf-8")):
        assert raw_depth_exceeds(given_as, limit) == _depth_one_char_at_a_time(text, limit)


@pytest.mark.parametrize(("text", "limit", "deep"), [
    ("[[[]]]", 3, False), ("[[[]]]", 2, True), ('{"a": [{"b": "]]]]"}]}', 3, False),
    ('{"a": "\\"[[[["}', 1, False), ('{"a": "\\"[[[["}', 0, True),
    ('"\\""[[', 1, True), ('"[[[[\\', 0, False), ("]]][[[[", 1, False), ("]][[[[", 1, True), ("", 0, False),
])
def test_raw_depth_cases(text: str, limit: int, deep: bool) -> None:
    assert raw_depth_exceeds(text, limit) is deep is _depth_one_char_at_a_time(text, limit)


@pytest.mark.parametrize("body", [
    '{"name": "Cup\\u0000", "game": "tac"}', '{"name": "Cup \\ud83d", "game": "tac"}',
    '{"name": "Cup", "game": "tac", "variant": {"\\udc00": 1}}',
])
def test_characters_the_database_cannot_store_are_422(client: APIClient, body: str) -> None:
    """U+0000 and halves of surrogate pairs, spelt by JSON escapes anywhere in a body (a key, a JSON
    field the serializers do not check), are refused before any view: PostgreSQL stores neither. Valid
    JSON the schema accepts, so 422 (issue 30), with the code parse_error."""
    response = client.post("/api/tournaments/", body, content_type="application/json")
    assert response.status_code == 422 and response.json()["error"]["code"] == "parse_error"
    assert "cannot be stored" in response.json()["error"]["message"]
    whole = client.post("/api/tournaments/", '{"name": "Cup \\ud83c\\udfb2 \\\\u0000", "game": "tac"}',
                        content_type="application/json")  # a whole pair, an escaped backslash: fine
    assert whole.status_code == 201 and whole.json()["name"] == "Cup \U0001f3b2 \\u0000"


def test_holds_unstorable_reads_keys_values_and_nesting() -> None:
    assert not holds_unstorable('{"a": "b"}', {"a": "b"})
    assert not holds_unstorable('"x"', "\x00")  # no such escape in the text: the value is not walked
    assert holds_unstorable('{"\\u0000": 1}', {"\x00": 1})
    assert holds_unstorable('[[{"k": ["\\ud800"]}]]', [[{"k": ["\ud800"]}]])
    assert not holds_unstorable('["\\ud83c\\udfb2"]', ["\U0001f3b2"])


def test_invalid_json_and_wrong_shapes_are_400(client: APIClient) -> None:
    response = client.post("/api/tournaments/", "{not json", content_type="application/json")
    assert response.status_code == 400 and response.json()["error"]["code"] == "parse_error"
    response = client.post("/api/tournaments/", "NaN", content_type="application/json")
    assert response.status_code == 400
    response = client.post("/api/tournaments/", "[1, 2]", content_type="application/json")
    assert response.status_code == 400 and response.json()["error"]["code"] == "invalid_input"


@override_settings(DATA_UPLOAD_MAX_MEMORY_SIZE=1000)
def test_oversized_bodies_are_refused(client: APIClient) -> None:
    response = client.post("/api/tournaments/", json.dumps({"name": "x" * 5000, "game": "tac"}),
                           content_type="application/json")
    assert response.status_code == 400


def test_bad_variant_has_its_own_code(client: APIClient) -> None:
    response = client.post("/api/tournaments/", {"name": "X", "game": "tactik", "variant": {"seats": 5}},
                           format="json")
    assert response.status_code == 422
    assert response.json()["error"] == {
        "code": "invalid_variant", "message": "Tac-Tik: 'seats' must be 4 or 6.", "details": {},
    }


def test_csv_import_errors_list_the_rows(client: APIClient, organiser: Any) -> None:
    tournament = services.tournament_create(actor=organiser, name="Import", game="tac")
    response = client.post(f"/api/tournaments/{tournament.slug}/entrants/import/",
                           {"csv": "name,players\nA,x;y\nB,z\n"}, format="json")
    assert response.status_code == 422
    error = response.json()["error"]
    assert error["code"] == "invalid_csv" and error["details"]["rows"][0]["row"] == 3


def test_unknown_objects_are_404_with_a_code(client: APIClient) -> None:
    for url in ["/api/tournaments/nope/", "/api/rounds/999999/", "/api/tables/999999/",
                "/api/tournaments/nope/export/standings.csv"]:
        response = client.get(url)
        assert response.status_code == 404
        assert response.json()["error"]["code"] == "not_found"
    response = client.post("/api/results/999999/confirm/", {}, format="json")
    assert response.status_code == 404


# Every code that is not a 409 (the state does not allow it), with its status; the rest are 409.
NOT_409 = {
    400: {"invalid_input", "json_too_deep", "record_too_large", "import_too_large"},
    422: {"invalid_variant", "invalid_result", "invalid_csv", "pairing_invalid", "record_unreadable",
          "record_game_mismatch", "record_players_mismatch", "record_table_not_found", "import_unreadable",
          "invalid_archive", "scoresheet_unsupported", "webhook_target_refused"},
    401: {"login_failed"},
    403: {"permission_denied", "confirm_own_report"},
    404: {"not_found"},
    429: {"login_locked", "sign_up_throttled"},
}


def test_every_error_code_maps_to_a_4xx() -> None:
    from tournaments.errors import TournamentError

    expected = {code: status for status, codes in NOT_409.items() for code in codes}
    for code in ErrorCode:
        status = TournamentError(code, "x").http_status
        assert status == expected.get(code.value, 409), code
        assert 400 <= status < 500
        assert code.value == code.value.lower() and " " not in code.value
    # the bad-input, permission and not-found codes are in the map itself, not left to the fallback
    assert {code.value: status for code, status in HTTP_STATUS.items()} == expected


GARBAGE: list[Any] = [
    None, [], "text", 0, {"scores": "8:5"}, {"scores": {"x": 1}}, {"scores": {"1": 10**30}},
    {"placings": [1, 2]}, {"kind": 5}, {"tables": "all"}, {"tables": [[1, "b"]]}, {"tables": [[-1, 2]]},
    {"name": ""}, {"name": "x" * 500}, {"game": None}, {"variant": [1]}, {"seed": "first"},
    {"winner": True}, {"forfeited": {"a": 1}}, {"csv": ["a"]}, {"player_names": "ab"},
    {"rounds_planned": 10**9}, {"placing_points": ["x"]}, {"tiebreak_order": ["coin"]},
]


def test_no_write_endpoint_answers_500_to_garbage(client: APIClient, organiser: Any) -> None:
    tournament = make_tournament(organiser, entrants=4)
    round_ = services.round_publish(actor=organiser, round=services.round_generate(actor=organiser,
                                                                                  tournament=tournament))
    table = round_.tables.filter(is_bye=False).first()
    home, away = seated_entrants(table)
    pending = services.result_report(table=table, token=home.report_token, scores={home.pk: 8, away.pk: 1})
    urls = [
        "/api/tournaments/", f"/api/tournaments/{tournament.slug}/entrants/",
        f"/api/tournaments/{tournament.slug}/entrants/import/", f"/api/rounds/{round_.pk}/edit/",
        f"/api/tables/{table.pk}/report/", f"/api/tables/{table.pk}/override/",
        f"/api/results/{pending.pk}/reject/", f"/api/entrants/{home.pk}/check-in/",
        f"/api/tournaments/{tournament.slug}/rounds/generate/",
    ]
    for url in urls:
        for body in GARBAGE:
            response = client.post(url, json.dumps(body), content_type="application/json")
            assert response.status_code < 500, (url, body)
            if response.status_code >= 400:
                assert "code" in response.json()["error"], (url, body)


def test_schema_and_docs_are_served() -> None:
    api = APIClient()
    schema = api.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
    assert schema.status_code == 200
    paths = json.loads(schema.content)["paths"]
    assert "/api/tables/{table_id}/report/" in paths
    assert "/api/tournaments/{slug}/standings/" in paths
    docs = api.get("/api/docs/")
    assert docs.status_code == 200
    page = docs.content.decode()
    # Swagger UI comes from this site's static files, never from a CDN (the page must work offline).
    assert "drf_spectacular_sidecar/swagger-ui-dist/swagger-ui-bundle.js" in page
    assert "cdn." not in page and "unpkg" not in page


def test_token_login_and_csv_exports(organiser: Any) -> None:
    tournament = make_tournament(organiser, entrants=4)
    round_ = services.round_publish(actor=organiser, round=services.round_generate(actor=organiser,
                                                                                  tournament=tournament))
    for table in round_.tables.all():
        home, away = seated_entrants(table)
        services.result_override(actor=organiser, table=table, scores={home.pk: 8, away.pk: 2})
    services.standings_recompute(tournament_id=tournament.pk)
    services.entrant_register(actor=organiser, tournament=tournament, name="=cmd|' /C calc'!A0",
                              player_names=["a", "b"])
    api = APIClient()
    response = api.post("/api/auth/token/", {"username": "org", "password": "org-password-1"}, format="json")
    assert response.status_code == 200 and response.json()["token"]
    for kind, header in [("entrants", "name,players"), ("pairings", "round,table"), ("results", "round,table"),
                         ("standings", "rank,entrant,games,match_points")]:
        response = api.get(f"/api/tournaments/{tournament.slug}/export/{kind}.csv")
        assert response.status_code == 200, kind
        text = response.content.decode()
        assert text.startswith(header), (kind, text[:80])
    entrants_csv = api.get(f"/api/tournaments/{tournament.slug}/export/entrants.csv").content.decode()
    assert "'=cmd" in entrants_csv
    results_csv = api.get(f"/api/tournaments/{tournament.slug}/export/results.csv").content.decode()
    assert len(results_csv.strip().splitlines()) == 1 + 4
    assert api.get(f"/api/tournaments/{tournament.slug}/export/pairings.csv?round=x").status_code == 400
    assert api.get(f"/api/tournaments/{tournament.slug}/export/secrets.csv").status_code == 404


def test_anonymous_requests_are_throttled(monkeypatch: pytest.MonkeyPatch) -> None:
    from tournaments.api_throttles import ApiRateThrottle

    monkeypatch.setattr(ApiRateThrottle, "THROTTLE_RATES", {"anon": "3/min", "user": "1000/min"})
    api = APIClient()
    statuses = [api.get("/api/tournaments/").status_code for _ in range(4)]
    assert statuses == [200, 200, 200, 429]
    assert api.get("/api/tournaments/").json()["error"]["code"] == "throttled"


def test_csv_import_as_a_file_upload(client: APIClient, organiser: Any) -> None:
    from django.core.files.uploadedfile import SimpleUploadedFile

    tournament = services.tournament_create(actor=organiser, name="Upload", game="tac")
    url = f"/api/tournaments/{tournament.slug}/entrants/import/"
    good = SimpleUploadedFile("e.csv", "\ufeffname,players\nAlpha,Ann;Bob\n".encode(), content_type="text/csv")
    response = client.post(url, {"file": good}, format="multipart")
    assert response.status_code == 201 and response.json()[0]["name"] == "Alpha"
    latin = SimpleUploadedFile("e.csv", "name,players\nB\xe9ta,X;Y\n".encode("latin-1"), content_type="text/csv")
    response = client.post(url, {"file": latin}, format="multipart")
    assert response.status_code == 422 and response.json()["error"]["code"] == "invalid_csv"


@pytest.mark.parametrize(
    ("accept", "message"),
    [
        ("de", "Der Teilnehmer ist bereits eingecheckt."),
        ("fr-FR,fr;q=0.9", "Le participant est déjà pointé."),
        ("", "The entrant is already checked in."),
    ],
)
def test_error_message_follows_accept_language_with_the_same_code(
    client: APIClient, organiser: Any, accept: str, message: str
) -> None:
    tournament = make_tournament(organiser)
    entrant = tournament.entrants.order_by("name").first()
    url = f"/api/entrants/{entrant.pk}/check-in/"
    assert client.post(url, {}, format="json").status_code == 200
    headers = {"HTTP_ACCEPT_LANGUAGE": accept} if accept else {}
    response = client.post(url, {}, format="json", **headers)
    assert response.status_code == 409
    assert response.json()["error"] == {
        "code": "entrant_already_checked_in", "message": message, "details": {},
    }
    assert response["Content-Language"] == (accept[:2] or "en")
