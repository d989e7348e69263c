"""Run in a subprocess by benchmarks/pages.py on a throw-away database: a public 1,000-entrant TAKI
tournament with standings under every tiebreak (rows as `standings_recompute` writes them), then the
public pages in-process through Django's test client. Prints one JSON line (with the slug, for wrk).

Figures (CPU milliseconds, medians; "before" is the render issue 14 started from, in the same run):
- standings_first_page_uncached_ms: what a phone first sees (50 rows), nothing cached;
- standings_all_uncached_ms / standings_all_per_row_reverse_ms: the whole list, as now and as before
  (one reversed URL per row, no pages);
- cached requests/s of the standings page next to the app's trivial view (the tournament list), and of
  a 304 answer.
"""

from __future__ import annotations

import json
import os
import random
import statistics
import sys
import time
from typing import Any

import django

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "config.settings")
django.setup()

from django.contrib.auth.models import AnonymousUser  # noqa: E402
from django.core.cache import cache  # noqa: E402
from django.db import transaction  # noqa: E402
from django.template.loader import render_to_string  # noqa: E402
from django.test import Client, RequestFactory  # noqa: E402

from benchmarks.standings import ORDER  # noqa: E402
from tournaments import services  # noqa: E402
from tournaments.models import StandingRow, Tournament  # noqa: E402
from tournaments.services.entrants import _register  # noqa: E402
from tournaments.simulation import simulation_organiser  # noqa: E402
from tournaments.standings import GameLine, PlayedGame, compute_standings, placing_match_points  # noqa: E402
from tournaments.views.page_data import standings_columns, standings_lines, standings_rows  # noqa: E402

ENTRANTS, ROUNDS = 1000, 9


def build() -> Tournament:
    organiser = simulation_organiser("bench-pages")
    tournament = services.tournament_create(actor=organiser, name="Bench standings 1000", game="taki",
                                            variant={"seats": 4}, rounds_planned=ROUNDS, is_public=True)
    with transaction.atomic():
        for i in range(1, ENTRANTS + 1):
            _register(actor=organiser, tournament=tournament, name=f"Entrant {i:04d}",
                      player_names=[f"Player {i:04d}"], player_ids=(), club=None, seed=i, rating=None, group=1)
    ids = list(tournament.entrants.values_list("pk", flat=True))
    rng = random.Random(14)
    games: list[PlayedGame] = []
    for _ in range(ROUNDS):
        rng.shuffle(ids)
        for start in range(0, len(ids), 4):
            table = ids[start:start + 4]
            placings = list(range(1, len(table) + 1))
            rng.shuffle(placings)
            points = placing_match_points(placings, [3.0, 2.0, 1.0, 0.0])
            games.append(PlayedGame(key=len(games) + 1, max_points=3.0, lines=tuple(
                GameLine(e, p, mp, float(rng.randint(0, 30))) for e, p, mp in zip(table, placings, points, strict=True))))
    rows = compute_standings(ids, games, ORDER)
    StandingRow.objects.bulk_create(
        StandingRow(tournament=tournament, entrant_id=r.entrant_id, rank=r.rank, shared_rank=r.shared_rank,
                    games_played=r.games_played, values=dict(r.values), results_version=1) for r in rows)
    Tournament.objects.filter(pk=tournament.pk).update(tiebreak_order=ORDER, results_version=1, standings_version=1)
    return Tournament.objects.get(pk=tournament.pk)


# Process CPU time (SQLite runs in-process, so queries count too): robust on a shared machine, where
# wall-clock time mostly measures the other processes.
def _median_ms(fn: Any, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        started = time.process_time()
        fn()
        times.append(time.process_time() - started)
    return round(1000 * statistics.median(times), 2)


def _rate(fn: Any, count: int = 200) -> float:
    started = time.process_time()
    for _ in range(count):
        fn()
    return round(count / (time.process_time() - started), 1)


def measure(tournament: Tournament) -> dict[str, Any]:
    client = Client()
    url = f"/t/{tournament.slug}/standings/"

    def get(path: str, **headers: Any) -> Any:
        response = client.get(path, **headers)
        assert response.status_code in (200, 304), (path, response.status_code)
        return response

    def uncached(path: str) -> Any:
        cache.clear()
        return get(path)

    def before() -> str:
        """The page as issue 14 found it: every row, one `{% url %}` per row, nothing cached."""
        request = RequestFactory().get(url)
        request.user = AnonymousUser()
        fresh = Tournament.objects.get(pk=tournament.pk)
        rows = standings_rows(fresh)
        columns = standings_columns(fresh, rows)
        return render_to_string("tournaments/standings.html", {
            "tournament": fresh, "page_cache": None, "columns": columns,
            "standings": standings_lines(rows, columns), "standings_stale": False}, request=request)

    get(url)  # warm (templates, translations)
    first_page = uncached(url)
    whole = uncached(url + "?page=all")
    figures: dict[str, Any] = {
        "entrants": ENTRANTS,
        "standings_first_page_uncached_ms": _median_ms(lambda: uncached(url), 15),
        "standings_all_uncached_ms": _median_ms(lambda: uncached(url + "?page=all"), 5),
        "standings_all_per_row_reverse_ms_before": _median_ms(before, 5),
        "first_page_kb": round(len(first_page.content) / 1024, 1),
        "all_kb": round(len(whole.content) / 1024, 1),
        "before_kb": round(len(before().encode()) / 1024, 1),
    }
    get(url)
    etag = get(url)["ETag"]
    cached_rate = _rate(lambda: get(url))
    trivial_rate = _rate(lambda: get("/"))
    not_modified_rate = _rate(lambda: get(url, HTTP_IF_NONE_MATCH=etag))
    figures.update({
        "standings_cached_requests_per_second": cached_rate,
        "trivial_view_requests_per_second": trivial_rate,
        "cached_vs_trivial_ratio": round(cached_rate / trivial_rate, 2),
        "standings_304_requests_per_second": not_modified_rate,
    })
    return figures


def main() -> None:
    tournament = build()
    figures = measure(tournament) if "--build-only" not in sys.argv else {}
    print(json.dumps({"slug": tournament.slug, **figures}))


if __name__ == "__main__":
    main()
