"""The plain Django views under /api/ in the OpenAPI schema (issue 15): the CSV exports, the iCal feeds
and the rankings exports are not DRF views, so drf-spectacular cannot see them; this postprocessing hook
(SPECTACULAR_SETTINGS["POSTPROCESSING_HOOKS"]) documents them. `tests/hardening` checks that every URL
under /api/ is in the schema and that the responses match it (schemathesis)."""

from __future__ import annotations

import copy
from typing import Any

ERROR_REF = {"$ref": "#/components/schemas/Error"}
SECURITY = [{"tokenAuth": []}, {"cookieAuth": []}, {}]


def _error(description: str) -> dict[str, Any]:
    return {"description": description, "content": {"application/json": {"schema": ERROR_REF}}}


def _path(name: str, schema: dict[str, Any], description: str = "") -> dict[str, Any]:
    return {"in": "path", "name": name, "required": True, "schema": schema, "description": description}


SLUG = _path("slug", {"type": "string", "pattern": "^[-a-zA-Z0-9_]+$"}, "The tournament's slug.")
TEXT = {"type": "string"}


def _get(operation_id: str, tag: str, summary: str, parameters: list[dict[str, Any]],
         content: dict[str, Any], errors: dict[str, str]) -> dict[str, Any]:
    responses: dict[str, Any] = {"200": {"description": summary, "content": content}}
    responses.update({status: _error(text) for status, text in errors.items()})
    return {"get": {"operationId": operation_id, "summary": summary, "tags": [tag], "parameters": parameters,
                    "security": SECURITY, "responses": responses}}


def _require_bodies_with_required_fields(paths: dict[str, Any], components: dict[str, Any]) -> None:
    """A request body whose JSON schema has required fields is itself required (issue 30): without it the
    schema would call an empty POST valid, and the API refuses it."""
    for item in paths.values():
        for operation in item.values():
            body = operation.get("requestBody") if isinstance(operation, dict) else None
            if not body or body.get("required"):
                continue
            for content in body.get("content", {}).values():
                ref = content.get("schema", {}).get("$ref", "")
                component = components.get(ref.rsplit("/", 1)[-1], {}) if ref else content.get("schema", {})
                if component.get("required"):
                    body["required"] = True


def add_plain_views(result: dict[str, Any], generator: Any, request: Any, public: bool) -> dict[str, Any]:
    paths = result.setdefault("paths", {})
    components = result.setdefault("components", {}).setdefault("schemas", {})
    _require_bodies_with_required_fields(paths, components)
    components.setdefault("Error", {"type": "object"})
    paths["/api/tournaments/{slug}/export/{kind}.csv"] = _get(
        "tournaments_export_csv", "tournaments",
        "CSV export (entrants, pairings, results or standings); formula-looking cells are quoted.",
        [SLUG, _path("kind", {"type": "string", "enum": ["entrants", "pairings", "results", "standings"]}),
         {"in": "query", "name": "round", "required": False,
          "schema": {"type": "integer", "minimum": 1, "maximum": 1000},
          "description": "pairings only: one round's number."},
         {"in": "query", "name": "group", "required": False,
          "schema": {"type": "integer", "minimum": 1, "maximum": 64},
          "description": "standings only: one group's rows (422 for a group the tournament does not have)."}],
        {"text/csv": {"schema": TEXT}},
        {"400": "round or group is not a whole number within its bounds.",
         "404": "No such tournament (or not visible), or no such export.",
         "422": "The tournament has no such group."},
    )
    paths["/api/tournaments/{slug}/calendar.ics"] = _get(
        "tournaments_calendar", "tournaments", "iCal feed: one event per scheduled table of the published rounds.",
        [SLUG], {"text/calendar": {"schema": TEXT}}, {"404": "No such tournament (or not visible)."},
    )
    paths["/api/tournaments/{slug}/entrants/{entrant_id}/calendar.ics"] = _get(
        "tournaments_entrant_calendar", "tournaments", "iCal feed of one entrant's games.",
        [SLUG, _path("entrant_id", {"type": "integer"})], {"text/calendar": {"schema": TEXT}},
        {"404": "No such tournament or entrant."},
    )
    leaderboard = paths.get("/api/rankings/{pool}/", {}).get("get", {})
    filters = [copy.deepcopy(p) for p in leaderboard.get("parameters", [])
               if p.get("in") == "query" and p.get("name") not in ("page", "page_size")]
    paths["/api/rankings/{pool}/export.{fmt}"] = _get(
        "rankings_export", "rankings", "The leaderboard as CSV or JSON (the same filters as the page).",
        [_path("pool", TEXT), _path("fmt", {"type": "string", "enum": ["csv", "json"]}), *filters],
        {"text/csv": {"schema": TEXT},
         "application/json": {"schema": {"type": "object", "properties": {
             "pool": TEXT, "rows": {"type": "array", "items": {"type": "object"}}}}}},
        {"400": "A filter is invalid.", "404": "No such pool or format.",
         "422": "The filters contradict each other (from after to)."},
    )
    return result
