"""Fixtures for the sign-up tests: the organiser and another user of tests/tournaments."""

from tests.tournaments.conftest import organiser, other_user  # noqa: F401 (fixtures)
