"""The test suite's own run time, this checkout against an earlier one, in the same run.

Runs pytest in each checkout with that checkout's own `.venv`, one after the other on a quiet
machine, and records the wall time, the time pytest reports and the counts:
- this checkout as `make test` runs it (`-n auto --dist loadgroup`: one worker per core), and
  with `--serial` also in one process (`-n 0`);
- with --baseline DIR (e.g. `git worktree add DIR e672b3b` with a venv made by its `make
  install`), that checkout's suite as its own `make test` ran it (plain `pytest`).

Target (issue 8): at least half the previous main's time on the same machine.
With --checkout DIR the suite timed as "now" is that checkout's (a clean worktree of HEAD with
its own venv, so that editing this tree during the run changes nothing).
Usage: python bench/suite_bench.py [--checkout DIR] [--baseline DIR] [--serial]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import re
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "bench" / "results" / "suite.json"
SUMMARY = re.compile(r"^(?:=+ )?(?P<counts>\d+ passed.*?) in (?P<seconds>[\d.]+)s")


def run_suite(checkout: Path, args: list[str]) -> dict:
    python = checkout / ".venv" / "bin" / "python"
    cmd = [str(python), "-m", "pytest", "-q", "-p", "no:cacheprovider", *args]
    env = {k: v for k, v in os.environ.items() if not k.startswith(("PREFECT_", "PYTEST_"))}
    print(f"running {' '.join(cmd)} in {checkout}", file=sys.stderr, flush=True)
    t0 = time.perf_counter()
    proc = subprocess.run(cmd, cwd=checkout, env=env, capture_output=True, text=True)
    wall = time.perf_counter() - t0
    found = SUMMARY.findall(proc.stdout.splitlines()[-1] if proc.stdout.strip() else "")
    if proc.returncode != 0 or not found:
        sys.exit(f"the suite failed in {checkout} (exit {proc.returncode}):\n{proc.stdout[-3000:]}{proc.stderr[-2000:]}")
    counts, seconds = found[-1]
    return {"command": " ".join(cmd), "cwd": str(checkout), "wall_s": round(wall, 1),
            "pytest_s": float(seconds), "counts": counts}


def commit_of(checkout: Path) -> str:
    return subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=checkout, capture_output=True,
                          text=True).stdout.strip()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--baseline", type=Path, help="a checkout of an earlier dragonforge with its own .venv")
    parser.add_argument("--checkout", type=Path, default=ROOT, help="the checkout to time as now (default: this one)")
    parser.add_argument("--serial", action="store_true", help="also time this suite in one process")
    args = parser.parse_args()

    runs: dict[str, dict] = {}
    if args.baseline:
        runs["baseline"] = {**run_suite(args.baseline.resolve(), []), "commit": commit_of(args.baseline)}
    now = args.checkout.resolve()
    runs["now"] = {**run_suite(now, ["-n", "auto", "--dist", "loadgroup"]), "commit": commit_of(now)}
    if args.serial:
        runs["now_serial"] = {**run_suite(now, ["-n", "0"]), "commit": commit_of(now)}
    result = {"date": time.strftime("%Y-%m-%d"), "machine": {"cpus": os.cpu_count(), "python": platform.python_version()},
              "runs": runs}
    if "baseline" in runs:
        result["ratio_baseline_over_now"] = round(runs["baseline"]["pytest_s"] / runs["now"]["pytest_s"], 2)
        result["meets_target"] = result["ratio_baseline_over_now"] >= 2.0
    RESULTS.write_text(json.dumps(result, indent=2) + "\n")
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
