"""Organiser pages: only the tournament's organisers, every write through a service, errors on the page."""

from __future__ import annotations

from typing import Any

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.test import Client
from django.urls import reverse

from tournaments.models import AuditLog, Entrant, Round, Tournament
from tournaments.services.rounds import round_generate

pytestmark = pytest.mark.django_db

TAC_PROFILE = 'tac:{"master":false}'


def create_form(**overrides: Any) -> dict[str, Any]:
    data = {
        "name": "Autumn Open",
        "profile": TAC_PROFILE,
        "format": "swiss",
        "rounds_planned": "4",
        "group_count": "1",
        "first_round": "seed",
        "is_public": "on",
        "third_place_match": "on",
    }
    data.update(overrides)
    return data


def test_anonymous_is_sent_to_login_for_every_organiser_page(
    client: Client, tac_tournament: Tournament
) -> None:
    entrant = tac_tournament.entrants.first()
    assert entrant is not None
    urls = [
        reverse("web:tournament-create"),
        reverse("web:manage", args=[tac_tournament.slug]),
        reverse("web:entrant-add", args=[tac_tournament.slug]),
        reverse("web:entrants-import", args=[tac_tournament.slug]),
    ]
    for url in urls:
        response = client.get(url)
        assert response.status_code == 302 and "/accounts/login/" in response["Location"], url
    response = client.post(reverse("web:entrant-action", args=[tac_tournament.slug, entrant.pk, "drop"]))
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    assert Entrant.objects.get(pk=entrant.pk).status == Entrant.Status.REGISTERED


def test_other_users_get_403_on_every_organiser_page_and_write(
    client: Client, tac_tournament: Tournament, stranger: Any
) -> None:
    client.force_login(stranger)
    entrant = tac_tournament.entrants.first()
    assert entrant is not None
    slug = tac_tournament.slug
    assert client.get(reverse("web:manage", args=[slug])).status_code == 403
    assert client.get(reverse("web:entrant-add", args=[slug])).status_code == 403
    response = client.post(
        reverse("web:entrant-add", args=[slug]), {"name": "Intruders", "player_1": "A", "player_2": "B"}
    )
    assert response.status_code == 403
    assert client.post(reverse("web:entrant-action", args=[slug, entrant.pk, "drop"])).status_code == 403
    assert client.post(reverse("web:round-generate", args=[slug])).status_code == 403
    assert not tac_tournament.entrants.filter(name="Intruders").exists()
    assert Entrant.objects.get(pk=entrant.pk).status == Entrant.Status.REGISTERED
    assert not Round.objects.filter(tournament=tac_tournament).exists()


def test_create_tournament_shows_errors_then_creates(client: Client, organiser: Any) -> None:
    client.force_login(organiser)
    response = client.post(reverse("web:tournament-create"), create_form(name="", profile="chess:{}"))
    assert response.status_code == 200
    page = response.content.decode()
    assert "This field is required." in page
    assert "Select a valid choice." in page
    response = client.post(reverse("web:tournament-create"), create_form(format="stages"))
    assert "A stages tournament needs the number of entrants in the knockout." in response.content.decode()
    response = client.post(reverse("web:tournament-create"), create_form())
    tournament = Tournament.objects.get(name="Autumn Open")
    assert response.status_code == 302 and response["Location"] == reverse(
        "web:manage", args=[tournament.slug]
    )
    assert tournament.game == "tac" and tournament.rounds_planned == 4
    assert tournament.organisers.filter(pk=organiser.pk).exists()


def test_create_tournament_for_a_single_player_game(client: Client, organiser: Any) -> None:
    client.force_login(organiser)
    client.post(reverse("web:tournament-create"), create_form(name="TAKI night", profile='taki:{"seats":5}'))
    tournament = Tournament.objects.get(name="TAKI night")
    assert tournament.variant == {"seats": 5}
    page = client.get(reverse("web:entrant-add", args=[tournament.slug])).content.decode()
    assert "Player name" in page and "player_1" not in page


def test_register_entrant_by_hand_with_errors(
    client: Client, tac_tournament: Tournament, organiser: Any
) -> None:
    client.force_login(organiser)
    url = reverse("web:entrant-add", args=[tac_tournament.slug])
    page = client.get(url).content.decode()
    assert 'name="player_1"' in page and 'name="player_2"' in page
    response = client.post(url, {"name": "x" * 49, "player_1": "A"})
    assert response.status_code == 200
    assert "Ensure this value has at most 48 characters" in response.content.decode()
    response = client.post(url, {"name": "team 1", "player_1": "New A", "player_2": "New B"})
    assert response.status_code == 200
    assert "already registered" in response.content.decode()
    response = client.post(
        url, {"name": "Team 5", "player_1": "New A", "player_2": "New B", "check_in": "on"}
    )
    assert response.status_code == 302
    entrant = tac_tournament.entrants.get(name="Team 5")
    assert entrant.status == Entrant.Status.CHECKED_IN
    assert [m.player.name for m in entrant.members.order_by("position")] == ["New A", "New B"]


def test_csv_import_shows_every_bad_row_and_imports_nothing(
    client: Client, tac_tournament: Tournament, organiser: Any
) -> None:
    client.force_login(organiser)
    url = reverse("web:entrants-import", args=[tac_tournament.slug])
    bad = "name,players,seed\nGood Team,Ann;Bob,\nTeam 1,Cid;Dan,\nLonely,Eve,\n"
    response = client.post(url, {"csv_text": bad})
    page = response.content.decode()
    assert response.status_code == 200
    assert "Nothing was imported" in page
    assert '<td class="num">3</td>' in page and '<td class="num">4</td>' in page
    assert not tac_tournament.entrants.filter(name="Good Team").exists()
    good = SimpleUploadedFile("teams.csv", b"name;player1;player2\nGood Team;Ann;Bob\nOther Team;Cid;Dan\n")
    response = client.post(url, {"csv_file": good})
    assert response.status_code == 302
    assert tac_tournament.entrants.filter(name__in=["Good Team", "Other Team"]).count() == 2


def test_csv_import_rejects_empty_and_binary_input(
    client: Client, tac_tournament: Tournament, organiser: Any
) -> None:
    client.force_login(organiser)
    url = reverse("web:entrants-import", args=[tac_tournament.slug])
    assert "Choose a CSV file or paste its contents." in client.post(url, {}).content.decode()
    binary = SimpleUploadedFile("x.csv", bytes(range(128, 256)) * 4)
    response = client.post(url, {"csv_file": binary})
    assert response.status_code == 200
    assert "The file is not a text (UTF-8) CSV file." in response.content.decode()


def test_check_in_drop_readmit(client: Client, tac_tournament: Tournament, organiser: Any) -> None:
    client.force_login(organiser)
    entrant = tac_tournament.entrants.get(name="Team 2")
    slug = tac_tournament.slug
    client.post(reverse("web:entrant-action", args=[slug, entrant.pk, "check-in"]))
    assert Entrant.objects.get(pk=entrant.pk).status == Entrant.Status.CHECKED_IN
    response = client.post(reverse("web:entrant-action", args=[slug, entrant.pk, "check-in"]), follow=True)
    assert "already checked in" in response.content.decode()
    client.post(reverse("web:entrant-action", args=[slug, entrant.pk, "drop"]))
    assert Entrant.objects.get(pk=entrant.pk).status == Entrant.Status.DROPPED
    client.post(reverse("web:entrant-action", args=[slug, entrant.pk, "readmit"]))
    assert Entrant.objects.get(pk=entrant.pk).status == Entrant.Status.REGISTERED
    assert client.post(reverse("web:entrant-action", args=[slug, entrant.pk, "explode"])).status_code == 404
    assert client.get(reverse("web:entrant-action", args=[slug, entrant.pk, "drop"])).status_code == 405
    actions = set(AuditLog.objects.filter(tournament=tac_tournament).values_list("action", flat=True))
    assert {"entrant_checked_in", "entrant_dropped", "entrant_readmitted"} <= actions


def test_check_in_with_htmx_returns_the_row(
    client: Client, tac_tournament: Tournament, organiser: Any
) -> None:
    client.force_login(organiser)
    entrant = tac_tournament.entrants.get(name="Team 3")
    response = client.post(
        reverse("web:entrant-action", args=[tac_tournament.slug, entrant.pk, "check-in"]),
        HTTP_HX_REQUEST="true",
    )
    page = response.content.decode()
    assert response.status_code == 200
    assert page.lstrip().startswith("<tr") and f'id="entrant-{entrant.pk}"' in page
    assert "Checked in" in page


def test_generate_edit_and_publish_a_round(
    client: Client, tac_tournament: Tournament, organiser: Any
) -> None:
    client.force_login(organiser)
    slug = tac_tournament.slug
    response = client.post(reverse("web:round-generate", args=[slug]))
    assert response.status_code == 302 and response["Location"] == reverse("web:manage-round", args=[slug, 1])
    page = client.get(response["Location"]).content.decode()
    assert "Publish this round" in page and "Edit the pairing" in page
    ids = {e.name: e.pk for e in tac_tournament.entrants.all()}
    # Double booking: Team 1 at two tables is refused and explained; the round is unchanged.
    before = list(Round.objects.get(tournament=tac_tournament, number=1).tables.values_list("id", flat=True))
    response = client.post(
        reverse("web:manage-round", args=[slug, 1]),
        {"t1_s1": ids["Team 1"], "t1_s2": ids["Team 2"], "t2_s1": ids["Team 1"], "t2_s2": ids["Team 3"]},
    )
    assert response.status_code == 200
    assert "This edit cannot be saved" in response.content.decode()
    assert (
        list(Round.objects.get(tournament=tac_tournament, number=1).tables.values_list("id", flat=True))
        == before
    )
    # A valid manual edit with Team 4 missing: saved, and the warning is listed before publishing.
    response = client.post(
        reverse("web:manage-round", args=[slug, 1]),
        {"t1_s1": ids["Team 1"], "t1_s2": ids["Team 2"], "byes": [ids["Team 3"]]},
        follow=True,
    )
    page = response.content.decode()
    assert "Warnings" in page and 'data-code="entrant_missing"' in page and "Team 4" in page
    assert "Neither at a table nor given a bye" in page
    response = client.post(reverse("web:round-publish", args=[slug, 1]))
    assert response.status_code == 302
    assert Round.objects.get(tournament=tac_tournament, number=1).status == Round.Status.PUBLISHED
    # Publishing twice or generating while the round runs: a message, not an error page.
    response = client.post(reverse("web:round-publish", args=[slug, 1]), follow=True)
    assert response.status_code == 200 and "Only a draft round can be published." in response.content.decode()
    response = client.post(reverse("web:round-generate", args=[slug]), follow=True)
    assert response.status_code == 200 and "still being played" in response.content.decode()


def test_rematch_warning_is_shown_before_publishing(
    client: Client, tac_tournament: Tournament, organiser: Any, published_round: Round
) -> None:
    from tournaments.services.results import result_override

    for table in published_round.tables.filter(is_bye=False):
        first, second = [s.entrant_id for s in table.seats.order_by("position")]
        result_override(actor=organiser, table=table, scores={first: 8, second: 3})
    round_2 = round_generate(actor=organiser, tournament=tac_tournament)
    table = published_round.tables.filter(is_bye=False).first()
    assert table is not None
    pair = [s.entrant_id for s in table.seats.order_by("position")]
    others = list(tac_tournament.entrants.exclude(pk__in=pair).values_list("pk", flat=True))
    client.force_login(organiser)
    response = client.post(
        reverse("web:manage-round", args=[tac_tournament.slug, round_2.number]),
        {"t1_s1": pair[0], "t1_s2": pair[1], "t2_s1": others[0], "t2_s2": others[1]},
        follow=True,
    )
    page = response.content.decode()
    assert 'data-code="rematch"' in page and "Rematch: these entrants have met before" in page


def test_manage_page_lists_entrants_rounds_and_private_links(
    client: Client, tac_tournament: Tournament, organiser: Any, published_round: Round
) -> None:
    client.force_login(organiser)
    page = client.get(reverse("web:manage", args=[tac_tournament.slug])).content.decode()
    entrant = tac_tournament.entrants.get(name="Team 1")
    assert reverse("web:token-home", args=[entrant.report_token]) in page
    assert "Add a late entrant" in page
    assert "Recent changes" in page and 'data-action="round_published"' in page and "Round published" in page
    # Private links never appear on public pages.
    client.logout()
    public = client.get(reverse("web:tournament-detail", args=[tac_tournament.slug])).content.decode()
    assert entrant.report_token not in public


def test_create_tournament_with_points_scheme_and_tiebreak_order(client: Client, organiser: Any) -> None:
    client.force_login(organiser)
    url = reverse("web:tournament-create")
    response = client.post(url, create_form(tiebreak_order="buchholz, match_points"))
    assert "The tiebreak order must start with match_points." in response.content.decode()
    response = client.post(url, create_form(tiebreak_order="match_points, luck"))
    assert "Unknown tiebreak: luck." in response.content.decode()
    response = client.post(
        url,
        create_form(
            tiebreak_order="match_points, buchholz, marble_difference",
            forfeit_winner_score="6",
            forfeit_loser_score="0",
            bye_points="1",
        ),
    )
    assert response.status_code == 302
    tournament = Tournament.objects.get(name="Autumn Open")
    assert tournament.tiebreak_order == ["match_points", "buchholz", "marble_difference"]
    assert (tournament.forfeit_winner_score, tournament.forfeit_loser_score, tournament.bye_points) == (
        6,
        0,
        1.0,
    )


def test_finish_tournament_only_when_no_round_is_open(
    client: Client, tac_tournament: Tournament, organiser: Any, published_round: Round
) -> None:
    from tournaments.services.results import result_override

    client.force_login(organiser)
    url = reverse("web:tournament-finish", args=[tac_tournament.slug])
    response = client.post(url, follow=True)
    assert "Finish or delete the open round first." in response.content.decode()
    assert Tournament.objects.get(pk=tac_tournament.pk).status == Tournament.Status.RUNNING
    for table in published_round.tables.filter(is_bye=False):
        first, second = [s.entrant_id for s in table.seats.order_by("position")]
        result_override(actor=organiser, table=table, scores={first: 8, second: 2})
    assert (
        "Finish the tournament"
        in client.get(reverse("web:manage", args=[tac_tournament.slug])).content.decode()
    )
    response = client.post(url)
    assert response.status_code == 302
    assert Tournament.objects.get(pk=tac_tournament.pk).status == Tournament.Status.FINISHED


def test_htmx_action_error_is_shown_in_the_row(
    client: Client, tac_tournament: Tournament, organiser: Any
) -> None:
    client.force_login(organiser)
    entrant = tac_tournament.entrants.get(name="Team 4")
    url = reverse("web:entrant-action", args=[tac_tournament.slug, entrant.pk, "readmit"])
    response = client.post(url, HTTP_HX_REQUEST="true")
    page = response.content.decode()
    assert response.status_code == 200
    assert 'role="alert"' in page and "Only a dropped entrant can be re-admitted." in page
    # Nothing is queued for the next full page.
    manage = client.get(reverse("web:manage", args=[tac_tournament.slug])).content.decode()
    assert "Only a dropped entrant can be re-admitted." not in manage


def test_check_in_all_registered(
    client: Client, tac_tournament: Tournament, organiser: Any, stranger: Any
) -> None:
    url = reverse("web:entrants-check-in-all", args=[tac_tournament.slug])
    client.force_login(stranger)
    assert client.post(url).status_code == 403
    client.force_login(organiser)
    page = client.get(reverse("web:manage", args=[tac_tournament.slug])).content.decode()
    assert "Check in all 4 registered entrants" in page
    response = client.post(url, follow=True)
    assert "4 entrants checked in." in response.content.decode()
    assert set(tac_tournament.entrants.values_list("status", flat=True)) == {Entrant.Status.CHECKED_IN}
    assert AuditLog.objects.filter(tournament=tac_tournament, action="entrant_checked_in").count() == 4


def test_add_a_co_organiser(
    client: Client, tac_tournament: Tournament, organiser: Any, stranger: Any
) -> None:
    url = reverse("web:organiser-add", args=[tac_tournament.slug])
    client.force_login(stranger)
    assert client.post(url, {"username": "stranger"}).status_code == 403
    client.force_login(organiser)
    response = client.post(url, {"username": "nobody"}, follow=True)
    assert "No active account has this username." in response.content.decode()
    response = client.post(url, {"username": "stranger"}, follow=True)
    assert "stranger now organises this tournament too." in response.content.decode()
    client.force_login(stranger)
    assert client.get(reverse("web:manage", args=[tac_tournament.slug])).status_code == 200
