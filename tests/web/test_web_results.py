"""Result pages: players report for their own table (account or private link), opponents confirm,
conflicts get a clear message (409), organisers enter and override, nobody else writes."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.urls import reverse

from tournaments.models import AuditLog, Entrant, Result, Round, Table, Tournament

pytestmark = pytest.mark.django_db


def first_table(round_: Round) -> tuple[Table, list[int]]:
    table = round_.tables.filter(is_bye=False).order_by("number").first()
    assert table is not None
    return table, [s.entrant_id for s in table.seats.order_by("position")]


def other_table(round_: Round) -> tuple[Table, list[int]]:
    table = round_.tables.filter(is_bye=False).order_by("number").last()
    assert table is not None
    return table, [s.entrant_id for s in table.seats.order_by("position")]


def score_form(seated: list[int], scores: list[int], kind: str = "normal") -> dict[str, Any]:
    data: dict[str, Any] = {"action": "report", "kind": kind}
    for entrant_id, score in zip(seated, scores, strict=True):
        data[f"score_{entrant_id}"] = score
    return data


def test_player_reports_and_opponent_confirms(
    client: Client, tac_tournament: Tournament, published_round: Round, user_playing_for: Any
) -> None:
    table, seated = first_table(published_round)
    reporter = user_playing_for(tac_tournament.entrants.get(pk=seated[0]), "reporter")
    opponent = user_playing_for(tac_tournament.entrants.get(pk=seated[1]), "opponent")
    url = reverse("web:result-report", args=[tac_tournament.slug, table.pk])

    client.force_login(reporter)
    round_page = client.get(reverse("web:round-detail", args=[tac_tournament.slug, 1])).content.decode()
    assert round_page.count(url) == 1  # the report button is on the player's own table only
    tournament_page = client.get(
        reverse("web:tournament-detail", args=[tac_tournament.slug])
    ).content.decode()
    assert 'id="my-tables"' in tournament_page and url in tournament_page
    response = client.post(url, score_form(seated, [8, 5]))
    assert response.status_code == 302
    result = Result.objects.get(table=table)
    assert result.state == Result.State.REPORTED
    page = client.get(url).content.decode()
    assert "An opponent at this table confirms this result." in page
    assert 'value="confirm"' not in page  # the reporter cannot confirm their own report

    client.force_login(opponent)
    page = client.get(url).content.decode()
    assert 'value="confirm"' in page
    response = client.post(url, {"action": "confirm", "result": result.pk})
    assert response.status_code == 302
    assert Result.objects.get(pk=result.pk).state == Result.State.CONFIRMED
    actions = list(AuditLog.objects.filter(tournament=tac_tournament).values_list("action", flat=True))
    assert "result_reported" in actions and "result_confirmed" in actions


def test_conflicting_report_gets_a_clear_409(
    client: Client, tac_tournament: Tournament, published_round: Round, user_playing_for: Any
) -> None:
    table, seated = first_table(published_round)
    first = user_playing_for(tac_tournament.entrants.get(pk=seated[0]), "first")
    second = user_playing_for(tac_tournament.entrants.get(pk=seated[1]), "second")
    url = reverse("web:result-report", args=[tac_tournament.slug, table.pk])
    client.force_login(first)
    client.post(url, score_form(seated, [8, 5]))
    client.force_login(second)
    response = client.post(url, score_form(seated, [3, 8]))
    assert response.status_code == 409
    page = response.content.decode()
    assert "reported a different result first" in page
    assert 'value="confirm"' in page and 'value="reject"' in page
    assert Result.objects.filter(table=table).count() == 1
    # The same result reported by the opponent confirms it.
    response = client.post(url, score_form(seated, [8, 5]))
    assert response.status_code == 302
    assert Result.objects.get(table=table).state == Result.State.CONFIRMED
    # A report after the result is final: a clear message, still no 500.
    response = client.post(url, score_form(seated, [8, 1]))
    assert response.status_code == 409
    assert "already has a final result" in response.content.decode()


def test_player_of_another_table_and_strangers_cannot_report(
    client: Client, tac_tournament: Tournament, published_round: Round, stranger: Any, user_playing_for: Any
) -> None:
    table, seated = first_table(published_round)
    _other, other_seated = other_table(published_round)
    outsider = user_playing_for(tac_tournament.entrants.get(pk=other_seated[0]), "outsider")
    url = reverse("web:result-report", args=[tac_tournament.slug, table.pk])
    for user in (outsider, stranger):
        client.force_login(user)
        assert client.get(url).status_code == 403
        assert client.post(url, score_form(seated, [8, 2])).status_code == 403
        override = reverse("web:result-override", args=[tac_tournament.slug, table.pk])
        assert client.post(override, score_form(seated, [8, 2])).status_code == 403
    client.logout()
    response = client.post(url, score_form(seated, [8, 2]))
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    assert not Result.objects.filter(table=table).exists()


def test_private_link_reports_only_for_its_own_tables(
    client: Client, tac_tournament: Tournament, published_round: Round
) -> None:
    table, seated = first_table(published_round)
    other, _ = other_table(published_round)
    entrant = tac_tournament.entrants.get(pk=seated[0])
    home = client.get(reverse("web:token-home", args=[entrant.report_token]))
    assert home.status_code == 200
    link = reverse("web:token-report", args=[entrant.report_token, table.pk])
    assert link in home.content.decode()
    assert client.get(reverse("web:token-report", args=[entrant.report_token, other.pk])).status_code == 404
    response = client.post(link, score_form(seated, [4, 8]))
    assert response.status_code == 302
    result = Result.objects.get(table=table)
    assert result.reported_for_id == entrant.pk and result.state == Result.State.REPORTED
    # The opponent's link confirms.
    opponent = tac_tournament.entrants.get(pk=seated[1])
    opponent_link = reverse("web:token-report", args=[opponent.report_token, table.pk])
    assert client.post(opponent_link, {"action": "confirm", "result": result.pk}).status_code == 302
    assert Result.objects.get(pk=result.pk).state == Result.State.CONFIRMED


def test_bad_result_input_is_shown_not_500(
    client: Client, tac_tournament: Tournament, published_round: Round
) -> None:
    table, seated = first_table(published_round)
    entrant = tac_tournament.entrants.get(pk=seated[0])
    link = reverse("web:token-report", args=[entrant.report_token, table.pk])
    cases = [
        score_form(seated, [9, 3]),  # over the maximum
        score_form(seated, [5, 3]),  # nobody has 8 in a finished game
        score_form(seated, [8, 8]),  # two winners
        score_form(seated, [8, 3], kind="time_limit"),  # a winner at the time limit
        {"action": "report", "kind": "forfeit"},  # forfeit without who
        {"action": "report", "kind": "bye", f"score_{seated[0]}": "x"},
        {"action": "confirm", "result": "not-a-number"},
        {"action": "confirm", "result": "999999"},
    ]
    for data in cases:
        response = client.post(link, data)
        assert response.status_code in (400, 404, 422), data
    assert not Result.objects.filter(table=table).exists()
    response = client.post(link, score_form(seated, [5, 3]))
    assert "exactly one winner" in response.content.decode()


def test_organiser_enters_and_corrects_a_result(
    client: Client, tac_tournament: Tournament, published_round: Round, organiser: Any
) -> None:
    table, seated = first_table(published_round)
    client.force_login(organiser)
    url = reverse("web:result-override", args=[tac_tournament.slug, table.pk])
    assert client.get(url).status_code == 200
    assert client.post(url, score_form(seated, [8, 6])).status_code == 302
    page = client.get(url).content.decode()
    assert f'name="score_{seated[1]}" value="6"' in page  # the correction form starts from the final result
    assert client.post(url, score_form(seated, [6, 8])).status_code == 302
    states = sorted(Result.objects.filter(table=table).values_list("state", flat=True))
    assert states == ["overridden", "superseded"]
    final = Result.objects.get(table=table, state="overridden")
    assert {s.entrant_id: s.score for s in final.scores.all()} == {seated[0]: 6, seated[1]: 8}
    forfeit = {"action": "report", "kind": "forfeit", f"forfeited_{seated[1]}": "on"}
    assert client.post(url, forfeit).status_code == 302
    final = Result.objects.get(table=table, state="overridden")
    assert final.kind == "forfeit"
    page = client.get(reverse("web:tournament-detail", args=[tac_tournament.slug])).content.decode()
    assert "Forfeit" in page


def test_standings_show_every_tiebreak_value(
    client: Client,
    tac_tournament: Tournament,
    published_round: Round,
    organiser: Any,
    django_capture_on_commit_callbacks: Any,
) -> None:
    from tournaments.services.results import result_override

    with django_capture_on_commit_callbacks(execute=True):  # the standings task runs eagerly on commit
        for table in published_round.tables.filter(is_bye=False):
            first, second = [s.entrant_id for s in table.seats.order_by("position")]
            result_override(actor=organiser, table=table, scores={first: 8, second: 3})
    tac_tournament.refresh_from_db()
    page = client.get(reverse("web:standings", args=[tac_tournament.slug])).content.decode()
    import re

    titles = re.findall(r'<abbr title="([^"]+)"', page)
    assert titles == [
        "Games played",
        "Match points",
        "Marble difference",
        "Buchholz",
        "Sonneborn-Berger",
        "Head-to-head",
    ]
    assert page.count("<tr") == 1 + tac_tournament.entrants.count()
    # Round 1 by seed: 1 v 3 and 2 v 4, the first seat winning 8:3. Every row, every value: rank,
    # entrant, games, match points, marble difference (+-5), Buchholz (the opponent's points),
    # Sonneborn-Berger (nothing: no win against an opponent with points), head-to-head (the two
    # winners, and the two losers, are tied but never met: 0). Winners share rank 1, losers rank 3.
    names = dict(Entrant.objects.filter(tournament=tac_tournament).values_list("pk", "name"))
    won = {}
    for table in published_round.tables.filter(is_bye=False):
        first, second = [s.entrant_id for s in table.seats.order_by("position")]
        won.update({first: True, second: False})
    rows = [
        [re.sub(r"<[^>]+>", "", cell).strip() for cell in re.findall(r"<td[^>]*>(.*?)</td>", row, re.S)]
        for row in re.findall(r"<tr[^>]*>(.*?)</tr>", page, re.S)[1:]
    ]
    winner, loser = ["1", "1", "2", "5", "0", "0", "0"], ["3", "1", "0", "-5", "2", "0", "0"]
    expected = sorted(
        [(winner if won[pk] else loser)[:1] + [name] + (winner if won[pk] else loser)[1:]
         for pk, name in names.items()],
        key=lambda cells: (cells[0], cells[1]),
    )
    assert sorted(rows, key=lambda cells: (cells[0], cells[1])) == expected
    assert page.count('<tr class="shared">') == 4


def test_rejected_report_is_flagged_for_the_organiser(
    client: Client, tac_tournament: Tournament, published_round: Round, organiser: Any
) -> None:
    table, seated = first_table(published_round)
    reporter = tac_tournament.entrants.get(pk=seated[0])
    opponent = tac_tournament.entrants.get(pk=seated[1])
    client.post(
        reverse("web:token-report", args=[reporter.report_token, table.pk]), score_form(seated, [8, 0])
    )
    result = Result.objects.get(table=table)
    response = client.post(
        reverse("web:token-report", args=[opponent.report_token, table.pk]),
        {"action": "reject", "result": result.pk},
    )
    assert response.status_code == 302
    assert Result.objects.get(pk=result.pk).state == Result.State.REJECTED
    client.force_login(organiser)
    page = client.get(reverse("web:manage", args=[tac_tournament.slug])).content.decode()
    assert "Needs your attention" in page and "1 rejected report" in page
    assert reverse("web:result-override", args=[tac_tournament.slug, table.pk]) in page
