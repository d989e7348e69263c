"""Group draw, moving a team, editing and deleting entrants (issue 28): services, audited, refused with
clear codes once the change would corrupt state."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from tests.tournaments.conftest import make_tournament, published_round
from tournaments import services
from tournaments.errors import TournamentError
from tournaments.models import AuditLog, Entrant, Round
from tournaments.services.entrants import entrant_delete, entrant_update
from tournaments.services.groups import groups_draw

pytestmark = pytest.mark.django_db


def _groups(tournament: Any) -> dict[str, int]:
    return dict(tournament.entrants.values_list("name", "group"))


def test_draw_leaves_no_shows_out_and_balances_the_groups(organiser: Any) -> None:
    t = make_tournament(organiser, entrants=14, format="round_robin", group_count=4, checkin_required=True)
    absent = set(t.entrants.filter(seed__in=[3, 9]).values_list("pk", flat=True))
    for entrant in t.entrants.exclude(pk__in=absent):
        services.entrant_check_in(actor=organiser, entrant=entrant)
    t = groups_draw(actor=organiser, tournament=t, method="pots", by="seed", seed=42)
    drawn = Entrant.objects.filter(pk__in=t.group_draw["entrant_ids"])
    assert sorted(Counter(drawn.values_list("group", flat=True)).values()) == [3, 3, 3, 3]
    assert set(t.group_draw["left_out"]) == absent
    assert t.group_draw["seed"] == 42
    row = AuditLog.objects.filter(action="groups_drawn").get()
    assert row.data["seed"] == 42 and row.actor == organiser
    # the draw is reproducible from the seed shown
    first = _groups(t)
    groups_draw(actor=organiser, tournament=t, method="pots", by="seed", seed=42)
    assert _groups(t) == first
    round_ = services.round_generate(actor=organiser, tournament=t)
    seated = set(Entrant.objects.filter(seats__round=round_).values_list("pk", flat=True))
    assert not seated & absent


def test_draw_without_seed_picks_and_stores_one(organiser: Any) -> None:
    t = make_tournament(organiser, entrants=8, format="stages", group_count=2, knockout_size=4)
    t = groups_draw(actor=organiser, tournament=t, method="snake")
    assert isinstance(t.group_draw["seed"], int)


def test_redraw_discards_a_draft_and_is_refused_once_round_1_is_published(organiser: Any) -> None:
    t = make_tournament(organiser, entrants=8, format="round_robin", group_count=2)
    groups_draw(actor=organiser, tournament=t, seed=1)
    services.round_generate(actor=organiser, tournament=t)
    groups_draw(actor=organiser, tournament=t, seed=2)
    assert not t.rounds.exists()
    published_round(organiser, t)
    with pytest.raises(TournamentError) as caught:
        groups_draw(actor=organiser, tournament=t, seed=3)
    assert caught.value.code == "groups_fixed"
    entrant = t.entrants.first()
    other = 2 if entrant.group == 1 else 1
    with pytest.raises(TournamentError) as caught:
        entrant_update(actor=organiser, entrant=entrant, group=other)
    assert caught.value.code == "groups_fixed"


def test_draw_refusals(organiser: Any, other_user: Any) -> None:
    swiss = make_tournament(organiser, entrants=8)
    with pytest.raises(TournamentError) as caught:
        groups_draw(actor=organiser, tournament=swiss)
    assert caught.value.code == "invalid_input"
    t = make_tournament(organiser, entrants=3, format="round_robin", group_count=2, name="Small")
    with pytest.raises(TournamentError) as caught:
        groups_draw(actor=organiser, tournament=t)
    assert caught.value.code == "not_enough_entrants"
    with pytest.raises(TournamentError) as caught:
        groups_draw(actor=other_user, tournament=t)
    assert caught.value.code == "permission_denied"
    with pytest.raises(TournamentError) as caught:
        groups_draw(actor=organiser, tournament=t, method="hat")
    assert caught.value.code == "invalid_input"


def test_move_a_team_before_round_1(organiser: Any) -> None:
    t = make_tournament(organiser, entrants=8, format="round_robin", group_count=2)
    groups_draw(actor=organiser, tournament=t, seed=9)
    entrant = t.entrants.get(seed=1)
    target = 2 if entrant.group == 1 else 1
    entrant_update(actor=organiser, entrant=entrant, group=target)
    entrant.refresh_from_db()
    assert entrant.group == target
    row = AuditLog.objects.filter(action="entrant_updated").get()
    assert row.data["changes"]["group"][1] == target
    with pytest.raises(TournamentError) as caught:
        entrant_update(actor=organiser, entrant=entrant, group=3)
    assert caught.value.code == "invalid_input"


def test_edit_name_players_club_seed(organiser: Any, other_user: Any) -> None:
    t = make_tournament(organiser, entrants=4)
    entrant = t.entrants.get(seed=1)
    entrant_update(actor=organiser, entrant=entrant, name="Die Kugelblitze", player_names=["Anna", "Ben"],
                   club="TAC Club Bern", seed=7)
    entrant.refresh_from_db()
    assert entrant.name == "Die Kugelblitze" and entrant.seed == 7 and entrant.club.name == "TAC Club Bern"
    assert list(entrant.members.order_by("position").values_list("player__name", flat=True)) == ["Anna", "Ben"]
    changes = AuditLog.objects.filter(action="entrant_updated").get().data["changes"]
    assert set(changes) == {"name", "players", "club", "seed"}
    for kwargs, code in [({"name": "team 02"}, "entrant_name_taken"), ({"seed": 2}, "invalid_input"),
                         ({"player_names": ["Solo"]}, "invalid_input"), ({"name": "  "}, "invalid_input")]:
        with pytest.raises(TournamentError) as caught:
            entrant_update(actor=organiser, entrant=entrant, **kwargs)
        assert caught.value.code == code
    entrant.refresh_from_db()
    assert entrant.name == "Die Kugelblitze" and entrant.seed == 7
    with pytest.raises(TournamentError) as caught:
        entrant_update(actor=other_user, entrant=entrant, name="Hijack")
    assert caught.value.code == "permission_denied"


def test_delete_before_play_and_refused_after(organiser: Any) -> None:
    t = make_tournament(organiser, entrants=5)
    spare = t.entrants.get(seed=5)
    services.round_generate(actor=organiser, tournament=t)
    result = entrant_delete(actor=organiser, entrant=spare)
    assert result["discarded_drafts"] == [1]
    assert not Entrant.objects.filter(pk=spare.pk).exists()
    assert not Round.objects.filter(tournament=t).exists()
    assert AuditLog.objects.filter(action="entrant_deleted", data__name="Team 05").exists()
    published_round(organiser, t)
    played = t.entrants.get(seed=1)
    with pytest.raises(TournamentError) as caught:
        entrant_delete(actor=organiser, entrant=played)
    assert caught.value.code == "entrant_has_games"
    assert Entrant.objects.filter(pk=played.pk).exists()
