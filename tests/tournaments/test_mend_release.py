"""Rolling release: `waiting_on` takes the round and the seated entrants its caller already holds
(one query), and answers the same as when it reads them itself."""

from __future__ import annotations

from typing import Any

import pytest

from tests.tournaments.conftest import make_tournament
from tournaments import services
from tournaments.errors import TournamentError
from tournaments.models import Table
from tournaments.services.release import require_released, waiting_on

pytestmark = pytest.mark.django_db


def test_waiting_on_with_what_the_caller_holds_is_one_query(
    organiser: Any, django_assert_num_queries: Any
) -> None:
    tournament = make_tournament(organiser, entrants=6, format="round_robin", rolling_rounds=True)
    first_round = services.round_publish(
        actor=organiser, round=services.round_generate(actor=organiser, tournament=tournament)
    )
    later = services.round_publish(
        actor=organiser, round=services.round_generate(actor=organiser, tournament=tournament)
    )
    table = later.tables.filter(is_bye=False).order_by("number").first()
    assert table is not None
    seated = list(table.seats.values_list("entrant_id", flat=True))
    expected = sorted(
        t.pk for t in first_round.tables.filter(is_bye=False, seats__entrant_id__in=seated).distinct()
    )
    fresh = Table.objects.get(pk=table.pk)  # as the report service holds it: round not loaded
    with django_assert_num_queries(1):
        blocking = waiting_on(fresh, round_=later, entrant_ids=seated)
    assert sorted(t.pk for t in blocking) == expected and expected
    unloaded = Table.objects.get(pk=table.pk)
    with django_assert_num_queries(3):  # the round and the seats read here
        assert waiting_on(unloaded) == blocking
    with django_assert_num_queries(1), pytest.raises(TournamentError) as refused:
        require_released(fresh, round_=later, entrant_ids=seated)
    assert refused.value.code == "table_not_released"
