"""A client generated from /api/schema/ runs a small event (issue 30).

openapi-python-client is not in the package index this project may install from, so the client is a
generic one built at run time from the schema alone: every call names an `operationId`; the method and
the path come from the schema, the path and query parameters are checked against their declared types
and bounds, the JSON body against the operation's request component, and every answer against the
response component declared for its status (OpenAPI 3.0 `nullable` read as JSON Schema `null`). Nothing
about the API is written here but operation ids and values: if the schema lost a field, a parameter or
a status, the event would fail."""

from __future__ import annotations

import copy
import json
import re
from typing import Any

import jsonschema
import pytest
from django.test import Client

pytestmark = pytest.mark.django_db


def _json_schema(node: Any) -> Any:
    """OpenAPI 3.0 schema objects as JSON Schema: `nullable: true` becomes a `null` alternative."""
    if isinstance(node, list):
        return [_json_schema(item) for item in node]
    if not isinstance(node, dict):
        return node
    node = {key: _json_schema(value) for key, value in node.items()}
    if node.pop("nullable", False):
        node = {"anyOf": [node, {"type": "null"}]}
    return node


class GeneratedClient:
    def __init__(self, http: Client) -> None:
        self.http = http
        self.schema = http.get("/api/schema/", HTTP_ACCEPT="application/json").json()
        self.components = _json_schema(self.schema["components"])
        self.operations: dict[str, tuple[str, str, dict[str, Any]]] = {}
        for path, item in self.schema["paths"].items():
            for method, operation in item.items():
                self.operations[operation["operationId"]] = (method, path, operation)
        self.headers: dict[str, str] = {}

    def _check(self, instance: Any, schema: dict[str, Any], what: str) -> None:
        document = {**_json_schema(copy.deepcopy(schema)), "components": self.components}
        try:
            jsonschema.validate(instance, document)
        except jsonschema.ValidationError as error:
            raise AssertionError(f"{what}: {error.message}") from error

    def call(self, operation_id: str, *, expect: int, body: Any = None, **params: Any) -> Any:
        method, path, operation = self.operations[operation_id]
        query = {}
        for parameter in operation.get("parameters", []):
            name = parameter["name"]
            if name not in params:
                assert not parameter.get("required"), f"{operation_id}: {name} is required"
                continue
            self._check(params[name], parameter["schema"], f"{operation_id} parameter {name}")
            if parameter["in"] == "path":
                path = path.replace("{" + name + "}", str(params.pop(name)))
            elif parameter["in"] == "query":
                query[name] = params.pop(name)
        assert not params, f"{operation_id}: not in the schema: {sorted(params)}"
        assert not re.search(r"\{\w+\}", path), path
        kwargs: dict[str, Any] = {**self.headers}
        if body is not None:
            request_schema = operation["requestBody"]["content"]["application/json"]["schema"]
            self._check(body, request_schema, f"{operation_id} body")
            kwargs.update(data=json.dumps(body), content_type="application/json")
        if query:
            path += "?" + "&".join(f"{k}={v}" for k, v in query.items())
        response = getattr(self.http, method)(path, **kwargs)
        assert response.status_code == expect, (operation_id, response.status_code, response.content[:300])
        declared = operation["responses"].get(str(response.status_code))
        assert declared is not None, f"{operation_id}: status {response.status_code} is not documented"
        content = declared.get("content", {}).get("application/json")
        if content is None:
            return None
        data = response.json()
        self._check(data, content["schema"], f"{operation_id} answer {response.status_code}")
        return data


def test_a_generated_client_runs_a_small_event(django_user_model: Any,
                                               django_capture_on_commit_callbacks: Any) -> None:
    django_user_model.objects.create_user("club", password="club-password-1")
    api = GeneratedClient(Client())
    token = api.call("auth_token_create", expect=200, body={"username": "club", "password": "club-password-1"})
    api.headers["HTTP_AUTHORIZATION"] = f"Token {token['token']}"
    cup = api.call("tournaments_create", expect=201, body={"name": "Generated Cup", "game": "tac",
                                                            "rounds_planned": 1})
    assert cup["tiebreak_order"][0] == "match_points" and isinstance(cup["variant"], dict)
    for i in range(4):
        api.call("tournaments_entrants_create", expect=201, slug=cup["slug"],
                 body={"name": f"Team {i}", "player_names": [f"A{i}", f"B{i}"]})
    round_ = api.call("tournaments_rounds_generate_create", expect=201, slug=cup["slug"])
    api.call("rounds_publish_create", expect=200, round_id=round_["id"])
    links = {row["entrant"]: row["token"] for row in
             api.call("tournaments_report_links_list", expect=200, slug=cup["slug"])}
    for table in api.call("rounds_retrieve", expect=200, round_id=round_["id"])["tables"]:
        home, away = (seat["entrant"] for seat in table["seats"])
        reported = api.call("tables_report_create", expect=201, table_id=table["id"], body={
            "token": links[home], "scores": {str(home): 8, str(away): 5}})
        assert reported["state"] == "reported"
        with django_capture_on_commit_callbacks(execute=True):  # the standings task runs on commit
            api.call("results_confirm_create", expect=200, result_id=reported["id"], body={"token": links[away]})
    refused = api.call("tournaments_standings_retrieve", expect=422, slug=cup["slug"], group=2)
    assert refused["error"]["code"] == "invalid_input"
    standings = api.call("tournaments_standings_retrieve", expect=200, slug=cup["slug"])
    assert [row["games_played"] for row in standings["rows"]] == [1, 1, 1, 1]
    assert standings["rows"][0]["values"]["match_points"] > standings["rows"][-1]["values"]["match_points"]
