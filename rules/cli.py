"""Command line: ``python -m rules validate FILE... [--json]`` and ``python -m rules random GAME``.

Exit codes of `validate`: 2 if any file is not readable JSON, else 1 if any record is invalid, else 0.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from rules.core.registry import GAMES, get_engine
from rules.core.replay import verify_bytes
from rules.core.verdict import Verdict


def _read(name: str) -> bytes | None:
    try:
        if name == "-":
            return sys.stdin.buffer.read()
        return Path(name).read_bytes()
    except OSError as exc:
        print(f"{name}: {exc.strerror or exc}", file=sys.stderr)
        return None


def validate(files: Sequence[str], *, as_json: bool) -> int:
    from rules.core.errors import ErrorCode, RecordError

    worst = 0
    for name in files:
        data = _read(name)
        if data is None:
            verdict = Verdict.invalid(name, None, RecordError(ErrorCode.UNREADABLE, "", "The file cannot be read."))
        else:
            verdict = verify_bytes(data, file=name)
        if as_json:
            print(json.dumps(verdict.to_json(), ensure_ascii=False))
        else:
            print(verdict.text_line())
        if verdict.unreadable:
            worst = 2
        elif not verdict.valid:
            worst = max(worst, 1)
    sys.stdout.flush()
    return worst


def random_games(game: str, *, variant: dict[str, Any], seed: int, count: int, out: str | None) -> int:
    engine = get_engine(game)
    rng = random.Random(seed)
    out_dir = Path(out) if out else None
    if out_dir is not None:
        out_dir.mkdir(parents=True, exist_ok=True)
    for i in range(count):
        record = engine.random_record(dict(variant), rng)
        text = json.dumps(record, ensure_ascii=False, separators=(",", ":"))
        if out_dir is not None:
            (out_dir / f"{game}-{seed}-{i:04d}.json").write_text(text + "\n", encoding="utf-8")
        else:
            print(text)
    return 0


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m rules", description="Check and generate game records.")
    sub = parser.add_subparsers(dest="command", required=True)
    p_val = sub.add_parser("validate", help="print one verdict per record file")
    p_val.add_argument("files", nargs="+", metavar="FILE", help="record files; - reads standard input")
    p_val.add_argument("--json", action="store_true", help="print verdicts as JSON Lines")
    p_rnd = sub.add_parser("random", help="play complete random legal games and print their records")
    p_rnd.add_argument("game", choices=sorted(GAMES))
    p_rnd.add_argument("--variant", default="{}", help="variant parameters as a JSON object")
    p_rnd.add_argument("--seed", type=int, default=0)
    p_rnd.add_argument("--count", type=int, default=1)
    p_rnd.add_argument("--out", default=None, metavar="DIR", help="write one file per record into DIR")
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    if args.command == "validate":
        return validate(args.files, as_json=args.json)
    try:
        variant = json.loads(args.variant)
    except json.JSONDecodeError as exc:
        print(f"--variant is not JSON: {exc.msg}", file=sys.stderr)
        return 2
    if not isinstance(variant, dict):
        print("--variant must be a JSON object", file=sys.stderr)
        return 2
    if args.count < 0:
        print("--count must not be negative", file=sys.stderr)
        return 2
    try:
        return random_games(args.game, variant=variant, seed=args.seed, count=args.count, out=args.out)
    except LookupError as exc:
        print(str(exc), file=sys.stderr)
        return 2
    except ValueError as exc:
        print(f"bad variant: {exc}", file=sys.stderr)
        return 2
