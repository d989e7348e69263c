"""Tournament archive: one versioned JSON document that carries a tournament to another instance.

`archive_export(tournament)` -> dict (format `tournament-archive/1`): the settings, clubs, players,
entrants (members, status, seed, rating, group, check-in/drop times), boards, pairs kept apart, rounds
with their tables, seats and every result with its history (reported, rejected, superseded, ...) and
lines. References inside the archive are the exporting instance's ids (players, entrants, tables and
results; a result's `id` is optional, archives written before it was added have none); the importer
maps them.
Settings, the group draw and tables' `bracket_key` added since the first archives (issue 28: double
elimination, rolling knockouts, sign-up) are optional keys: an archive without them imports with the
defaults (docs/venue-day.md, Archive).
Not exported: sign-ups (`Registration`: their e-mails and private links; accepted ones are entrants),
private report links (each instance makes new ones), e-mail addresses, user accounts
(the importing user becomes the organiser; who reported/decided is kept as the entrant, not the
login) and the audit log. Other apps add sections through `ARCHIVE_SECTIONS` (the games app adds
its game records), so that `tournaments` never imports them.

`archive_import(actor=..., data=..., slug=...)` checks the whole document first (shape, types,
lengths, ranges, references; unknown keys are refused) and then writes everything in one
transaction with the database constraints as the last guard: a malformed or hostile archive is
refused whole with `invalid_archive` and writes nothing. The standings are recomputed from the
imported results with the same code, so they come out byte-identical.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import Prefetch
from django.utils import timezone
from django.utils.dateparse import parse_date, parse_datetime
from django.utils.text import slugify
from django.utils.translation import gettext as _

from tournaments.api_parsers import UNSTORABLE
from tournaments.errors import ErrorCode, TournamentError
from tournaments.models import (
    Board,
    Club,
    Entrant,
    EntrantMember,
    ForbiddenPair,
    Player,
    Result,
    ResultScore,
    Round,
    Seat,
    Table,
    Tournament,
)
from tournaments.profiles import GAMES, ProfileError, profile_for
from tournaments.selectors import members_with_players
from tournaments.services.audit import audit_record
from tournaments.services.standings import standings_recompute

FORMAT = "tournament-archive/1"
BRACKET_KEY = re.compile(r"(?:[KWL][1-9][0-9]{0,3}-[1-9][0-9]{0,4}|GF2?)")
MAX_ITEMS = 20_000  # any list in an archive
MAX_TEXT = 2_000

SETTING_FIELDS = (
    "name", "game", "variant", "format", "status", "is_public", "starts_on", "venue", "rounds_planned",
    "group_count", "double_round_robin", "knockout_size", "knockout_advance", "third_place_match", "first_round",
    "avoid_same_club", "random_seed", "placing_points", "tiebreak_order", "forfeit_winner_score",
    "forfeit_loser_score", "bye_points", "bye_score_for", "bye_score_against",
)

# Settings added after the first archives (issues 13, 24, 28): optional keys of `tournament-archive/1`.
# An archive without one imports with the model's default; the exporter always writes them all.
GROUP_DRAW_METHODS = ("pots", "snake", "random")  # tournaments.pairing.group_draw.METHODS
GROUP_DRAW_ORDERS = ("seed", "rating")  # ... .ORDERS
GROUP_DRAW_SEED_MAX = 999_999  # tournaments.services.groups.SEED_MAX
ENTRY_LIMIT_MAX = 10_000  # tournaments.registration.services.ENTRY_LIMIT_MAX


def _check_optional_setting(name: str, value: Any, path: str) -> None:
    if name in ("checkin_required", "rolling_rounds", "placement_matches", "shared_places_by_standings",
                "dropped_rank_last", "grand_final_reset", "registration_open", "registration_approval",
                "self_checkin_open"):
        _bool(value, path)
    elif name == "schedule_rounds":
        _int(value, path, 1, 1000, null=True)
    elif name == "game_minutes":
        _int(value, path, 1, 32767)
    elif name == "knockout_style":
        _choice(value, path, Tournament.KnockoutStyle.values)
    elif name == "bye_tiebreak":
        _choice(value, path, Tournament.ByeTiebreak.values)
    elif name == "entry_limit":
        _int(value, path, 2, ENTRY_LIMIT_MAX, null=True)
    else:  # pragma: no cover - every name of OPTIONAL_SETTING_FIELDS has its rule above
        raise AssertionError(name)


OPTIONAL_SETTING_FIELDS = (
    "checkin_required", "schedule_rounds", "rolling_rounds", "game_minutes", "placement_matches",
    "shared_places_by_standings", "dropped_rank_last", "knockout_style", "grand_final_reset", "bye_tiebreak",
    "registration_open", "registration_approval", "entry_limit", "self_checkin_open",
)


@dataclass(frozen=True)
class ArchiveSection:
    """An extra part of the archive written and read by another app (e.g. games' records).
    `export(tournament) -> list`; `check(items, ids) -> None` raises ArchiveError, `ids` holding the
    archive's ids: "entrants", "players", "tables" (sets) and "results" ({result id: its table's id});
    `load(tournament, items, maps, actor)` runs inside the import transaction after the tournament's own
    rows exist, `maps` taking the same keys from archive ids to the new rows."""

    key: str
    export: Callable[[Tournament], list[Any]]
    check: Callable[[Any, dict[str, Any]], None]
    load: Callable[[Tournament, Any, dict[str, dict[int, Any]], Any], None]


ARCHIVE_SECTIONS: dict[str, ArchiveSection] = {}


def archive_section_register(section: ArchiveSection) -> None:
    ARCHIVE_SECTIONS[section.key] = section


class ArchiveError(Exception):
    def __init__(self, path: str, message: str) -> None:
        super().__init__(f"{path}: {message}")
        self.path = path
        self.message = message


def _iso(value: dt.datetime | dt.date | None) -> str | None:
    return value.isoformat() if value is not None else None


# --- export ------------------------------------------------------------------------------------


def archive_export(tournament: Tournament) -> dict[str, Any]:
    entrants = list(tournament.entrants.select_related("club").prefetch_related(members_with_players(clubs=True))
                    .order_by("pk"))
    players: dict[int, Player] = {}
    for entrant in entrants:
        for member in entrant.members.all():
            players[member.player_id] = member.player
    clubs = sorted({e.club.name for e in entrants if e.club} | {p.club.name for p in players.values() if p.club})
    rounds = list(
        tournament.rounds.order_by("number").prefetch_related(
            Prefetch("tables", queryset=Table.objects.select_related("board")), "tables__seats",
            "tables__results__scores",
        )
    )
    document: dict[str, Any] = {
        "format": FORMAT,
        "exported_at": timezone.now().isoformat(),
        "source_slug": tournament.slug,
        "tournament": {
            **{f: _iso(getattr(tournament, f)) if f == "starts_on" else getattr(tournament, f) for f in SETTING_FIELDS},
            **{f: getattr(tournament, f) for f in OPTIONAL_SETTING_FIELDS},
            "knockout_seeding": tournament.knockout_seeding,
            "group_draw": tournament.group_draw,
        },
        "clubs": clubs,
        "players": [{"id": p.pk, "name": p.name, "club": p.club.name if p.club else None}
                    for p in sorted(players.values(), key=lambda p: p.pk)],
        "entrants": [
            {
                "id": e.pk, "name": e.name, "club": e.club.name if e.club else None, "status": e.status,
                "seed": e.seed, "rating": e.rating, "group": e.group,
                "needs_accessible_table": e.needs_accessible_table,
                "players": [m.player_id for m in sorted(e.members.all(), key=lambda m: m.position)],
                "registered_at": _iso(e.registered_at), "checked_in_at": _iso(e.checked_in_at),
                "dropped_at": _iso(e.dropped_at),
            }
            for e in entrants
        ],
        "boards": [{"name": b.name, "accessible": b.accessible, "position": b.position}
                   for b in tournament.boards.order_by("position", "pk")],
        "forbidden_pairs": [[p.first_id, p.second_id] for p in tournament.forbidden_pairs.order_by("pk")],
        "rounds": [
            {
                "number": r.number, "stage": r.stage, "status": r.status, "starts_at": _iso(r.starts_at),
                "published_at": _iso(r.published_at), "warnings": r.warnings,
                "tables": [
                    {
                        "id": t.pk, "number": t.number, "starts_at": _iso(t.starts_at),
                        "physical_table": t.physical_table, "board": t.board.name if t.board else None,
                        "is_bye": t.is_bye, "bracket_key": t.bracket_key,
                        "seats": [{"entrant": s.entrant_id, "position": s.position, "is_starting": s.is_starting}
                                  for s in sorted(t.seats.all(), key=lambda s: s.position)],
                        "results": [
                            {
                                "id": res.pk, "kind": res.kind, "state": res.state, "reported_for": res.reported_for_id,
                                "decided_for": res.decided_for_id, "note": res.note,
                                "created_at": _iso(res.created_at), "decided_at": _iso(res.decided_at),
                                "lines": [{"entrant": line.entrant_id, "score": line.score, "placing": line.placing,
                                           "is_winner": line.is_winner, "forfeited": line.forfeited}
                                          for line in sorted(res.scores.all(), key=lambda x: x.pk)],
                            }
                            for res in sorted(t.results.all(), key=lambda x: (x.created_at, x.pk))
                        ],
                    }
                    for t in sorted(r.tables.all(), key=lambda t: t.number)
                ],
            }
            for r in rounds
        ],
    }
    for key, section in ARCHIVE_SECTIONS.items():
        document[key] = section.export(tournament)
    return document


# --- checking ------------------------------------------------------------------------------------


def _keys(value: Any, path: str, required: set[str], optional: set[str] = frozenset()) -> dict[str, Any]:  # type: ignore[assignment]
    if not isinstance(value, dict):
        raise ArchiveError(path, "must be an object")
    missing = required - set(value)
    if missing:
        raise ArchiveError(path, f"missing {', '.join(sorted(missing))}")
    unknown = set(value) - required - set(optional)
    if unknown:
        raise ArchiveError(path, f"unknown key(s) {', '.join(sorted(unknown))}")
    return value


def _list(value: Any, path: str) -> list[Any]:
    if not isinstance(value, list):
        raise ArchiveError(path, "must be a list")
    if len(value) > MAX_ITEMS:
        raise ArchiveError(path, f"has more than {MAX_ITEMS} items")
    return value


def _int(value: Any, path: str, low: int, high: int, *, null: bool = False) -> int | None:
    if value is None and null:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise ArchiveError(path, f"must be a whole number from {low} to {high}")
    return value


def _num(value: Any, path: str, *, null: bool = False) -> float | None:
    if value is None and null:
        return None
    if isinstance(value, bool) or not isinstance(value, int | float) or not -1e6 <= value <= 1e6:
        raise ArchiveError(path, "must be a number")
    return value


def _text(value: Any, path: str, max_length: int, *, null: bool = False, blank: bool = True) -> str | None:
    if value is None and null:
        return None
    if not isinstance(value, str) or len(value) > max_length or (not blank and not value.strip()):
        raise ArchiveError(path, f"must be a text of at most {max_length} characters")
    if unstorable := UNSTORABLE.search(value):
        raise ArchiveError(path, "must not contain NUL characters" if unstorable.group() == "\x00"
                           else "must not contain half of a surrogate pair")
    return value


def _bool(value: Any, path: str) -> bool:
    if not isinstance(value, bool):
        raise ArchiveError(path, "must be true or false")
    return value


def _choice(value: Any, path: str, choices: Any) -> str:
    if value not in list(choices):
        raise ArchiveError(path, f"must be one of {', '.join(str(c) for c in choices)}")
    return str(value)


def _moment(value: Any, path: str, *, null: bool = True) -> dt.datetime | None:
    if value is None and null:
        return None
    parsed = parse_datetime(value) if isinstance(value, str) and len(value) <= 40 else None
    if parsed is None:
        raise ArchiveError(path, "must be an ISO date and time")
    return parsed if timezone.is_aware(parsed) else timezone.make_aware(parsed, dt.UTC)


def _json(value: Any, path: str, depth: int = 0) -> Any:
    """Plain JSON of bounded depth (variant, warnings, points, seeding)."""
    if depth > 8:
        raise ArchiveError(path, "is nested too deeply")
    if isinstance(value, dict):
        for key, item in value.items():
            _text(key, path, 100)
            _json(item, f"{path}.{key}", depth + 1)
    elif isinstance(value, list):
        for index, item in enumerate(_list(value, path)):
            _json(item, f"{path}[{index}]", depth + 1)
    elif isinstance(value, str):
        _text(value, path, MAX_TEXT)
    elif value is not None and not isinstance(value, bool | int | float):
        raise ArchiveError(path, "is not plain JSON")
    return value


def _check(data: Any) -> dict[str, Any]:
    """Check the whole document; return the ids it defines (for the sections: see `ArchiveSection`)."""
    doc = _keys(data, "archive", {"format", "tournament", "clubs", "players", "entrants", "boards",
                                  "forbidden_pairs", "rounds"},
                {"exported_at", "source_slug", *ARCHIVE_SECTIONS})
    if doc["format"] != FORMAT:
        raise ArchiveError("format", f"must be {FORMAT!r}")
    t = _keys(doc["tournament"], "tournament", {*SETTING_FIELDS, "knockout_seeding"},
              {*OPTIONAL_SETTING_FIELDS, "group_draw"})
    for name in OPTIONAL_SETTING_FIELDS:
        if name in t:
            _check_optional_setting(name, t[name], f"tournament.{name}")
    _text(t["name"], "tournament.name", 120, blank=False)
    _choice(t["game"], "tournament.game", GAMES)
    _json(t["variant"], "tournament.variant")
    if not isinstance(t["variant"], dict):
        raise ArchiveError("tournament.variant", "must be an object")
    try:
        profile = profile_for(t["game"], t["variant"])
    except ProfileError as exc:
        raise ArchiveError("tournament.variant", str(exc)) from exc
    _choice(t["format"], "tournament.format", Tournament.Format.values)
    _choice(t["status"], "tournament.status", Tournament.Status.values)
    _choice(t["first_round"], "tournament.first_round", Tournament.FirstRound.values)
    for name in ("is_public", "double_round_robin", "third_place_match", "avoid_same_club"):
        _bool(t[name], f"tournament.{name}")
    if t["starts_on"] is not None and (not isinstance(t["starts_on"], str) or parse_date(t["starts_on"][:10]) is None):
        raise ArchiveError("tournament.starts_on", "must be an ISO date")
    _text(t["venue"], "tournament.venue", 200)
    for name, high in (("rounds_planned", 1000), ("group_count", 1000), ("knockout_advance", 100),
                       ("forfeit_winner_score", 1000), ("forfeit_loser_score", 1000), ("bye_score_for", 1000),
                       ("bye_score_against", 1000)):
        _int(t[name], f"tournament.{name}", 0, high)
    _int(t["knockout_size"], "tournament.knockout_size", 0, 100000, null=True)
    _int(t["random_seed"], "tournament.random_seed", -(2**31), 2**31 - 1)
    _num(t["bye_points"], "tournament.bye_points")
    if t.get("knockout_style") == Tournament.KnockoutStyle.DOUBLE and (  # tournament_create's rule
        t["format"] not in ("knockout", "stages") or profile.entrants_per_table != 2 or t["knockout_advance"] != 1
    ):
        raise ArchiveError("tournament.knockout_style",
                           "double elimination is for a knockout (or stages) at tables of 2, one advancing")
    for name in ("placing_points", "tiebreak_order", "knockout_seeding"):
        _json(t[name], f"tournament.{name}")
        _list(t[name], f"tournament.{name}")
    for index, club in enumerate(_list(doc["clubs"], "clubs")):
        _text(club, f"clubs[{index}]", 100, blank=False)
    clubs = set(doc["clubs"])
    if len(clubs) != len(doc["clubs"]):
        raise ArchiveError("clubs", "names a club twice")

    def club_ref(value: Any, path: str) -> None:
        if value is not None and value not in clubs:
            raise ArchiveError(path, "names a club not in 'clubs'")

    player_ids: set[int] = set()
    for index, player in enumerate(_list(doc["players"], "players")):
        path = f"players[{index}]"
        _keys(player, path, {"id", "name", "club"})
        player_ids.add(_int(player["id"], f"{path}.id", 1, 2**62) or 0)
        _text(player["name"], f"{path}.name", 100, blank=False)
        club_ref(player["club"], f"{path}.club")
    if len(player_ids) != len(doc["players"]):
        raise ArchiveError("players", "uses an id twice")
    entrant_ids: set[int] = set()
    used_players: set[int] = set()
    for index, entrant in enumerate(_list(doc["entrants"], "entrants")):
        path = f"entrants[{index}]"
        _keys(entrant, path, {"id", "name", "club", "status", "seed", "rating", "group", "needs_accessible_table",
                              "players", "registered_at", "checked_in_at", "dropped_at"})
        entrant_ids.add(_int(entrant["id"], f"{path}.id", 1, 2**62) or 0)
        _text(entrant["name"], f"{path}.name", 48, blank=False)
        club_ref(entrant["club"], f"{path}.club")
        _choice(entrant["status"], f"{path}.status", Entrant.Status.values)
        _int(entrant["seed"], f"{path}.seed", 1, 100000, null=True)
        _num(entrant["rating"], f"{path}.rating", null=True)
        _int(entrant["group"], f"{path}.group", 0, 1000)
        _bool(entrant["needs_accessible_table"], f"{path}.needs_accessible_table")
        for name in ("registered_at", "checked_in_at", "dropped_at"):
            _moment(entrant[name], f"{path}.{name}")
        for position, player_id in enumerate(_list(entrant["players"], f"{path}.players")):
            if player_id not in player_ids or player_id in used_players:
                raise ArchiveError(f"{path}.players[{position}]", "is not a player of 'players' (or is used twice)")
            used_players.add(player_id)
    if len(entrant_ids) != len(doc["entrants"]):
        raise ArchiveError("entrants", "uses an id twice")
    for group_index, group in enumerate(t["knockout_seeding"]):
        for index, entrant_id in enumerate(_list(group, f"tournament.knockout_seeding[{group_index}]")):
            if entrant_id not in entrant_ids:
                raise ArchiveError(f"tournament.knockout_seeding[{group_index}][{index}]", "is not an entrant")
    if "group_draw" in t:
        _check_group_draw(t["group_draw"], entrant_ids)
    boards: set[str] = set()
    for index, board in enumerate(_list(doc["boards"], "boards")):
        path = f"boards[{index}]"
        _keys(board, path, {"name", "accessible", "position"})
        boards.add(_text(board["name"], f"{path}.name", 40, blank=False) or "")
        _bool(board["accessible"], f"{path}.accessible")
        _int(board["position"], f"{path}.position", 0, 32767)
    for index, pair in enumerate(_list(doc["forbidden_pairs"], "forbidden_pairs")):
        if not (isinstance(pair, list) and len(pair) == 2 and all(p in entrant_ids for p in pair)
                and pair[0] != pair[1]):
            raise ArchiveError(f"forbidden_pairs[{index}]", "must be two different entrants")
    table_ids: set[int] = set()
    result_tables: dict[int, int] = {}  # result id -> its table's id
    for r_index, round_ in enumerate(_list(doc["rounds"], "rounds")):
        path = f"rounds[{r_index}]"
        _keys(round_, path, {"number", "stage", "status", "starts_at", "published_at", "warnings", "tables"})
        _int(round_["number"], f"{path}.number", 1, 32767)
        _choice(round_["stage"], f"{path}.stage", Round.Stage.values)
        _choice(round_["status"], f"{path}.status", Round.Status.values)
        _moment(round_["starts_at"], f"{path}.starts_at")
        _moment(round_["published_at"], f"{path}.published_at")
        _json(round_["warnings"], f"{path}.warnings")
        for t_index, table in enumerate(_list(round_["tables"], f"{path}.tables")):
            tpath = f"{path}.tables[{t_index}]"
            _keys(table, tpath, {"id", "number", "starts_at", "physical_table", "board", "is_bye", "seats", "results"},
                  {"bracket_key"})
            if "bracket_key" in table:
                _check_bracket_key(table["bracket_key"], f"{tpath}.bracket_key")
            table_id = _int(table["id"], f"{tpath}.id", 1, 2**62) or 0
            table_ids.add(table_id)
            _int(table["number"], f"{tpath}.number", 1, 32767)
            _moment(table["starts_at"], f"{tpath}.starts_at")
            _text(table["physical_table"], f"{tpath}.physical_table", 40)
            if table["board"] is not None and table["board"] not in boards:
                raise ArchiveError(f"{tpath}.board", "names a board not in 'boards'")
            _bool(table["is_bye"], f"{tpath}.is_bye")
            seated: set[int] = set()
            for s_index, seat in enumerate(_list(table["seats"], f"{tpath}.seats")):
                spath = f"{tpath}.seats[{s_index}]"
                _keys(seat, spath, {"entrant", "position", "is_starting"})
                if seat["entrant"] not in entrant_ids:
                    raise ArchiveError(f"{spath}.entrant", "is not an entrant")
                seated.add(seat["entrant"])
                _int(seat["position"], f"{spath}.position", 0, 100)
                _bool(seat["is_starting"], f"{spath}.is_starting")
            for x_index, result in enumerate(_list(table["results"], f"{tpath}.results")):
                xpath = f"{tpath}.results[{x_index}]"
                _keys(result, xpath, {"kind", "state", "reported_for", "decided_for", "note", "created_at",
                                      "decided_at", "lines"}, {"id"})
                if "id" in result:
                    result_id = _int(result["id"], f"{xpath}.id", 1, 2**62) or 0
                    if result_id in result_tables:
                        raise ArchiveError(f"{xpath}.id", "is the id of another result")
                    result_tables[result_id] = table_id
                _choice(result["kind"], f"{xpath}.kind", Result.Kind.values)
                _choice(result["state"], f"{xpath}.state", Result.State.values)
                for name in ("reported_for", "decided_for"):
                    if result[name] is not None and result[name] not in seated:
                        raise ArchiveError(f"{xpath}.{name}", "is not an entrant of this table")
                _text(result["note"], f"{xpath}.note", 500)
                _moment(result["created_at"], f"{xpath}.created_at", null=False)
                _moment(result["decided_at"], f"{xpath}.decided_at")
                for l_index, line in enumerate(_list(result["lines"], f"{xpath}.lines")):
                    lpath = f"{xpath}.lines[{l_index}]"
                    _keys(line, lpath, {"entrant", "score", "placing", "is_winner", "forfeited"})
                    if line["entrant"] not in seated:
                        raise ArchiveError(f"{lpath}.entrant", "is not an entrant of this table")
                    _int(line["score"], f"{lpath}.score", -32768, 32767, null=True)
                    _int(line["placing"], f"{lpath}.placing", 1, 1000, null=True)
                    _bool(line["is_winner"], f"{lpath}.is_winner")
                    _bool(line["forfeited"], f"{lpath}.forfeited")
    if len(table_ids) != sum(len(round_["tables"]) for round_ in doc["rounds"]):
        raise ArchiveError("rounds", "uses a table id twice")
    ids = {"entrants": entrant_ids, "players": player_ids, "tables": table_ids, "results": result_tables}
    for key, section in ARCHIVE_SECTIONS.items():
        if key in doc:
            section.check(doc[key], ids)
    return ids


def _check_bracket_key(value: Any, path: str) -> None:
    """Empty (a table outside a keyed bracket) or the bracket table it plays: a rolling single
    elimination's "K<round>-<table>" or double elimination's "W<round>-<table>", "L<round>-<table>",
    "GF", "GF2" (tournaments/services/brackets.py; at most 12 characters, the column's size)."""
    if value == "":
        return
    if not isinstance(value, str) or not BRACKET_KEY.fullmatch(value):
        raise ArchiveError(path, "must be empty or a bracket key such as W1-1, L2-1 or GF")


def _check_group_draw(value: Any, entrant_ids: set[int]) -> None:
    """{} (never drawn) or the draw of `services.groups.groups_draw`, its entrants the archive's."""
    path = "tournament.group_draw"
    if value == {}:
        return
    draw = _keys(value, path, {"method", "by", "seed", "entrant_ids", "drawn_at"}, {"left_out"})
    _choice(draw["method"], f"{path}.method", GROUP_DRAW_METHODS)
    _choice(draw["by"], f"{path}.by", GROUP_DRAW_ORDERS)
    _int(draw["seed"], f"{path}.seed", 0, GROUP_DRAW_SEED_MAX)
    _moment(draw["drawn_at"], f"{path}.drawn_at", null=False)
    seen: set[int] = set()
    for name in ("entrant_ids", "left_out"):
        for index, entrant_id in enumerate(_list(draw.get(name, []), f"{path}.{name}")):
            if entrant_id not in entrant_ids or entrant_id in seen:
                raise ArchiveError(f"{path}.{name}[{index}]", "is not an entrant (or is named twice)")
            seen.add(entrant_id)


# --- import --------------------------------------------------------------------------------------


def _invalid(message: str, **details: Any) -> TournamentError:
    return TournamentError(ErrorCode.INVALID_ARCHIVE, message, **details)


def archive_import(*, actor: Any, data: Any, slug: str | None = None) -> Tournament:
    """Create a new tournament (organised by `actor`) from an archive; all or nothing."""
    if actor is None or not getattr(actor, "is_authenticated", False):
        raise TournamentError(ErrorCode.PERMISSION_DENIED, _("Log in to import a tournament."))
    try:
        _check(data)
    except ArchiveError as exc:
        raise _invalid(_("The archive is not valid at %(path)s: %(problem)s.") % {"path": exc.path,
                                                                                  "problem": exc.message},
                       path=exc.path) from exc
    wanted = slugify(slug or data["tournament"]["name"])[:120] or "tournament"
    if slug is not None and (not wanted or wanted != slug):
        raise TournamentError(ErrorCode.INVALID_INPUT, _("The slug may contain only letters, digits and hyphens."))
    try:
        with transaction.atomic():
            tournament = _load(actor, data, wanted, unique=slug is None)
    except IntegrityError as exc:
        if slug is not None and Tournament.objects.filter(slug=wanted).exists():
            raise TournamentError(ErrorCode.INVALID_INPUT,
                                  _("A tournament with the slug “%(slug)s” exists already.") % {"slug": wanted}) from exc
        raise _invalid(_("The archive contradicts itself (%(error)s); nothing was imported.")
                       % {"error": str(exc).splitlines()[0][:200]}) from exc
    if tournament.results_version:
        standings_recompute(tournament_id=tournament.pk)
    return tournament


def _load(actor: Any, data: dict[str, Any], slug: str, *, unique: bool) -> Tournament:
    t = data["tournament"]
    if unique:
        base, n = slug, 1
        while Tournament.objects.filter(slug=slug).exists():
            n += 1
            slug = f"{base}-{n}"
    clubs = {name: Club.objects.get_or_create(name=name)[0] for name in data["clubs"]}
    settings_values = {f: t[f] for f in SETTING_FIELDS}
    settings_values["starts_on"] = parse_date(t["starts_on"][:10]) if t["starts_on"] else None
    settings_values.update({f: t[f] for f in OPTIONAL_SETTING_FIELDS if f in t})  # missing: the defaults
    tournament = Tournament.objects.create(slug=slug, **settings_values)
    tournament.organisers.add(actor)
    players = {p["id"]: Player.objects.create(name=p["name"], club=clubs.get(p["club"]) if p["club"] else None)
               for p in data["players"]}
    entrants: dict[int, Entrant] = {}
    for e in data["entrants"]:
        entrant = Entrant.objects.create(
            tournament=tournament, name=e["name"], club=clubs.get(e["club"]) if e["club"] else None,
            status=e["status"], seed=e["seed"], rating=e["rating"], group=e["group"],
            needs_accessible_table=e["needs_accessible_table"], checked_in_at=_moment(e["checked_in_at"], ""),
            dropped_at=_moment(e["dropped_at"], ""),
        )
        EntrantMember.objects.bulk_create(
            EntrantMember(entrant=entrant, player=players[pid], tournament=tournament, position=i)
            for i, pid in enumerate(e["players"])
        )
        entrants[e["id"]] = entrant
    tournament.knockout_seeding = [[entrants[i].pk for i in group] for group in t["knockout_seeding"]]
    draw = t.get("group_draw") or {}
    tournament.group_draw = {
        **draw, **{name: [entrants[i].pk for i in draw[name]] for name in ("entrant_ids", "left_out") if name in draw},
    }
    tournament.save(update_fields=["knockout_seeding", "group_draw"])
    boards = {b["name"]: Board.objects.create(tournament=tournament, name=b["name"], accessible=b["accessible"],
                                              position=b["position"]) for b in data["boards"]}
    for first, second in data["forbidden_pairs"]:
        a, b = sorted((entrants[first].pk, entrants[second].pk))
        ForbiddenPair.objects.create(tournament=tournament, first_id=a, second_id=b)
    tables: dict[int, Table] = {}
    results: dict[int, Result] = {}
    for r in data["rounds"]:
        round_ = Round.objects.create(
            tournament=tournament, number=r["number"], stage=r["stage"], status=r["status"],
            starts_at=_moment(r["starts_at"], ""), published_at=_moment(r["published_at"], ""), warnings=r["warnings"],
        )
        for tb in r["tables"]:
            table = Table.objects.create(
                round=round_, number=tb["number"], starts_at=_moment(tb["starts_at"], ""),
                physical_table=tb["physical_table"], board=boards.get(tb["board"]) if tb["board"] else None,
                is_bye=tb["is_bye"], bracket_key=tb.get("bracket_key", ""),
            )
            tables[tb["id"]] = table
            Seat.objects.bulk_create(
                Seat(table=table, round=round_, entrant=entrants[s["entrant"]], position=s["position"],
                     is_starting=s["is_starting"]) for s in tb["seats"]
            )
            for x in tb["results"]:
                result = Result.objects.create(
                    table=table, kind=x["kind"], state=x["state"],
                    reported_for=entrants[x["reported_for"]] if x["reported_for"] is not None else None,
                    decided_for=entrants[x["decided_for"]] if x["decided_for"] is not None else None,
                    note=x["note"], decided_at=_moment(x["decided_at"], ""),
                )
                # created_at is auto_now_add: keep the archived moment (the history's order).
                Result.objects.filter(pk=result.pk).update(created_at=_moment(x["created_at"], "", null=False))
                if "id" in x:
                    results[x["id"]] = result
                ResultScore.objects.bulk_create(
                    ResultScore(result=result, entrant=entrants[line["entrant"]], score=line["score"],
                                placing=line["placing"], is_winner=line["is_winner"], forfeited=line["forfeited"])
                    for line in x["lines"]
                )
    # Standings come from the final results (none before the first one, as on the exporting side):
    # mark them stale so that the recomputation runs.
    if Result.objects.filter(table__round__tournament=tournament, state__in=Result.FINAL_STATES).exists():
        Tournament.objects.filter(pk=tournament.pk).update(results_version=1)
    maps: dict[str, dict[int, Any]] = {"entrants": entrants, "players": players, "tables": tables,
                                       "results": results}
    for key, section in ARCHIVE_SECTIONS.items():
        if key in data:
            section.load(tournament, data[key], maps, actor)
    audit_record(action="tournament_imported", tournament=tournament, obj=tournament, actor=actor,
                 data={"source_slug": str(data.get("source_slug", ""))[:140], "format": FORMAT,
                       "entrants": len(entrants), "rounds": len(data["rounds"])})
    tournament.refresh_from_db()
    return tournament


def archive_max_bytes() -> int:
    return int(getattr(settings, "TOURNAMENT_ARCHIVE_MAX_BYTES", 20_000_000))
