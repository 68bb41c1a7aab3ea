"""Command latency: how long the small commands users run many times take, end to end.

Each command runs REPEATS times as a fresh process (the median is recorded):
- `build` of one document (law, en), and of one document per domain and language (6);
- `validate` of the default benchmark (48 documents, 480 queries);
- `evaluate --predictions` on 350 queries: RAGEval's own example file when --example is given,
  and 350 predictions of the BM25 baseline on a dragonforge benchmark;
- refusals that must come before any work: a `python:` system that does not import, an
  unreachable HTTP system, an unreachable LLM endpoint for `build`, a benchmark whose
  queries.jsonl is corrupt (each must exit 1 with one line and leave --out unwritten).

With --baseline DIR (a checkout of an earlier dragonforge, e.g. `git worktree add DIR REV`),
the same commands also run from that checkout in the same run, for ratios on this machine.

Targets on a 2-core machine: every command under 3 s; every refusal under 1 s.
Usage: python bench/cli_bench.py [--repeats 5] [--example RAGEval/rageval/evaluation/data/example_finance_en_gpt-4o.jsonl]
                                 [--baseline DIR [--baseline-repeats 3]]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
RESULTS = ROOT / "bench" / "results" / "cli.json"
COMMAND_TARGET_S, REFUSAL_TARGET_S = 3.0, 1.0


def timed(cmd: list[str], cwd: Path, expect: int = 0, clean: Path | None = None) -> float:
    if clean is not None:
        shutil.rmtree(clean, ignore_errors=True)
    t0 = time.perf_counter()
    proc = subprocess.run(cmd, capture_output=True, text=True, cwd=cwd)
    wall = time.perf_counter() - t0
    if proc.returncode != expect:
        sys.exit(f"{' '.join(cmd)} exited {proc.returncode}, expected {expect}:\n{proc.stderr[-2000:]}")
    if expect and (len(proc.stderr.strip().splitlines()) != 1 or "Traceback" in proc.stderr):
        sys.exit(f"{' '.join(cmd)}: not a one-line error:\n{proc.stderr}")
    if expect and clean is not None and clean.exists():
        sys.exit(f"{' '.join(cmd)}: wrote {clean} although it refused to run")
    return wall


def timed_in(cmd: list[str], checkout: Path, clean: Path) -> float:
    """Like :func:`timed`, running ``cmd`` with ``checkout`` first on the import path."""
    shutil.rmtree(clean, ignore_errors=True)
    env = {**os.environ, "PYTHONPATH": str(checkout), "PREFECT_HOME": str(clean.parent / "prefect-baseline")}
    t0 = time.perf_counter()
    proc = subprocess.run(cmd, capture_output=True, text=True, cwd=checkout, env=env)
    wall = time.perf_counter() - t0
    if proc.returncode != 0:
        sys.exit(f"baseline {' '.join(cmd)} failed:\n{proc.stderr[-2000:]}")
    return wall


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--example", type=Path, help="RAGEval's example predictions file (350 queries)")
    parser.add_argument("--baseline", type=Path, help="a checkout of an earlier dragonforge to time side by side")
    parser.add_argument("--baseline-repeats", type=int, default=3)
    args = parser.parse_args()
    df = str(Path(sys.executable).with_name("dragonforge"))

    with tempfile.TemporaryDirectory() as tmp_name:
        tmp = Path(tmp_name)
        bench = tmp / "bench"
        subprocess.run([df, "build", "--out", str(bench), "-q"], check=True, capture_output=True)
        evaluated = tmp / "eval-bm25"
        subprocess.run([df, "evaluate", str(bench), "--system", "bm25", "--out", str(evaluated), "-q"], check=True,
                       capture_output=True)
        ours_350 = tmp / "predictions-350.jsonl"
        ours_350.write_text("".join((evaluated / "predictions.jsonl").read_text().splitlines(True)[:350]))
        broken = tmp / "broken"
        shutil.copytree(bench, broken)
        with (broken / "queries.jsonl").open("a") as fh:
            fh.write('{"query": {"query_id": 99999, "content": "torn\n')
        (tmp / "broken_rag.py").write_text("import a_module_that_does_not_exist\n\ndef answer(q, lang):\n    return ''\n")
        out = tmp / "out"

        commands: dict[str, tuple[list[str], int]] = {
            "build, 1 document (law, en)": ([df, "build", "--out", str(out), "--docs", "1", "--domains", "law",
                                             "--languages", "en", "-q"], 0),
            "build, 1 document per domain and language (6)": ([df, "build", "--out", str(out), "--docs", "1", "-q"],
                                                               0),
            "validate, default benchmark (48 documents, 480 queries)": ([df, "validate", str(bench)], 0),
            "evaluate --predictions, 350 BM25 answers on a dragonforge benchmark":
                ([df, "evaluate", "--predictions", str(ours_350), "--out", str(out), "-q"], 0),
            "refused: python: system that does not import":
                ([df, "evaluate", str(bench), "--system", "python:broken_rag:answer", "--out", str(out)], 1),
            "refused: unreachable HTTP system":
                ([df, "evaluate", str(bench), "--system", "http://127.0.0.1:9/rag", "--out", str(out)], 1),
            "refused: unreachable LLM endpoint for build":
                ([df, "build", "--engine", "llm", "--base-url", "http://127.0.0.1:9/v1", "--model", "m",
                  "--out", str(out)], 1),
            "refused: corrupt queries.jsonl":
                ([df, "evaluate", str(broken), "--system", "bm25", "--out", str(out)], 1),
        }
        if args.example:
            commands["evaluate --predictions, RAGEval's example file (350 queries)"] = (
                [df, "evaluate", "--predictions", str(args.example.resolve()), "--out", str(out), "-q"], 0)
        results = {}
        for name, (cmd, expect) in commands.items():
            timed(cmd, tmp, expect, clean=out)  # warm the file cache
            walls = [timed(cmd, tmp, expect, clean=out) for _ in range(args.repeats)]
            target = REFUSAL_TARGET_S if expect else COMMAND_TARGET_S
            median = statistics.median(walls)
            results[name] = {"command": " ".join(Path(c).name if c == df else c for c in cmd).replace(tmp_name, "TMP"),
                             "median_s": round(median, 3), "runs_s": [round(w, 3) for w in walls],
                             "target_s": target, "meets_target": median < target}
            if args.baseline and not expect:
                # the earlier checkout's own code and resources: run from it, as a module
                old = [sys.executable, "-m", "dragonforge.cli", *cmd[1:]]
                env_cwd = args.baseline.resolve()
                before = [timed_in(old, env_cwd, clean=out) for _ in range(args.baseline_repeats)]
                results[name]["baseline_median_s"] = round(statistics.median(before), 3)
                results[name]["baseline_over_now"] = round(statistics.median(before) / median, 2)
            print(f"{name}: {median:.2f}s", file=sys.stderr)

    report = {
        "benchmark": "command latency, fresh process each run",
        "date": time.strftime("%Y-%m-%d"),
        "machine": {"cpus": os.cpu_count(), "python": platform.python_version(), "platform": platform.platform()},
        "repeats": args.repeats,
        "baseline": ({"checkout": str(args.baseline), "commit": subprocess.run(
            ["git", "-C", str(args.baseline), "rev-parse", "--short", "HEAD"], capture_output=True,
            text=True).stdout.strip(), "repeats": args.baseline_repeats} if args.baseline else None),
        "all_meet_targets": all(r["meets_target"] for r in results.values()),
        "commands": results,
    }
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    RESULTS.write_text(json.dumps(report, indent=2, ensure_ascii=False) + "\n")
    print(json.dumps(report, indent=2, ensure_ascii=False))


if __name__ == "__main__":
    main()
