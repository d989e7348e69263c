"""Celery tasks of the rankings: take a pool and a key, call one service, safe to run twice.

`ratings_recompute` runs acks_late / reject_on_worker_lost: a killed worker rolls the single
transaction back and the broker redelivers. `ratings_reconcile` (beat) finds any pool whose stored
stream differs from its final results (a lost message, a tournament made private or re-dated) and
enqueues a recomputation from the first difference.
"""

from __future__ import annotations

from celery import shared_task

from tournaments.rankings.services import ratings_out_of_date
from tournaments.rankings.services import ratings_recompute as ratings_recompute_service
from tournaments.task_retries import DATABASE_RETRY


@shared_task(name="tournaments.rankings.tasks.ratings_recompute", acks_late=True, reject_on_worker_lost=True,
             soft_time_limit=240, time_limit=300, **DATABASE_RETRY)
def ratings_recompute(pool: str, from_key: str = "") -> int:
    return ratings_recompute_service(pool=str(pool), from_key=str(from_key)).games_replayed


@shared_task(name="tournaments.rankings.tasks.ratings_reconcile", acks_late=True, soft_time_limit=120,
             time_limit=180, **DATABASE_RETRY)
def ratings_reconcile() -> list[list[str]]:
    stale = ratings_out_of_date()
    for pool, key in stale:
        ratings_recompute.delay(pool, key)
    return [[pool, key] for pool, key in stale]
