"""Archive of the issue-28 formats (docs/venue-day.md, Archive): double elimination, rolling
knockouts, the group draw and the sign-up settings travel in `tournament-archive/1` as optional keys;
export -> import -> export gives the same document and the copy's standings and bracket read as the
original's; an old archive (without the keys) imports with the defaults; a bad value is refused whole."""

from __future__ import annotations

import copy
import json
import re
from typing import Any

import pytest

from tests.tournaments.conftest import make_tournament, play_all_rounds
from tests.tournaments.test_archive import _standings_csv, assert_each_refused_whole
from tournaments import services
from tournaments.archive import (
    ENTRY_LIMIT_MAX,
    GROUP_DRAW_METHODS,
    GROUP_DRAW_ORDERS,
    GROUP_DRAW_SEED_MAX,
    OPTIONAL_SETTING_FIELDS,
    archive_export,
    archive_import,
)
from tournaments.models import Entrant, Registration, Result, Table, Tournament
from tournaments.pairing import group_draw
from tournaments.registration import services as signup
from tournaments.services.groups import SEED_MAX, groups_draw

pytestmark = pytest.mark.django_db


def _played(organiser: Any, tournament: Tournament) -> None:
    """Every round played (`play_all_rounds`), then the standings."""
    play_all_rounds(organiser, tournament)
    services.standings_recompute(tournament_id=tournament.pk)




def _normalised(document: dict[str, Any]) -> dict[str, Any]:
    """The document with the exporting instance's ids replaced by names / positions (they differ
    between the original and the copy by construction)."""
    doc = copy.deepcopy(document)
    for key in ("exported_at", "source_slug"):
        doc.pop(key, None)
    entrants = {e["id"]: e["name"] for e in doc["entrants"]}
    players = {p["id"]: p["name"] for p in doc["players"]}
    for p in doc["players"]:
        p["id"] = players[p["id"]]
    for e in doc["entrants"]:
        e["id"] = entrants[e["id"]]
        e["players"] = [players[i] for i in e["players"]]
        e.pop("registered_at")  # the moment of the import's insert (not carried: auto_now_add)
    t = doc["tournament"]
    t["knockout_seeding"] = [[entrants[i] for i in group] for group in t["knockout_seeding"]]
    for name in ("entrant_ids", "left_out"):
        if name in t["group_draw"]:
            t["group_draw"][name] = sorted(entrants[i] for i in t["group_draw"][name])
    doc["forbidden_pairs"] = [[entrants[i] for i in pair] for pair in doc["forbidden_pairs"]]
    for round_ in doc["rounds"]:
        for table in round_["tables"]:
            table["id"] = (round_["number"], table["number"])
            for seat in table["seats"]:
                seat["entrant"] = entrants[seat["entrant"]]
            for result in table["results"]:
                result.pop("id")
                for name in ("reported_for", "decided_for"):
                    result[name] = entrants.get(result[name])
                for line in result["lines"]:
                    line["entrant"] = entrants[line["entrant"]]
    doc.pop("game_records", None)
    return doc


def _text(client: Any, url: str, slug: str) -> str:
    """A page's visible text, the slug left out."""
    html = client.get(url).content.decode()
    body = re.sub(r"<script.*?</script>|<style.*?</style>", "", html, flags=re.S)
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", body)).replace(slug, "SLUG").strip()


def _round_trip(organiser: Any, client: Any, original: Tournament, pages: tuple[str, ...]) -> Tournament:
    document = json.loads(json.dumps(archive_export(original)))
    copy_ = archive_import(actor=organiser, data=document, slug=f"{original.slug}-copy")
    again = json.loads(json.dumps(archive_export(copy_)))
    assert _normalised(again) == _normalised(document)
    assert _standings_csv(copy_) == _standings_csv(original)
    for page in pages:
        mine = _text(client, f"/t/{original.slug}/{page}", original.slug)
        theirs = _text(client, f"/t/{copy_.slug}/{page}", copy_.slug)
        assert theirs == mine, page
    return copy_


def test_double_elimination_rolling_round_trip(organiser: Any, client: Any) -> None:
    original = make_tournament(organiser, entrants=6, format="knockout", knockout_style="double",
                               grand_final_reset=False, rolling_rounds=True, bye_tiebreak="virtual_opponent")
    _played(organiser, original)
    keys = sorted(Table.objects.filter(round__tournament=original).exclude(bracket_key="")
                  .values_list("bracket_key", flat=True))
    assert "GF" in keys and any(k.startswith("L") for k in keys)
    services.tournament_finish(actor=organiser, tournament=original)
    services.standings_recompute(tournament_id=original.pk)
    original.refresh_from_db()
    assert 'id="podium"' in client.get(f"/t/{original.slug}/").content.decode()  # compared below
    copy_ = _round_trip(organiser, client, original, ("", "standings/", "bracket/"))
    assert (copy_.knockout_style, copy_.grand_final_reset, copy_.rolling_rounds, copy_.bye_tiebreak) == (
        "double", False, True, "virtual_opponent")
    assert sorted(Table.objects.filter(round__tournament=copy_).exclude(bracket_key="")
                  .values_list("bracket_key", flat=True)) == keys
    assert copy_.status == Tournament.Status.FINISHED


def test_groups_with_a_group_draw_round_trip(organiser: Any, client: Any) -> None:
    original = make_tournament(organiser, entrants=9, format="stages", group_count=2, knockout_size=4,
                               checkin_required=True)
    absent = original.entrants.get(seed=5)
    for entrant in original.entrants.exclude(pk=absent.pk):
        services.entrant_check_in(actor=organiser, entrant=entrant)
    original = groups_draw(actor=organiser, tournament=original, method="snake", by="seed", seed=4711)
    _played(organiser, original)
    copy_ = _round_trip(organiser, client, original, ("", "standings/", "bracket/"))
    draw = copy_.group_draw
    assert (draw["method"], draw["by"], draw["seed"], draw["drawn_at"]) == (
        "snake", "seed", 4711, original.group_draw["drawn_at"])
    assert Entrant.objects.get(pk=draw["left_out"][0]).name == absent.name
    assert set(draw["entrant_ids"]) == set(copy_.entrants.exclude(name=absent.name).values_list("pk", flat=True))
    assert copy_.checkin_required is True


def test_sign_up_settings_travel_and_the_waiting_list_does_not(organiser: Any, client: Any) -> None:
    original = make_tournament(organiser, entrants=2, format="swiss", rounds_planned=2)
    signup.registration_configure(actor=organiser, tournament=original, registration_open=True,
                                  registration_approval=False, entry_limit=3, self_checkin_open=True)
    signup.registration_submit(tournament=original, name="Signed In", email="in@example.org",
                               players=["Ann", "Bob"])
    signup.registration_submit(tournament=original, name="Waiting One", email="wait@example.org",
                               players=["Cid", "Dee"])
    original.refresh_from_db()
    assert [r.name for r in signup.waitlist(original)] == ["Waiting One"]
    document = json.dumps(archive_export(original))
    assert "example.org" not in document and "Waiting One" not in document  # e-mails and the queue stay
    copy_ = _round_trip(organiser, client, original, ("",))
    assert (copy_.registration_open, copy_.registration_approval, copy_.entry_limit, copy_.self_checkin_open) == (
        True, False, 3, True)
    assert copy_.entrants.filter(name="Signed In").exists()
    assert not Registration.objects.filter(tournament=copy_).exists()


def test_an_old_archive_without_the_new_keys_imports_with_the_defaults(organiser: Any) -> None:
    original = make_tournament(organiser, entrants=4, format="knockout", knockout_style="double",
                               rolling_rounds=True, checkin_required=True)
    Tournament.objects.filter(pk=original.pk).update(entry_limit=8, registration_open=True, group_draw={"x": 1})
    document = json.loads(json.dumps(archive_export(original)))
    for name in (*OPTIONAL_SETTING_FIELDS, "group_draw"):
        document["tournament"].pop(name)
    copy_ = archive_import(actor=organiser, data=document, slug="old-archive")
    fresh = Tournament()
    for name in (*OPTIONAL_SETTING_FIELDS, "group_draw"):
        assert getattr(copy_, name) == getattr(fresh, name), name


def test_bad_new_values_are_refused_whole(organiser: Any) -> None:
    original = make_tournament(organiser, entrants=9, format="stages", group_count=2, knockout_size=4,
                               knockout_style="double")
    groups_draw(actor=organiser, tournament=original, method="pots", by="seed", seed=7)
    services.round_publish(actor=organiser, round=services.round_generate(actor=organiser, tournament=original))
    document = json.loads(json.dumps(archive_export(Tournament.objects.get(pk=original.pk))))
    assert document["rounds"][0]["tables"][0]["bracket_key"] == ""

    def case(name: str, change: Any) -> tuple[str, Any]:
        doc = copy.deepcopy(document)
        change(doc)
        return name, doc

    t = "tournament"
    cases = [
        case("unknown style", lambda d: d[t].update(knockout_style="triple")),
        case("reset as text", lambda d: d[t].update(grand_final_reset="yes")),
        case("unknown bye rule", lambda d: d[t].update(bye_tiebreak="coin")),
        case("entry limit 1", lambda d: d[t].update(entry_limit=1)),
        case("entry limit huge", lambda d: d[t].update(entry_limit=ENTRY_LIMIT_MAX + 1)),
        case("open as number", lambda d: d[t].update(registration_open=1)),
        case("game of 0 minutes", lambda d: d[t].update(game_minutes=0)),
        case("schedule of 0 rounds", lambda d: d[t].update(schedule_rounds=0)),
        case("draw not an object", lambda d: d[t].update(group_draw=[1])),
        case("draw unknown method", lambda d: d[t]["group_draw"].update(method="hat")),
        case("draw unknown order", lambda d: d[t]["group_draw"].update(by="name")),
        case("draw seed too big", lambda d: d[t]["group_draw"].update(seed=GROUP_DRAW_SEED_MAX + 1)),
        case("draw of a stranger", lambda d: d[t]["group_draw"]["entrant_ids"].append(10**9)),
        case("drawn twice", lambda d: d[t]["group_draw"]["left_out"].append(d[t]["group_draw"]["entrant_ids"][0])),
        case("draw without a time", lambda d: d[t]["group_draw"].update(drawn_at="yesterday")),
        case("draw unknown key", lambda d: d[t]["group_draw"].update(hat="blue")),
        case("bracket key junk", lambda d: d["rounds"][0]["tables"][0].update(bracket_key="X1-1")),
        case("bracket key too long", lambda d: d["rounds"][0]["tables"][0].update(bracket_key="W12345-1")),
        case("double elimination of a Swiss", lambda d: d[t].update(format="swiss")),
        case("double elimination of tables of 4", lambda d: d[t].update(knockout_advance=2)),
        case("bracket key number", lambda d: d["rounds"][0]["tables"][0].update(bracket_key=1)),
    ]
    assert_each_refused_whole(organiser, cases, Tournament, Entrant, Result, Table)
    for key in ("W1-1", "L12-3", "K2-1", "GF", "GF2"):  # every key the brackets write is accepted
        ok = copy.deepcopy(document)
        ok["rounds"][0]["tables"][0]["bracket_key"] = key
        archive_import(actor=organiser, data=ok, slug=f"ok-{key.lower()}")


def test_archive_constants_follow_the_services() -> None:
    assert GROUP_DRAW_METHODS == group_draw.METHODS and GROUP_DRAW_ORDERS == group_draw.ORDERS
    assert GROUP_DRAW_SEED_MAX == SEED_MAX and ENTRY_LIMIT_MAX == signup.ENTRY_LIMIT_MAX
