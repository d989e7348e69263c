"""Rolling single elimination (docs/formats.md, Rolling rounds): a knockout table starts as soon as
its feeders are done, with the round page and the bracket following."""

from __future__ import annotations

from typing import Any

import pytest

from tests.tournaments.conftest import make_tournament
from tournaments import services
from tournaments.errors import TournamentError
from tournaments.models import Result, StandingRow
from tournaments.services.release import tables_released
from tournaments.services.rounds import next_round_possible

pytestmark = pytest.mark.django_db


def _finish(organiser: Any, table: Any) -> None:
    seats = sorted(table.seats.select_related("entrant"), key=lambda s: s.entrant.seed)
    services.result_override(actor=organiser, table=table,
                             scores={s.entrant_id: 8 if i == 0 else 4 for i, s in enumerate(seats)})


def _seeds(table: Any) -> list[int]:
    return sorted(seat.entrant.seed for seat in table.seats.select_related("entrant"))


def _publish(organiser: Any, tournament: Any) -> Any:
    tournament.refresh_from_db()
    return services.round_publish(actor=organiser, round=services.round_generate(actor=organiser, tournament=tournament))


def test_rolling_knockout_starts_a_semi_final_when_its_quarter_finals_are_done(organiser: Any, client: Any) -> None:
    # 8 entrants: quarter-finals 1 v 8, 4 v 5 (feeding semi-final 1), 2 v 7, 3 v 6. Once 1 v 8 and
    # 4 v 5 are over, semi-final 1 (1 v 4) is drawn and may start while 2 v 7 and 3 v 6 are played
    tournament = make_tournament(organiser, entrants=8, format="knockout", rolling_rounds=True)
    quarters = _publish(organiser, tournament)
    by_seeds = {tuple(_seeds(t)): t for t in quarters.tables.all()}
    assert set(by_seeds) == {(1, 8), (4, 5), (2, 7), (3, 6)}
    _finish(organiser, by_seeds[(1, 8)])
    _finish(organiser, by_seeds[(4, 5)])
    semi_1 = _publish(organiser, tournament)
    assert [(t.bracket_key, _seeds(t)) for t in semi_1.tables.all()] == [("K2-1", [1, 4])]
    assert tables_released(tournament)[semi_1.tables.get().pk] == "playing"
    page = client.get(f"/t/{tournament.slug}/rounds/{semi_1.number}/").content.decode()
    assert "May start" in page
    with pytest.raises(TournamentError):  # one round ahead at most
        services.round_generate(actor=organiser, tournament=tournament)
    _finish(organiser, semi_1.tables.get())
    _finish(organiser, by_seeds[(2, 7)])
    _finish(organiser, by_seeds[(3, 6)])
    semi_2 = _publish(organiser, tournament)
    assert [(t.bracket_key, _seeds(t)) for t in semi_2.tables.all()] == [("K2-2", [2, 3])]
    _finish(organiser, semi_2.tables.get())
    finals = _publish(organiser, tournament)
    assert sorted((t.bracket_key, tuple(_seeds(t))) for t in finals.tables.all()) == [
        ("K3-1", (1, 2)), ("K3-2", (3, 4))
    ]
    for table in finals.tables.all():
        _finish(organiser, table)
    tournament.refresh_from_db()
    assert not next_round_possible(tournament)
    services.standings_recompute(tournament_id=tournament.pk)
    places = {row.entrant.seed: row.rank for row in StandingRow.objects.filter(tournament=tournament).select_related("entrant")}
    assert [places[seed] for seed in range(1, 9)] == [1, 2, 3, 4, 5, 5, 5, 5]
    bracket = client.get(f"/t/{tournament.slug}/bracket/").content.decode()
    assert bracket.count("class=\"won") >= 7  # every played table shows its winner
    assert Result.objects.filter(table__round__tournament=tournament).count() == 8
