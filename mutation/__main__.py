"""`make mutate`: mutation testing of the pure core with mutmut, one module at a time.

    python -m mutation                      # every module of mutation/targets.toml
    python -m mutation standings swiss      # some of them
    python -m mutation --sample 120 --seed 7 tac_state
    python -m mutation --report             # the kill rates of the last runs, no new run

For each module, a work directory .mutation/<name>/ holds links to the project and a setup.cfg
that tells mutmut to mutate that one file and to select tests from that module's list only.
mutmut copies the project to .mutation/<name>/mutants/, records which test reaches which function,
and runs every mutant (in a forked process, against the tests that reach the mutated function).
With a sample, the mutants are generated first and a seeded random sample of them is run.
Read the survivors with `mutmut show` in the module's work directory (see docs/testing.md).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import subprocess
import sys
import time
import tomllib
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# MUTATION_TARGETS: another targets file (e.g. to measure the tests of an older commit)
TARGETS = Path(os.environ.get("MUTATION_TARGETS") or Path(__file__).resolve().parent / "targets.toml")
WORK = ROOT / ".mutation"
MUTMUT = Path(sys.executable).parent / "mutmut"
# Linked into every work directory: what the tests import or read.
PROJECT_ENTRIES = ("config", "games", "rules", "tournaments", "templates", "locale", "static", "tests", "docs",
                   "benchmarks", "manage.py", "pyproject.toml")
SERVICE_VARIABLES = ("DATABASE_URL", "CELERY_BROKER_URL", "REDIS_URL", "REQUIRE_SERVICES", "CI")
KILLED = {"killed", "timeout", "segfault"}  # a timeout or a crash is a change the tests notice


@dataclass(frozen=True)
class Target:
    name: str
    path: str
    tests: tuple[str, ...]
    sample: int
    markers: str  # pytest -m expression choosing among the tests ("" = the suite's default)

    @property
    def module(self) -> str:
        return self.path.removesuffix(".py").replace("/", ".")

    @property
    def work(self) -> Path:
        return WORK / self.name

    @property
    def meta(self) -> Path:
        return self.work / "mutants" / (self.path + ".meta")


def load_targets() -> dict[str, Target]:
    data = tomllib.loads(TARGETS.read_text())
    default_sample = int(data.get("defaults", {}).get("sample", 0))
    return {
        name: Target(name, spec["path"], tuple(spec["tests"]), int(spec.get("sample", default_sample)),
                     spec.get("markers", ""))
        for name, spec in data["modules"].items()
    }


def prepare(target: Target) -> None:
    """A fresh work directory: links to the project and the module's mutmut settings."""
    missing = [test for test in target.tests if not (ROOT / test.split("::")[0]).exists()]
    if missing:
        raise SystemExit(f"{TARGETS}: [{target.name}] lists missing tests: {', '.join(missing)}")
    if target.work.exists():
        shutil.rmtree(target.work)
    target.work.mkdir(parents=True)
    for entry in PROJECT_ENTRIES:
        if (ROOT / entry).exists():
            (target.work / entry).symlink_to(ROOT / entry)
    package = target.path.split("/")[0]
    others = [entry for entry in PROJECT_ENTRIES if entry not in (package, "tests", "pyproject.toml")]
    lines = [
        "[mutmut]",
        f"source_paths = {package}",
        f"only_mutate = {target.path}",
        "also_copy =",
        *(f"    {entry}" for entry in others if (ROOT / entry).exists()),
        "pytest_add_cli_args_test_selection =",
        *(f"    {test}" for test in target.tests),
        *(["    -m", f"    not slow and ({target.markers})"] if target.markers else []),
        "use_git_change_detection = false",
        # a mutant that loops is killed after 3x (not mutmut's 15x) the tests' usual time
        "timeout_multiplier = 3",
        "use_setproctitle = false",
        "",
    ]
    (target.work / "setup.cfg").write_text("\n".join(lines))


def mutmut(target: Target, *args: str, generate_only: bool = False) -> None:
    env = {key: value for key, value in os.environ.items() if key not in SERVICE_VARIABLES}
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    command = [str(MUTMUT), *args]
    if not generate_only:
        completed = subprocess.run(command, cwd=target.work, env=env, check=False)
        if completed.returncode != 0:
            raise SystemExit(f"mutmut {' '.join(args)} failed for {target.name} (exit {completed.returncode})")
        return
    # mutmut has no "generate only" command: `run` with a name no mutant has generates the mutants,
    # records which test reaches which function, and then stops with "nothing matches".
    completed = subprocess.run(command, cwd=target.work, env=env, check=False, capture_output=True, text=True)
    if "nothing matches" not in completed.stderr or not target.meta.exists():
        sys.stderr.write(completed.stdout[-4000:] + completed.stderr[-4000:])
        raise SystemExit(f"mutmut could not generate the mutants of {target.name}")


def statuses(target: Target) -> dict[str, str]:
    """Mutant name -> mutmut status, from the module's meta file."""
    from mutmut.stats import status_by_exit_code

    if not target.meta.exists():
        return {}
    meta = json.loads(target.meta.read_text())
    return {name: status_by_exit_code[code] for name, code in meta["exit_code_by_key"].items()}


def run_target(target: Target, sample: int, seed: int) -> None:
    prepare(target)
    started = time.monotonic()
    if sample:
        # generate the mutants and the test map without running any mutant, then run a sample
        mutmut(target, "run", "--max-children", "1", f"{target.module}.x_no_such_function__mutmut_*",
               generate_only=True)
        names = sorted(statuses(target))
        chosen = sorted(random.Random(seed).sample(names, min(sample, len(names))))
        print(f"[{target.name}] {len(chosen)} of {len(names)} mutants (seed {seed})", flush=True)
        mutmut(target, "run", "--max-children", "1", *chosen)
        run = {"seed": seed, "mutants": chosen}
    else:
        mutmut(target, "run", "--max-children", "1")
        run = {"seed": None, "mutants": None}
    seconds = time.monotonic() - started
    (target.work / "sample.json").write_text(json.dumps({**run, "seconds": round(seconds)}))
    print(f"[{target.name}] done in {seconds:.0f} s", flush=True)


def report(targets: list[Target]) -> list[str]:
    """One line per module: the sample (seed, size of the sample of all mutants, or "all"), the counts,
    the kill rate and the run's wall time; then the survivors."""
    columns = f"{'seed':>6} {'sample':>9} {'killed':>6} {'survived':>8} {'kill rate':>9} {'time':>6}"
    lines = [f"{'module':<34} {columns}"]
    survivors: list[str] = []
    for target in targets:
        found = statuses(target)
        every = len(found)
        sample_file = target.work / "sample.json"
        run = json.loads(sample_file.read_text()) if sample_file.exists() else {}
        if run.get("mutants") is not None:
            chosen = set(run["mutants"])
            found = {name: status for name, status in found.items() if name in chosen}
        checked = {name: status for name, status in found.items() if status != "not checked"}
        if not checked:
            lines.append(f"{target.path:<34} {'not run':>6}")
            continue
        killed = sum(status in KILLED for status in checked.values())
        seed = "-" if run.get("seed") is None else str(run["seed"])
        sample = f"{len(checked)}/{every}" if len(checked) < every else f"all {every}"
        seconds = f"{run['seconds']} s" if "seconds" in run else "?"
        lines.append(
            f"{target.path:<34} {seed:>6} {sample:>9} {killed:>6} {len(checked) - killed:>8}"
            f" {100 * killed / len(checked):>8.1f}% {seconds:>6}"
        )
        survivors += [
            f"  {target.name}: {name} ({status})"
            for name, status in sorted(checked.items()) if status not in KILLED
        ]
    if survivors:
        lines += ["", "Survivors (read one: cd .mutation/<module> && ../../.venv/bin/mutmut show NAME):", *survivors]
    return lines


def main() -> None:
    targets = load_targets()
    parser = argparse.ArgumentParser(prog="python -m mutation", description=__doc__.split("\n")[0])
    parser.add_argument("modules", nargs="*", metavar="MODULE",
                        help=f"modules to run (default all): {', '.join(targets)}")
    parser.add_argument("--sample", type=int, default=None, help="mutants per module (0 = all; default: targets.toml)")
    parser.add_argument("--seed", type=int, default=None, help="seed of the sample (default: from the clock)")
    parser.add_argument("--report", action="store_true", help="print the kill rates of the last runs only")
    args = parser.parse_args()
    unknown = [name for name in args.modules if name not in targets]
    if unknown:
        parser.error(f"unknown module(s) {', '.join(unknown)}; known: {', '.join(targets)}")
    chosen = [targets[name] for name in args.modules] or list(targets.values())
    if not args.report:
        seed = args.seed if args.seed is not None else int(time.time()) % 100_000
        for target in chosen:  # one module at a time: the runs are CPU-bound
            run_target(target, target.sample if args.sample is None else args.sample, seed)
    print("\n".join(report(chosen)))


if __name__ == "__main__":
    main()
