"""A test's requests leave the active language as they found it, and the suite's guard fails a test
that leaves another language active (tests/conftest.py)."""

from __future__ import annotations

from typing import Any

import pytest
from django.test import Client
from django.utils import translation

from tests.conftest import language_guard


@pytest.mark.django_db
def test_a_german_request_leaves_the_test_in_its_own_language(tac_tournament: Any) -> None:
    before = translation.get_language()
    page = Client().get("/", HTTP_ACCEPT_LANGUAGE="de").content.decode()
    assert '<html lang="de">' in page
    assert translation.get_language() == before
    with translation.override("fr"):  # a request inside an override gives back the override
        Client().get("/", HTTP_ACCEPT_LANGUAGE="de")
        assert translation.get_language() == "fr"
    assert translation.get_language() == before


def test_the_guard_fails_a_test_that_leaves_another_language_active() -> None:
    before = translation.get_language()
    guard = language_guard()
    next(guard)
    translation.activate("de")
    with pytest.raises(pytest.fail.Exception, match="left the language 'de' active"):
        next(guard)
    assert translation.get_language() == before  # restored before failing
    quiet = language_guard()
    next(quiet)
    with translation.override("de"):
        pass
    with pytest.raises(StopIteration):
        next(quiet)
