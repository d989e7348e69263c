"""Run the benchmarks and print one JSON object (also per module as it finishes, on stderr).

    python -m benchmarks            # all of them
    python -m benchmarks tac taki   # some of them
    python -m benchmarks room --tables 8 --duration 20   # one of them, with its options

Options (from the first argument starting with "-") go to the one named module's `configure(argv)`.

Each module in this package that defines ``run() -> dict`` is one benchmark. Pinned to one core
where the platform allows it, so figures compare across machines with more cores.
"""

from __future__ import annotations

import contextlib
import importlib
import json
import os
import pkgutil
import sys
import time
from typing import Any

import benchmarks


def _one_core() -> None:
    if hasattr(os, "sched_setaffinity"):
        with contextlib.suppress(OSError):
            os.sched_setaffinity(0, {sorted(os.sched_getaffinity(0))[0]})


def main(argv: list[str]) -> int:
    _one_core()
    first_option = next((i for i, arg in enumerate(argv) if arg.startswith("-")), len(argv))
    argv, options = argv[:first_option], argv[first_option:]
    names = [m.name for m in pkgutil.iter_modules(benchmarks.__path__) if not m.name.startswith("_")]
    if options:
        configure = getattr(importlib.import_module(f"benchmarks.{argv[0]}"), "configure", None) \
            if len(argv) == 1 and argv[0] in names else None
        if configure is None:
            print("options need exactly one benchmark that takes options (e.g. room)", file=sys.stderr)
            return 2
        configure(options)
    if argv:
        unknown = sorted(set(argv) - set(names))
        if unknown:
            print(f"unknown benchmark(s): {', '.join(unknown)}; known: {', '.join(sorted(names))}", file=sys.stderr)
            return 2
        names = [n for n in names if n in argv]
    figures: dict[str, Any] = {}
    for name in sorted(names):
        module = importlib.import_module(f"benchmarks.{name}")
        run = getattr(module, "run", None)
        if run is None:
            continue
        started = time.perf_counter()
        try:
            figures[name] = run()
        except Exception as exc:  # report and go on: one broken benchmark must not hide the others
            figures[name] = {"error": repr(exc)}
        figures[name]["wall_seconds"] = round(time.perf_counter() - started, 2)
        print(json.dumps({name: figures[name]}), file=sys.stderr, flush=True)
    print(json.dumps(figures, indent=2, sort_keys=True))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
