"""Every audit action written anywhere in the code base has a label on the organiser page, in every language."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.conf import settings
from django.utils import translation

from tournaments.views.organiser import AUDIT_LABELS

ROOT = Path(settings.BASE_DIR)
# `action="round_generated"` as passed to audit_record (or to a helper that passes it on).
ACTION = re.compile(r"""(?<![\w.])action\s*=\s*["']([a-z][a-z0-9_]*)["']""")
# argparse's `add_argument(..., action="store_true")` is not an audit action.
ARGPARSE_ACTIONS = {"store", "store_true", "store_false", "store_const", "append", "append_const", "count",
                    "extend", "help", "version"}


def audit_actions_in_code() -> set[str]:
    found: set[str] = set()
    for package in ("tournaments", "games"):
        for path in (ROOT / package).rglob("*.py"):
            if "migrations" in path.parts:
                continue
            found.update(ACTION.findall(path.read_text(encoding="utf-8")))
    return found - ARGPARSE_ACTIONS


def test_the_scan_finds_the_audit_actions() -> None:
    found = audit_actions_in_code()
    # Written directly, through _report, and from the games and rankings apps.
    assert {"tournament_created", "result_reported", "result_reported_from_record", "game_record_submitted",
            "game_records_imported", "rating_policy_update", "round_boards_assigned"} <= found
    assert "store_true" not in found


def test_every_audit_action_has_a_label() -> None:
    missing = sorted(audit_actions_in_code() - set(AUDIT_LABELS))
    assert missing == [], f"audit actions without a label in AUDIT_LABELS: {missing}"


def test_no_label_for_an_action_nobody_writes() -> None:
    assert sorted(set(AUDIT_LABELS) - audit_actions_in_code()) == []


@pytest.mark.parametrize("language", ["de", "fr"])
def test_audit_labels_are_translated(language: str) -> None:
    with translation.override("en"):
        english = {action: str(label) for action, label in AUDIT_LABELS.items()}
    with translation.override(language):
        untranslated = sorted(action for action, label in AUDIT_LABELS.items() if str(label) == english[action])
    assert untranslated == []
