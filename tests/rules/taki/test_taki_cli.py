"""The command line on TAKI records, and the engine's independence from Django."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
RECORDS = ROOT / "tests" / "rules" / "records" / "taki"


def _run(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "rules", *args],
        cwd=ROOT,
        input=stdin,
        capture_output=True,
        text=True,
        timeout=60,
    )


def test_taki_cli_validate_lines_and_exit_codes() -> None:
    good = RECORDS / "win.json"
    bad = RECORDS / "match_colour_bad.json"
    done = _run("validate", str(good), str(bad))
    assert done.returncode == 1
    lines = done.stdout.splitlines()
    assert lines[0] == f"{good}: valid complete taki winners=0"
    assert lines[1].startswith(f"{bad}: invalid /deals/0/turns/0/play/0 illegal_move: ")
    assert _run("validate", str(good)).returncode == 0


def test_taki_cli_random_then_validate(tmp_path: Path) -> None:
    done = _run("random", "taki", "--variant", '{"seats": 5, "tournament": true}', "--seed", "3", "--count", "2",
                "--out", str(tmp_path))  # fmt: skip
    assert done.returncode == 0, done.stderr
    files = sorted(tmp_path.glob("*.json"))
    assert len(files) == 2
    checked = _run("validate", "--json", *map(str, files))
    assert checked.returncode == 0, checked.stdout
    for line in checked.stdout.splitlines():
        verdict = json.loads(line)
        assert verdict["valid"] and verdict["complete"] and "phases" in verdict["result"]


def test_taki_cli_random_bad_variant() -> None:
    done = _run("random", "taki", "--variant", '{"seats": 12}')
    assert done.returncode == 2
    assert "seats" in done.stderr


def test_taki_engine_imports_no_django() -> None:
    code = (
        "import sys, rules.taki, rules.taki.randomplay, rules.taki.replay;"
        "bad = [m for m in sys.modules if m.split('.')[0] in ('django', 'tournaments', 'games')];"
        "print(bad); sys.exit(1 if bad else 0)"
    )
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stdout + done.stderr
