"""One lock order for confirmations and ratings (issue 29), on PostgreSQL with a worker running.

The ratings task inserts `RatedGame` rows whose foreign keys take `FOR KEY SHARE` locks on the games'
results and tables, in the pool's key order. A confirmation or an override locked its table and results
`FOR UPDATE`, which conflicts with `KEY SHARE`: the task held a result and waited for its table while the
write held the table and waited for the result (33 `deadlock detected` in 400 decisions; a player's
confirm answered 409). The services now lock rounds, tables and results `FOR NO KEY UPDATE` (they never
change a key), which foreign-key checks do not wait for: 200 racing decisions, 0 deadlocks.
"""

from __future__ import annotations

import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from django.db import connection

from tournaments import services
from tournaments.models import Result
from tournaments.outages import is_write_conflict
from tournaments.rankings.models import RatedGame
from tournaments.rankings.services import ratings_out_of_date

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]

TABLES = 50
DECISIONS = 200


def _decide(call: Any) -> Any:
    try:
        return call()
    except Exception as exc:  # noqa: BLE001 - counted by the test
        return exc
    finally:
        connection.close()


def test_200_racing_decisions_with_the_ratings_worker_give_no_deadlock(worker_factory: Any) -> None:
    worker = worker_factory()
    organiser = get_user_model().objects.create_user("org-lock-order")
    tournament = services.tournament_create(actor=organiser, name="Lock Order Cup", game="tac")
    for i in range(TABLES * 2):
        services.entrant_register(actor=organiser, tournament=tournament, name=f"L{i}",
                                  player_names=[f"l{i}a", f"l{i}b"], seed=i + 1)
    round_ = services.round_publish(actor=organiser, round=services.round_generate(actor=organiser,
                                                                                  tournament=tournament))
    tables = list(round_.tables.filter(is_bye=False).order_by("number"))
    seats = {t.pk: [s.entrant for s in t.seats.order_by("position").select_related("entrant")] for t in tables}
    for table in tables[: TABLES // 2]:  # half the tables final already: their games are in the rating stream
        home, away = seats[table.pk]
        services.result_override(actor=organiser, table=table, scores={home.pk: 8, away.pk: 3})

    calls = []
    for i in range(DECISIONS):
        table = tables[i % len(tables)]
        home, away = seats[table.pk]
        if i % 4 == 0:  # a player reports and the opponent confirms (two decisions)
            def confirm(table: Any = table, home: Any = home, away: Any = away) -> Any:
                pending = services.result_report(table=table, token=home.report_token,
                                                 scores={home.pk: 8, away.pk: 5})
                return services.result_confirm(result=pending, token=away.report_token)
            calls.append(confirm)
        else:  # the organiser corrects the table (supersedes its final result)
            calls.append(lambda table=table, home=home, away=away, i=i: services.result_override(
                actor=organiser, table=table, scores={home.pk: 8 - i % 3, away.pk: 8}))
    with ThreadPoolExecutor(max_workers=6) as pool:
        outcomes = list(pool.map(_decide, calls))

    deadlocks = [o for o in outcomes if isinstance(o, Exception) and is_write_conflict(o)]
    errors = [o for o in outcomes if isinstance(o, Exception) and not hasattr(o, "code")]
    # (a TournamentError is a decision refused by the rules: a report on a table already final)
    assert not deadlocks, f"{len(deadlocks)} deadlocks: {deadlocks[:3]}"
    assert not errors, errors[:3]
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and ratings_out_of_date():
        time.sleep(0.5)
    assert ratings_out_of_date() == []
    log = worker.log_path.read_text(errors="replace")
    assert "deadlock detected" not in log, (f"{log.count('deadlock detected')} deadlocks in the worker:\n"
                                            + log[log.find("deadlock detected") - 1500:][:2000])
    for table in tables:
        assert Result.objects.filter(table=table, state__in=Result.FINAL_STATES).count() == 1
    assert RatedGame.objects.filter(pool="tac").count() == len(tables)
